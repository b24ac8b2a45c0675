//! `bitmask-singles`: bitmask depth-first search that fills naked singles to a fixpoint before the
//! search and after every guess, and branches on the cell with the fewest candidates (the MRV
//! heuristic: minimum remaining values).
//!
//! See Norvig, "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html), for the same idea over
//! candidate sets; this version keeps only the naked-single rule.
//!
//! ## Data layout
//! - `free`: the digits still free in each row, column and box, 27 nine-bit masks; a cell's
//!   candidates are the AND of its three masks. Filling a cell flips one bit in three masks, and
//!   going back flips them again, so nothing is copied on a branch.
//! - The list of the puzzle's empty cells, as the three mask slots of each cell packed in one
//!   `u32` (the scan loads a cell with one instruction, a swap moves one word): positions
//!   `..depth` hold the cells filled on the current path, in the order they were filled,
//!   positions `depth..` the cells still empty. Filling the cell at position `p` swaps it to
//!   position `depth` and advances `depth`; going back up the tree only restores `depth`, so the
//!   list is never copied (its order changes, its contents do not). The digit filled at each
//!   position is kept beside it, as its bit. One more entry past the end, a sentinel whose slots
//!   hold no free digit, ends every scan: the scan loops test nothing else for the end.
//! - The scan counts candidates with the `popcnt` instruction and tests for singles with `blsr`
//!   when the processor has them (checked at run time; the default x86-64 target has neither),
//!   else with a table and `a & (a - 1)`. Both make the same search. `HARNESS_SIMD=portable`
//!   (or `sse2`, `ssse3`), the variable that forces `triads`' path, forces the table scan too.
//!
//! ## Propagation and branching
//! A scan runs over the empty part of the list from its start. A cell with no candidate is a
//! contradiction; it is moved to the front of the empty part, so the next sibling looks at it
//! first. A cell with one candidate (a naked single) is filled and the scan starts again from the
//! front. A scan that reaches the end has seen every empty cell since the last cell was filled:
//! the fixpoint. The branch cell is the first cell of that scan with the fewest candidates; once
//! a cell with two is met nothing can beat it, and the rest of the scan only looks for singles
//! (a cheaper test). The branch digits are tried lowest first.
//!
//! Naked singles reach the same fixpoint, and the same verdict (contradiction or not), in any
//! order; the order of the list decides only which cell wins a tie. Breaking ties by the list's
//! order, which the search keeps reordering, gives search trees of about the size tdoku's
//! `TdokuSolverBasic` with MRV has; breaking them by the lowest row-major cell index made the
//! trees 2 to 4 times larger on the hard public sets (it keeps choosing cells near the top of the
//! grid). This list discipline (front-swaps of filled and contradicting cells, a rescan from the
//! front after each fill, the first cell with the fewest candidates) is the one tdoku's basic
//! solver uses, so up to the first backtrack the two make the same search.
//!
//! ## Units with a digit left and no place for it
//! Once the search has backtracked, each fixpoint that is not full also checks every unit: a
//! digit still free in a row, column or box that none of its empty cells can take is a
//! contradiction (one more pass over the empty cells, ORing each cell's candidates into its
//! three units). Naked singles alone find such a dead end only deeper down, when the last cells
//! of that unit run out of candidates. Puzzles with many solutions and few givens are where this
//! pays most: a wrong guess near the root leaves a wide subtree of partial grids that naked
//! singles never refute early. It took the mean nodes per puzzle from 91.8 to 31.4 on 5,000 such
//! puzzles (18 to 26 random givens of random grids), from 3,160 to 704 on the first 1,000
//! 17-clue puzzles, and by about a quarter on the hardest sets. A search that reaches a
//! solution without backtracking never needs the check, so it starts after the first backtrack
//! and the easiest puzzles do not pay for it.
//!
//! Counters: the root is one node; each digit tried at a branch point enters one more node.
//! Every branch point has two or more candidates (singles are filled first), so guesses equal
//! branch points. Propagations count naked singles placed, in every node, including those placed
//! in a node before its contradiction was found.
//!
//! ## Shapes
//! Every [`Shape`](crate::Shape) ([`Shapes::Any`](crate::engine::Shapes::Any)). A 9x9 board takes the fast path above; any
//! other shape the same search: one N-bit mask per row, column and box (a `u32`, `u64`,
//! `u128` or several words by the side, `search.rs`; a Latin square's third mask shadows the row), the same list discipline, scan and counters, and the recursion run as a loop over an
//! explicit stack of branch points (the path of a large grid is too deep for recursion).

