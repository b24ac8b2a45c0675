//! Writes a random isomorphic copy of every puzzle of a file: digits relabelled, rows permuted
//! within their band, bands permuted, columns within their stack, stacks permuted, and the grid
//! transposed half of the time. Such a copy has the same number of solutions and the same
//! difficulty as its source, only another orientation, so a solver's speed on the copies shows
//! whether a gain is tuned to the orientation of a file. Reproducible per seed.
//!
//! ```sh
//! cargo run --release --example isomorph -- FILE SEED > FILE.iso
//! ```

use harness::input::format::PuzzleReader;

/// splitmix64: a small, well-mixed generator, enough for shuffling.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A uniform permutation of `0..n` (Fisher-Yates).
    fn perm<const N: usize>(&mut self) -> [usize; N] {
        let mut p: [usize; N] = std::array::from_fn(|i| i);
        for i in (1..N).rev() {
            p.swap(i, self.below(i + 1));
        }
        p
    }
}

/// A line permutation (rows or columns): bands (stacks) permuted, then lines within each.
fn lines(rng: &mut Mix) -> [usize; 9] {
    let outer = rng.perm::<3>();
    let mut out = [0; 9];
    for (b, &ob) in outer.iter().enumerate() {
        let inner = rng.perm::<3>();
        for (k, &ik) in inner.iter().enumerate() {
            out[b * 3 + k] = ob * 3 + ik;
        }
    }
    out
}

fn transform(cells: &[u8; 81], rng: &mut Mix) -> [u8; 81] {
    let digits = rng.perm::<9>();
    let (rows, cols) = (lines(rng), lines(rng));
    let transpose = rng.below(2) == 1;
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            let d = cells[sr * 9 + sc];
            out[r * 9 + c] = if d == 0 {
                0
            } else {
                digits[d as usize - 1] as u8 + 1
            };
        }
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(file), Some(seed)) = (args.next(), args.next()) else {
        eprintln!("usage: isomorph FILE SEED");
        std::process::exit(2);
    };
    let Ok(seed) = seed.parse::<u64>() else {
        eprintln!("isomorph: SEED must be a whole number, got {seed:?}");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("isomorph: cannot read {file}: {e}");
            std::process::exit(1);
        }
    };
    let mut rng = Mix(seed);
    let mut out = String::new();
    for entry in PuzzleReader::from_text(&text, &file) {
        match entry.puzzle {
            Ok(p) => {
                let Some(grid) = p.grid() else {
                    eprintln!(
                        "isomorph: {file}:{}: {} puzzle: 9x9 only",
                        entry.line,
                        p.shape()
                    );
                    std::process::exit(1);
                };
                let t = transform(grid.cells(), &mut rng);
                out.extend(
                    t.iter()
                        .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char }),
                );
                out.push('\n');
            }
            Err(e) => {
                eprintln!("isomorph: {e}");
                std::process::exit(1);
            }
        }
    }
    print!("{out}");
}
