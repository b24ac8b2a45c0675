//! Puzzle file formats: reading the line, block and CSV forms, streaming, with errors that name
//! the source, the line and the reason.
//!
//! - **line**: one puzzle per line, 81 characters (`1`-`9` a given; `.` `0` `_` `-` `*` an empty
//!   cell), optionally followed by whitespace and a name or comment. Blank lines and lines starting
//!   with `#` are skipped.
//! - **block**: 9 lines of 9 cells separated by spaces (`0` = empty; the other blank marks are
//!   accepted too), puzzles separated by a blank line: the form classic `-c N` / `-s FILE`
//!   generator/solver programs exchange.
//! - **csv**: a header row naming a `puzzle` column (alias `quizzes`, `quiz`; alone, it makes a
//!   one-column CSV), optionally `solution` (alias `solutions`) and `name` (alias `id`) columns.
//!   A quoted field may hold line ends. A header of column names without a puzzle column is one
//!   error naming its columns, and the end of the reading.
//!
//! All forms accept CRLF line ends, a UTF-8 byte-order mark, tabs and trailing spaces. The format is
//! detected from the first line that is neither blank nor a `#` comment ([`detect`]).
//!
//! Every puzzle comes out as an [`Entry`] whose `puzzle` is either a checked [`Puzzle`] (givens
//! consistent: no digit twice in a row, column or box) or an [`InputError`]; a bad puzzle never
//! stops the reading of the rest. Memory stays flat: entries are produced one at a time.

use solvers::{cell_name, Board, Conflict, Grid, GridParseError, Shape, CELLS};
use std::fmt;
use std::io::{self, BufRead, Cursor, Read};

/// A file format for puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// One 81-character puzzle per line.
    Line,
    /// 9 rows of 9 space-separated digits, blank line between puzzles.
    Block,
    /// CSV with a `puzzle` column.
    Csv,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Line => "line",
            Format::Block => "block",
            Format::Csv => "csv",
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
    /// Not 81 cells.
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
    /// Two givens repeat a digit in a unit.
    #[error("{0}")]
    DuplicateGiven(Conflict),
    /// The line is not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// A block-form puzzle without 9 rows.
    #[error("block has {found} rows, expected 9")]
    BlockRows {
        /// Rows found before the blank line or end of file.
        found: usize,
    },
    /// A block-form row without 9 cells, or with a bad one.
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
}

fn size_hint(found: usize) -> &'static str {
    match found {
        16 => " (a 4x4 puzzle has 16 cells; only 9x9 is supported)",
        256 => " (a 16x16 puzzle has 256 cells; only 9x9 is supported)",
        625 => " (a 25x25 puzzle has 625 cells; only 9x9 is supported)",
        _ => "",
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

/// Detects the format from the first line that is neither blank nor a `#` comment.
///
/// CSV when the line's fields name a `puzzle` (or `quizzes`, `quiz`) column, alone or among
/// others, or when it reads as a CSV header (two or more fields, each a column name: a letter
/// first); block when the line holds 9 cells (9 single-character tokens, or 9 characters); line
/// otherwise.
pub fn detect(first_line: &str) -> Format {
    let t = first_line.trim();
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
    let nine_tokens = tokens.len() == 9 && tokens.iter().all(|s| s.chars().count() == 1);
    let nine_chars = tokens.len() == 1 && tokens[0].chars().count() == 9;
    if nine_tokens || nine_chars {
        Format::Block
    } else {
        Format::Line
    }
}

/// The longest line kept, in bytes. A longer line is reported as [`Reason::LineTooLong`] with its
/// length, and only its first `MAX_LINE_BYTES` are held, so memory stays flat on any input (a
/// file with no line end at all, say).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

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

/// The lines of a reader, numbered from 1; `pending` holds a line already read by the format
/// detection.
struct Lines<R> {
    reader: R,
    number: usize,
    buf: Vec<u8>,
    pending: Option<RawLine>,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            number: 0,
            buf: Vec::new(),
            pending: None,
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
        Ok(Some(RawLine {
            number: self.number,
            text,
            too_long,
        }))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<RawLine>;
    fn next(&mut self) -> Option<Self::Item> {
        if let Some(p) = self.pending.take() {
            return Some(Ok(p));
        }
        self.read().transpose()
    }
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
    inner: Box<dyn Iterator<Item = io::Result<Entry>> + Send>,
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
        let first = loop {
            match lines.read()? {
                None => break None,
                Some(raw) if skippable(&raw) => continue,
                Some(raw) => break Some(raw),
            }
        };
        let format = format.unwrap_or_else(|| {
            detect(first.as_ref().and_then(|r| r.text.as_deref()).unwrap_or(""))
        });
        lines.pending = first;
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
        };
        Ok(PuzzleReader {
            format,
            inner,
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
            let raw = match self.lines.next()? {
                Ok(r) => r,
                Err(e) => return Some(Err(e)),
            };
            if skippable(&raw) {
                continue;
            }
            self.index += 1;
            let (name, puzzle) = match raw.text {
                _ if raw.too_long.is_some() => (None, Err(too_long(&raw))),
                None => (None, Err(Reason::NotUtf8)),
                Some(text) => {
                    let lead = text.len() - text.trim_start().len();
                    let body = text.trim_start();
                    let (token, rest) = match body.find(char::is_whitespace) {
                        Some(at) => (&body[..at], body[at..].trim()),
                        None => (body, ""),
                    };
                    let name = (!rest.is_empty()).then(|| rest.to_string());
                    let column_offset = text[..lead].chars().count();
                    let puzzle = Grid::parse_line(token)
                        .map_err(|e| from_grid_error(e, column_offset))
                        .and_then(|g| checked(g, None));
                    (name, puzzle)
                }
            };
            return Some(Ok(Entry {
                index: self.index,
                line: raw.number,
                name,
                puzzle: puzzle.map_err(|reason| InputError {
                    source_name: self.source.clone(),
                    line: raw.number,
                    reason,
                }),
            }));
        }
    }
}