use crate::search::{by_width, Mask, Slots, Tally};
use crate::{Board, Budget, Grid, Symbol};

/// The bitmask solver with naked singles and MRV branching. Stateless; counts solutions.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitmaskSingles;

/// Number of candidates of a nine-bit mask.
static POPCOUNT: [u8; 512] = crate::bits::POPCOUNT;

/// The mask slot that never holds a free digit.
const NONE: u8 = 27;

/// The sentinel past the end of the list: its slots hold no candidate, so the scan stops there.
const SENTINEL: [u8; 4] = [NONE; 4];

/// The mask slots (row `r`, `9 + c` for column `c`, `18 + b` for box `b`) of each cell,
/// row-major, as a list entry.
static SLOTS: [[u8; 4]; 81] = {
    let mut t = [[0u8; 4]; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = [
            (i / 9) as u8,
            (9 + i % 9) as u8,
            (18 + (i / 27) * 3 + (i % 9) / 3) as u8,
            0,
        ];
        i += 1;
    }
    t
};

/// What the propagation pass found.
enum Fill {
    /// Every cell is filled.
    Full,
    /// Some cell has no candidate.
    Contradiction,
    /// The list position of the branch cell (two or more candidates).
    Branch(usize),
}

struct Search<'a> {
    tally: Tally<'a>,
    /// The digits still free in each unit: slot `r` for row `r`, `9 + c` for column `c`,
    /// `18 + b` for box `b` (bit `d - 1` = digit `d`); slot [`NONE`] stays 0.
    free: [u32; 28],
    /// The list of empty cells: the slots of the cell at each position (row, column, box; the
    /// fourth byte is unused), one word per cell so that a swap moves one word. Position `len`
    /// holds [`SENTINEL`].
    pos: [[u8; 4]; 82],
    /// The digit filled at each position `..depth`, as its bit.
    bit: [u32; 81],
    /// Empty cells of the puzzle: the list's length (at most 81).
    len: usize,
    /// Cells filled on the current path: the empty ones are at positions `depth..len`.
    depth: usize,
    /// The puzzle as given (row-major, 0 = empty).
    givens: [u8; 81],
}

