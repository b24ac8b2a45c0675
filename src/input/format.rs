//! Puzzle file formats: reading the line, block, CSV and `.pls` forms, streaming, with errors
//! that name the source, the line and the reason. Grids of every shape are read (see
//! [`solvers::Shape`]); 9x9 stays the default and reads exactly as it always did.
//!
//! - **line**: one puzzle per line, optionally followed by whitespace and a name or comment
//!   (for another shape than 9x9, a first token with one character a cell after the puzzle is
//!   its stated solution, checked to solve it, and the name follows it).
//!   Blank lines and lines starting with `#` are skipped. A puzzle is either
//!   - one character a cell, N·N characters for a side N up to 35: `1`-`9`, then `A` = 10 …
//!     `Z` = 35 (lower case too; Gecode's convention), `.` `0` `_` `-` `*` an empty cell. 81
//!     characters are a classic 9x9 puzzle (digits only); 256 a 16x16 one, 625 a 25x25 one;
//!   - or N·N integers separated by spaces (`0` = empty), any side N up to [`MAX_SIDE`], read
//!     when the line's first token is a number of at most 3 digits.
//!
//!   The boxes are square when N is a square (4x4 boxes for 16x16). Any other side (6, 12, …)
//!   needs a shape line before its puzzles: a comment `# shape 12x12/3x4` (the form
//!   [`Shape`]'s `FromStr` reads; `# shape 10x10/latin` for a Latin square). It applies to the
//!   following puzzles of its size (N·N cells) until the next shape line; puzzles of another size
//!   are read as without it. `# shape` followed by one word is a shape line: one naming no valid
//!   shape (`# shape 12x12/3x3`: boxes that do not tile the grid; `# shape abc`) is an invalid
//!   entry of its own (followed by several words, it is a comment). Sides below 4 need a shape
//!   line too (2x2 and 3x3 Latin squares, say), and each error names the lines that would do.
//! - **block**: N lines of N cells separated by spaces (`0` = empty; `.`, `-` and the other
//!   blank marks, and for N up to 35 the one-character symbols, are accepted too), puzzles
//!   separated by a blank line: for 9x9 the form classic `-c N` / `-s FILE` generator/solver
//!   programs exchange (a 9x9 row may also be 9 characters with no spaces), and the form big
//!   puzzles are published in. The first row's cell count is N (with a shape line of that side,
//!   its shape; else square boxes √N x √N when N is a square): N lines of N integers are one
//!   puzzle of side N, read without a shape line whenever N is a square, up to [`MAX_SIDE`]. A
//!   line of 4 to 128 integers always starts a block; a longer line is a puzzle of side K on one
//!   line when it holds K² integers none above K, else a block's row too (a row of a 144x144 or
//!   400x400 block reaches above 12 or 20) ([`BLOCK_ROW_TOKENS`]; 81 integers none above 9 are
//!   a 9x9 puzzle).
//!
//! A grid of a side above [`MAX_SIDE`] (a block of N lines of N integers, a line of N·N) is one
//! error naming the limit, however many lines it spans; so is a block whose boxes are not implied
//! (naming the shape lines that would do), a short row (naming the cells it lacks) or a symbol
//! above N (naming its cell).
//! - **csv**: a header row naming a `puzzle` column (alias `quizzes`, `quiz`; alone, it makes a
//!   one-column CSV), optionally `solution` (alias `solutions`) and `name` (alias `id`) columns.
//!   A quoted field may hold line ends. A header of column names without a puzzle column is one
//!   error naming its columns, and the end of the reading. Fields hold a puzzle as the line form
//!   does (one character a cell, or integers separated by spaces).
//! - **pls**: Latin squares in the `.pls` form of the quasigroup-completion benchmarks: a line
//!   `order N`, then N rows of N symbols `0`..`N-1` separated by spaces, `-1` a hole. A file may
//!   hold several, each starting with its `order` line (a `# shape` line of side N before it
//!   gives it boxes). Detected by the `order` line or the `.pls` extension; [`render_pls`]
//!   writes it. Its errors name the row's line and its symbols as the file writes them
//!   (0-based).
//!
//! All forms accept CRLF line ends, a UTF-8 byte-order mark, tabs and trailing spaces. The format is
//! detected from the first line that is neither blank nor a `#` comment ([`detect`]).
//!
//! Every puzzle comes out as an [`Entry`] whose `puzzle` is either a checked [`Puzzle`] (givens
//! consistent: no symbol twice in a row, column or box) or an [`InputError`]; a bad puzzle never
//! stops the reading of the rest. Memory stays flat: entries are produced one at a time.

use solvers::{
    board_cell_name, cell_name, Board, BoardConflict, Conflict, Grid, GridParseError, Shape,
    ShapeError, Symbol, CELLS, MAX_SIDE,
};
use std::fmt;
use std::io::{self, BufRead, Cursor, Read};

/// A file format for puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// One puzzle per line: one character a cell, or integers separated by spaces.
    Line,
    /// N rows of N space-separated cells, blank line between puzzles.
    Block,
    /// CSV with a `puzzle` column.
    Csv,
    /// `.pls` Latin squares: `order N`, then N rows of 0-based symbols, `-1` a hole.
    Pls,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Line => "line",
            Format::Block => "block",
            Format::Csv => "csv",
            Format::Pls => "pls",
        })
    }
}

/// A puzzle whose givens are consistent, with the solution its file gives, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The puzzle: N·N cells of its shape, row-major, 0 = empty.
    pub board: Board,
    /// The solution stated by the file (CSV `solution` column), full and checked against the
    /// puzzle; the checker compares answers with it.
    pub solution: Option<Board>,
}

impl Puzzle {
    /// A classic puzzle from a 9x9 grid and its stated solution.
    pub fn classic(grid: Grid, solution: Option<Grid>) -> Puzzle {
        Puzzle {
            board: Board::from_grid(&grid),
            solution: solution.map(Board::from),
        }
    }

    /// Its shape.
    pub fn shape(&self) -> Shape {
        self.board.shape()
    }

    /// The 9x9 grid of a classic puzzle, `None` for any other shape.
    pub fn grid(&self) -> Option<Grid> {
        self.board.to_grid()
    }

    /// The 9x9 grid of a classic puzzle, or an error naming the shape, for commands that take
    /// 9x9 grids only.
    ///
    /// # Errors
    /// A sentence: "a 16x16 puzzle: COMMAND takes 9x9 grids only".
    pub fn require_grid(&self, what: &str) -> Result<Grid, String> {
        self.grid()
            .ok_or_else(|| format!("a {} puzzle: {what} takes 9x9 grids only", self.shape()))
    }

    /// The stated solution of a classic puzzle as a 9x9 grid.
    pub fn solution_grid(&self) -> Option<Grid> {
        self.solution.as_ref().and_then(Board::to_grid)
    }
}

/// One puzzle of a file, good or bad.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 1-based position among the file's puzzles (bad ones included).
    pub index: usize,
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// The name given in the file (line comment or CSV `name` column), if any.
    pub name: Option<String>,
    /// The puzzle, or why it could not be read.
    pub puzzle: Result<Puzzle, InputError>,
    /// The shape it was read as: the puzzle's, or for an entry that could not be read, the one
    /// its size and the `# shape` line in force gave, when they gave one (a writer answering
    /// it, such as `harness solve`, marks it at that size).
    pub shape: Option<Shape>,
}

impl Entry {
    /// The name to show: the file's name for it, or its 1-based index.
    pub fn label(&self) -> String {
        match &self.name {
            Some(n) => n.clone(),
            None => self.index.to_string(),
        }
    }
}

/// A puzzle that could not be read, with where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}: {reason}")]
pub struct InputError {
    /// The file path, or a dataset name for shipped sets, or `-` for stdin.
    pub source_name: String,
    /// 1-based line number.
    pub line: usize,
    /// Why the puzzle was rejected.
    pub reason: Reason,
}

/// Why a puzzle was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Reason {
    /// A one-character-a-cell puzzle whose length is no N·N for a side N of a shape (81 for
    /// 9x9, 256 for 16x16, 625 for 25x25).
    #[error("{found} characters, expected 81{hint}", hint = size_hint(*found))]
    WrongLength {
        /// Cells found.
        found: usize,
    },
    /// A character that is not a digit or a blank mark.
    #[error("bad character {ch:?} at column {column} ({cell}): expected 1-9 or one of . 0 _ - *")]
    BadCharacter {
        /// The character.
        ch: char,
        /// 1-based column in the line.
        column: usize,
        /// The cell it would fill.
        cell: String,
    },
    /// Two givens repeat a digit in a unit (9x9).
    #[error("{0}")]
    DuplicateGiven(Conflict),
    /// The line is not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// A block-form puzzle without N rows.
    #[error("block has {found} rows, expected {expected}")]
    BlockRows {
        /// Rows found before the blank line or end of file.
        found: usize,
        /// N, the side of the block's shape.
        expected: usize,
    },
    /// A block-form row without N cells, or with a bad one.
    #[error("block row {row}: {detail}")]
    BlockRow {
        /// 1-based row within the block.
        row: usize,
        /// What is wrong with it.
        detail: String,
    },
    /// A CSV record that could not be read.
    #[error("CSV: {0}")]
    Csv(String),
    /// The `solution` column is not a full grid.
    #[error("solution column: {0}")]
    BadSolution(String),
    /// A line longer than [`MAX_LINE_BYTES`] (not kept in memory).
    #[error("line of {bytes} bytes is too long (limit {MAX_LINE_BYTES}; a puzzle has 81 cells)")]
    LineTooLong {
        /// The line's length in bytes, without its line end.
        bytes: usize,
    },
    /// The grid could not be read for another reason.
    #[error("{0}")]
    BadGrid(String),
    /// A symbol above the grid's side N (`Z` = 35 in a 16x16 grid, `17` in integer form).
    #[error("symbol at {at}: {symbol} is above {side}")]
    SymbolTooLarge {
        /// The symbol as written, with its value when it is a letter: `Z = 35`, `17`.
        symbol: String,
        /// Where: `column 12 (r1c12)` in the one-character form, the cell otherwise.
        at: String,
        /// N.
        side: usize,
    },
    /// A cell that is neither a symbol nor a blank mark, in a grid other than 9x9.
    #[error("bad cell {found:?} at {at}: expected {expected}")]
    BadCell {
        /// The character or token found.
        found: String,
        /// Where: `column 3 (r1c3)` in the one-character form, the cell otherwise.
        at: String,
        /// What a cell may be there: `1-9, A-G or one of . 0 _ - *`.
        expected: String,
    },
    /// N·N characters for a side N above 35, which one character a cell cannot write.
    #[error(
        "{found} characters would be a {side}x{side} grid, but one character a cell reaches \
         {MAX_CHAR_SIDE}x{MAX_CHAR_SIDE}; use integers separated by spaces"
    )]
    CharsTooWide {
        /// Characters found.
        found: usize,
        /// The side they would make.
        side: usize,
    },
    /// A side N that is not a square (or below 4) and no `# shape` line for it: the boxes are
    /// not implied.
    #[error(
        "{} a {side}x{side} grid, whose boxes are not implied: put a shape line such as {} \
         before it",
        match found { 1 => "1 cell makes".to_string(), n => format!("{n} cells make") },
        shape_lines(*side)
    )]
    NeedsShape {
        /// Cells found.
        found: usize,
        /// N.
        side: usize,
    },
    /// A grid of a side above [`MAX_SIDE`], the largest the harness reads (one error for the
    /// whole puzzle, however many lines it spans).
    #[error(
        "a {side}x{side} grid: its side is above {MAX_SIDE}, the largest side the harness reads"
    )]
    SideTooLarge {
        /// N.
        side: usize,
    },
    /// A line of integers whose count is no N·N for a side N from 4 to [`MAX_SIDE`].
    #[error(
        "{found} integers: a puzzle on one line has N·N cells for a side N (256 for 16x16; \
         4 to {MAX_SIDE}, or any side after a `# shape` line)"
    )]
    IntegerCount {
        /// Integers found.
        found: usize,
    },
    /// A `# shape` line naming no valid shape (boxes that do not tile the grid, a side out of
    /// range, text that is no shape).
    #[error("shape line {text:?}: {error}")]
    ShapeLine {
        /// The shape as written.
        text: String,
        /// Why it is no shape.
        error: ShapeError,
    },
    /// Two givens repeat a symbol in a unit (grids other than 9x9).
    #[error("{0}")]
    DuplicateSymbol(BoardConflict),
    /// A `.pls` square without its `order N` line, or with a bad one.
    #[error("pls: {0}")]
    PlsOrder(String),
    /// A `.pls` row without N symbols, or with a bad one.
    #[error("pls row {row}: {detail}")]
    PlsRow {
        /// 1-based row within the square.
        row: usize,
        /// What is wrong with it.
        detail: String,
    },
    /// Two givens of a `.pls` square repeat a symbol in a unit; the symbol as the file writes
    /// it (0-based), the second cell's line named.
    #[error("pls: symbol {symbol} given twice in {unit} ({first} and {second}, line {line})")]
    PlsDuplicate {
        /// The symbol, 0-based.
        symbol: Symbol,
        /// The unit: `row 3`, `column 2`.
        unit: String,
        /// The first cell holding it.
        first: String,
        /// The second.
        second: String,
        /// The line of the second cell.
        line: usize,
    },
    /// A `.pls` square without N rows.
    #[error("pls square has {found} rows, expected {expected}")]
    PlsRows {
        /// Rows found before the next `order` line or the end of file.
        found: usize,
        /// N.
        expected: usize,
    },
}

