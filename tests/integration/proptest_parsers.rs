//! Property tests of the puzzle readers (`harness::input::format`): arbitrary bytes and arbitrary
//! near-valid files (wrong lengths, stray characters, mixed blanks, CRLF and lone CR line ends, a
//! BOM, NUL, huge lines, non-UTF-8) go to every format's reader, detected and forced.
//!
//! Always: no panic; every entry is either a grid with consistent givens or an error whose text
//! starts with `source:line: ` and gives a short reason; the line is within the input's line count.
//! For the generated near-valid files the right answer is known item by item, and checked.

use harness::input::format::{Entry, Format, PuzzleReader, MAX_LINE_BYTES};
use proptest::prelude::*;
use std::io::Cursor;

/// Valid puzzles (consistent givens), in the canonical line form.
const PUZZLES: &[&str] = &[
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6",
    "...6...3.5.....6...9...5.....4.1...6...4.3...8...9.5.....7...4...5.....8.3...8...",
    ".................................................................................",
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346",
];

/// The stated solution of `PUZZLES[0]` and `PUZZLES[1]`.
const SOLUTIONS: &[&str] = &[
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346",
    "741629835582341697396875421924517386657483219813296574168752943275934168439168752",
];

const BLANKS: [char; 5] = ['.', '0', '_', '-', '*'];

/// Lines as the readers count them: ended by LF, CRLF or a lone CR; a last line may lack an end.
fn line_count(bytes: &[u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    let mut open = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                n += 1;
                open = false;
            }
            b'\r' => {
                n += 1;
                open = false;
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            _ => open = true,
        }
        i += 1;
    }
    n + usize::from(open)
}

fn read(bytes: &[u8], format: Option<Format>) -> (Format, Vec<Entry>) {
    let mut r = PuzzleReader::with_format(Cursor::new(bytes.to_vec()), "in.txt", format)
        .expect("reading memory cannot fail");
    let f = r.format();
    let entries: Vec<Entry> = r.by_ref().collect();
    assert!(r.io_error().is_none());
    (f, entries)
}

/// The properties every input must have, under detection and under each forced format.
fn check_any(bytes: &[u8]) -> Result<(), TestCaseError> {
    let lines = line_count(bytes);
    for format in [
        None,
        Some(Format::Line),
        Some(Format::Block),
        Some(Format::Csv),
        Some(Format::Pls),
    ] {
        let (_, entries) = read(bytes, format);
        prop_assert!(
            entries.len() <= lines,
            "{} entries, {lines} lines",
            entries.len()
        );
        for (k, e) in entries.iter().enumerate() {
            prop_assert_eq!(e.index, k + 1);
            prop_assert!(
                e.line >= 1 && e.line <= lines,
                "line {} of {lines} ({format:?})",
                e.line
            );
            match &e.puzzle {
                Ok(p) => prop_assert!(p.board.first_conflict().is_none()),
                Err(err) => {
                    // A block's fault is on one of its own lines, at or after its first.
                    prop_assert!(err.line >= e.line && err.line <= lines, "{err}");
                    let msg = err.to_string();
                    let prefix = format!("in.txt:{}: ", err.line);
                    prop_assert!(msg.starts_with(&prefix), "{msg}");
                    prop_assert!(msg.len() > prefix.len() + 5, "no reason: {msg}");
                    prop_assert!(msg.len() < 400, "message too long: {} bytes", msg.len());
                }
            }
        }
    }
    Ok(())
}

/// One line of a near-valid line-form file, with what the reader must make of it.
#[derive(Debug, Clone)]
enum Item {
    /// A puzzle that must read as `grid`, named `name`.
    Good {
        bytes: Vec<u8>,
        grid: String,
        name: Option<String>,
    },
    /// A line that must give an error entry.
    Bad(Vec<u8>),
    /// A blank or comment line, skipped.
    Skip(Vec<u8>),
}

impl Item {
    fn bytes(&self) -> &[u8] {
        match self {
            Item::Good { bytes, .. } | Item::Bad(bytes) | Item::Skip(bytes) => bytes,
        }
    }
}