/// How the scan counts candidates: [`Plain`] on any processor, [`Popcnt`] with the `popcnt` and
/// `bmi1` instructions. Both make the same search.
trait Scan {
    /// [`Search::propagate`] compiled for this way of counting.
    fn propagate(s: &mut Search<'_>) -> Fill;
}

/// The scan for any processor: a table for the count, `a & (a - 1)` for the single test.
struct Plain;

impl Scan for Plain {
    #[inline(never)]
    fn propagate(s: &mut Search<'_>) -> Fill {
        s.propagate(|a| POPCOUNT[a as usize & 511] as u32)
    }
}

/// The scan compiled with `popcnt` and `bmi1` (`blsr` for the single test); only entered when
/// the processor has them.
#[cfg(target_arch = "x86_64")]
struct Popcnt;

#[cfg(target_arch = "x86_64")]
impl Scan for Popcnt {
    #[inline(always)]
    fn propagate(s: &mut Search<'_>) -> Fill {
        // SAFETY: `run` takes this path only after `is_x86_feature_detected!` found both
        // features on this processor.
        unsafe { propagate_popcnt(s) }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
#[inline(never)]
unsafe fn propagate_popcnt(s: &mut Search<'_>) -> Fill {
    s.propagate(u32::count_ones)
}

/// True when this processor can take the [`Popcnt`] path.
#[cfg(target_arch = "x86_64")]
fn has_popcnt() -> bool {
    std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi1")
}

/// True when solves take the [`Popcnt`] path: the processor has `popcnt` and `bmi1`, and
/// `HARNESS_SIMD` ([`crate::triads::SimdPath::ENV`], shared with `triads`) does not force a path without them
/// (`portable`, `sse2`, `ssse3`; an unknown name is ignored, as `triads` ignores it). Read once
/// per process.
#[cfg(target_arch = "x86_64")]
fn use_popcnt() -> bool {
    use crate::triads::SimdPath;
    static USE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *USE.get_or_init(|| {
        has_popcnt()
            && !matches!(
                SimdPath::from_env(),
                Some(Ok(SimdPath::Portable | SimdPath::Sse2 | SimdPath::Ssse3))
            )
    })
}

impl Search<'_> {
    /// The slots (row, column, box) of list position `p` (`p <= len`).
    #[inline(always)]
    fn slots(&self, p: usize) -> [u8; 4] {
        debug_assert!(p <= self.len);
        // SAFETY: every caller passes `p <= len <= 81`, and `pos` has 82 entries: the scan
        // loops stop at the sentinel at `len` (it has no candidate), the others stay below `len`.
        unsafe { *self.pos.get_unchecked(p) }
    }

    /// The candidates of the cell at list position `p` (`p <= len`; 0 for the sentinel).
    #[inline(always)]
    fn candidates(&self, p: usize) -> u32 {
        let [r, c, b, _] = self.slots(p);
        // SAFETY: every slot of the list is below 28 (`SLOTS` and `SENTINEL`).
        unsafe {
            self.free.get_unchecked(r as usize)
                & self.free.get_unchecked(c as usize)
                & self.free.get_unchecked(b as usize)
        }
    }

    /// Marks the digit of `bit` used (or, when used, free again) in the units of the cell at
    /// list position `p` (`p < len`).
    #[inline(always)]
    fn toggle(&mut self, p: usize, bit: u32) {
        let [r, c, b, _] = self.slots(p);
        // SAFETY: as in `candidates`.
        unsafe {
            *self.free.get_unchecked_mut(r as usize) ^= bit;
            *self.free.get_unchecked_mut(c as usize) ^= bit;
            *self.free.get_unchecked_mut(b as usize) ^= bit;
        }
    }

    /// Fills naked singles until none is left, counting each as a propagation; each cell filled
    /// moves to position `depth`, and `depth` advances. `count` is the number of candidates of
    /// a mask. Inlined into each [`Scan`], which keeps it out of line: the scan loops get the
    /// registers to themselves.
    #[inline(always)]
    fn propagate(&mut self, count: impl Fn(u32) -> u32) -> Fill {
        let len = self.len.min(81);
        let start = self.depth.min(len);
        let mut d = start;
        let fill = 'scan: loop {
            let mut p = d;
            // The branch cell: the first one met with the fewest candidates.
            let mut best_n = u32::MAX;
            let mut best_p = d;
            loop {
                let cand = self.candidates(p);
                let n = count(cand);
                if n <= 1 {
                    if p >= len {
                        // The sentinel: the scan is over.
                        break;
                    }
                    if !self.fill(cand, p, &mut d) {
                        break 'scan Fill::Contradiction;
                    }
                    continue 'scan;
                }
                if n < best_n {
                    best_n = n;
                    best_p = p;
                    if n == 2 {
                        // Nothing can beat two: from here on, look for singles only.
                        p += 1;
                        loop {
                            let a = self.candidates(p);
                            if a & a.wrapping_sub(1) == 0 {
                                if p >= len {
                                    break;
                                }
                                if !self.fill(a, p, &mut d) {
                                    break 'scan Fill::Contradiction;
                                }
                                continue 'scan;
                            }
                            p += 1;
                        }
                        break;
                    }
                }
                p += 1;
            }
            self.depth = d;
            break if d == len {
                Fill::Full
            } else if self.tally.stats.backtracks > 0 && self.dead_unit() {
                Fill::Contradiction
            } else {
                Fill::Branch(best_p)
            };
        };
        self.tally.stats.propagations += (self.depth - start) as u64;
        fill
    }