/// A word on lengths that are not a damaged 9x9 line (more than 9 away from 81).
/// The entry numbered `index` starting at `line` of `source`: the puzzle, or why it could not
/// be read (`shape`: the shape it was being read as, if known).
fn entry(
    source: &str,
    index: usize,
    line: usize,
    name: Option<String>,
    puzzle: Result<Puzzle, Reason>,
    shape: Option<Shape>,
) -> Entry {
    Entry {
        index,
        line,
        name,
        shape: puzzle.as_ref().map(Puzzle::shape).ok().or(shape),
        puzzle: puzzle.map_err(|reason| InputError {
            source_name: source.to_string(),
            line,
            reason,
        }),
    }
}

/// The shape a puzzle written as `text` (the line form, or a CSV field) is read as under the
/// shape line `header`, when its size gives one.
fn text_shape(text: &str, header: Option<Shape>) -> Option<Shape> {
    let text = text.trim();
    let (found, cells) = match text.contains(char::is_whitespace) {
        true => (text.split_whitespace().count(), Cells::Integers),
        false => (text.chars().count(), Cells::Chars),
    };
    shape_of(found, header, cells).ok()
}

/// Shape lines for a side N whose boxes are not implied: boxes of R x C cells (the most
/// square factors of N: `# shape 6x6/2x3`) when N has factors, and the Latin square.
fn shape_lines(side: usize) -> String {
    if side <= 1 {
        return format!("`# shape {side}x{side}`");
    }
    let latin = format!("`# shape {side}x{side}/latin`");
    match (2..side).rev().find(|r| side % r == 0 && r * r <= side) {
        Some(r) => format!("`# shape {side}x{side}/{r}x{}` or {latin}", side / r),
        None => format!("{latin} ({side} is prime: its only boxes would be whole rows)"),
    }
}

fn size_hint(found: usize) -> &'static str {
    if found.abs_diff(CELLS) <= 9 || found < 10 {
        ""
    } else {
        " for 9x9, or N·N for another side N (256 for 16x16, 625 for 25x25), and it is not a square"
    }
}

fn from_grid_error(e: GridParseError, column_offset: usize) -> Reason {
    match e {
        GridParseError::WrongLength { found } => Reason::WrongLength { found },
        GridParseError::BadCharacter { ch, column, cell } => Reason::BadCharacter {
            ch,
            column: column + column_offset,
            cell,
        },
        _ => Reason::BadGrid(e.to_string()),
    }
}

fn too_long(raw: &RawLine) -> Reason {
    Reason::LineTooLong {
        bytes: raw.too_long.unwrap_or(0),
    }
}

/// Checks the givens (no digit twice in a unit) and wraps the grid.
fn checked(grid: Grid, solution: Option<Grid>) -> Result<Puzzle, Reason> {
    match grid.first_conflict() {
        Some(c) => Err(Reason::DuplicateGiven(c)),
        None => Ok(Puzzle::classic(grid, solution)),
    }
}

/// Checks the givens of a board of any shape (no symbol twice in a unit) and wraps it; a classic
/// board is checked as a 9x9 grid, with the same messages.
fn checked_board(board: Board, solution: Option<Board>) -> Result<Puzzle, Reason> {
    if let Some(g) = board.to_grid() {
        return checked(g, solution.as_ref().and_then(Board::to_grid));
    }
    match board.first_conflict() {
        Some(c) => Err(Reason::DuplicateSymbol(c)),
        None => Ok(Puzzle { board, solution }),
    }
}

/// The smallest side read without a `# shape` line (4x4, 2x2 boxes).
pub const MIN_INFERRED_SIDE: usize = 4;

/// The side N when `cells` is N·N.
fn exact_side(cells: usize) -> Option<usize> {
    let r = (cells as f64).sqrt().round() as usize;
    (r * r == cells).then_some(r)
}

/// How a puzzle's cells are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cells {
    /// One character a cell.
    Chars,
    /// Integers separated by whitespace.
    Integers,
}

/// The shape of a puzzle of `found` cells: the shape line's when it has that many cells, else
/// square boxes for a side N (N·N = `found`) that is a square of at least
/// [`MIN_INFERRED_SIDE`].
fn shape_of(found: usize, header: Option<Shape>, cells: Cells) -> Result<Shape, Reason> {
    let wrong = || match cells {
        Cells::Chars => Reason::WrongLength { found },
        Cells::Integers => Reason::IntegerCount { found },
    };
    let side = exact_side(found).filter(|&n| n > 0).ok_or_else(wrong)?;
    if cells == Cells::Chars && side > MAX_CHAR_SIDE {
        return Err(Reason::CharsTooWide { found, side });
    }
    if let Some(h) = header.filter(|h| h.cells() == found) {
        return Ok(h);
    }
    if side > MAX_SIDE {
        return Err(Reason::SideTooLarge { side });
    }
    Shape::square_for_side(side)
        .filter(|_| side >= MIN_INFERRED_SIDE)
        .ok_or(Reason::NeedsShape { found, side })
}

/// The value of one-character cell `ch`: `1`-`9`, `A`/`a` = 10 … `Z`/`z` = 35, a blank mark 0.
fn char_value(ch: char) -> Option<Symbol> {
    match ch {
        '1'..='9' => Some(Symbol::from(ch as u8 - b'0')),
        'A'..='Z' => Some(Symbol::from(ch as u8 - b'A' + 10)),
        'a'..='z' => Some(Symbol::from(ch as u8 - b'a' + 10)),
        '0' | '.' | '_' | '-' | '*' => Some(0),
        _ => None,
    }
}

/// What a one-character cell of side `side` may be, for messages.
fn chars_expected(side: usize) -> String {
    match side {
        0..=9 => format!("1-{side} or one of . 0 _ - *"),
        10 => "1-9, A or one of . 0 _ - *".into(),
        _ => format!(
            "1-9, A-{} or one of . 0 _ - *",
            symbol_char(side as Symbol).unwrap_or('Z')
        ),
    }
}

/// The cell value of integer (or blank-mark, or for sides up to 35 one-character) token `t` in
/// a grid of side `side`, or the reason naming `at`.
fn token_value(t: &str, side: usize, at: impl Fn() -> String) -> Result<Symbol, Reason> {
    let bad = || Reason::BadCell {
        found: t.chars().take(24).collect(),
        at: at(),
        expected: format!("an integer 0-{side} (0 = empty) or one of . _ - *"),
    };
    if let Some(digits) = t
        .strip_prefix('+')
        .or(Some(t))
        .filter(|d| !d.is_empty() && d.len() <= 12 && d.bytes().all(|b| b.is_ascii_digit()))
    {
        let v: u64 = digits.parse().map_err(|_| bad())?;
        if v as usize > side || v > u64::from(Symbol::MAX) {
            return Err(Reason::SymbolTooLarge {
                symbol: t.to_string(),
                at: at(),
                side,
            });
        }
        return Ok(v as Symbol);
    }
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c @ ('.' | '_' | '-' | '*')), None) => char_value(c).ok_or_else(bad),
        (Some(c), None) if side <= MAX_CHAR_SIDE && c.is_ascii_alphabetic() => {
            let v = char_value(c).ok_or_else(bad)?;
            if v as usize > side {
                return Err(Reason::SymbolTooLarge {
                    symbol: format!("{c} = {v}"),
                    at: at(),
                    side,
                });
            }
            Ok(v)
        }
        _ => Err(bad()),
    }
}

/// A board of `shape` from its one-character cells `text` (`column_offset` characters into the
/// line, for messages).
fn char_board(text: &str, shape: Shape, column_offset: usize) -> Result<Board, Reason> {
    let side = shape.side();
    let mut cells = Vec::with_capacity(shape.cells());
    for (i, ch) in text.chars().enumerate() {
        let at = || {
            format!(
                "column {} ({})",
                i + 1 + column_offset,
                board_cell_name(shape, i)
            )
        };
        let v = char_value(ch).ok_or_else(|| Reason::BadCell {
            found: ch.to_string(),
            at: at(),
            expected: chars_expected(side),
        })?;
        if v as usize > side {
            return Err(Reason::SymbolTooLarge {
                symbol: format!("{ch} = {v}"),
                at: at(),
                side,
            });
        }
        cells.push(v);
    }
    Board::new(shape, cells).map_err(|e| Reason::BadGrid(e.to_string()))
}

/// A board of `shape` from its integer tokens.
fn token_board(tokens: &[&str], shape: Shape) -> Result<Board, Reason> {
    let mut cells = Vec::with_capacity(shape.cells());
    for (i, t) in tokens.iter().enumerate() {
        cells.push(token_value(t, shape.side(), || board_cell_name(shape, i))?);
    }
    Board::new(shape, cells).map_err(|e| Reason::BadGrid(e.to_string()))
}

/// True for a token that starts the integer form of a line: a number of at most 3 digits.
fn is_small_integer(t: &str) -> bool {
    !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit())
}

/// Reads one puzzle written as the line form writes it (without its name): one character a
/// cell, or integers separated by whitespace. `header` is the shape line in force.
fn parse_puzzle_text(
    text: &str,
    header: Option<Shape>,
    column_offset: usize,
) -> Result<Board, Reason> {
    let text = text.trim();
    if text.contains(char::is_whitespace) {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let shape = shape_of(tokens.len(), header, Cells::Integers)?;
        return token_board(&tokens, shape);
    }
    let n = text.chars().count();
    match header.filter(|h| h.cells() == n && !h.is_classic()) {
        None if n == CELLS => Grid::parse_line(text)
            .map(|g| Board::from_grid(&g))
            .map_err(|e| from_grid_error(e, column_offset)),
        header => char_board(text, shape_of(n, header, Cells::Chars)?, column_offset),
    }
}