/// A puzzle in the line form with its empty cells written with mixed blank marks.
fn mixed_blanks() -> impl Strategy<Value = (usize, String)> {
    (0..PUZZLES.len(), prop::collection::vec(0..BLANKS.len(), 81)).prop_map(|(p, marks)| {
        let text = PUZZLES[p]
            .chars()
            .zip(marks)
            .map(|(c, m)| if c == '.' { BLANKS[m] } else { c })
            .collect();
        (p, text)
    })
}

fn good_item() -> impl Strategy<Value = Item> {
    (
        mixed_blanks(),
        " {0,2}",
        prop::option::of(("[ \t]{1,3}", "[a-z0-9][a-z0-9 ]{0,10}")),
    )
        .prop_map(|((p, text), lead, name)| {
            let mut s = format!("{lead}{text}");
            if let Some((sep, n)) = &name {
                s.push_str(sep);
                s.push_str(n);
            }
            Item::Good {
                bytes: s.into_bytes(),
                grid: PUZZLES[p].to_string(),
                name: name.map(|(_, n)| n.trim().to_string()),
            }
        })
}

/// Characters that are neither cells nor whitespace (and not `#`, which starts a comment).
const STRAY: &[char] = &[
    'x', 'A', '\0', '\u{feff}', 'é', '+', '\u{7f}', '１', '"', ',',
];

fn bad_item() -> impl Strategy<Value = Item> {
    prop_oneof![
        // Wrong length: a prefix, or the puzzle run on with more cells (never 16 or 256
        // cells: those are 4x4 and 16x16 puzzles).
        (mixed_blanks(), 1..81usize).prop_map(|((_, t), n)| {
            let n = if n == 16 { 17 } else { n };
            t.chars().take(n).collect::<String>()
        }),
        (mixed_blanks(), "[0-9.]{1,200}").prop_map(|((_, t), more)| {
            let mut line = t + &more;
            if line.chars().count() == 256 {
                line.push('.');
            }
            line
        }),
        // A stray character in a cell.
        (mixed_blanks(), 0..81usize, prop::sample::select(STRAY)).prop_map(|((_, t), at, ch)| {
            t.chars()
                .enumerate()
                .map(|(i, c)| if i == at { ch } else { c })
                .collect()
        }),
        // Givens that repeat a digit.
        Just(format!("11{}", ".".repeat(79))),
        Just(format!("77{}", &PUZZLES[0][2..])),
        Just(format!("1{}1{}", ".".repeat(9), ".".repeat(70))),
        // Huge lines, below and above the kept length.
        prop::sample::select(vec![
            1000usize,
            20_000,
            MAX_LINE_BYTES + 1,
            3 * MAX_LINE_BYTES
        ])
        .prop_map(|n| ".".repeat(n)),
    ]
    .prop_map(|s| Item::Bad(s.into_bytes()))
    .boxed()
    .prop_union(
        // Not UTF-8: a stray byte somewhere in a good line.
        (
            mixed_blanks(),
            0..82usize,
            prop::sample::select(vec![0xffu8, 0x80, 0xc3, 0xfe]),
        )
            .prop_map(|((_, t), at, b)| {
                let mut v = t.into_bytes();
                v.insert(at.min(v.len()), b);
                Item::Bad(v)
            })
            .boxed(),
    )
}

fn skip_item() -> impl Strategy<Value = Item> {
    prop::sample::select(vec![
        " ",
        "\t",
        "  \t ",
        "# a comment",
        "  # indented, 1,2,3",
    ])
    .prop_map(|s| Item::Skip(s.as_bytes().to_vec()))
}