    /// True when some unit has a free digit that none of its empty cells (positions
    /// `depth..len`) can take: a contradiction that naked singles alone find only deeper down.
    /// One pass over the empty cells.
    fn dead_unit(&self) -> bool {
        let mut seen = [0u32; 32];
        for q in self.depth..self.len.min(81) {
            let [r, c, b, _] = self.slots(q);
            let a = self.candidates(q);
            seen[r as usize & 31] |= a;
            seen[c as usize & 31] |= a;
            seen[b as usize & 31] |= a;
        }
        seen[..27] != self.free[..27]
    }

    /// Moves the cell at list position `p` (`p < len`, whose candidates are `cand`, at most
    /// one) to position `*d`. With one candidate, fills it, advances `*d` and returns true;
    /// with none (a contradiction: the next sibling looks at this cell first), sets `depth` to
    /// `*d` and returns false.
    #[inline(always)]
    fn fill(&mut self, cand: u32, p: usize, d: &mut usize) -> bool {
        let q = *d;
        self.pos.swap(p, q);
        if cand == 0 {
            self.depth = q;
            return false;
        }
        self.toggle(q, cand);
        self.bit[q] = cand;
        *d = q + 1;
        true
    }

    /// The solved grid: the givens and the digits of the list (all filled).
    fn grid(&self) -> [u8; 81] {
        let mut cells = self.givens;
        for q in 0..self.len.min(81) {
            let [r, c, _, _] = self.pos[q];
            let cell = r as usize * 9 + c as usize - 9;
            cells[cell] = self.bit[q].trailing_zeros() as u8 + 1;
        }
        cells
    }

    /// Explores the node whose empty cells are at list positions `depth..len` (already
    /// counted); returns true when the search must stop (limit reached or budget exhausted).
    /// Leaves `free` and `depth` as it found them.
    fn search<S: Scan>(&mut self) -> bool {
        let entry = self.depth;
        let stop = self.node::<S>();
        // Give back the digits of the singles this node filled.
        for q in entry..self.depth.min(81) {
            self.toggle(q, self.bit[q]);
        }
        self.depth = entry;
        stop
    }

    /// [`Search::search`] without giving back the singles the node filled (`depth` is past
    /// them): what the root needs, whose state nobody reads after it.
    #[inline(always)]
    fn node<S: Scan>(&mut self) -> bool {
        match S::propagate(self) {
            Fill::Contradiction => false,
            Fill::Full => {
                let first = self.tally.first.is_none();
                let cells = if first { self.grid() } else { [0; 81] };
                self.tally.solution(|| cells)
            }
            Fill::Branch(pos) => {
                self.tally.stats.guesses += 1;
                let d = self.depth;
                self.pos.swap(pos, d);
                let mut cand = self.candidates(d);
                let mut stop = false;
                while cand != 0 {
                    let bit = cand & cand.wrapping_neg();
                    cand ^= bit;
                    if self.tally.enter_node() {
                        stop = true;
                        break;
                    }
                    self.toggle(d, bit);
                    self.bit[d] = bit;
                    self.depth = d + 1;
                    stop = self.search::<S>();
                    self.toggle(d, bit);
                    if stop {
                        break;
                    }
                    self.tally.stats.backtracks += 1;
                }
                self.depth = d;
                stop
            }
        }
    }
}

/// The search of `puzzle` up to `limit` solutions, set up but not run (`tally.out_of_budget` is
/// set when the budget is spent already).
fn setup<'a>(puzzle: &Grid, limit: u64, budget: &'a Budget) -> Search<'a> {
    let mut search = Search {
        tally: Tally::new(limit, budget),
        free: [0; 28],
        pos: [SENTINEL; 82],
        bit: [0; 81],
        len: 0,
        depth: 0,
        givens: *puzzle.cells(),
    };
    search.free[..27].fill(crate::bits::ALL as u32);
    // Without a branch per cell: every cell's slots are written at the end of the list, which
    // grows by one for an empty cell; a given clears its digit (bit 0 of `1 << v` is dropped,
    // so an empty cell clears nothing). Clear, not toggle: a repeated given must not free its
    // digit again.
    for (i, &v) in puzzle.cells().iter().enumerate() {
        let slots = SLOTS[i];
        search.pos[search.len.min(80)] = slots;
        search.len += (v == 0) as usize;
        let given = !((1u32 << v) >> 1);
        for s in &slots[..3] {
            search.free[*s as usize] &= given;
        }
    }
    // The sentinel again, where the last given may have written its slots.
    search.pos[search.len] = SENTINEL;
    search
}