/// Reads a puzzle (givens checked) as [`parse_puzzle_text`] does.
fn read_puzzle_text(
    text: &str,
    header: Option<Shape>,
    column_offset: usize,
) -> Result<Puzzle, Reason> {
    // 9x9 fast path: exactly the classic reader and its messages.
    let classic = header.map_or(true, Shape::is_classic);
    if classic && text.len() == CELLS && !text.bytes().any(|b| b.is_ascii_whitespace()) {
        return Grid::parse_line(text)
            .map_err(|e| from_grid_error(e, column_offset))
            .and_then(|g| checked(g, None));
    }
    parse_puzzle_text(text, header, column_offset).and_then(|b| checked_board(b, None))
}

/// Reads one puzzle as the line form writes it, without a name: one character a cell, or
/// integers separated by whitespace; the givens are checked. `shape` acts as a `# shape` line
/// before it: the puzzle is read as that shape when it has its N·N cells, else as the shape its
/// size implies (81 characters: 9x9, 256: 16x16, ...).
///
/// # Errors
/// The [`Reason`] a line of a file holding `text` would get.
pub fn read_puzzle(text: &str, shape: Option<Shape>) -> Result<Puzzle, Reason> {
    read_puzzle_text(text, shape, 0)
}

/// Reads a `# shape 12x12/3x4` line (`#`, then `shape`, then one word: the shape; a colon
/// after `shape` is allowed): `None` for any other line (`# shape` followed by several words is
/// a comment).
fn shape_header(text: &str) -> Option<Result<Shape, Reason>> {
    let rest = text.trim_start().strip_prefix('#')?.trim_start();
    let word = rest.get(..5)?;
    if !word.eq_ignore_ascii_case("shape") {
        return None;
    }
    let value = rest[5..].strip_prefix(':').unwrap_or(&rest[5..]);
    if !value.starts_with(char::is_whitespace) && !rest[5..].starts_with(':') {
        return None;
    }
    let value = value.trim();
    // `# shape` and one word is a shape line, good or bad; more words are a comment.
    if value.is_empty() || value.contains(char::is_whitespace) {
        return None;
    }
    if value.chars().count() > 40 {
        let shown: String = value.chars().take(40).collect();
        return Some(Err(Reason::ShapeLine {
            text: format!("{shown}..."),
            error: ShapeError::Syntax(format!("{shown}...")),
        }));
    }
    Some(value.parse::<Shape>().map_err(|error| Reason::ShapeLine {
        text: value.to_string(),
        error,
    }))
}

/// Detects the format from the first line that is neither blank nor a `#` comment.
///
/// CSV when the line's fields name a `puzzle` (or `quizzes`, `quiz`) column, alone or among
/// others, or when it reads as a CSV header (two or more fields, each a column name: a letter
/// first); pls when it is an `order N` line; block when the line holds one row of cells: 9
/// single-character tokens or 9 characters (9x9), or N integers (or blank marks, or `x`, the
/// mark of an entry `solve` could not answer) for N from 4 up (see [`BLOCK_ROW_TOKENS`] for the
/// lines that are a whole puzzle instead); line otherwise.
pub fn detect(first_line: &str) -> Format {
    detect_with(first_line, None)
}

/// Lines of this many integers (or blank marks) are the first row of a block, never a puzzle
/// on one line, except 81 integers none above 9 (a 9x9 puzzle on one line). A longer line of
/// K² integers none above K is a puzzle of side K on one line; any other long line is a block's
/// row (blocks go up to [`MAX_SIDE`], beyond this range).
pub const BLOCK_ROW_TOKENS: std::ops::RangeInclusive<usize> = 4..=128;

/// True when `tokens`, a line of cells, are a whole puzzle on one line rather than the first
/// row of a block (see [`BLOCK_ROW_TOKENS`]).
fn one_line_puzzle(tokens: &[&str]) -> bool {
    let n = tokens.len();
    let Some(k) = exact_side(n) else {
        return false;
    };
    if n < CELLS || (n != CELLS && BLOCK_ROW_TOKENS.contains(&n)) {
        return false;
    }
    tokens.iter().all(|t| match t.parse::<usize>() {
        Ok(v) => v <= k,
        Err(_) => *t != "x",
    })
}

/// [`detect`], knowing the side of the shape line in force (a shape's, or one above
/// [`MAX_SIDE`]): a first line of exactly N·N cells of it is the line form, a line of N cells a
/// block's first row.
fn detect_with(first_line: &str, header_side: Option<usize>) -> Format {
    let t = first_line.trim();
    if pls_order(t).is_some() {
        return Format::Pls;
    }
    let fields = csv_fields(t).unwrap_or_default();
    let names_puzzle = fields.iter().any(|f| {
        PUZZLE_COLUMN.contains(
            &f.trim_start_matches('\u{feff}')
                .to_ascii_lowercase()
                .as_str(),
        )
    });
    let column_name = |f: &String| {
        f.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && f.chars().all(|c| c.is_alphanumeric() || " _-.".contains(c))
    };
    if names_puzzle || (fields.len() > 1 && fields.iter().all(column_name)) {
        return Format::Csv;
    }
    let tokens: Vec<&str> = t.split_whitespace().collect();
    let n = tokens.len();
    let chars = match tokens.as_slice() {
        [one] => one.chars().count(),
        _ => 0,
    };
    // A whole puzzle of the shape line's side on this line: integers, or one token of one
    // character a cell.
    if header_side.is_some_and(|side| side * side == n || (n == 1 && side * side == chars)) {
        return Format::Line;
    }
    let nine_tokens = n == 9 && tokens.iter().all(|s| s.chars().count() == 1);
    // 9 characters, or a row of one character a cell of the shape line's side.
    let nine_chars = n == 1 && (chars == 9 || (chars > 1 && header_side == Some(chars)));
    let cells = tokens
        .iter()
        .all(|s| is_small_integer(s) || matches!(*s, "." | "_" | "-" | "*" | "x"));
    let row_of_integers = cells
        && match header_side {
            // A row of the shape line's side (2x2 and 3x3 grids too).
            Some(side) if side == n && n > 1 => true,
            _ => n >= MIN_INFERRED_SIDE && !one_line_puzzle(&tokens),
        };
    if nine_tokens || nine_chars || row_of_integers {
        Format::Block
    } else {
        Format::Line
    }
}

/// N of a `.pls` `order N` line (`order` in any case, then N).
fn pls_order(line: &str) -> Option<Result<usize, String>> {
    let t = line.trim();
    let word = t.get(..5)?;
    if !word.eq_ignore_ascii_case("order") || !t[5..].starts_with(char::is_whitespace) {
        return None;
    }
    let n = t[5..].trim();
    Some(match n.parse::<usize>() {
        Ok(n) if (1..=MAX_SIDE).contains(&n) => Ok(n),
        _ => Err(format!(
            "order {:?} is not a side from 1 to {MAX_SIDE}",
            n.chars().take(24).collect::<String>()
        )),
    })
}

/// The longest line kept, in bytes. A longer line is reported as [`Reason::LineTooLong`] with its
/// length, and only its first `MAX_LINE_BYTES` are held, so memory stays flat on any input (a
/// file with no line end at all, say).
pub const MAX_LINE_BYTES: usize = 128 * 1024;

/// A text line with its 1-based number, after stripping the BOM (first line), the line end and
/// trailing whitespace. `None` text means the bytes were not UTF-8.
struct RawLine {
    number: usize,
    text: Option<String>,
    /// The line's length in bytes when it is longer than [`MAX_LINE_BYTES`].
    too_long: Option<usize>,
}

/// Reads one line into `buf` (without its end), keeping at most [`MAX_LINE_BYTES`]. A line ends
/// at LF, CRLF or a lone CR (old Mac files), so a CR-only file is not read as one long line.
/// Returns the line's full length in bytes, or `None` at the end of input.
fn read_line<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<usize>> {
    fn keep(buf: &mut Vec<u8>, bytes: &[u8], total: &mut usize) {
        *total += bytes.len();
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }
    fn fill<R: BufRead>(reader: &mut R) -> io::Result<&[u8]> {
        loop {
            match reader.fill_buf() {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
                Ok(_) => break,
            }
        }
        reader.fill_buf()
    }
    buf.clear();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let avail = fill(reader)?;
        if avail.is_empty() {
            return Ok(any.then_some(total));
        }
        any = true;
        match avail.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                let cr = avail[i] == b'\r';
                keep(buf, &avail[..i], &mut total);
                reader.consume(i + 1);
                if cr && fill(reader)?.first() == Some(&b'\n') {
                    reader.consume(1);
                }
                return Ok(Some(total));
            }
            None => {
                let n = avail.len();
                keep(buf, avail, &mut total);
                reader.consume(n);
            }
        }
    }
}

/// The lines of a reader, numbered from 1; `pending` holds lines already read (by the format
/// detection, or by a reader that met the start of the next entry), handed out first.
struct Lines<R> {
    reader: R,
    number: usize,
    buf: Vec<u8>,
    pending: std::collections::VecDeque<RawLine>,
    /// The shape of the last good `# shape` line read, if any.
    shape: Option<Shape>,
    /// The side of the last `# shape` line read when it is above [`MAX_SIDE`]: not an error of
    /// its own, its puzzles are (each one error naming the limit).
    over_limit: Option<usize>,
    /// `# shape` lines naming no shape, not yet reported: (line, why).
    bad_headers: std::collections::VecDeque<(usize, Reason)>,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            number: 0,
            buf: Vec::new(),
            pending: std::collections::VecDeque::new(),
            shape: None,
            over_limit: None,
            bad_headers: std::collections::VecDeque::new(),
        }
    }

    /// The side of the `# shape` line in force: its shape's, or one above [`MAX_SIDE`].
    fn header_side(&self) -> Option<usize> {
        self.shape.map(Shape::side).or(self.over_limit)
    }

    /// Follows `# shape` lines: a good one sets the shape in force, a bad one is kept to be
    /// reported as an invalid entry.
    fn note_header(&mut self, raw: &RawLine) {
        let Some(text) = raw.text.as_deref() else {
            return;
        };
        if !text.trim_start().starts_with('#') {
            return;
        }
        match shape_header(text) {
            None => {}
            Some(Ok(shape)) => (self.shape, self.over_limit) = (Some(shape), None),
            Some(Err(Reason::ShapeLine {
                error: ShapeError::Side { side },
                ..
            })) if side > MAX_SIDE => (self.shape, self.over_limit) = (None, Some(side)),
            Some(Err(reason)) => self.bad_headers.push_back((raw.number, reason)),
        }
    }

    fn read(&mut self) -> io::Result<Option<RawLine>> {
        let Some(total) = read_line(&mut self.reader, &mut self.buf)? else {
            return Ok(None);
        };
        self.number += 1;
        let mut bytes: &[u8] = &self.buf;
        if self.number == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        let too_long = (total > MAX_LINE_BYTES).then_some(total);
        let text = if too_long.is_some() {
            // Cut part-way, maybe inside a character: no text, the length says it all.
            Some(String::new())
        } else {
            std::str::from_utf8(bytes)
                .ok()
                .map(|s| s.trim_end().to_string())
        };
        let raw = RawLine {
            number: self.number,
            text,
            too_long,
        };
        self.note_header(&raw);
        Ok(Some(raw))
    }

    /// The next `# shape` line naming no shape, as an entry numbered after `index`.
    fn bad_header(&mut self, source: &str, index: &mut usize) -> Option<Entry> {
        let (line, reason) = self.bad_headers.pop_front()?;
        *index += 1;
        Some(entry(source, *index, line, None, Err(reason), None))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<RawLine>;
    fn next(&mut self) -> Option<Self::Item> {
        if let Some(p) = self.pending.pop_front() {
            return Some(Ok(p));
        }
        self.read().transpose()
    }
}

