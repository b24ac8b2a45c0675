//! `bitmask-dfs`: depth-first search over the empty cells in row-major order, with the digits
//! used in each row, column and box kept as 9-bit masks.
//!
//! A cell's candidates are the digits free in its row, column and box (the AND of three masks);
//! they are tried lowest digit first. Placing and removing a digit flips one bit in three masks,
//! so a node costs O(1) plus the candidates tried. This is the classic "bitmask backtracking"
//! found in many write-ups; it differs from `backtracking` only in how a digit is checked, so
//! their node counts agree.
//!
//! Layout: the empty cells are listed once, in row-major order, as the three mask slots of each
//! (one byte array per slot); the digit tried at each position is kept beside the list and the
//! grid is written out only when the search succeeds. The recursion runs as a loop over an
//! explicit stack of the candidates left at each position. Nothing is copied per node.
//!
//! Counters: one node per call of the recursive search, including the call that finds the grid
//! full (so for the "17-second hard case" the count equals a Python run of the same algorithm:
//! 7,368,194 calls). A guess is a node with two or more candidates. No propagations.
//!
//! Shapes: every [`Shape`](crate::Shape) ([`Shapes::Any`]). A 9x9 board takes the fast path
//! above; any other shape the same search with one N-bit mask per row, column and box (a `u32`,
//! `u64` or `u128` by the side, `shaped.rs`; a Latin square's third mask shadows the row),
//! the same loop over an explicit stack and the same counters.

use crate::budget::Poll;
use crate::engine::{Caps, Shapes};
use crate::shaped::{by_width, fixed_order, FixedOrder, Mask, Slots, Tally};
use crate::{Board, Budget, Count, Grid, Outcome, Solver, Stats, Status};

/// The bitmask depth-first solver. Stateless.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitmaskDfs;

struct Search<'a> {
    /// The digits still free in each unit: slot `r` for row `r`, `9 + c` for column `c`,
    /// `18 + b` for box `b`. 256 slots so that a `u8` slot needs no bounds check.
    free: [u32; 256],
    /// The empty cells in row-major order: the row slot of each.
    row: [u8; 81],
    /// The column slot (`9 + c`) of each empty cell.
    col: [u8; 81],
    /// The box slot (`18 + b`) of each empty cell.
    boxx: [u8; 81],
    /// The digit placed at each position of the current path, as its bit.
    placed: [u32; 81],
    /// Empty cells.
    len: usize,
    stats: Stats,
    budget: &'a Budget,
    out_of_budget: bool,
}

/// The mask slots (row, `9 + column`, `18 + box`) of each cell.
static SLOTS: [[u8; 3]; 81] = {
    let mut t = [[0u8; 3]; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = [
            (i / 9) as u8,
            (9 + i % 9) as u8,
            (18 + (i / 27) * 3 + (i % 9) / 3) as u8,
        ];
        i += 1;
    }
    t
};

impl Search<'_> {
    /// The candidates of the empty cell at position `k` (`k < 81`).
    #[inline(always)]
    fn candidates(&self, k: usize) -> u32 {
        self.free[self.row[k] as usize]
            & self.free[self.col[k] as usize]
            & self.free[self.boxx[k] as usize]
    }

    /// Flips the digit of `bit` in the three masks of the empty cell at position `k`.
    #[inline(always)]
    fn toggle(&mut self, k: usize, bit: u32) {
        self.free[self.row[k] as usize] ^= bit;
        self.free[self.col[k] as usize] ^= bit;
        self.free[self.boxx[k] as usize] ^= bit;
    }

    /// Fills the empty cells in order; true when the grid is full. The recursion of the
    /// algorithm (one call per node: fill position `k`, then call for `k + 1`) runs as a loop
    /// over an explicit stack of the candidates left at each position; the counters are those
    /// of the recursive form.
    fn run(&mut self) -> bool {
        let len = self.len.min(81);
        // The counters live in registers during the search.
        let (mut nodes, mut guesses, mut backtracks) = (0u64, 0u64, 0u64);
        // `Budget::check` with one comparison per node.
        let mut poll = Poll::new(self.budget);
        let mut spent = |nodes: u64| poll.spent(nodes);
        // left[k]: the candidates position k has not tried yet.
        let mut left = [0u32; 81];
        let mut k = 0;
        // The call for position 0.
        nodes += 1;
        let full = 'search: {
            if spent(nodes) {
                self.out_of_budget = true;
                break 'search false;
            }
            if len == 0 {
                break 'search true;
            }
            left[0] = self.candidates(0);
            guesses += (left[0] & left[0].wrapping_sub(1) != 0) as u64;
            loop {
                let cand = left[k];
                if cand == 0 {
                    // The call for position k returns false: its caller takes back its digit.
                    if k == 0 {
                        break 'search false;
                    }
                    k -= 1;
                    self.toggle(k, self.placed[k]);
                    backtracks += 1;
                    continue;
                }
                let bit = cand & cand.wrapping_neg();
                left[k] = cand ^ bit;
                self.toggle(k, bit);
                self.placed[k] = bit;
                // The call for position k + 1.
                nodes += 1;
                if spent(nodes) {
                    self.out_of_budget = true;
                    break 'search false;
                }
                if k + 1 >= len {
                    break 'search true;
                }
                let next = self.candidates(k + 1);
                guesses += (next & next.wrapping_sub(1) != 0) as u64;
                if next == 0 {
                    // A dead end: the call for position k + 1 returns false at once.
                    self.toggle(k, bit);
                    backtracks += 1;
                    continue;
                }
                k += 1;
                left[k] = next;
            }
        };
        self.stats.nodes += nodes;
        self.stats.guesses += guesses;
        self.stats.backtracks += backtracks;
        full
    }
}