/// Searches `puzzle` up to `limit` solutions; the tally says what was found. Also the search
/// of `hybrid` on puzzles of many givens.
pub(crate) fn run<'a>(puzzle: &Grid, limit: u64, budget: &'a Budget) -> Tally<'a> {
    let mut search = setup(puzzle, limit, budget);
    if !search.tally.out_of_budget {
        #[cfg(target_arch = "x86_64")]
        if use_popcnt() {
            search.node::<Popcnt>();
            return search.tally;
        }
        search.node::<Plain>();
    }
    search.tally
}

impl BitmaskSingles {
    /// Searches `puzzle` up to `limit` solutions: a 9x9 board on the fast path ([`Search`]), any
    /// other shape on [`ShapedSearch`] with the narrowest mask that holds its side.
    fn tally<'a>(&mut self, puzzle: &Board, limit: u64, budget: &'a Budget) -> Tally<'a> {
        match puzzle.to_grid() {
            Some(grid) => run(&grid, limit, budget),
            None => by_width!(puzzle.shape().side(), run_board(puzzle, limit, budget)),
        }
    }
}

crate::search::board_solver!(BitmaskSingles, ANY_SHAPE);

/// The search of [`Search`] on a board of any shape (side N <= `M::BITS`): the same list of
/// empty cells (each entry: its row, column and box slots of [`Slots`], then its cell index),
/// the same scan, and the recursion of [`Search::node`] as a loop over a stack of branch points.
struct ShapedSearch<'a, M: Mask> {
    tally: Tally<'a>,
    /// The symbols still free in each slot; [`Slots::none`] stays empty.
    free: Vec<M>,
    /// Scratch for [`ShapedSearch::dead_unit`]: the symbols the empty cells of each slot can
    /// take.
    seen: Vec<M>,
    /// The list of empty cells (three slots and the cell, which needs more than 16 bits above
    /// 255x255), then the sentinel (slots [`Slots::none`]) at `len`.
    pos: Vec<[u32; 4]>,
    /// The symbol filled at each position `..depth`, as its bit.
    bit: Vec<M>,
    len: usize,
    depth: usize,
    givens: Vec<Symbol>,
}

/// A branch point of [`ShapedSearch`]: the list position of its cell and the symbols not tried.
struct Branch<M> {
    at: usize,
    rest: M,
}