/// A block's title line, as files in the block form often have before each grid (`Grid 01`,
/// `Puzzle 7:`): its first word is letters only (two or more, a colon may follow), and it is
/// neither a CSV header nor a `.pls` `order` line. Only the block form reads titles (as the
/// puzzles' names).
fn is_title(line: &RawLine) -> bool {
    let Some(t) = line.text.as_deref().map(str::trim) else {
        return false;
    };
    let Some(word) = t.split_whitespace().next() else {
        return false;
    };
    let word = word.strip_suffix(':').unwrap_or(word);
    word.len() >= 2
        && word.chars().all(|c| c.is_ascii_alphabetic())
        && line.too_long.is_none()
        && pls_order(t).is_none()
        && detect_with(t, None) != Format::Csv
}

fn skippable(line: &RawLine) -> bool {
    if line.too_long.is_some() {
        return false;
    }
    match &line.text {
        Some(t) => {
            let t = t.trim_start();
            t.is_empty() || t.starts_with('#')
        }
        None => false,
    }
}

/// A streaming reader of puzzles in any supported format; an iterator of [`Entry`].
///
/// Reading errors (the device failing, not bad puzzles) end the iteration and are kept in
/// [`PuzzleReader::io_error`].
pub struct PuzzleReader {
    format: Format,
    empty: bool,
    inner: std::iter::Peekable<Box<dyn Iterator<Item = io::Result<Entry>> + Send>>,
    io_error: Option<io::Error>,
}

impl PuzzleReader {
    /// Starts reading `reader`, detecting the format from its first meaningful line. `source`
    /// names the input in errors (a path, a dataset name or `-`).
    ///
    /// # Errors
    /// Only I/O errors while peeking at the first lines.
    pub fn new<R: Read + Send + 'static>(reader: R, source: &str) -> io::Result<PuzzleReader> {
        Self::with_format(reader, source, None)
    }

    /// As [`PuzzleReader::new`], with the format forced instead of detected when `format` is set.
    ///
    /// # Errors
    /// Only I/O errors while peeking at the first lines.
    pub fn with_format<R: Read + Send + 'static>(
        reader: R,
        source: &str,
        format: Option<Format>,
    ) -> io::Result<PuzzleReader> {
        // Peek: read lines until the first meaningful one (skipped lines are dropped: every
        // format skips them anyway) and hand that one to the format's reader.
        let mut lines = Lines::new(io::BufReader::new(reader));
        // A title line (`Grid 01`) is kept, and the format read from the first line after it.
        let mut first = None;
        loop {
            match lines.read()? {
                None => break,
                Some(raw) if skippable(&raw) => continue,
                Some(raw) => {
                    let title = is_title(&raw);
                    lines.pending.push_back(raw);
                    if !title || lines.pending.len() > 1 {
                        first = lines.pending.back().and_then(|r| r.text.clone());
                        break;
                    }
                }
            }
        }
        let empty = lines.pending.is_empty();
        let pls_file = source.to_ascii_lowercase().ends_with(".pls");
        let format = format.unwrap_or_else(|| match pls_file {
            true => Format::Pls,
            false => detect_with(first.as_deref().unwrap_or(""), lines.header_side()),
        });
        let source = source.to_string();
        let inner: Box<dyn Iterator<Item = io::Result<Entry>> + Send> = match format {
            Format::Line => Box::new(LineEntries {
                lines,
                source,
                index: 0,
            }),
            Format::Block => Box::new(BlockEntries {
                lines,
                source,
                index: 0,
            }),
            Format::Csv => Box::new(CsvEntries {
                lines,
                source,
                columns: None,
                index: 0,
                done: false,
            }),
            Format::Pls => Box::new(PlsEntries {
                lines,
                source,
                index: 0,
            }),
        };
        Ok(PuzzleReader {
            format,
            empty,
            inner: inner.peekable(),
            io_error: None,
        })
    }

    /// Reads a whole string (a shipped dataset, or a test's input).
    pub fn from_text(text: &str, source: &str) -> PuzzleReader {
        Self::new(Cursor::new(text.as_bytes().to_vec()), source)
            .expect("reading from memory cannot fail")
    }

    /// The detected (or forced) format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// True when no entry follows: the input holds no line but blank and comment ones, or, a
    /// CSV file, only its header. Reads the first entry ahead when it must (it is not lost).
    pub fn is_empty(&mut self) -> bool {
        self.empty || self.inner.peek().is_none()
    }

    /// The I/O error that ended the iteration early, if any.
    pub fn io_error(&mut self) -> Option<io::Error> {
        self.io_error.take()
    }
}

impl Iterator for PuzzleReader {
    type Item = Entry;
    fn next(&mut self) -> Option<Entry> {
        match self.inner.next()? {
            Ok(e) => Some(e),
            Err(e) => {
                self.io_error = Some(e);
                None
            }
        }
    }
}

struct LineEntries<R> {
    lines: Lines<R>,
    source: String,
    index: usize,
}

impl<R: BufRead> Iterator for LineEntries<R> {
    type Item = io::Result<Entry>;
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(e) = self.lines.bad_header(&self.source, &mut self.index) {
                return Some(Ok(e));
            }
            let raw = match self.lines.next()? {
                Ok(r) => r,
                Err(e) => return Some(Err(e)),
            };
            if skippable(&raw) {
                continue;
            }
            self.index += 1;
            let (name, puzzle, shape) = match raw.text {
                _ if raw.too_long.is_some() => (None, Err(too_long(&raw)), None),
                None => (None, Err(Reason::NotUtf8), None),
                Some(text) => {
                    let lead = text.len() - text.trim_start().len();
                    let body = text.trim_start();
                    let (token, rest) = split_puzzle(body);
                    let column_offset = text[..lead].chars().count();
                    let puzzle = read_puzzle_text(token, self.lines.shape, column_offset);
                    let shape = text_shape(token, self.lines.shape);
                    let (puzzle, rest) = stated_solution(puzzle, rest, self.lines.shape);
                    let name = (!rest.is_empty()).then(|| rest.to_string());
                    (name, puzzle, shape)
                }
            };
            return Some(Ok(entry(
                &self.source,
                self.index,
                raw.number,
                name,
                puzzle,
                shape,
            )));
        }
    }
}

/// The line form's optional stated solution of a puzzle of another shape than 9x9: when the
/// first token after the puzzle has one character for each of its cells, it is read as the
/// puzzle's solution (full, and checked to solve it), and the rest of the line is the name. A
/// 9x9 line keeps reading everything after the puzzle as its name.
fn stated_solution(
    puzzle: Result<Puzzle, Reason>,
    rest: &str,
    header: Option<Shape>,
) -> (Result<Puzzle, Reason>, &str) {
    let Ok(mut p) = puzzle else {
        return (puzzle, rest);
    };
    if p.shape().is_classic() {
        return (Ok(p), rest);
    }
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let (token, after) = (&rest[..end], rest[end..].trim());
    if token.chars().count() != p.shape().cells() {
        return (Ok(p), rest);
    }
    let header = header.or(Some(p.shape()));
    let solution = match read_puzzle_text(token, header, 0) {
        Ok(s) if s.shape() == p.shape() && s.board.is_full() => s.board,
        Ok(_) => return (Err(Reason::BadSolution("it has empty cells".into())), after),
        Err(e) => return (Err(Reason::BadSolution(e.to_string())), after),
    };
    if let Err(w) = crate::verify::check_board(&p.board, &solution, None) {
        let why = format!("it is not a solution of the puzzle: {w}");
        return (Err(Reason::BadSolution(why)), after);
    }
    p.solution = Some(solution);
    (Ok(p), after)
}

/// Splits a line (leading whitespace removed) into its puzzle and its name: the first token, or
/// when that is a number of at most 3 digits, the run of integer (or blank-mark) tokens.
fn split_puzzle(body: &str) -> (&str, &str) {
    let first_end = body.find(char::is_whitespace).unwrap_or(body.len());
    if !is_small_integer(&body[..first_end]) {
        return (&body[..first_end], body[first_end..].trim());
    }
    let mut end = first_end;
    let mut rest = &body[first_end..];
    loop {
        let t = rest.trim_start();
        let skipped = rest.len() - t.len();
        let len = t.find(char::is_whitespace).unwrap_or(t.len());
        let token = &t[..len];
        let cell =
            token.bytes().all(|b| b.is_ascii_digit()) || matches!(token, "." | "_" | "-" | "*");
        if token.is_empty() || !cell {
            break;
        }
        end += skipped + len;
        rest = &t[len..];
    }
    (&body[..end], body[end..].trim())
}

struct BlockEntries<R> {
    lines: Lines<R>,
    source: String,
    index: usize,
}

/// Parses row `row` (0-based) of a 9x9 block: 9 cells, separated by whitespace or not.
fn block_row(text: &str, r: usize) -> Result<[u8; 9], String> {
    let cells: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() != 9 {
        return Err(format!("{} cells, expected 9", cells.len()));
    }
    let mut row = [0u8; 9];
    for (k, &ch) in cells.iter().enumerate() {
        row[k] = match ch {
            '1'..='9' => ch as u8 - b'0',
            '0' | '.' | '_' | '-' | '*' => 0,
            _ => {
                return Err(format!(
                    "bad character {ch:?} in cell {} (r{}c{})",
                    k + 1,
                    r + 1,
                    k + 1
                ))
            }
        };
    }
    Ok(row)
}

/// The cells of a row of a block: whitespace-separated tokens, or for one token of N characters
/// (N up to 35) one character a cell.
fn row_cells(text: &str) -> usize {
    let tokens = text.split_whitespace().count();
    match tokens {
        1 => text.trim().chars().count(),
        n => n,
    }
}

/// The shape of a block from its first row: the shape line's when the row has its N cells,
/// else square boxes for a square N from 4 to [`MAX_SIDE`], else 9x9 (a row of 9 cells, or one
/// of 7 to 11 cells, or one token of any other length: read as a damaged 9x9 row). `Err` holds
/// the side of a row whose block cannot be read and why: no boxes implied (a side below 4, or
/// one far from 9 that is no square), or a side above [`MAX_SIDE`]; the block's N rows are then
/// read and reported as one invalid entry.
fn block_shape(
    first: &str,
    header: Option<Shape>,
    over_limit: Option<usize>,
) -> Result<Shape, (usize, Reason)> {
    let n = row_cells(first);
    if let Some(h) = header.filter(|h| h.side() == n) {
        return Ok(h);
    }
    let integers = first.split_whitespace().nth(1).is_some();
    if integers && (n > MAX_SIDE || over_limit == Some(n)) {
        return Err((n, Reason::SideTooLarge { side: n }));
    }
    match Shape::square_for_side(n) {
        Some(s) if (MIN_INFERRED_SIDE..=MAX_SIDE).contains(&n) => Ok(s),
        // A row of 9 cells, or a damaged one: read as 9x9, each bad row reported as it always
        // was; a side far from 9 that is no square is said to need a shape line.
        _ if (7..=11).contains(&n) || (!integers && n > MAX_SIDE) => Ok(Shape::CLASSIC),
        _ => Err((
            n,
            Reason::NeedsShape {
                found: n * n,
                side: n,
            },
        )),
    }
}