impl Solver for BitmaskDfs {
    fn name(&self) -> &'static str {
        "bitmask-dfs"
    }

    fn caps(&self) -> Caps {
        Caps {
            counts: false,
            shapes: Shapes::Any,
            ..Caps::POLLED_SEARCH
        }
    }

    fn solve(&mut self, puzzle: &Grid, budget: &Budget) -> Outcome {
        let mut s = Search {
            free: [0; 256],
            row: [0; 81],
            col: [0; 81],
            boxx: [0; 81],
            placed: [0; 81],
            len: 0,
            stats: Stats::default(),
            budget,
            out_of_budget: false,
        };
        s.free[..27].fill(crate::bits::ALL as u32);
        // Without a branch per cell: an empty cell's slots are written at the end of the list,
        // which grows by one; a given clears its digit (bit 0 of `1 << v` is dropped, so an
        // empty cell clears nothing). Clear, not toggle: a repeated given must not free its
        // digit again.
        for (i, &v) in puzzle.cells().iter().enumerate() {
            let [r, c, b] = SLOTS[i];
            let q = s.len.min(80);
            s.row[q] = r;
            s.col[q] = c;
            s.boxx[q] = b;
            s.len += (v == 0) as usize;
            let given = !((1u32 << v) >> 1);
            s.free[r as usize] &= given;
            s.free[c as usize] &= given;
            s.free[b as usize] &= given;
        }
        if s.run() {
            let mut cells = *puzzle.cells();
            let mut k = 0;
            for cell in cells.iter_mut() {
                let empty = *cell == 0;
                if empty {
                    *cell = s.placed[k.min(80)].trailing_zeros() as u8 + 1;
                }
                k += empty as usize;
            }
            let solution = Grid::from_cells(cells).expect("digits stay in 0..=9");
            Outcome::solved(solution, s.stats)
        } else if s.out_of_budget {
            Outcome::unsolved(Status::Timeout, s.stats)
        } else {
            Outcome::unsolved(Status::NoSolution, s.stats)
        }
    }

    fn solve_board(&mut self, puzzle: &Board, budget: &Budget) -> Option<Outcome<Board>> {
        if let Some(grid) = puzzle.to_grid() {
            return Some(self.solve(&grid, budget).map(Board::from));
        }
        Some(by_width!(puzzle.shape().side(), search_board(puzzle, budget)).outcome(puzzle.shape()))
    }

    fn count_board(&mut self, _: &Board, _: u64, _: &Budget) -> Option<Count<Board>> {
        None
    }
}

/// Room for the unit slots of any shape (3N + 1 <= 385 for N <= [`MAX_SIDE`](crate::MAX_SIDE)),
/// a power of two: a slot index taken modulo it needs no bounds check.
const SLOT_ROOM: usize = 512;

/// The grid of the search at any shape: one mask of free symbols per unit slot ([`Slots`]) and
/// the three slots of each empty cell, in row-major order.
struct Free<M> {
    free: [M; SLOT_ROOM],
    slot: Vec<[u16; 3]>,
}

impl<M: Mask> Free<M> {
    /// Flips the symbol of `bit` in the three slots of position `k`.
    #[inline(always)]
    fn toggle(&mut self, k: usize, bit: M) {
        for s in self.slot[k] {
            self.free[s as usize % SLOT_ROOM] ^= bit;
        }
    }
}