struct BlockEntries<R> {
    lines: Lines<R>,
    source: String,
    index: usize,
}

/// Parses one block row: 9 cells, separated by whitespace or not.
fn block_row(text: &str) -> Result<[u8; 9], String> {
    let cells: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() != 9 {
        let hint = match cells.len() {
            4 | 16 | 25 => format!(
                " (a {n}x{n} puzzle has rows of {n}; only 9x9 is supported)",
                n = cells.len()
            ),
            _ => String::new(),
        };
        return Err(format!("{} cells, expected 9{hint}", cells.len()));
    }
    let mut row = [0u8; 9];
    for (k, &ch) in cells.iter().enumerate() {
        row[k] = match ch {
            '1'..='9' => ch as u8 - b'0',
            '0' | '.' | '_' | '-' | '*' => 0,
            _ => return Err(format!("bad character {ch:?} in cell {}", k + 1)),
        };
    }
    Ok(row)
}

impl<R: BufRead> Iterator for BlockEntries<R> {
    type Item = io::Result<Entry>;
    fn next(&mut self) -> Option<Self::Item> {
        // Skip to the first row of the next block.
        let first = loop {
            match self.lines.next()? {
                Err(e) => return Some(Err(e)),
                Ok(raw) if skippable(&raw) => continue,
                Ok(raw) => break raw,
            }
        };
        self.index += 1;
        let start = first.number;
        let mut cells = [0u8; 81];
        let mut rows = 0usize;
        let mut error: Option<Reason> = None;
        let mut current = Some(first);
        while let Some(raw) = current.take() {
            match &raw.text {
                _ if raw.too_long.is_some() => {
                    error.get_or_insert(Reason::BlockRow {
                        row: rows + 1,
                        detail: format!("line {}: {}", raw.number, too_long(&raw)),
                    });
                    rows += 1;
                }
                None => {
                    error.get_or_insert(Reason::BlockRow {
                        row: rows + 1,
                        detail: format!("line {}: {}", raw.number, Reason::NotUtf8),
                    });
                    rows += 1;
                }
                Some(t) if t.trim().is_empty() => break,
                Some(t) if t.trim_start().starts_with('#') => {}
                Some(t) => {
                    if rows < 9 {
                        match block_row(t) {
                            Ok(row) => cells[rows * 9..rows * 9 + 9].copy_from_slice(&row),
                            Err(detail) => {
                                error.get_or_insert(Reason::BlockRow {
                                    row: rows + 1,
                                    detail,
                                });
                            }
                        }
                    }
                    rows += 1;
                }
            }
            if rows == 9 {
                break;
            }
            current = match self.lines.next() {
                None => None,
                Some(Err(e)) => return Some(Err(e)),
                Some(Ok(r)) => Some(r),
            };
        }
        let puzzle = match error {
            Some(e) => Err(e),
            None if rows != 9 => Err(Reason::BlockRows { found: rows }),
            None => checked(Grid::from_cells(cells).expect("digits 0..=9"), None),
        };
        Some(Ok(Entry {
            index: self.index,
            line: start,
            name: None,
            puzzle: puzzle.map_err(|reason| InputError {
                source_name: self.source.clone(),
                line: start,
                reason,
            }),
        }))
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

fn csv_puzzle(fields: &[String], p: usize, s: Option<usize>) -> Result<Puzzle, Reason> {
    let get = |i: usize| fields.get(i).map(String::as_str).unwrap_or("");
    let grid = Grid::parse_line(get(p)).map_err(|e| from_grid_error(e, 0))?;
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

    fn entry(
        &mut self,
        line: usize,
        name: Option<String>,
        puzzle: Result<Puzzle, Reason>,
    ) -> Entry {
        self.index += 1;
        Entry {
            index: self.index,
            line,
            name,
            puzzle: puzzle.map_err(|reason| InputError {
                source_name: self.source.clone(),
                line,
                reason,
            }),
        }
    }
}

impl<R: BufRead> Iterator for CsvEntries<R> {
    type Item = io::Result<Entry>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
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
                        return Some(Ok(self.entry(line, None, Err(reason))));
                    }
                }
            }
            let (p, s, n) = self.columns.expect("set above");
            let fields = text.and_then(|t| csv_fields(&t).map_err(Reason::Csv));
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
                    (name, csv_puzzle(&fields, p, s))
                }
            };
            return Some(Ok(self.entry(line, name, puzzle)));
        }
    }
}