/// `found` cells in row `row` (0-based) of a block of `shape`, whose side is not `found`: the
/// count and the cells it leaves out or adds.
fn row_length(found: usize, shape: Shape, row: usize) -> String {
    let n = shape.side();
    let cell = |k: usize| format!("r{}c{}", row + 1, k + 1);
    let which = match found.cmp(&n) {
        std::cmp::Ordering::Less if found + 1 == n => format!("{} is missing", cell(found)),
        std::cmp::Ordering::Less => format!("{} to {} are missing", cell(found), cell(n - 1)),
        _ => format!(
            "{} past {}",
            crate::plumbing::human::plural(found - n, "cell"),
            cell(n - 1)
        ),
    };
    format!("{found} cells, expected {n} ({which})")
}

/// Parses row `row` (0-based) of a block of `shape` (not the classic 9x9: see [`block_row`]).
fn shaped_row(text: &str, shape: Shape, row: usize) -> Result<Vec<Symbol>, String> {
    let n = shape.side();
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let cell = |k: usize| board_cell_name(shape, row * n + k);
    if tokens.len() == 1 && n > 1 && n <= MAX_CHAR_SIDE {
        let chars: Vec<char> = tokens[0].chars().collect();
        if chars.len() != n {
            return Err(row_length(chars.len(), shape, row));
        }
        let mut out = Vec::with_capacity(n);
        for (k, &ch) in chars.iter().enumerate() {
            let v = char_value(ch).ok_or_else(|| {
                format!(
                    "bad character {ch:?} in cell {} ({}): expected {}",
                    k + 1,
                    cell(k),
                    chars_expected(n)
                )
            })?;
            if v as usize > n {
                return Err(format!("symbol at {}: {ch} = {v} is above {n}", cell(k)));
            }
            out.push(v);
        }
        return Ok(out);
    }
    if tokens.len() != n {
        return Err(row_length(tokens.len(), shape, row));
    }
    tokens
        .iter()
        .enumerate()
        .map(|(k, t)| token_value(t, n, || cell(k)).map_err(|r| r.to_string()))
        .collect()
}

impl<R: BufRead> Iterator for BlockEntries<R> {
    type Item = io::Result<Entry>;
    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.lines.bad_header(&self.source, &mut self.index) {
            return Some(Ok(e));
        }
        // Skip to the first row of the next block, keeping its title.
        let mut title = None;
        let first = loop {
            match self.lines.next()? {
                Err(e) => return Some(Err(e)),
                Ok(raw) if skippable(&raw) => {
                    if let Some(e) = self.lines.bad_header(&self.source, &mut self.index) {
                        return Some(Ok(e));
                    }
                }
                Ok(raw) if is_title(&raw) => title = raw.text.map(|t| t.trim().to_string()),
                Ok(raw) => break raw,
            }
        };
        self.index += 1;
        let start = first.number;
        let mut block = Block::new(&first, self.lines.shape, self.lines.over_limit);
        let mut current = Some(first);
        while let Some(raw) = current.take() {
            if !block.take(&raw) || block.rows == block.side {
                break;
            }
            current = match self.lines.next() {
                None => None,
                Some(Err(e)) => return Some(Err(e)),
                // The next block's title ends this one (short of rows).
                Some(Ok(r)) if is_title(&r) => {
                    self.lines.pending.push_front(r);
                    None
                }
                Some(Ok(r)) => Some(r),
            };
        }
        let shape = block.shape;
        // A row's fault is reported on its own line; a block short of rows, on its first.
        let at = block.error_line.unwrap_or(start);
        let puzzle = block.puzzle();
        let mut e = entry(&self.source, self.index, start, title, puzzle, shape);
        if let Err(err) = &mut e.puzzle {
            err.line = at;
        }
        Some(Ok(e))
    }
}

/// A block being read: its shape (or why its first row gives none), its cells, the rows read so
/// far and the first error met.
struct Block {
    /// The shape, or why the first row gives none (its rows are still read, as one entry).
    shape: Option<Shape>,
    /// The rows (and cells a row) expected.
    side: usize,
    /// The cells read so far, row-major, 0 = empty (none kept for a block of no shape).
    cells: Vec<Symbol>,
    /// Rows read so far, bad ones included.
    rows: usize,
    /// The first error met, and the file line it was met on.
    error: Option<Reason>,
    error_line: Option<usize>,
}

impl Block {
    /// An empty block of the shape its first row `first` shows, under the file's `# shape` line
    /// (`header`, or the side `over_limit` of one above [`MAX_SIDE`]).
    fn new(first: &RawLine, header: Option<Shape>, over_limit: Option<usize>) -> Block {
        let shape = match (&first.text, first.too_long) {
            (Some(t), None) => block_shape(t, header, over_limit),
            _ => Ok(Shape::CLASSIC),
        };
        let (shape, side, error) = match shape {
            Ok(s) => (Some(s), s.side(), None),
            Err((n, why)) => (None, n, Some(why)),
        };
        Block {
            shape,
            side,
            cells: shape.map_or_else(Vec::new, |s| vec![0; s.cells()]),
            rows: 0,
            error_line: error.as_ref().map(|_| first.number),
            error,
        }
    }

    /// Takes one line of the block (a row, or a comment); false at a blank line, which ends it.
    fn take(&mut self, raw: &RawLine) -> bool {
        match &raw.text {
            _ if raw.too_long.is_some() => self.bad_row(raw.number, too_long(raw)),
            None => self.bad_row(raw.number, Reason::NotUtf8),
            Some(t) if t.trim().is_empty() => return false,
            Some(t) if t.trim_start().starts_with('#') => {}
            Some(t) => {
                if let (true, None, Some(shape)) = (self.rows < self.side, &self.error, self.shape)
                {
                    let row = match shape.is_classic() {
                        true => block_row(t, self.rows)
                            .map(|r| r.iter().map(|&v| Symbol::from(v)).collect()),
                        false => shaped_row(t, shape, self.rows),
                    };
                    let (side, rows) = (self.side, self.rows);
                    match row {
                        Ok(row) => {
                            self.cells[rows * side..rows * side + side].copy_from_slice(&row)
                        }
                        Err(detail) => self.fault(raw.number, rows, detail),
                    }
                }
                self.rows += 1;
            }
        }
        true
    }

    /// Counts a row that could not be read (line `number`, for `reason`), keeping the first error.
    fn bad_row(&mut self, number: usize, reason: Reason) {
        self.fault(number, self.rows, reason.to_string());
        self.rows += 1;
    }

    /// Keeps the first error: row `row` (0-based) of the block, on file line `number`, is wrong
    /// for `detail`.
    fn fault(&mut self, number: usize, row: usize, detail: String) {
        if self.error.is_none() {
            self.error = Some(Reason::BlockRow {
                row: row + 1,
                detail,
            });
            self.error_line = Some(number);
        }
    }

    /// The puzzle the block holds, or why it could not be read.
    fn puzzle(self) -> Result<Puzzle, Reason> {
        match (self.error, self.shape) {
            (Some(e), _) => Err(e),
            (None, _) if self.rows != self.side => Err(Reason::BlockRows {
                found: self.rows,
                expected: self.side,
            }),
            (None, Some(s)) => Board::new(s, self.cells)
                .map_err(|e| Reason::BadGrid(e.to_string()))
                .and_then(|b| checked_board(b, None)),
            (None, None) => Err(Reason::BadGrid("a block of no shape".into())),
        }
    }
}

struct CsvEntries<R> {
    lines: Lines<R>,
    source: String,
    /// Column indices of puzzle, solution and name, once the header is read.
    columns: Option<(usize, Option<usize>, Option<usize>)>,
    index: usize,
    /// Set once nothing more can be read (a header naming no puzzle column).
    done: bool,
}

/// Splits one CSV record (which may span lines inside quoted fields) into fields, trimmed, as
/// the csv crate reads RFC 4180.
fn csv_fields(record: &str) -> Result<Vec<String>, String> {
    // Fast path: without quotes a CSV record is its comma-separated fields.
    if !record.contains('"') {
        return Ok(record.split(',').map(|f| f.trim().to_string()).collect());
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .buffer_capacity(256)
        .from_reader(record.as_bytes());
    let mut fields = csv::StringRecord::new();
    match reader.read_record(&mut fields) {
        Ok(_) => Ok(fields.iter().map(str::to_string).collect()),
        Err(e) => Err(e.to_string()),
    }
}

/// Whether a quoted field is still open at the end of `line`, which starts inside one when
/// `open`. Quotes are read as the csv crate reads them: `"` opens a quoted field only as the
/// field's first character, and `""` inside one is a quote.
fn quote_open_after(line: &str, mut open: bool) -> bool {
    let mut field_start = !open;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if open {
            if c == '"' && chars.next_if_eq(&'"').is_none() {
                open = false;
            }
        } else if c == '"' && field_start {
            open = true;
        } else {
            field_start = c == ',';
            continue;
        }
        field_start = false;
    }
    open
}

/// What the first CSV record is.
enum CsvHead {
    /// A header; the columns of puzzle, solution and name.
    Columns((usize, Option<usize>, Option<usize>)),
    /// No header: the first field is a puzzle, read from column 1.
    Data,
    /// A header naming no puzzle column; its fields.
    NoPuzzle(Vec<String>),
}

/// The names a header may give each column.
const PUZZLE_COLUMN: [&str; 3] = ["puzzle", "quizzes", "quiz"];

fn csv_head(record: &str) -> CsvHead {
    let fields = csv_fields(record).unwrap_or_else(|_| vec![record.to_string()]);
    let find = |names: &[&str]| {
        fields.iter().position(|h| {
            names.contains(
                &h.trim_start_matches('\u{feff}')
                    .to_ascii_lowercase()
                    .as_str(),
            )
        })
    };
    match find(&PUZZLE_COLUMN) {
        Some(puzzle) => CsvHead::Columns((
            puzzle,
            find(&["solution", "solutions"]),
            find(&["name", "id"]),
        )),
        None if fields[0].chars().count() == CELLS => CsvHead::Data,
        None => CsvHead::NoPuzzle(fields),
    }
}

/// The column names of a header, for a message: at most 8, each at most 24 characters.
fn column_list(fields: &[String]) -> String {
    let short = |f: &String| match f.char_indices().nth(24) {
        Some((at, _)) => format!("{}...", &f[..at]),
        None => f.clone(),
    };
    let mut list: Vec<String> = fields.iter().take(8).map(short).collect();
    if fields.len() > 8 {
        list.push(format!("and {} more", fields.len() - 8));
    }
    list.join(", ")
}

fn csv_puzzle(
    fields: &[String],
    p: usize,
    s: Option<usize>,
    header: Option<Shape>,
) -> Result<Puzzle, Reason> {
    let get = |i: usize| fields.get(i).map(String::as_str).unwrap_or("");
    let text = get(p);
    let classic = header.map_or(true, Shape::is_classic);
    // 9x9 fast path: the classic reader itself, as before shapes were read.
    let grid = if classic && text.len() == CELLS && !text.bytes().any(|b| b.is_ascii_whitespace()) {
        Grid::parse_line(text).map_err(|e| from_grid_error(e, 0))?
    } else {
        let board = parse_puzzle_text(text, header, 0)?;
        match board.to_grid() {
            Some(g) => g,
            None => return shaped_csv_puzzle(board, s.map(get)),
        }
    };
    let solution = match s.map(get) {
        None | Some("") => None,
        Some(text) => {
            let g = Grid::parse_line(text).map_err(|e| Reason::BadSolution(e.to_string()))?;
            if let Some(i) = g.cells().iter().position(|&v| v == 0) {
                return Err(Reason::BadSolution(format!("{} is empty", cell_name(i))));
            }
            // A stated solution that is no solution of these givens is the dataset's error, not
            // a solver's: the row is flagged invalid instead of every correct answer wrong.
            if let Err(w) = crate::verify::check(grid.cells(), g.cells(), None) {
                return Err(Reason::BadSolution(format!(
                    "it is not a solution of the puzzle: {w}"
                )));
            }
            Some(g)
        }
    };
    checked(grid, solution)
}