impl<M: Mask> FixedOrder<M> for Free<M> {
    #[inline(always)]
    fn candidates(&self, k: usize) -> M {
        let [r, c, b] = self.slot[k];
        self.free[r as usize % SLOT_ROOM]
            & self.free[c as usize % SLOT_ROOM]
            & self.free[b as usize % SLOT_ROOM]
    }

    #[inline(always)]
    fn place(&mut self, k: usize, bit: M) {
        self.toggle(k, bit);
    }

    #[inline(always)]
    fn take_back(&mut self, k: usize, bit: M) {
        self.toggle(k, bit);
    }
}

/// The search on a board of any shape (side N <= `M::BITS`): [`Search::run`] with one mask per
/// unit slot ([`Slots`]) and the row-major list of empty cells, run by [`fixed_order`].
fn search_board<'a, M: Mask>(puzzle: &Board, budget: &'a Budget) -> Tally<'a> {
    let slots = Slots::of(puzzle.shape());
    let mut grid = Free {
        free: [M::ZERO; SLOT_ROOM],
        slot: Vec::new(),
    };
    grid.free[..slots.len()].copy_from_slice(&slots.free_masks(puzzle));
    let mut cells = puzzle.cells().to_vec();
    let empty: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == 0).collect();
    grid.slot = empty.iter().map(|&i| slots.cell(i)).collect();
    let (mut t, placed) = fixed_order(&mut grid, empty.len(), budget);
    if let Some(placed) = placed {
        t.solution(|| {
            for (&i, bit) in empty.iter().zip(placed) {
                cells[i] = bit.first();
            }
            cells
        });
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backtracking::Backtracking;
    use crate::shaped::test_boards::{blank, pattern, shapes};
    use crate::test_puzzles::SEED;
    use crate::Shape;

    /// The counters (backtracks included) and the answer agree with `backtracking`, the same
    /// search done the textbook way: solved, stopped by a node limit, and with no solution.
    #[test]
    fn counters_agree_with_backtracking() {
        let puzzles = [
            SEED,
            // The seed puzzle with its first two givens removed: several solutions.
            "..........4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6",
            // No solution: the last two cells of row 1 both need a 9, found only by search.
            "1234567..........8.........9.....................................................",
        ];
        for puzzle in puzzles {
            let grid: Grid = puzzle.parse().unwrap();
            for limit in [None, Some(0), Some(100), Some(1000)] {
                let budget = Budget::unlimited().max_nodes(limit);
                let ours = BitmaskDfs.solve(&grid, &budget);
                let theirs = Backtracking.solve(&grid, &budget);
                assert_eq!(ours.status, theirs.status, "{puzzle} {limit:?}");
                assert_eq!(ours.solution, theirs.solution, "{puzzle} {limit:?}");
                assert_eq!(ours.stats, theirs.stats, "{puzzle} {limit:?}");
            }
        }
    }

    /// On the classic shape the search over unit slots makes the search of the 9x9 fast path.
    #[test]
    fn the_shaped_search_is_the_fast_path_on_9x9() {
        for puzzle in [
            SEED,
            "..........4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6",
            "1234567..........8.........9.....................................................",
        ] {
            let grid: Grid = puzzle.parse().unwrap();
            let board = Board::from_grid(&grid);
            for limit in [None, Some(0), Some(100), Some(1000)] {
                let budget = Budget::unlimited().max_nodes(limit);
                let fast = BitmaskDfs.solve(&grid, &budget).map(Board::from);
                let shaped = search_board::<u64>(&board, &budget).outcome(Shape::CLASSIC);
                assert_eq!(fast, shaped, "{puzzle} {limit:?}");
            }
        }
    }

    /// At every shape the counters (backtracks included) and the answer agree with
    /// `backtracking`, as on 9x9.
    #[test]
    fn counters_agree_with_backtracking_at_every_shape() {
        for shape in shapes() {
            let puzzle = blank(&pattern(shape), 1, 4);
            for limit in [0, 10, 5000, 100_000] {
                let budget = Budget::unlimited().max_nodes(Some(limit));
                let ours = BitmaskDfs.solve_board(&puzzle, &budget).unwrap();
                let theirs = Backtracking.solve_board(&puzzle, &budget).unwrap();
                assert_eq!(ours, theirs, "{shape} {limit}");
                if limit == 100_000 && shape.side() <= 16 {
                    assert_eq!(ours.status, Status::Solved, "{shape}");
                }
            }
        }
    }
}
