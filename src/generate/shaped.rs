//! Solved grids of every [`Shape`]: Sudoku grids with any boxes, and Latin squares.
//!
//! - **Latin squares** are uniformly random: [`super::latin`] (Jacobson and Matthews's chain).
//! - **Sudoku grids** (boxes r x c, side N = r·c, N ≠ 9 or 9x9 asked for through these
//!   functions) are filled by a randomized depth-first search like the 9x9 `random` method
//!   ([`super::random_grid`]): the empty cell with the fewest candidates first (MRV; ties go to the
//!   first in a random scan order of the empty cells, drawn per grid), its candidates tried in a random
//!   order, backtracking on a dead end. Every grid is reachable, but the distribution is **not**
//!   uniform over the grids of the shape. The search is capped at [`FILL_NODES_PER_CELL`]
//!   placements a cell; a capped search restarts from an empty grid on a fresh random stream, up
//!   to [`FILL_RESTARTS`] times.
//! - Sides above [`SEARCH_MAX_SIDE`] (36x36 and up, where the capped search rarely finishes),
//!   and grids whose searches were all capped, are the *pattern grid*
//!   `L[r][c] = (c_box·(r mod r_box) + r div r_box + c) mod N` with its symbols, the rows within
//!   each band, the bands, the columns within each stack and the stacks permuted at random: a
//!   much narrower distribution (every row is a cyclic shift of the first, up to the symbol and
//!   column permutations), but instant at any side.
//!
//! Every draw comes from [`Rng`], so a grid is a function of `(seed, index)` only.

use super::latin::random_latin_square;
use super::random_grid::random_grid;
use super::rng::{Purpose, Rng};
use solvers::{Board, Shape};

/// Placements a cell the randomized search may make before it restarts.
pub const FILL_NODES_PER_CELL: u64 = 8;

/// Restarts of the randomized search before the permuted pattern grid is used.
pub const FILL_RESTARTS: u32 = 4;

/// The largest side filled by the randomized search (25x25 and 5x6 boxes are; 36x36 is not).
pub const SEARCH_MAX_SIDE: usize = 30;

/// Search state: symbols placed and the symbols used per row, column and box (bit s-1).
struct Fill {
    n: usize,
    cells: Vec<solvers::Symbol>,
    rows: Vec<u128>,
    cols: Vec<u128>,
    boxes: Vec<u128>,
    box_of: Vec<u16>,
    all: u128,
}

impl Fill {
    /// An empty grid of `shape`.
    fn new(shape: Shape) -> Fill {
        let n = shape.side();
        Fill {
            n,
            cells: vec![0; n * n],
            rows: vec![0; n],
            cols: vec![0; n],
            boxes: vec![0; n],
            box_of: (0..n * n)
                .map(|i| shape.box_of(i).unwrap_or(0) as u16)
                .collect(),
            all: if n == 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            },
        }
    }

    /// The symbols cell `i` may take (bit s-1).
    #[inline]
    fn candidates(&self, i: usize) -> u128 {
        let (r, c, b) = (i / self.n, i % self.n, self.box_of[i] as usize);
        !(self.rows[r] | self.cols[c] | self.boxes[b]) & self.all
    }

    /// Places symbol `s` in empty cell `i`, or takes it out of cell `i` holding it.
    #[inline]
    fn toggle(&mut self, i: usize, s: solvers::Symbol) {
        let bit = 1u128 << (s - 1);
        let (r, c, b) = (i / self.n, i % self.n, self.box_of[i] as usize);
        self.rows[r] ^= bit;
        self.cols[c] ^= bit;
        self.boxes[b] ^= bit;
        self.cells[i] = if self.cells[i] == 0 { s } else { 0 };
    }
}

/// A frame of the search: the cell, and its candidates in `arena[start..end]`, `next` to try.
struct Frame {
    cell: usize,
    start: usize,
    end: usize,
    next: usize,
}

/// Fills an empty grid of `shape` (boxes required) by randomized MRV search; `None` when
/// `max_nodes` placements did not finish it.
fn search(shape: Shape, rng: &mut Rng, max_nodes: u64) -> Option<Vec<solvers::Symbol>> {
    let f = Fill::new(shape);
    // The random scan order: MRV ties go to the earliest cell in it.
    let mut order: Vec<u16> = (0..shape.cells() as u16).collect();
    rng.shuffle(&mut order);
    let mut s = Search {
        f,
        empty: Empties::new(order),
        arena: Vec::new(),
        stack: Vec::new(),
        nodes: 0,
    };
    loop {
        match s.empty.choose(&s.f) {
            None => return Some(s.f.cells),
            Some((cell, n)) if n > 0 => s.branch(cell, rng),
            Some(_) => {
                if !s.backtrack() {
                    return None;
                }
            }
        }
        if s.nodes > max_nodes {
            return None;
        }
    }
}