/// A CSV puzzle of a shape other than 9x9, with its stated solution (read in the puzzle's shape,
/// checked with [`crate::verify::check_board`]).
fn shaped_csv_puzzle(board: Board, solution: Option<&str>) -> Result<Puzzle, Reason> {
    let solution = match solution.map(str::trim) {
        None | Some("") => None,
        Some(text) => {
            let sol = parse_puzzle_text(text, Some(board.shape()), 0)
                .map_err(|e| Reason::BadSolution(e.to_string()))?;
            if sol.shape() != board.shape() {
                return Err(Reason::BadSolution(format!(
                    "a {} grid, the puzzle is {}",
                    sol.shape(),
                    board.shape()
                )));
            }
            if let Some(i) = sol.cells().iter().position(|&v| v == 0) {
                return Err(Reason::BadSolution(format!(
                    "{} is empty",
                    board_cell_name(sol.shape(), i)
                )));
            }
            if let Err(w) = crate::verify::check_board(&board, &sol, None) {
                return Err(Reason::BadSolution(format!(
                    "it is not a solution of the puzzle: {w}"
                )));
            }
            Some(sol)
        }
    };
    checked_board(board, solution)
}

/// The text of a line, or why it has none.
fn line_text(raw: &RawLine) -> Result<String, Reason> {
    if raw.too_long.is_some() {
        return Err(too_long(raw));
    }
    raw.text.clone().ok_or(Reason::NotUtf8)
}

/// A CSV record: the number of its first line, and its text or why it could not be read.
type CsvRecord = (usize, Result<String, Reason>);

impl<R: BufRead> CsvEntries<R> {
    /// The next record: the next line that is not skipped, joined with the lines after it while
    /// a quoted field is open (a quoted field may hold line ends), at most [`MAX_LINE_BYTES`].
    fn record(&mut self) -> Option<io::Result<CsvRecord>> {
        let first = loop {
            match self.lines.next()? {
                Err(e) => return Some(Err(e)),
                Ok(raw) if skippable(&raw) => continue,
                Ok(raw) => break raw,
            }
        };
        let line = first.number;
        let mut text = match line_text(&first) {
            Ok(t) => t,
            Err(reason) => return Some(Ok((line, Err(reason)))),
        };
        let unclosed =
            |what: String| Reason::Csv(format!("the quoted field opened on line {line} {what}"));
        let mut open = quote_open_after(&text, false);
        while open {
            let raw = match self.lines.next() {
                None => return Some(Ok((line, Err(unclosed("is not closed".into()))))),
                Some(Err(e)) => return Some(Err(e)),
                Some(Ok(raw)) => raw,
            };
            let part = match line_text(&raw) {
                Ok(t) => t,
                Err(reason) => return Some(Ok((line, Err(reason)))),
            };
            open = quote_open_after(&part, true);
            text.push('\n');
            text.push_str(&part);
            if text.len() > MAX_LINE_BYTES {
                let what = format!(
                    "is not closed within {MAX_LINE_BYTES} bytes (line {})",
                    raw.number
                );
                return Some(Ok((line, Err(unclosed(what)))));
            }
        }
        Some(Ok((line, Ok(text))))
    }

    /// The next entry, starting at `line`.
    fn entry(
        &mut self,
        line: usize,
        name: Option<String>,
        puzzle: Result<Puzzle, Reason>,
        shape: Option<Shape>,
    ) -> Entry {
        self.index += 1;
        entry(&self.source, self.index, line, name, puzzle, shape)
    }
}

impl<R: BufRead> Iterator for CsvEntries<R> {
    type Item = io::Result<Entry>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
            if let Some(e) = self.lines.bad_header(&self.source, &mut self.index) {
                return Some(Ok(e));
            }
            let (line, text) = match self.record()? {
                Ok(r) => r,
                Err(e) => return Some(Err(e)),
            };
            if self.columns.is_none() {
                self.columns = Some((0, None, None));
                match text.as_deref().map(csv_head) {
                    Ok(CsvHead::Columns(c)) => {
                        self.columns = Some(c);
                        continue;
                    }
                    Ok(CsvHead::Data) | Err(_) => {}
                    Ok(CsvHead::NoPuzzle(fields)) => {
                        self.done = true;
                        let reason = Reason::Csv(format!(
                            "the header names no puzzle column ({}); its columns are: {}",
                            PUZZLE_COLUMN.join(", "),
                            column_list(&fields)
                        ));
                        return Some(Ok(self.entry(line, None, Err(reason), None)));
                    }
                }
            }
            let (p, s, n) = self.columns.expect("set above");
            let fields = text.and_then(|t| csv_fields(&t).map_err(Reason::Csv));
            let shape = match &fields {
                Ok(f) => f.get(p).and_then(|t| text_shape(t, self.lines.shape)),
                Err(_) => None,
            };
            let (name, puzzle) = match fields {
                Err(reason) => (None, Err(reason)),
                Ok(fields) => {
                    // A name may hold line ends (a quoted field); it is shown on one line.
                    let name = n
                        .and_then(|i| fields.get(i))
                        .filter(|s| !s.is_empty())
                        .map(|s| match s.contains('\n') {
                            true => s.split_whitespace().collect::<Vec<_>>().join(" "),
                            false => s.clone(),
                        });
                    (name, csv_puzzle(&fields, p, s, self.lines.shape))
                }
            };
            return Some(Ok(self.entry(line, name, puzzle, shape)));
        }
    }
}

struct PlsEntries<R> {
    lines: Lines<R>,
    source: String,
    index: usize,
}

/// Parses row `row` (0-based) of a `.pls` square of side `n`: N symbols `0`..`N-1`, `-1` a
/// hole; the cell values `1..=N`, 0 for a hole.
fn pls_row(text: &str, n: usize, row: usize) -> Result<Vec<Symbol>, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() != n {
        return Err(format!("{} symbols, expected {n}", tokens.len()));
    }
    let shape = Shape::latin(n).map_err(|e| e.to_string())?;
    tokens
        .iter()
        .enumerate()
        .map(|(k, t)| match t.parse::<i64>() {
            Ok(-1) => Ok(0),
            Ok(v) if (0..n as i64).contains(&v) => Ok(v as Symbol + 1),
            Ok(v) => Err(format!(
                "symbol {v} at {} is not -1 (a hole) or 0 to {}",
                board_cell_name(shape, row * n + k),
                n - 1
            )),
            Err(_) => Err(format!(
                "bad symbol {:?} at {}: expected -1 (a hole) or 0 to {}",
                t.chars().take(24).collect::<String>(),
                board_cell_name(shape, row * n + k),
                n - 1
            )),
        })
        .collect()
}

impl<R: BufRead> Iterator for PlsEntries<R> {
    type Item = io::Result<Entry>;
    fn next(&mut self) -> Option<Self::Item> {
        // The `order N` line of the next square.
        let first = loop {
            match self.lines.next()? {
                Err(e) => return Some(Err(e)),
                Ok(raw) if skippable(&raw) => continue,
                Ok(raw) => break raw,
            }
        };
        self.index += 1;
        let start = first.number;
        let (puzzle, shape) = match pls_order_line(&first) {
            Ok(n) => match self.square(n) {
                Ok(puzzle) => (puzzle, self.square_shape(n)),
                Err(e) => return Some(Err(e)),
            },
            Err(reason) => (Err(reason), None),
        };
        Some(Ok(entry(
            &self.source,
            self.index,
            start,
            None,
            puzzle,
            shape,
        )))
    }
}

/// The order N of a square's first line, `order N`, or why it is not one.
fn pls_order_line(first: &RawLine) -> Result<usize, Reason> {
    let text = line_text(first)?;
    match pls_order(&text) {
        Some(Ok(n)) => Ok(n),
        Some(Err(why)) => Err(Reason::PlsOrder(why)),
        None => {
            let shown: String = text.trim().chars().take(40).collect();
            Err(Reason::PlsOrder(format!(
                "expected an `order N` line, found {shown:?}"
            )))
        }
    }
}

impl<R: BufRead> PlsEntries<R> {
    /// The shape of a square of order `n`: a Latin square, unless a `# shape` line of its side
    /// gives it boxes.
    fn square_shape(&self, n: usize) -> Option<Shape> {
        match self.lines.shape.filter(|h| h.side() == n) {
            Some(h) => Some(h),
            None => Shape::latin(n).ok(),
        }
    }

    /// Reads the N rows of a square of order `n` after its `order` line: the puzzle, or why it
    /// could not be read; `Err` when the input cannot be read.
    fn square(&mut self, n: usize) -> io::Result<Result<Puzzle, Reason>> {
        let mut cells: Vec<Symbol> = vec![0; n * n];
        let mut rows = 0usize;
        let mut lines = Vec::with_capacity(n);
        let mut error: Option<Reason> = None;
        while rows < n {
            // A square ends early at the next `order` line, which starts the next square.
            let raw = match self.lines.next() {
                None => break,
                Some(Err(e)) => return Err(e),
                Some(Ok(raw)) if skippable(&raw) => continue,
                Some(Ok(raw)) => raw,
            };
            let text = match line_text(&raw) {
                Ok(t) => t,
                Err(reason) => {
                    error.get_or_insert(Reason::PlsRow {
                        row: rows + 1,
                        detail: format!("line {}: {reason}", raw.number),
                    });
                    rows += 1;
                    continue;
                }
            };
            if pls_order(&text).is_some() {
                self.lines.pending.push_front(raw);
                break;
            }
            if error.is_none() {
                match pls_row(&text, n, rows) {
                    Ok(row) => cells[rows * n..rows * n + n].copy_from_slice(&row),
                    Err(detail) => {
                        error = Some(Reason::PlsRow {
                            row: rows + 1,
                            detail: format!("line {}: {detail}", raw.number),
                        })
                    }
                }
            }
            lines.push(raw.number);
            rows += 1;
        }
        let shape = self.square_shape(n).ok_or_else(|| Reason::ShapeLine {
            text: format!("order {n}"),
            error: ShapeError::Side { side: n },
        });
        Ok(match error {
            Some(e) => Err(e),
            None if rows != n => Err(Reason::PlsRows {
                found: rows,
                expected: n,
            }),
            None => shape
                .and_then(|s| Board::new(s, cells).map_err(|e| Reason::BadGrid(e.to_string())))
                .and_then(|b| match b.first_conflict() {
                    Some(c) => Err(Reason::PlsDuplicate {
                        symbol: c.symbol - 1,
                        unit: c.unit.clone(),
                        first: board_cell_name(c.shape, c.first),
                        second: board_cell_name(c.shape, c.second),
                        line: lines[c.second / n],
                    }),
                    None => Ok(Puzzle {
                        board: b,
                        solution: None,
                    }),
                }),
        })
    }
}

/// The `# shape` lines a writer puts before its puzzles so that its file reads back with the
/// shapes it was written with: one before a puzzle whose shape a reader would not tell from its
/// size under the shape lines written so far (a side below 4 or that is no square, a Latin
/// square, rectangular boxes; in `.pls`, any shape with boxes). Every writer of puzzle files
/// (`solve`, `generate`) goes through it.
#[derive(Debug, Clone, Default)]
pub struct ShapeLines {
    /// The shape of the last line written.
    current: Option<Shape>,
}

