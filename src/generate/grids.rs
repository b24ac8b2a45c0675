//! Batches of solved grids, by either method, written in line or block form without per-grid
//! allocation (a 1,000,000-grid line file is 82 MB).

use super::random_grid::random_grid;
use super::rng::{Purpose, Rng};
use super::transform::{pick, TransformSpace};
use super::GenerateError;
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::{self, Write};
use std::str::FromStr;

/// How grids are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GridMethod {
    /// Numbered grids from a permuted first row (see [`super::transform`]): fast, distinct by
    /// construction, at most 52,254,720 (5,806,080 with the first digit fixed).
    #[default]
    Transform,
    /// Randomized search (see [`super::random_grid`]): no shared structure; repeats within a
    /// batch are detected (by [`fingerprint`]) and redrawn.
    Random,
}

impl FromStr for GridMethod {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "transform" => Ok(GridMethod::Transform),
            "random" => Ok(GridMethod::Random),
            _ => Err(format!("unknown method {s:?}; known: transform, random")),
        }
    }
}

/// The text form of written grids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridFormat {
    /// 81 digits and `\n` per grid.
    Line,
    /// 9 rows of 9 space-separated digits, then a blank line (as `harness::input::format::render`).
    Block,
}

/// Appends `g` to `out` in `format`.
#[inline]
pub fn push_grid(out: &mut Vec<u8>, g: &[u8; 81], format: GridFormat) {
    match format {
        GridFormat::Line => {
            out.extend(g.iter().map(|&d| b'0' + d));
            out.push(b'\n');
        }
        GridFormat::Block => {
            for row in g.chunks_exact(9) {
                for (c, &d) in row.iter().enumerate() {
                    if c > 0 {
                        out.push(b' ');
                    }
                    out.push(b'0' + d);
                }
                out.push(b'\n');
            }
            out.push(b'\n');
        }
    }
}

/// An exact 152-bit key of a solved grid: the lexicographic ranks (< 9! < 2^19) of its first 8
/// rows, each a permutation of 1..9; the 9th row follows from them. Distinct grids, distinct keys;
/// 24 bytes instead of 81 in the repeat check.
pub fn fingerprint(g: &[u8; 81]) -> (u128, u64) {
    const FACT: [u32; 9] = [40320, 5040, 720, 120, 24, 6, 2, 1, 1];
    let rank = |row: &[u8]| -> u32 {
        let mut used = 0u16;
        let mut r = 0;
        for (k, &d) in row.iter().enumerate() {
            let smaller_unused = ((1u16 << (d - 1)) - 1) & !used;
            r += smaller_unused.count_ones() * FACT[k];
            used |= 1 << (d - 1);
        }
        r
    };
    let mut hi = 0u128;
    for row in g.chunks_exact(9).take(6) {
        hi = hi << 19 | u128::from(rank(row));
    }
    let lo = u64::from(rank(&g[54..63])) << 19 | u64::from(rank(&g[63..72]));
    (hi, lo)
}

/// Grids per write / per parallel chunk.
const CHUNK: usize = 16 * 1024;

/// Writes `count` distinct solved grids made with `method` and `seed` to `w`; with
/// `first_digit`, every grid has that digit in r1c1. Same arguments, same bytes. `progress` is
/// called with the number of grids written so far.
///
/// `transform` runs on the calling thread (about 0.1 µs a grid plus the write); `random` makes
/// each chunk in parallel on rayon's pool, grid `i` from its own stream, then drops repeats in
/// file order (a repeat is redrawn from the next attempt's stream, so the file does not depend on
/// the thread count).
///
/// # Errors
/// [`GenerateError`] (as an `io::Error` of kind `InvalidInput`) for a bad first digit or a count
/// the method cannot reach; I/O errors of `w`.
pub fn write_grids(
    w: &mut dyn Write,
    method: GridMethod,
    count: u64,
    seed: u64,
    first_digit: Option<u8>,
    format: GridFormat,
    progress: &dyn Fn(u64),
) -> io::Result<()> {
    let invalid = |e: GenerateError| io::Error::new(io::ErrorKind::InvalidInput, e);
    let space = TransformSpace::new(first_digit).map_err(invalid)?;
    let mut buf = Vec::with_capacity(CHUNK * 170);
    match method {
        GridMethod::Transform => {
            let ids = pick(&space, count, seed).map_err(invalid)?;
            for (n, chunk) in ids.chunks(CHUNK).enumerate() {
                buf.clear();
                for &k in chunk {
                    push_grid(&mut buf, &space.grid(k), format);
                }
                w.write_all(&buf)?;
                progress((n * CHUNK + chunk.len()) as u64);
            }
        }
        GridMethod::Random => {
            let mut seen: HashSet<(u128, u64)> = HashSet::new();
            let mut done = 0u64;
            while done < count {
                let n = (count - done).min(CHUNK as u64);
                let grids: Vec<[u8; 81]> = (done..done + n)
                    .into_par_iter()
                    .map(|i| {
                        random_grid(&mut Rng::new(seed, Purpose::RandomGrid, 0, i), first_digit)
                    })
                    .collect();
                buf.clear();
                for (i, mut g) in (done..).zip(grids) {
                    let mut attempt = 1;
                    while !seen.insert(fingerprint(&g)) {
                        g = random_grid(
                            &mut Rng::new(seed, Purpose::RandomGrid, attempt, i),
                            first_digit,
                        );
                        attempt += 1;
                    }
                    push_grid(&mut buf, &g, format);
                }
                w.write_all(&buf)?;
                done += n;
                progress(done);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::transform::TransformSpace;

    #[test]
    fn fingerprints_are_distinct_for_distinct_grids() {
        let space = TransformSpace::new(None).unwrap();
        let mut keys = HashSet::new();
        // Grids that share first rows and differ only lower down.
        for k in 0..50_000 {
            assert!(keys.insert(fingerprint(&space.grid(k))), "index {k}");
        }
        let identity = space.grid(0);
        assert_eq!(
            fingerprint(&identity).0 >> 95,
            0,
            "row 1 = 123456789 has rank 0"
        );
    }
}
