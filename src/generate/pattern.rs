//! Puzzles of a clue pattern: a random solved grid, then only the cells a pattern picks kept as
//! givens. No uniqueness is sought: most such puzzles have many solutions. This is what a
//! generator that blanks whole regions makes, and what a "fill the rest" tool meets (a partial
//! grid, a solver asked for any completion).
//!
//! A pattern is either
//! - **per box**: nine counts (or ranges `LO-HI`, drawn uniformly) of givens for boxes 1 to 9,
//!   row-major, each count's cells drawn uniformly within the box: `5,0,0,0-1,7,7,1,7,7`;
//! - **a mask**: 81 characters, row-major, `x` (or `X`, `1`-`9`) a given, `.` (or `0`) an empty
//!   cell: every puzzle keeps exactly those cells;
//! - **a name** of [`NAMED`], per-box patterns that empty whole boxes or bands.
//!
//! Puzzle `index` of a batch made with `seed` draws its grid and its cells from its own stream
//! ([`Purpose::Pattern`]), so a batch is the same file on any number of threads.

use super::random_grid::random_grid;
use super::rng::{Purpose, Rng};

/// The named patterns: name, per-box spec, what it is.
pub const NAMED: [(&str, &str, &str); 5] = [
    (
        "corner",
        "5,0,0,0-1,7,7,1,7,7",
        "top band nearly empty (5 givens, all in box 1), boxes 2, 3, 4, 7 empty or nearly, boxes \
         5, 6, 8, 9 nearly full: 34-35 givens",
    ),
    (
        "band",
        "0,5,0,6,6,6,6,6,6",
        "top band empty but for 5 givens in box 2, the other six boxes 6 givens each: 41 givens",
    ),
    (
        "stack",
        "0,7,7,5,7,7,0,1,1",
        "left stack empty but for 5 givens in box 4, box 8 and 9 nearly empty, boxes 2, 3, 5, 6 \
         nearly full: 35 givens",
    ),
    (
        "diagonal",
        "0,6,6,6,0,6,6,6,0",
        "boxes 1, 5, 9 empty, the other six 6 givens each: 36 givens",
    ),
    (
        "cross",
        "7,0,7,0,7,0,7,0,7",
        "boxes 2, 4, 6, 8 empty, the corners and the centre 7 givens each: 35 givens",
    ),
];

/// A clue pattern (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pattern {
    /// Givens per box 1..=9: an inclusive range of counts each.
    Boxes([(u8, u8); 9]),
    /// The cells kept, row-major.
    Mask([bool; 81]),
}

impl std::str::FromStr for Pattern {
    type Err = String;

    /// A name of [`NAMED`], nine per-box counts or ranges, or an 81-character mask.
    fn from_str(s: &str) -> Result<Pattern, String> {
        let s = s.trim();
        if let Some((_, spec, _)) = NAMED.iter().find(|(n, _, _)| *n == s) {
            return spec.parse();
        }
        if s.contains(',') {
            return per_box(s);
        }
        if s.chars().count() == 81 {
            let mut mask = [false; 81];
            for (i, ch) in s.chars().enumerate() {
                mask[i] = match ch {
                    'x' | 'X' | '1'..='9' => true,
                    '.' | '0' => false,
                    _ => {
                        return Err(format!(
                            "mask character {} (r{}c{}) is {ch:?}: use x for a given, . for an \
                             empty cell",
                            i + 1,
                            i / 9 + 1,
                            i % 9 + 1
                        ))
                    }
                };
            }
            return Ok(Pattern::Mask(mask));
        }
        let names: Vec<&str> = NAMED.iter().map(|(n, _, _)| *n).collect();
        Err(format!(
            "{s:?} is not a clue pattern: give a name ({}), nine per-box counts \
             (5,0,0,0-1,7,7,1,7,7) or an 81-character mask (x given, . empty)",
            names.join(", ")
        ))
    }
}

/// Nine comma-separated counts or `LO-HI` ranges, each within 0..=9.
fn per_box(s: &str) -> Result<Pattern, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() != 9 {
        return Err(format!(
            "{s:?}: a per-box pattern has 9 counts (boxes 1 to 9), not {}",
            parts.len()
        ));
    }
    let mut boxes = [(0u8, 0u8); 9];
    for (b, part) in parts.iter().enumerate() {
        let bad = || {
            format!(
                "box {}: {part:?} is not a count 0-9 or a range LO-HI",
                b + 1
            )
        };
        let (lo, hi) = match part.split_once('-') {
            Some((l, h)) => (l.trim(), h.trim()),
            None => (*part, *part),
        };
        let lo: u8 = lo.parse().map_err(|_| bad())?;
        let hi: u8 = hi.parse().map_err(|_| bad())?;
        if lo > hi || hi > 9 {
            return Err(bad());
        }
        boxes[b] = (lo, hi);
    }
    Ok(Pattern::Boxes(boxes))
}