impl ShapeLines {
    /// The shape line (with its line end) to write before a puzzle of `shape` written in
    /// `format` (CSV fields as the line form), if one is needed.
    pub fn before(&mut self, shape: Shape, format: Format) -> Option<String> {
        let side = shape.side();
        let read_as = match self.current.filter(|h| h.side() == side) {
            Some(h) => Some(h),
            None if format == Format::Pls => Shape::latin(side).ok(),
            None => Shape::square_for_side(side).filter(|_| side >= MIN_INFERRED_SIDE),
        };
        if read_as == Some(shape) {
            return None;
        }
        self.current = Some(shape);
        Some(format!("# shape {shape}\n"))
    }
}

/// Writes `board` in the `.pls` form: `order N`, then N rows of N symbols `0`..`N-1` separated
/// by spaces, `-1` for an empty cell, each row ending in `\n`. The form holds Latin squares:
/// the boxes of a Sudoku board are not written (read back, it is the Latin square of its side).
pub fn render_pls(board: &Board) -> String {
    let n = board.shape().side();
    let mut out = String::with_capacity(8 + n * n * 3);
    out.push_str(&format!("order {n}\n"));
    for row in board.cells().chunks(n) {
        for (k, &v) in row.iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            match v {
                0 => out.push_str("-1"),
                v => out.push_str(&(v - 1).to_string()),
            }
        }
        out.push('\n');
    }
    out
}

/// The largest side written and read one character a cell (`1`-`9`, then `A` = 10 … `Z` = 35).
pub const MAX_CHAR_SIDE: usize = 35;

/// The character of symbol `v` in the one-character form: `.` for 0, `1`-`9`, then `A` = 10 …
/// `Z` = 35 (Gecode's convention); `None` above 35.
pub fn symbol_char(v: Symbol) -> Option<char> {
    match v {
        0 => Some('.'),
        1..=9 => Some((b'0' + v as u8) as char),
        10..=35 => Some((b'A' + v as u8 - 10) as char),
        _ => None,
    }
}