/// The empty cells of a search in scan order: `cells[..live]` are empty, a filled cell is
/// swapped out to the end of the live part, `pos[c]` says where cell `c` is.
struct Empties {
    cells: Vec<u16>,
    live: usize,
    pos: Vec<usize>,
}

impl Empties {
    /// Every cell empty, in scan order `order`.
    fn new(order: Vec<u16>) -> Empties {
        let mut pos: Vec<usize> = vec![0; order.len()];
        for (k, &c) in order.iter().enumerate() {
            pos[c as usize] = k;
        }
        Empties {
            live: order.len(),
            cells: order,
            pos,
        }
    }

    /// The cell to fill and its number of candidates: fewest candidates, the first in the
    /// (random) scan order among ties; `None` when no cell is empty.
    fn choose(&self, f: &Fill) -> Option<(usize, u32)> {
        let mut best = None;
        let mut best_n = u32::MAX;
        for &c in &self.cells[..self.live] {
            let m = f.candidates(c as usize).count_ones();
            if m < best_n {
                best_n = m;
                best = Some(c as usize);
                if m <= 1 {
                    break;
                }
            }
        }
        best.map(|c| (c, best_n))
    }

    /// Takes cell `c`, just filled, out of the live part.
    fn remove(&mut self, c: usize) {
        let k = self.pos[c];
        self.live -= 1;
        self.cells.swap(k, self.live);
        self.pos[self.cells[k] as usize] = k;
        self.pos[c] = self.live;
    }

    /// Puts cell `c`, empty again, back into the live part (order among empties changes, which
    /// is still a function of the random stream).
    fn restore(&mut self, c: usize) {
        let k = self.pos[c];
        self.cells.swap(k, self.live);
        self.pos[self.cells[k] as usize] = k;
        self.pos[c] = self.live;
        self.live += 1;
    }
}

/// The randomized search: the grid being filled, its empty cells, the frames with their
/// candidates (in `arena`), and the placements made.
struct Search {
    f: Fill,
    empty: Empties,
    arena: Vec<solvers::Symbol>,
    stack: Vec<Frame>,
    nodes: u64,
}

impl Search {
    /// Places the first of `cell`'s candidates (it has some) in a random order, pushing its frame.
    fn branch(&mut self, cell: usize, rng: &mut Rng) {
        let start = self.arena.len();
        let cand = self.f.candidates(cell);
        self.arena
            .extend((1..=self.f.n as solvers::Symbol).filter(|&s| cand >> (s - 1) & 1 == 1));
        rng.shuffle(&mut self.arena[start..]);
        let end = self.arena.len();
        self.stack.push(Frame {
            cell,
            start,
            end,
            next: start + 1,
        });
        self.f.toggle(cell, self.arena[start]);
        self.empty.remove(cell);
        self.nodes += 1;
    }

    /// Dead end: undoes frames until one has a candidate left, and places it; false when none
    /// has.
    fn backtrack(&mut self) -> bool {
        loop {
            let Some(frame) = self.stack.last_mut() else {
                return false;
            };
            let cell = frame.cell;
            let old = self.f.cells[cell];
            self.f.toggle(cell, old);
            if frame.next < frame.end {
                let s = self.arena[frame.next];
                frame.next += 1;
                self.f.toggle(cell, s);
                self.nodes += 1;
                return true;
            }
            self.arena.truncate(frame.start);
            self.stack.pop();
            self.empty.restore(cell);
        }
    }
}