impl Pattern {
    /// The fewest and most givens a puzzle of this pattern has.
    pub fn givens(&self) -> (usize, usize) {
        match self {
            Pattern::Boxes(b) => b.iter().fold((0, 0), |(lo, hi), &(l, h)| {
                (lo + l as usize, hi + h as usize)
            }),
            Pattern::Mask(m) => {
                let n = m.iter().filter(|&&k| k).count();
                (n, n)
            }
        }
    }

    /// The cells kept for one puzzle, drawn from `rng`.
    fn cells(&self, rng: &mut Rng) -> [bool; 81] {
        match self {
            Pattern::Mask(m) => *m,
            Pattern::Boxes(boxes) => {
                let mut keep = [false; 81];
                for (b, &(lo, hi)) in boxes.iter().enumerate() {
                    let k = lo as u32 + rng.below(u32::from(hi - lo) + 1);
                    let (r0, c0) = (b / 3 * 3, b % 3 * 3);
                    let mut cells: [usize; 9] =
                        std::array::from_fn(|i| (r0 + i / 3) * 9 + c0 + i % 3);
                    // A partial Fisher-Yates shuffle: the first k cells are a uniform k-subset.
                    for i in 0..k as usize {
                        let j = i + rng.below(9 - i as u32) as usize;
                        cells.swap(i, j);
                    }
                    for &c in &cells[..k as usize] {
                        keep[c] = true;
                    }
                }
                keep
            }
        }
    }
}

/// Puzzle number `index` of the batch seeded by `seed`: a random solved grid (the same method
/// as [`super::generate_puzzle`]'s) with the cells of `pattern` kept. Returns the puzzle and
/// the grid it came from (one of its solutions). Deterministic in `(pattern, seed, index)`.
pub fn pattern_puzzle(pattern: &Pattern, seed: u64, index: u64) -> ([u8; 81], [u8; 81]) {
    let mut rng = Rng::new(seed, Purpose::Pattern, 0, index);
    let grid = random_grid(&mut rng, None);
    let keep = pattern.cells(&mut rng);
    let mut puzzle = grid;
    for (v, k) in puzzle.iter_mut().zip(keep) {
        if !k {
            *v = 0;
        }
    }
    (puzzle, grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_patterns_parse_and_count() {
        let p: Pattern = "corner".parse().unwrap();
        assert_eq!(p.givens(), (34, 35));
        for (name, _, _) in NAMED {
            let p: Pattern = name.parse().unwrap();
            assert!(p.givens().0 >= 17, "{name}");
        }
        assert!("5,0,0".parse::<Pattern>().is_err());
        assert!("5,0,0,0-1,7,7,1,7,10".parse::<Pattern>().is_err());
        assert!("3-2,0,0,0,0,0,0,0,0".parse::<Pattern>().is_err());
        assert!("nope".parse::<Pattern>().is_err());
        let mask = format!("{}{}", "x".repeat(30), ".".repeat(51));
        assert_eq!(mask.parse::<Pattern>().unwrap().givens(), (30, 30));
        let bad = format!("{}?{}", "x".repeat(30), ".".repeat(50));
        assert!(bad.parse::<Pattern>().unwrap_err().contains("r4c4"));
    }

    #[test]
    fn puzzles_follow_the_pattern_and_the_seed() {
        let p: Pattern = "corner".parse().unwrap();
        let Pattern::Boxes(spec) = p else { panic!() };
        for i in 0..50 {
            let (puzzle, grid) = pattern_puzzle(&p, 7, i);
            assert_eq!((puzzle, grid), pattern_puzzle(&p, 7, i));
            for b in 0..9 {
                let n = (0..9)
                    .filter(|&k| puzzle[(b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3] != 0)
                    .count() as u8;
                assert!((spec[b].0..=spec[b].1).contains(&n), "box {}: {n}", b + 1);
            }
            for c in 0..81 {
                assert!(puzzle[c] == 0 || puzzle[c] == grid[c]);
            }
        }
        assert_ne!(pattern_puzzle(&p, 7, 0), pattern_puzzle(&p, 8, 0));
    }
}