impl<M: Mask> ShapedSearch<'_, M> {
    #[inline(always)]
    fn candidates(&self, p: usize) -> M {
        let [r, c, b, _] = self.pos[p];
        self.free[r as usize] & self.free[c as usize] & self.free[b as usize]
    }

    #[inline(always)]
    fn toggle(&mut self, p: usize, bit: M) {
        let [r, c, b, _] = self.pos[p];
        self.free[r as usize] ^= bit;
        self.free[c as usize] ^= bit;
        self.free[b as usize] ^= bit;
    }

    /// [`Search::propagate`]: naked singles to a fixpoint, then the branch cell.
    fn propagate(&mut self) -> Fill {
        let len = self.len;
        let start = self.depth;
        let mut d = start;
        let fill = 'scan: loop {
            let mut p = d;
            let mut best_n = u32::MAX;
            let mut best_p = d;
            loop {
                let cand = self.candidates(p);
                let n = cand.count();
                if n <= 1 {
                    if p >= len {
                        break;
                    }
                    if !self.fill(cand, p, &mut d) {
                        break 'scan Fill::Contradiction;
                    }
                    continue 'scan;
                }
                if n < best_n {
                    best_n = n;
                    best_p = p;
                    if n == 2 {
                        p += 1;
                        loop {
                            let a = self.candidates(p);
                            if a.at_most_one() {
                                if p >= len {
                                    break;
                                }
                                if !self.fill(a, p, &mut d) {
                                    break 'scan Fill::Contradiction;
                                }
                                continue 'scan;
                            }
                            p += 1;
                        }
                        break;
                    }
                }
                p += 1;
            }
            self.depth = d;
            break if d == len {
                Fill::Full
            } else if self.tally.stats.backtracks > 0 && self.dead_unit() {
                Fill::Contradiction
            } else {
                Fill::Branch(best_p)
            };
        };
        self.tally.stats.propagations += (self.depth - start) as u64;
        fill
    }

    /// [`Search::dead_unit`]: true when some unit has a free symbol that none of its empty
    /// cells can take.
    fn dead_unit(&mut self) -> bool {
        self.seen.fill(M::ZERO);
        for q in self.depth..self.len {
            let [r, c, b, _] = self.pos[q];
            let a = self.candidates(q);
            self.seen[r as usize] |= a;
            self.seen[c as usize] |= a;
            self.seen[b as usize] |= a;
        }
        self.seen != self.free
    }

    /// [`Search::fill`].
    #[inline(always)]
    fn fill(&mut self, cand: M, p: usize, d: &mut usize) -> bool {
        let q = *d;
        self.pos.swap(p, q);
        if cand.is_empty() {
            self.depth = q;
            return false;
        }
        self.toggle(q, cand);
        self.bit[q] = cand;
        *d = q + 1;
        true
    }

    /// The solved board's cells: the givens and the symbols of the list (all filled).
    fn cells(&self) -> Vec<Symbol> {
        let mut cells = self.givens.clone();
        for q in 0..self.len {
            cells[self.pos[q][3] as usize] = self.bit[q].first();
        }
        cells
    }

    /// Runs the search from the root (counted already). Each node propagates; a branch point is
    /// pushed; going back to a branch point gives back every symbol filled at its position and
    /// after, then tries its next symbol. The counters are those of the recursive form.
    fn run(&mut self) {
        if self.tally.out_of_budget {
            return;
        }
        let mut stack: Vec<Branch<M>> = Vec::new();
        loop {
            let mut failed = match self.propagate() {
                Fill::Contradiction => true,
                Fill::Full => {
                    let cells = if self.tally.first.is_none() {
                        self.cells()
                    } else {
                        Vec::new()
                    };
                    if self.tally.solution(|| cells) {
                        return;
                    }
                    true
                }
                Fill::Branch(p) => {
                    self.tally.stats.guesses += 1;
                    let at = self.depth;
                    self.pos.swap(p, at);
                    stack.push(Branch {
                        at,
                        rest: self.candidates(at),
                    });
                    false
                }
            };
            // Back to the innermost branch point with a symbol left; the next node is its child.
            loop {
                let Some(top) = stack.last_mut() else {
                    return;
                };
                let (at, rest) = (top.at, top.rest);
                if rest.is_empty() {
                    stack.pop();
                }
                for q in at..self.depth {
                    self.toggle(q, self.bit[q]);
                }
                self.depth = at;
                if failed {
                    self.tally.stats.backtracks += 1;
                }
                failed = true;
                if rest.is_empty() {
                    continue;
                }
                let bit = rest.lowest();
                if let Some(top) = stack.last_mut() {
                    top.rest = rest ^ bit;
                }
                if self.tally.enter_node() {
                    return;
                }
                self.toggle(at, bit);
                self.bit[at] = bit;
                self.depth = at + 1;
                break;
            }
        }
    }
}

/// Searches a board of any shape up to `limit` solutions; the tally says what was found.
fn run_board<'a, M: Mask>(puzzle: &Board, limit: u64, budget: &'a Budget) -> Tally<'a> {
    let mut search = setup_board::<M>(puzzle, limit, budget);
    search.run();
    search.tally
}