/// The pattern grid of `shape`'s boxes with symbols, rows in bands, bands, columns in stacks and
/// stacks permuted at random.
fn permuted_pattern(shape: Shape, rng: &mut Rng) -> Vec<solvers::Symbol> {
    let n = shape.side();
    let (br, bc) = shape.boxes().unwrap_or((1, n));
    let mut symbols: Vec<solvers::Symbol> = (1..=n as solvers::Symbol).collect();
    rng.shuffle(&mut symbols);
    let permute_lines = |rng: &mut Rng, per: usize| -> Vec<usize> {
        // `n / per` groups of `per` lines: groups permuted, lines within each group permuted.
        let mut groups: Vec<usize> = (0..n / per).collect();
        rng.shuffle(&mut groups);
        let mut out = Vec::with_capacity(n);
        for g in groups {
            let mut lines: Vec<usize> = (g * per..(g + 1) * per).collect();
            rng.shuffle(&mut lines);
            out.extend(lines);
        }
        out
    };
    let rows = permute_lines(rng, br);
    let cols = permute_lines(rng, bc);
    let mut out = vec![0; n * n];
    for (r, &pr) in rows.iter().enumerate() {
        for (c, &pc) in cols.iter().enumerate() {
            out[r * n + c] = symbols[(bc * (pr % br) + pr / br + pc) % n];
        }
    }
    out
}

/// Grid `index` of a batch seeded by `seed` for a Sudoku `shape` (with boxes), draw `attempt`
/// (0 for `harness generate grids`; a puzzle's later attempts draw new grids): the randomized
/// search up to side [`SEARCH_MAX_SIDE`], restarted on fresh streams when capped, else the
/// permuted pattern grid (module docs).
/// The 9x9 shape gives the `random` method's grid ([`random_grid`]).
pub fn random_sudoku_grid(
    shape: Shape,
    seed: u64,
    attempt: u32,
    index: u64,
) -> Vec<solvers::Symbol> {
    if shape.is_classic() {
        return random_grid(
            &mut Rng::new(seed, Purpose::RandomGrid, attempt, index),
            None,
        )
        .iter()
        .map(|&v| solvers::Symbol::from(v))
        .collect();
    }
    let cap = FILL_NODES_PER_CELL * shape.cells() as u64;
    let base = attempt.wrapping_mul(FILL_RESTARTS + 1);
    let restarts = if shape.side() <= SEARCH_MAX_SIDE {
        FILL_RESTARTS
    } else {
        0
    };
    for restart in 0..restarts {
        let mut rng = Rng::new(seed, Purpose::ShapedGrid, base.wrapping_add(restart), index);
        if let Some(g) = search(shape, &mut rng, cap) {
            return g;
        }
    }
    permuted_pattern(
        shape,
        &mut Rng::new(
            seed,
            Purpose::ShapedGrid,
            base.wrapping_add(FILL_RESTARTS),
            index,
        ),
    )
}

/// Solved grid `index` of a batch seeded by `seed`, draw `attempt`, of any shape: a uniformly
/// random Latin square ([`random_latin_square`]) for a Latin shape, else
/// [`random_sudoku_grid`].
pub fn random_solved(shape: Shape, seed: u64, attempt: u32, index: u64) -> Board {
    let cells = if shape.is_latin() {
        random_latin_square(
            &mut Rng::new(seed, Purpose::Latin, attempt, index),
            shape.side(),
        )
    } else {
        random_sudoku_grid(shape, seed, attempt, index)
    };
    Board::new(shape, cells).expect("symbols 1..=N")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(shape: Shape, g: &[solvers::Symbol]) {
        let n = shape.side();
        assert!(
            crate::verify::check_shaped(n, shape.boxes(), &vec![0; n * n], g, None).is_ok(),
            "{shape}: {g:?}"
        );
    }

    #[test]
    fn searched_and_pattern_grids_are_valid() {
        for (r, c) in [
            (1, 1),
            (1, 2),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 4),
            (4, 4),
            (2, 5),
            (5, 5),
        ] {
            let shape = Shape::sudoku(r, c).unwrap();
            for i in 0..3 {
                let g = random_sudoku_grid(shape, 7, 0, i);
                check(shape, &g);
                assert_eq!(g, random_sudoku_grid(shape, 7, 0, i));
                check(
                    shape,
                    &permuted_pattern(shape, &mut Rng::new(1, Purpose::ShapedGrid, 0, i)),
                );
            }
        }
        let latin = Shape::latin(7).unwrap();
        check(
            latin,
            &permuted_pattern(latin, &mut Rng::new(1, Purpose::ShapedGrid, 0, 0)),
        );
    }

    #[test]
    fn a_tiny_cap_falls_back_to_the_pattern() {
        let shape = Shape::of_order(4).unwrap();
        assert!(search(shape, &mut Rng::new(1, Purpose::ShapedGrid, 0, 0), 3).is_none());
    }
}