/// The one-line text of a board, as results.csv's `grid` and `solution` columns hold it: for
/// sides up to [`MAX_CHAR_SIDE`] one character a cell ([`symbol_char`]; a 9x9 grid is its
/// 81-character line), above that the cells as integers separated by single spaces, `0` = empty.
pub fn board_line(board: &Board) -> String {
    if board.shape().side() <= MAX_CHAR_SIDE {
        board
            .cells()
            .iter()
            .map(|&v| symbol_char(v).unwrap_or('?'))
            .collect()
    } else {
        let mut out = String::with_capacity(board.cells().len() * 3);
        for (k, v) in board.cells().iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(&v.to_string());
        }
        out
    }
}
/// N rows of N cells as integers separated by spaces (`0` = empty), each ending in `\n`: the
/// block form of a board of any shape.
pub fn board_block(b: &Board) -> String {
    let n = b.shape().side();
    let mut out = String::with_capacity(b.cells().len() * 3 + n);
    for row in b.cells().chunks(n) {
        let cells: Vec<String> = row.iter().map(Symbol::to_string).collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

/// Writes `grid` in `format` (line: 81 characters and `\n`; block: 9 rows and a blank line after
/// each puzzle; csv: the 81-digit form alone, for a caller that writes its own columns; pls: the
/// `.pls` form, [`render_pls`]).
pub fn render(grid: &Grid, format: Format) -> String {
    match format {
        Format::Line => format!("{}\n", grid.to_line()),
        Format::Block => format!("{}\n", grid.to_block()),
        Format::Csv => grid.to_digits(),
        Format::Pls => render_pls(&Board::from_grid(grid)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use solvers::known_puzzles::SEED;

    fn read(text: &str) -> (Format, Vec<Entry>) {
        let r = PuzzleReader::from_text(text, "t.txt");
        let f = r.format();
        (f, r.collect())
    }

    /// The message of an entry that could not be read.
    fn error(e: &Entry) -> String {
        e.puzzle.as_ref().unwrap_err().to_string()
    }

    #[test]
    fn line_format_with_names_comments_crlf_bom() {
        let text = format!("\u{feff}# header\r\n\r\n{SEED}\tfirst one\r\n  {SEED}  \r\n");
        let (f, e) = read(&text);
        assert_eq!(f, Format::Line);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].name.as_deref(), Some("first one"));
        assert_eq!(e[0].line, 3);
        assert_eq!(e[1].line, 4);
        assert_eq!(e[1].label(), "2");
        assert_eq!(
            e[0].puzzle.as_ref().unwrap().grid().unwrap().to_line(),
            SEED
        );
    }

    #[test]
    fn line_errors_name_line_and_reason() {
        let text = format!("{SEED}\n{}\n{}x{}\n", &SEED[..80], &SEED[..40], &SEED[41..]);
        let (_, e) = read(&text);
        let errs: Vec<String> = e.iter().skip(1).map(error).collect();
        assert_eq!(errs[0], "t.txt:2: 80 characters, expected 81");
        assert!(
            errs[1].starts_with("t.txt:3: bad character 'x' at column 41 (r5c5)"),
            "{}",
            errs[1]
        );
    }

    #[test]
    fn block_titles_name_the_puzzles_and_end_short_blocks() {
        let g: Grid = SEED.parse().unwrap();
        let digits: Vec<String> = g.to_block().lines().map(|l| l.replace(' ', "")).collect();
        // Project Euler's layout: a title, then 9 rows of 9 digits, no blank lines.
        let text = format!(
            "Grid 01\n{}\nGrid 02\n{}\nPuzzle 3:\n{}\n",
            digits.join("\n"),
            digits[..4].join("\n"),
            digits.join("\n")
        );
        let (f, e) = read(&text);
        assert_eq!(f, Format::Block);
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].name.as_deref(), Some("Grid 01"));
        assert_eq!(e[0].puzzle.as_ref().unwrap().grid().unwrap(), g);
        assert_eq!(error(&e[1]), "t.txt:12: block has 4 rows, expected 9");
        assert_eq!(e[2].name.as_deref(), Some("Puzzle 3:"));
        assert_eq!(e[2].line, 17);
        assert_eq!(e[2].puzzle.as_ref().unwrap().grid().unwrap(), g);
        // A bad character names its line and cell.
        let mut rows = digits.clone();
        rows[8] = format!("{}x", &rows[8][..8]);
        let (_, e) = read(&format!("Grid 9\n{}\n", rows.join("\n")));
        assert_eq!(
            error(&e[0]),
            "t.txt:10: block row 9: bad character 'x' in cell 9 (r9c9)"
        );
    }

    #[test]
    fn block_format() {
        let g: Grid = SEED.parse().unwrap();
        let text = format!("{}\n{}", g.to_block(), g.to_block());
        let (f, e) = read(&text);
        assert_eq!(f, Format::Block);
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].line, 11);
        assert_eq!(e[1].puzzle.as_ref().unwrap().grid().unwrap(), g);
        // A short block and a bad row.
        let mut rows: Vec<String> = g.to_block().lines().map(String::from).collect();
        rows[3] = "1 2 3".into();
        let text = format!(
            "{}\n\n{}\n",
            rows.join("\n"),
            g.to_block().lines().take(5).collect::<Vec<_>>().join("\n")
        );
        let (_, e) = read(&text);
        assert_eq!(error(&e[0]), "t.txt:4: block row 4: 3 cells, expected 9");
        assert_eq!(error(&e[1]), "t.txt:11: block has 5 rows, expected 9");
    }

    #[test]
    fn csv_format_with_solution_and_name() {
        let text = "name,puzzle,solution\r\nseed-example,7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6,729364158341825967865971423536192874918547632274683519652438791493716285187259346\r\nbad,11...,\r\n";
        let (f, e) = read(text);
        assert_eq!(f, Format::Csv);
        assert_eq!(e[0].name.as_deref(), Some("seed-example"));
        assert!(e[0].puzzle.as_ref().unwrap().solution.is_some());
        assert_eq!(e[0].line, 2, "{e:?}");
        assert_eq!(e[1].line, 3);
        assert_eq!(error(&e[1]), "t.txt:3: 5 characters, expected 81");
    }

    #[test]
    fn duplicate_givens_name_both_cells() {
        // ../shared/cases/C01.txt
        let (_, e) = read(
            ".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6..\n",
        );
        assert_eq!(
            error(&e[0]),
            "t.txt:1: digit 9 given twice in row 1 (r1c2 and r1c3)"
        );
    }

    #[test]
    fn non_utf8_line_is_an_error_not_the_end() {
        let mut bytes = b"\xff\xfe bad\n".to_vec();
        bytes.extend_from_slice(SEED.as_bytes());
        bytes.push(b'\n');
        let r = PuzzleReader::new(Cursor::new(bytes), "b").unwrap();
        let e: Vec<Entry> = r.collect();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].puzzle.as_ref().unwrap_err().reason, Reason::NotUtf8);
        assert!(e[1].puzzle.is_ok());
    }

    #[test]
    fn sixteen_by_sixteen_line_reads_with_square_boxes() {
        let (_, e) = read(&format!("{}\n", ".".repeat(256)));
        let p = e[0].puzzle.as_ref().unwrap();
        assert_eq!(p.shape(), Shape::of_order(4).unwrap());
        assert_eq!(p.board.givens(), 0);
    }

    #[test]
    fn lone_cr_line_ends_split_lines() {
        // Old Mac files end lines with CR alone: never one long line with the rest as a "name".
        let (_, e) = read(&format!("{SEED}\r{SEED}\r\r{SEED}\n"));
        assert_eq!(e.len(), 3);
        assert_eq!(e.iter().map(|e| e.line).collect::<Vec<_>>(), [1, 2, 4]);
        assert!(e.iter().all(|e| e.puzzle.is_ok() && e.name.is_none()));
    }

    #[test]
    fn huge_line_is_reported_not_kept() {
        let text = format!("{}\n{SEED}\n", "5".repeat(MAX_LINE_BYTES * 3));
        let (f, e) = read(&text);
        assert_eq!(f, Format::Line);
        assert_eq!(
            error(&e[0]),
            format!(
                "t.txt:1: line of {} bytes is too long (limit {MAX_LINE_BYTES}; a puzzle has 81 cells)",
                MAX_LINE_BYTES * 3
            )
        );
        assert_eq!(e[1].line, 2);
        assert!(e[1].puzzle.is_ok());
    }

    #[test]
    fn csv_without_puzzle_header() {
        // Forced CSV on a headerless file: the first row is a puzzle, not a header.
        let text = format!("{SEED},x\n{SEED}\n");
        let r = PuzzleReader::with_format(Cursor::new(text.into_bytes()), "t", Some(Format::Csv))
            .unwrap();
        let e: Vec<Entry> = r.collect();
        assert_eq!(e.len(), 2);
        assert!(e.iter().all(|e| e.puzzle.is_ok()));
        // A header naming no puzzle column is one error naming its columns, and the end.
        let text = format!("id,grid\n1,{SEED}\n");
        let r = PuzzleReader::with_format(Cursor::new(text.into_bytes()), "t", Some(Format::Csv))
            .unwrap();
        let e: Vec<Entry> = r.collect();
        assert_eq!(e.len(), 1);
        assert_eq!(
            error(&e[0]),
            "t:1: CSV: the header names no puzzle column (puzzle, quizzes, quiz); \
             its columns are: id, grid"
        );
    }

    #[test]
    fn csv_with_no_puzzle_column_is_detected_and_named() {
        let (f, e) = read(&format!("\u{feff}id,\"grid\",Solution\n1,{SEED},\n"));
        assert_eq!(f, Format::Csv);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(
            error(&e[0]),
            "t.txt:1: CSV: the header names no puzzle column (puzzle, quizzes, quiz); \
             its columns are: id, grid, Solution"
        );
        // A line-format file whose first puzzle has a comma in its name stays line format.
        let (f, e) = read(&format!("{SEED} a,b\n"));
        assert_eq!(f, Format::Line);
        assert_eq!(e[0].name.as_deref(), Some("a,b"));
    }

    #[test]
    fn one_column_csv() {
        for header in ["puzzle", "\"Puzzle\"", "quizzes"] {
            let (f, e) = read(&format!("{header}\r\n{SEED}\r\n\"{SEED}\"\r\n"));
            assert_eq!(f, Format::Csv, "{header}");
            assert_eq!(e.len(), 2, "{header}: {e:?}");
            assert_eq!(e.iter().map(|e| e.line).collect::<Vec<_>>(), [2, 3]);
            assert!(e
                .iter()
                .all(|e| e.puzzle.as_ref().unwrap().grid().unwrap().to_line() == SEED));
        }
    }

    #[test]
    fn csv_quoted_fields_may_hold_line_ends() {
        let text = format!(
            "name,puzzle,note\n\"two\nlines\",{SEED},\"a \"\"quote\"\"\n\n# not a comment\"\n\
             plain,{SEED},\n"
        );
        let (f, e) = read(&text);
        assert_eq!(f, Format::Csv);
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!(e[0].line, 2);
        assert_eq!(e[0].name.as_deref(), Some("two lines"));
        assert_eq!(
            e[0].puzzle.as_ref().unwrap().grid().unwrap().to_line(),
            SEED
        );
        assert_eq!(e[1].line, 6);
        assert_eq!(e[1].name.as_deref(), Some("plain"));
        assert!(e[1].puzzle.is_ok());
        // A quote inside an unquoted field is a character, not an opening.
        let (_, e) = read(&format!("name,puzzle\n5\"x,{SEED}\nnext,{SEED}\n"));
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!(e[0].name.as_deref(), Some("5\"x"));
        assert!(e.iter().all(|e| e.puzzle.is_ok()));
        // A quoted field never closed is an error naming the line it opened on.
        let (_, e) = read(&format!(
            "name,puzzle\nok,{SEED}\n\"open,{SEED}\nx,{SEED}\n"
        ));
        assert_eq!(e.len(), 2);
        assert!(e[0].puzzle.is_ok());
        assert_eq!(
            error(&e[1]),
            "t.txt:3: CSV: the quoted field opened on line 3 is not closed"
        );
    }

    fn errors(text: &str) -> Vec<String> {
        read(text)
            .1
            .iter()
            .map(|e| match &e.puzzle {
                Ok(p) => format!("ok {}", p.shape()),
                Err(err) => err.to_string(),
            })
            .collect()
    }

    #[test]
    fn block_of_another_size_reads_as_its_shape() {
        let row16 = vec!["0"; 16].join(" ");
        let text = vec![row16.as_str(); 16].join("\n");
        let r = PuzzleReader::with_format(Cursor::new(text.into_bytes()), "t", Some(Format::Block))
            .unwrap();
        let e: Vec<Entry> = r.collect();
        assert_eq!(e[0].puzzle.as_ref().unwrap().shape().to_string(), "16x16");
        // Detected as block too, with letters and integers mixed, and a short block named.
        let mut rows: Vec<String> = (0..16).map(|_| row16.clone()).collect();
        rows[0] = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16".into();
        rows[1] = "A . . . . . . . . . . . . . . .".into();
        let text = format!("{}\n\n{}\n", rows.join("\n"), rows[..3].join("\n"));
        let (f, e) = read(&text);
        assert_eq!(f, Format::Block);
        let p = e[0].puzzle.as_ref().unwrap();
        assert_eq!((p.board.get(15), p.board.get(16)), (16, 10));
        assert_eq!(error(&e[1]), "t.txt:18: block has 3 rows, expected 16");
    }

    #[test]
    fn one_character_a_cell_up_to_35() {
        // 4x4 (2x2 boxes), lower case letters, names after the puzzle.
        assert_eq!(
            errors("1234341221434321 full\n12.a\n"),
            [
                "ok 4x4",
                "t.txt:2: 4 cells make a 2x2 grid, whose boxes are not implied: put a shape line \
                 such as `# shape 2x2/latin` (2 is prime: its only boxes would be whole rows) \
                 before it"
            ]
        );
        let (_, e) = read(&format!("{} a name\n", "g".to_string() + &".".repeat(255)));
        let p = e[0].puzzle.as_ref().unwrap();
        assert_eq!((p.board.get(0), e[0].name.as_deref()), (16, Some("a name")));
        // 25x25: Y = 34 is above 25.
        let msg = errors(&format!("{}Y\n", ".".repeat(624)));
        assert_eq!(
            msg[0],
            "t.txt:1: symbol at column 625 (r25c25): Y = 34 is above 25"
        );
    }

    #[test]
    fn bad_sizes_and_symbols_are_clear() {
        let z = format!("{}Z{}\n", ".".repeat(11), ".".repeat(244));
        assert_eq!(
            errors(&z)[0],
            "t.txt:1: symbol at column 12 (r1c12): Z = 35 is above 16"
        );
        assert_eq!(
            errors(&format!("{}\n", "1".repeat(50)))[0],
            "t.txt:1: 50 characters, expected 81 for 9x9, or N·N for another side N (256 for \
             16x16, 625 for 25x25), and it is not a square"
        );
        assert_eq!(
            errors(&format!("{}\n", ".".repeat(1296)))[0],
            "t.txt:1: 1296 characters would be a 36x36 grid, but one character a cell reaches \
             35x35; use integers separated by spaces"
        );
        let e = errors(&format!("{}\n", ".".repeat(144)));
        assert!(
            e[0].contains("144 cells make a 12x12 grid, whose boxes are not implied"),
            "{e:?}"
        );
        assert!(
            e[0].contains("`# shape 12x12/3x4` or `# shape 12x12/latin`"),
            "{e:?}"
        );
        assert_eq!(
            shape_lines(5),
            "`# shape 5x5/latin` (5 is prime: its only boxes would be whole rows)"
        );
        assert_eq!(shape_lines(6), "`# shape 6x6/2x3` or `# shape 6x6/latin`");
        // 9x9 keeps its messages.
        assert_eq!(
            errors(&format!("{}x\n", ".".repeat(80)))[0]
                .split(':')
                .nth(2)
                .unwrap(),
            " bad character 'x' at column 81 (r9c9)"
        );
    }

    #[test]
    fn shape_lines_set_the_boxes() {
        let twelve = ".".repeat(144);
        let text = format!(
            "# shape 12x12/3x4\n{twelve}\n# shape 12x12/latin\n{twelve}\n{SEED}\n\
             # shape 12x12/3x3\n{twelve}\n# shape: 6x6/2x3\n{}\n",
            ".".repeat(36)
        );
        let e = errors(&text);
        assert_eq!(e[0], "ok 12x12/3x4");
        assert_eq!(e[1], "ok 12x12/latin");
        assert_eq!(e[2], "ok 9x9", "other sizes read as without the shape line");
        assert_eq!(
            e[3],
            "t.txt:6: shape line \"12x12/3x3\": 3x3 boxes do not tile a 12x12 grid (3·3 = 9 \
             cells, not 12)"
        );
        // The bad line leaves the last good one in force.
        assert_eq!(e[4], "ok 12x12/latin");
        assert_eq!(e[5], "ok 6x6/2x3");
        assert_eq!(e.len(), 6);
        // A comment that merely starts with the word is a comment.
        assert_eq!(errors(&format!("# shape of things\n{SEED}\n")), ["ok 9x9"]);
        // A shape line at the top of a file, before the first puzzle, counts too.
        assert_eq!(
            errors("# shape 12x12/3x3\n")[0].split(':').nth(1),
            Some("1")
        );
    }

    #[test]
    fn integers_one_puzzle_a_line() {
        // 4x4 on one line with a name, then a 36x36 line, then bad ones.
        let ints = |n: usize, v: &str| vec![v; n].join(" ");
        let text = format!(
            "# shape 4x4/latin\n{} name here\n{}\n{} 17\n{}\n",
            ints(16, "0"),
            ints(36 * 36, "0"),
            ints(255, "0"),
            ints(50, "1"),
        );
        let (f, e) = read(&text);
        assert_eq!(f, Format::Line);
        let p = e[0].puzzle.as_ref().unwrap();
        assert_eq!(
            (p.shape().to_string(), e[0].name.as_deref()),
            ("4x4/latin".into(), Some("name here"))
        );
        assert_eq!(e[1].puzzle.as_ref().unwrap().shape().to_string(), "36x36");
        assert_eq!(error(&e[2]), "t.txt:4: symbol at r16c16: 17 is above 16");
        assert!(error(&e[3]).starts_with("t.txt:5: 50 integers"));
        // A duplicate given names both cells.
        let mut cells = vec!["0"; 256];
        cells[0] = "5";
        cells[17] = "5";
        let (_, e) = read(&format!("{}\n", cells.join(" ")));
        assert_eq!(
            error(&e[0]),
            "t.txt:1: digit 5 given twice in box 1 (r1c1 and r2c2)"
        );
    }

    #[test]
    fn pls_reads_and_writes() {
        let text = "order 3\n0 -1 2\n-1 -1 -1\n2 -1 -1\norder 3\n0 1\n1 2 0\n2 0 1\n\
                    order 2\n0 0\n-1 -1\norder 2\n0 5\n-1 -1\norder 3\n0 1 2\n";
        let (f, e) = read(text);
        assert_eq!(f, Format::Pls);
        let p = e[0].puzzle.as_ref().unwrap();
        assert_eq!(p.shape().to_string(), "3x3/latin");
        assert_eq!(p.board.cells(), &[1, 0, 3, 0, 0, 0, 3, 0, 0]);
        assert_eq!(render_pls(&p.board), "order 3\n0 -1 2\n-1 -1 -1\n2 -1 -1\n");
        let msgs: Vec<String> = e[1..].iter().map(error).collect();
        // Each error names its row's line, and symbols as the file writes them (0-based).
        assert_eq!(msgs[0], "t.txt:5: pls row 1: line 6: 2 symbols, expected 3");
        assert_eq!(
            msgs[1],
            "t.txt:9: pls: symbol 0 given twice in row 1 (r1c1 and r1c2, line 10)"
        );
        assert_eq!(
            msgs[2],
            "t.txt:12: pls row 1: line 13: symbol 5 at r1c2 is not -1 (a hole) or 0 to 1"
        );
        assert_eq!(msgs[3], "t.txt:15: pls square has 1 rows, expected 3");
        // Round trip, and the extension alone makes a file `.pls`.
        let r = PuzzleReader::from_text(&render_pls(&p.board), "x.pls");
        assert_eq!(r.format(), Format::Pls);
        let back: Vec<Entry> = r.collect();
        assert_eq!(back[0].puzzle.as_ref().unwrap().board, p.board);
    }

    #[test]
    fn csv_of_another_shape_with_its_solution() {
        let sol = "1234341221434321";
        let text =
            format!("puzzle,solution\n12..3..2.1.3...1,{sol}\n12..3..2.1.3...1,1234341221433412\n");
        let (_, e) = read(&text);
        let p = e[0].puzzle.as_ref().unwrap();
        assert_eq!(p.solution.as_ref().map(board_line).as_deref(), Some(sol));
        let err = error(&e[1]);
        assert!(
            err.starts_with("t.txt:3: solution column: it is not a solution"),
            "{err}"
        );
    }
}