/// Writes `grid` in `format` (line: 81 characters and `\n`; block: 9 rows and a blank line after
/// The largest side written and read one character a cell (`1`-`9`, then `A` = 10 … `Z` = 35).
pub const MAX_CHAR_SIDE: usize = 35;

/// The character of symbol `v` in the one-character form: `.` for 0, `1`-`9`, then `A` = 10 …
/// `Z` = 35 (Gecode's convention); `None` above 35.
pub fn symbol_char(v: u8) -> Option<char> {
    match v {
        0 => Some('.'),
        1..=9 => Some((b'0' + v) as char),
        10..=35 => Some((b'A' + v - 10) as char),
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
/// each puzzle; csv: the 81-digit form alone, for a caller that writes its own columns).
pub fn render(grid: &Grid, format: Format) -> String {
    match format {
        Format::Line => format!("{}\n", grid.to_line()),
        Format::Block => format!("{}\n", grid.to_block()),
        Format::Csv => grid.to_digits(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str =
        "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";

    fn read(text: &str) -> (Format, Vec<Entry>) {
        let r = PuzzleReader::from_text(text, "t.txt");
        let f = r.format();
        (f, r.collect())
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
        let errs: Vec<String> = e
            .iter()
            .skip(1)
            .map(|e| e.puzzle.as_ref().unwrap_err().to_string())
            .collect();
        assert_eq!(errs[0], "t.txt:2: 80 characters, expected 81");
        assert!(
            errs[1].starts_with("t.txt:3: bad character 'x' at column 41 (r5c5)"),
            "{}",
            errs[1]
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
        assert_eq!(
            e[0].puzzle.as_ref().unwrap_err().to_string(),
            "t.txt:1: block row 4: 3 cells, expected 9"
        );
        assert_eq!(
            e[1].puzzle.as_ref().unwrap_err().to_string(),
            "t.txt:11: block has 5 rows, expected 9"
        );
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
        assert_eq!(
            e[1].puzzle.as_ref().unwrap_err().to_string(),
            "t.txt:3: 5 characters, expected 81"
        );
    }

    #[test]
    fn duplicate_givens_name_both_cells() {
        // ../shared/cases/C01.txt
        let (_, e) = read(
            ".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6..\n",
        );
        assert_eq!(
            e[0].puzzle.as_ref().unwrap_err().to_string(),
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
    fn sixteen_by_sixteen_is_named() {
        let (_, e) = read(&format!("{}\n", ".".repeat(256)));
        let msg = e[0].puzzle.as_ref().unwrap_err().to_string();
        assert!(
            msg.contains("256 characters, expected 81") && msg.contains("16x16"),
            "{msg}"
        );
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
            e[0].puzzle.as_ref().unwrap_err().to_string(),
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
            e[0].puzzle.as_ref().unwrap_err().to_string(),
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
            e[0].puzzle.as_ref().unwrap_err().to_string(),
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
            e[1].puzzle.as_ref().unwrap_err().to_string(),
            "t.txt:3: CSV: the quoted field opened on line 3 is not closed"
        );
    }

    #[test]
    fn block_of_another_size_is_named() {
        let row16 = vec!["0"; 16].join(" ");
        let text = vec![row16.as_str(); 16].join("\n");
        let r = PuzzleReader::with_format(Cursor::new(text.into_bytes()), "t", Some(Format::Block))
            .unwrap();
        let e: Vec<Entry> = r.collect();
        assert_eq!(
            e[0].puzzle.as_ref().unwrap_err().to_string(),
            "t:1: block row 1: 16 cells, expected 9 (a 16x16 puzzle has rows of 16; only 9x9 is supported)"
        );
    }
}