/// The search of a board of any shape up to `limit` solutions, set up but not run.
fn setup_board<'a, M: Mask>(puzzle: &Board, limit: u64, budget: &'a Budget) -> ShapedSearch<'a, M> {
    let slots = Slots::of(puzzle.shape());
    let none = slots.none();
    let mut pos: Vec<[u32; 4]> = (0..puzzle.cells().len())
        .filter(|&i| puzzle.get(i) == 0)
        .map(|i| {
            let [r, c, b] = slots.cell(i).map(u32::from);
            [r, c, b, i as u32]
        })
        .collect();
    let len = pos.len();
    let none = u32::from(none);
    pos.push([none, none, none, 0]);
    ShapedSearch {
        tally: Tally::new(limit, budget),
        free: slots.free_masks(puzzle),
        seen: vec![M::ZERO; slots.len()],
        pos,
        bit: vec![M::ZERO; len],
        len,
        depth: 0,
        givens: puzzle.cells().to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_boards::shaped_counts_match_the_fast_path;
    use crate::test_puzzles::{SEED, SEED_SOLUTION};

    /// Solutions found, the first one and the counters, searching with scan `S`.
    fn search_with<S: Scan>(
        puzzle: &str,
        limit: u64,
    ) -> (u64, Option<Vec<crate::Symbol>>, crate::Stats) {
        let grid: Grid = puzzle.parse().unwrap();
        let budget = Budget::unlimited();
        let mut s = setup(&grid, limit, &budget);
        s.node::<S>();
        (s.tally.found, s.tally.first, s.tally.stats)
    }

    /// The seed puzzle with its first two givens removed (several solutions), a 17-given puzzle,
    /// a sparse puzzle with many solutions, and one with no solution (the last two cells of row 1
    /// both need a 9).
    const PUZZLES: [&str; 4] = [
        "..........4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6",
        ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
        "12.......34.............................................................5........",
        "1234567..........8.........9.....................................................",
    ];

    #[test]
    fn solves_the_seed_puzzle() {
        let (found, first, stats) = search_with::<Plain>(SEED, 2);
        assert_eq!(found, 1);
        let solution: Grid = SEED_SOLUTION.parse().unwrap();
        assert_eq!(
            first,
            Some(solution.cells().iter().map(|&v| v.into()).collect())
        );
        assert!(stats.nodes >= 1);
        assert_eq!(search_with::<Plain>(PUZZLES[2], 50).0, 50);
        assert_eq!(search_with::<Plain>(PUZZLES[3], 2).0, 0);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn both_scans_make_the_same_search() {
        if !has_popcnt() {
            eprintln!("skipped: this processor has no popcnt/bmi1");
            return;
        }
        for puzzle in std::iter::once(SEED).chain(PUZZLES) {
            for limit in [1, 2, 50] {
                let plain = search_with::<Plain>(puzzle, limit);
                let popcnt = search_with::<Popcnt>(puzzle, limit);
                assert_eq!(plain, popcnt, "{puzzle} limit {limit}");
            }
        }
    }

    /// On the classic shape the shaped search (slots, explicit stack) makes the fast path's
    /// search: same answers, same counters, same counts.
    #[test]
    fn the_shaped_search_is_the_fast_path_on_9x9() {
        let puzzles: Vec<&str> = std::iter::once(SEED).chain(PUZZLES).collect();
        let shaped = [run_board::<u16>, run_board::<u32>];
        shaped_counts_match_the_fast_path(&mut BitmaskSingles, &puzzles, &shaped);
    }

    /// Row 1 needs a 9, and its only empty cells are in box 1, which holds a 9 (r2c1): each of
    /// those cells keeps two candidates (7 and 8), so naked singles see no contradiction, but
    /// the unit check does. The seed puzzle without two givens has no dead unit at its root.
    #[test]
    fn a_digit_without_a_place_in_a_unit_is_a_dead_end() {
        let dead = format!("...123456{}{}", 9, ".".repeat(71));
        let dead = dead.as_str();
        let alive = PUZZLES[0];
        let budget = Budget::unlimited();
        for (puzzle, want) in [(dead, true), (alive, false)] {
            let grid: Grid = puzzle.parse().unwrap();
            let mut s = setup(&grid, 1, &budget);
            assert!(
                matches!(s.propagate(u32::count_ones), Fill::Branch(_)),
                "{puzzle}"
            );
            assert_eq!(s.dead_unit(), want, "{puzzle}");
            let mut b = setup_board::<u32>(&Board::from_grid(&grid), 1, &budget);
            assert!(matches!(b.propagate(), Fill::Branch(_)), "{puzzle}");
            assert_eq!(b.dead_unit(), want, "{puzzle}");
        }
        assert_eq!(search_with::<Plain>(dead, 2).0, 0);
    }

    crate::search::test_boards::any_side_solver_tests!(BitmaskSingles);
}