fn line_file() -> impl Strategy<Value = (bool, Vec<(Item, &'static str)>, bool)> {
    (
        any::<bool>(),
        prop::collection::vec(
            (
                prop_oneof![3 => good_item(), 3 => bad_item(), 1 => skip_item()],
                prop::sample::select(vec!["\n", "\r\n", "\r"]),
            ),
            1..12,
        ),
        any::<bool>(),
    )
}

fn assemble(bom: bool, items: &[(Item, &str)], last_end: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    if bom {
        bytes.extend_from_slice(b"\xEF\xBB\xBF");
    }
    for (k, (item, end)) in items.iter().enumerate() {
        bytes.extend_from_slice(item.bytes());
        if last_end || k + 1 < items.len() {
            bytes.extend_from_slice(end.as_bytes());
        }
    }
    bytes
}

/// Checks the line reader's entries against the items, one entry per non-skipped line.
fn check_line_entries(items: &[(Item, &str)], entries: &[Entry]) -> Result<(), TestCaseError> {
    let expected: Vec<(usize, &Item)> = items
        .iter()
        .enumerate()
        .filter(|(_, (i, _))| !matches!(i, Item::Skip(_)))
        .map(|(k, (i, _))| (k + 1, i))
        .collect();
    prop_assert_eq!(entries.len(), expected.len());
    for (e, (line, item)) in entries.iter().zip(expected) {
        prop_assert_eq!(e.line, line);
        match item {
            Item::Good { grid, name, .. } => {
                let p = e.puzzle.as_ref();
                prop_assert!(p.is_ok(), "line {line}: {:?}", p.err());
                prop_assert_eq!(&p.unwrap().grid().unwrap().to_line(), grid);
                prop_assert_eq!(&e.name, name);
            }
            Item::Bad(b) => prop_assert!(
                e.puzzle.is_err(),
                "line {line} accepted: {:?}",
                String::from_utf8_lossy(b)
            ),
            Item::Skip(_) => unreachable!(),
        }
    }
    Ok(())
}

/// A block-form puzzle, maybe spoiled, with whether it must be read.
fn block_item() -> impl Strategy<Value = (String, Option<String>)> {
    (
        mixed_blanks(),
        prop::sample::select(vec![" ", "", "  ", "\t", " \t"]),
        0..5u8,
        0..9usize,
    )
        .prop_map(|((p, text), sep, spoil, row)| {
            let chars: Vec<char> = text.chars().collect();
            let mut rows: Vec<String> = chars
                .chunks(9)
                .map(|r| r.iter().map(char::to_string).collect::<Vec<_>>().join(sep))
                .collect();
            let good = match spoil {
                0 => {
                    rows.remove(row); // 8 rows
                    false
                }
                1 => {
                    rows[row] = rows[row].chars().skip(1).collect(); // 8 cells
                    false
                }
                2 => {
                    rows[row] = format!("{}x", &rows[row][1..]);
                    false
                }
                _ => true,
            };
            let ok = good.then(|| PUZZLES[p].to_string());
            (rows.join("\n"), ok)
        })
}

/// A CSV row, maybe spoiled, with whether it must be read (columns name, puzzle, solution).
fn csv_item() -> impl Strategy<Value = (String, Option<String>)> {
    (mixed_blanks(), any::<bool>(), any::<bool>(), 0..4u8).prop_map(
        |((p, text), quote, sol, spoil)| {
            let q = |s: &str| {
                if quote {
                    format!("\"{s}\"")
                } else {
                    s.to_string()
                }
            };
            let solution = if sol && p < SOLUTIONS.len() {
                SOLUTIONS[p]
            } else {
                ""
            };
            let (puzzle, good) = match spoil {
                0 => (text[..80].to_string(), false),
                2 => (format!("{}\0", &text[..80]), false),
                _ => (text, true),
            };
            let mut row = format!("{},{},{}", q(&format!("p{p}")), q(&puzzle), q(solution));
            if spoil == 1 {
                row.push_str(",extra"); // a 4th column is ignored
            }
            (row, good.then(|| PUZZLES[p].to_string()))
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Arbitrary bytes, fully random.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check_any(&bytes)?;
    }

    /// Arbitrary bytes drawn from the characters that matter to the readers.
    #[test]
    fn arbitrary_puzzle_like_bytes_never_panic(
        bytes in prop::collection::vec(
            prop::sample::select(b".0123456789,\n\r \t#\"\x00\xff\xef\xbb\xbf-_*x".to_vec()),
            0..2000,
        )
    ) {
        check_any(&bytes)?;
    }

    /// Long lines of symbols, at and around the sizes of other shapes (256, 625, 1296 cells),
    /// after shape lines good and bad, as characters or integers: no panic, the same properties.
    #[test]
    fn long_symbol_lines_never_panic(
        lines in prop::collection::vec(
            (
                prop::sample::select(vec![16usize, 36, 50, 144, 255, 256, 257, 625, 1296, 4096]),
                prop::collection::vec(
                    prop::sample::select(b"0123456789ABCDEFGPZz.-".to_vec()),
                    1..64,
                ),
                prop::sample::select(vec![
                    "", "# shape 12x12/3x4\n", "# shape 12x12/3x3\n", "# shape 6x6/latin\n",
                    "# shape 99x99\n", "order 4\n", "order 300\n",
                ]),
                any::<bool>(),
            ),
            1..6,
        )
    ) {
        let mut text = String::new();
        for (len, symbols, header, integers) in &lines {
            text.push_str(header);
            let cells = symbols.iter().cycle().take(*len).map(|&b| b as char);
            if *integers {
                let tokens: Vec<String> = cells
                    .map(|c| c.to_digit(36).unwrap_or(0).to_string())
                    .collect();
                text.push_str(&tokens.join(" "));
            } else {
                text.extend(cells);
            }
            text.push('\n');
        }
        check_any(text.as_bytes())?;
    }

    /// Near-valid line-form files: every line gives the right entry, under forced and detected
    /// format (when detection says line).
    #[test]
    fn near_valid_line_files((bom, items, last_end) in line_file()) {
        let bytes = assemble(bom, &items, last_end);
        check_any(&bytes)?;
        let (_, entries) = read(&bytes, Some(Format::Line));
        check_line_entries(&items, &entries)?;
        let (format, entries) = read(&bytes, None);
        if format == Format::Line {
            check_line_entries(&items, &entries)?;
        }
    }

    /// Near-valid block-form files: one entry per block, good blocks read right.
    #[test]
    fn near_valid_block_files(
        blocks in prop::collection::vec(block_item(), 1..6),
        crlf in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let mut text = if bom { "\u{feff}".to_string() } else { String::new() };
        let mut starts = Vec::new();
        let mut line = 1;
        for (b, _) in &blocks {
            starts.push(line);
            text.push_str(b);
            text.push_str("\n\n");
            line += b.lines().count() + 1;
        }
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        check_any(text.as_bytes())?;
        for format in [Some(Format::Block), None] {
            let (f, entries) = read(text.as_bytes(), format);
            if f != Format::Block {
                // Detection saw a spoiled first row; the forced reading above is checked.
                prop_assert!(format.is_none());
                continue;
            }
            prop_assert_eq!(entries.len(), blocks.len());
            for ((e, (_, want)), start) in entries.iter().zip(&blocks).zip(&starts) {
                prop_assert_eq!(e.line, *start);
                match want {
                    Some(g) => prop_assert_eq!(&e.puzzle.as_ref().map(|p| p.grid().unwrap().to_line()).ok(), &Some(g.clone())),
                    None => prop_assert!(e.puzzle.is_err(), "block at line {start} accepted"),
                }
            }
        }
    }

    /// Near-valid CSV files: one entry per row, good rows read right with their solutions.
    #[test]
    fn near_valid_csv_files(
        rows in prop::collection::vec(csv_item(), 1..10),
        header in prop::sample::select(vec!["name,puzzle,solution", "\"name\",\"Puzzle\",\"SOLUTION\"", "id,quizzes,solutions"]),
        crlf in any::<bool>(),
    ) {
        let mut text = format!("{header}\n");
        for (r, _) in &rows {
            text.push_str(r);
            text.push('\n');
        }
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        check_any(text.as_bytes())?;
        for format in [Some(Format::Csv), None] {
            let (f, entries) = read(text.as_bytes(), format);
            prop_assert_eq!(f, Format::Csv);
            prop_assert_eq!(entries.len(), rows.len());
            for (k, (e, (_, want))) in entries.iter().zip(&rows).enumerate() {
                prop_assert_eq!(e.line, k + 2);
                match want {
                    Some(g) => {
                        let p = e.puzzle.as_ref();
                        prop_assert!(p.is_ok(), "row {}: {:?}", k + 2, p.err());
                        prop_assert_eq!(&p.unwrap().grid().unwrap().to_line(), g);
                    }
                    None => prop_assert!(e.puzzle.is_err(), "row {} accepted", k + 2),
                }
            }
        }
    }

    /// `Grid::parse_line`, the solvers crate's own parser, on any text.
    #[test]
    fn grid_parse_line_never_panics(text in ".{0,200}") {
        match solvers::Grid::parse_line(&text) {
            Ok(g) => prop_assert_eq!(text.chars().count(), 81, "{}", g),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
