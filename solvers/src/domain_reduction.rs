//! `domain-reduction`: reasoning over candidate domains the way a careful player does, then
//! search.
//!
//! Every empty cell keeps its *candidates*: the digits none of its 20 peers holds yet (a 9-bit
//! mask, digit `d` = bit `d - 1`). Placing a digit removes it from its peers' candidates at once
//! (an incremental update of at most 20 masks). Two rules then run to a fixpoint:
//! - **naked single**: a cell with one candidate left gets that digit;
//! - **hidden single**: a digit with one place left in a row, a column or a box goes there.
//!
//! A cell with no candidate, or a digit with no place left in a unit, is a contradiction. At the
//! fixpoint the search branches on the empty cell with the fewest candidates (MRV), trying its
//! candidates in increasing order, and recurses. These are the two rules of Norvig's "Solving
//! Every Sudoku Puzzle" (norvig.com/sudoku.html, "Constraint Propagation"), and the first two
//! techniques of every player's manual.
//!
//! State (copied on every branch, so undoing a guess is free; about 440 bytes): the candidates
//! of each empty cell (0 for a filled cell), for each digit the set of empty cells that still
//! have it (a 128-bit mask), the digits placed in each unit, and the cells. Placing a digit
//! visits only the peers that still have it (the digit's set AND the cell's peer set), so a
//! placement costs about the number of candidates it removes. The naked-single queue is a fixed
//! array of 81 cells. Nothing is allocated during a solve (unless a trace is asked for).
//!
//! The hidden-single rule folds the candidates of each unit into "digits seen at least once" and
//! "at least twice" without a branch: each row's three thirds are folded once and shared by the
//! row and its box, the columns are folded four at a time in 64-bit words. A pass folds all 27
//! units, fails on a digit with no place, and fills every hidden single it found (each followed by
//! the naked singles it creates); passes repeat until one finds nothing. The fixpoint, and whether
//! it is a contradiction, do not depend on that order; the propagation counts of a failing node
//! do.
//!
//! MRV ties go to the first cell in the order of the broken diagonals ((row - column) mod 9,
//! then the column): ties broken in row-major order keep choosing cells near the top of the grid
//! and made the search 1.3 to 2.6 times larger on the public hard sets and on random isomorphic
//! transforms of them.
//!
//! Counters: the root is one node; every candidate tried at a branch point enters one more node.
//! Every branch point has two or more candidates (singles are placed first), so guesses equal
//! branch points. **propagations** counts digits placed by the naked- and hidden-single rules,
//! in every node.
//!
//! Tracing: [`solve_traced`] and [`reduce`] record every deduction ([`Step`]), naming its rule and
//! unit, then every guess and contradiction, for `harness candidates --trace`. The trace is a type
//! parameter of the search (a no-op type in [`Solver::solve`]), so the fast path holds no trace
//! code at all. Tracing is for the 9x9 grid only.
//!
//! Shapes: every [`Shape`] ([`Shapes::Any`](crate::engine::Shapes::Any)). A 9x9 board takes the fast path above; any other
//! shape the same rules and search over [`Units`]: N-bit candidate masks (a `u32`, `u64`,
//! `u128` or several 64-bit words by the side, `search.rs`), placements that visit the cell's peers,
//! hidden singles found by folding each unit's candidates into "seen once" and "seen twice", MRV
//! ties broken by the broken diagonals of the N x N grid, and the same counters. Instead of a copy
//! of the state per branch (N² masks), every change is written on a trail and undone back to the
//! branch point's mark, and the recursion runs as a loop over a stack of branch points.

use crate::bits::{ALL, BOX_OF};
use crate::grid::UNIT_CELLS;
use crate::search::{by_width, Mask, Tally};
use crate::{cell_name, Board, Budget, Grid, Outcome, Shape, Stats, Symbol, Unit, Units};
use std::fmt;

/// The candidate-domain solver: naked and hidden singles to a fixpoint, then MRV branching.
/// Stateless; counts solutions.
#[derive(Debug, Clone, Copy, Default)]
pub struct DomainReduction;

/// The 20 peers of each cell as a set (bit `peer`).
static PEER_MASK: [u128; 81] = {
    let mut m = [0u128; 81];
    let mut cell = 0;
    while cell < 81 {
        m[cell] = crate::bits::cell_set(PEERS[cell]);
        cell += 1;
    }
    m
};

/// The 20 peers of each cell (same row, column or box, the cell itself excluded).
static PEERS: [[u8; 20]; 81] = {
    let mut p = [[0u8; 20]; 81];
    let mut cell = 0;
    while cell < 81 {
        let mut n = 0;
        let mut other = 0;
        while other < 81 {
            let same_row = other / 9 == cell / 9;
            let same_col = other % 9 == cell % 9;
            let same_box = (other / 27) * 3 + (other % 9) / 3 == (cell / 27) * 3 + (cell % 9) / 3;
            if other != cell && (same_row || same_col || same_box) {
                p[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    p
};

fn unit_name(u: usize) -> Unit {
    match u {
        0..=8 => Unit::Row(u as u8),
        9..=17 => Unit::Column((u - 9) as u8),
        _ => Unit::Box((u - 18) as u8),
    }
}

/// Why a node of the search has no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contradiction {
    /// An empty cell (index 0..81) has no candidate left.
    NoCandidate {
        /// The cell.
        cell: usize,
    },
    /// A digit has no place left in a unit.
    NoPlace {
        /// The digit, 1..=9.
        digit: u8,
        /// The unit.
        unit: Unit,
    },
    /// The givens repeat a digit in a unit (at `cell`, index 0..81).
    GivenRepeated {
        /// The given that repeats an earlier one.
        cell: usize,
        /// Its digit.
        digit: u8,
    },
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Contradiction::NoCandidate { cell } => {
                write!(f, "{} has no candidate left", cell_name(cell))
            }
            Contradiction::NoPlace { digit, unit } => {
                write!(f, "digit {digit} has no place left in {unit}")
            }
            Contradiction::GivenRepeated { cell, digit } => {
                write!(f, "the given {digit} at {} repeats a peer", cell_name(cell))
            }
        }
    }
}

/// One event of a traced solve, in the order it happened. Cells are indices 0..81 (shown
/// `rRcC`); `depth` is the number of guesses in force (0 at the root).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `cell` had one candidate left, `digit`: its row, column and box hold the other eight.
    NakedSingle {
        /// The cell filled.
        cell: usize,
        /// The digit placed.
        digit: u8,
        /// Guesses in force.
        depth: u32,
    },
    /// `digit` had one place left in `unit`: `cell`.
    HiddenSingle {
        /// The cell filled.
        cell: usize,
        /// The digit placed.
        digit: u8,
        /// The unit where the digit had one place.
        unit: Unit,
        /// Guesses in force.
        depth: u32,
    },
    /// A branch: `cell` (with candidates `candidates`, bit `d - 1` for digit `d`) tried `digit`.
    Guess {
        /// The MRV cell.
        cell: usize,
        /// The digit tried.
        digit: u8,
        /// All the cell's candidates at the branch point.
        candidates: u16,
        /// Guesses in force before this one.
        depth: u32,
    },
    /// The node failed; the search goes back to the last guess.
    Contradiction {
        /// Why.
        reason: Contradiction,
        /// Guesses in force.
        depth: u32,
    },
    /// Every cell is filled.
    Solved {
        /// Guesses in force.
        depth: u32,
    },
}

impl Step {
    /// Guesses in force when the step happened.
    pub fn depth(&self) -> u32 {
        match *self {
            Step::NakedSingle { depth, .. }
            | Step::HiddenSingle { depth, .. }
            | Step::Guess { depth, .. }
            | Step::Contradiction { depth, .. }
            | Step::Solved { depth } => depth,
        }
    }
}

/// The digits of a candidate mask, e.g. `3 4 8`.
pub fn digits_of(mask: u16) -> String {
    (1..=9u8)
        .filter(|d| mask & (1 << (d - 1)) != 0)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Step {
    /// One line, e.g. `r4c3 = 7  hidden single in row 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Step::NakedSingle { cell, digit, .. } => write!(
                f,
                "{} = {digit}  naked single in row {}, column {}, box {} (they hold the other eight digits)",
                cell_name(cell),
                cell / 9 + 1,
                cell % 9 + 1,
                BOX_OF[cell] + 1
            ),
            Step::HiddenSingle {
                cell, digit, unit, ..
            } => write!(f, "{} = {digit}  hidden single in {unit}", cell_name(cell)),
            Step::Guess {
                cell,
                digit,
                candidates,
                ..
            } => write!(
                f,
                "guess {} = {digit}  (MRV cell, candidates {})",
                cell_name(cell),
                digits_of(candidates)
            ),
            Step::Contradiction { reason, depth: 0 } => {
                write!(f, "contradiction: {reason}; no guess to undo: no solution")
            }
            Step::Contradiction { reason, .. } => {
                write!(f, "contradiction: {reason}; back to the last guess")
            }
            Step::Solved { .. } => f.write_str("solved: every cell is filled"),
        }
    }
}

/// Where the events of a search go: nowhere ([`NoTrace`], the fast path) or a `Vec<Step>`.
trait Tracer {
    /// False for the no-op tracer: every `if T::ON` is removed at compile time.
    const ON: bool;
    fn record(&mut self, step: Step);
}

struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn record(&mut self, _: Step) {}
}

impl Tracer for Vec<Step> {
    const ON: bool = true;
    fn record(&mut self, step: Step) {
        self.push(step);
    }
}

/// Cells waiting to be filled as naked singles. Each cell enters at most once per node (when its
/// candidates drop to one), so 81 places suffice.
struct Queue {
    cells: [u8; 81],
    len: usize,
}

impl Queue {
    #[inline]
    fn new() -> Queue {
        Queue {
            cells: [0; 81],
            len: 0,
        }
    }
    #[inline]
    fn push(&mut self, cell: usize) {
        if self.len < 81 {
            self.cells[self.len] = cell as u8;
            self.len += 1;
        }
    }
    #[inline]
    fn pop(&mut self) -> Option<usize> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.cells[self.len] as usize)
        }
    }
}

/// One node's state: candidates per empty cell (0 for a filled cell), the digits placed in each
/// unit, and the cells.
#[derive(Clone, Copy)]
struct State {
    cand: [u16; 81],
    /// For each digit (bit `d - 1`), the empty cells that still have it (bit `cell`): the peers
    /// a placement must update, without visiting the others.
    places: [u128; 9],
    /// Digits placed in each unit (rows 0..9, columns 9..18, boxes 18..27).
    placed: [u16; 27],
    cells: [u8; 81],
    empty: u8,
}

/// The cells in MRV tie-break order (the first wins among the cells with the fewest candidates):
/// the broken diagonals, `(row - column) mod 9` = 0 first, then 1, ..., each from column 1 to 9,
/// so that nine consecutive cells cover every row and every column once. Breaking ties in
/// row-major order instead keeps choosing cells near the top of the grid and made the search
/// 1.3 to 2.6 times larger on the public hard sets.
static TIE_BREAK_ORDER: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut k = 0;
    while k < 81 {
        let (diagonal, c) = (k / 9, k % 9);
        t[k] = (9 * ((c + diagonal) % 9) + c) as u8;
        k += 1;
    }
    t
};

/// Number of candidates of a nine-bit mask, and 255 for 0 (a filled cell, never the MRV cell).
/// A table: the default target has no `popcnt`.
static COUNT: [u8; 512] = {
    let mut t = crate::bits::POPCOUNT;
    t[0] = 255;
    t
};

/// Digits seen at least once (`once`) and at least twice (`twice`) among some cells' candidates.
#[derive(Clone, Copy, Default)]
struct Fold {
    once: u16,
    twice: u16,
}

impl Fold {
    #[inline(always)]
    fn of3(a: u16, b: u16, c: u16) -> Fold {
        Fold {
            once: a | b | c,
            twice: (a & b) | (c & (a | b)),
        }
    }

    #[inline(always)]
    fn join(self, o: Fold) -> Fold {
        Fold {
            once: self.once | o.once,
            twice: self.twice | o.twice | (self.once & o.once),
        }
    }
}

impl State {
    fn empty_grid() -> State {
        State {
            cand: [ALL; 81],
            places: [(1u128 << 81) - 1; 9],
            placed: [0; 27],
            cells: [0; 81],
            empty: 81,
        }
    }

    /// Places the givens (not counted as propagations); a given its peers rule out is a
    /// contradiction.
    fn from_givens(puzzle: &Grid, queue: &mut Queue) -> Result<State, Contradiction> {
        let mut s = State::empty_grid();
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                if s.cand[cell] & (1 << (digit - 1)) == 0 {
                    return Err(Contradiction::GivenRepeated { cell, digit });
                }
                s.assign(cell, digit, queue)?;
            }
        }
        Ok(s)
    }

    /// Fills `cell` with `digit` (a candidate of it) and removes `digit` from its peers'
    /// candidates, queueing peers left with one candidate. O(20), one rarely taken branch per
    /// peer.
    #[inline(always)]
    fn assign(&mut self, cell: usize, digit: u8, queue: &mut Queue) -> Result<(), Contradiction> {
        let bit = 1u16 << (digit - 1);
        self.cells[cell] = digit;
        let mut old = self.cand[cell];
        self.cand[cell] = 0;
        self.empty -= 1;
        self.placed[cell / 9] |= bit;
        self.placed[9 + cell % 9] |= bit;
        self.placed[18 + BOX_OF[cell]] |= bit;
        let me = 1u128 << cell;
        while old != 0 {
            self.places[old.trailing_zeros() as usize] &= !me;
            old &= old - 1;
        }
        let d = digit as usize - 1;
        let mut hits = self.places[d] & PEER_MASK[cell];
        self.places[d] &= !hits;
        while hits != 0 {
            let p = hits.trailing_zeros() as usize;
            hits &= hits - 1;
            let left = self.cand[p] & !bit;
            self.cand[p] = left;
            if left & left.wrapping_sub(1) == 0 {
                if left == 0 {
                    return Err(Contradiction::NoCandidate { cell: p });
                }
                queue.push(p);
            }
        }
        Ok(())
    }

    /// Fills the queued naked singles, and those they create.
    #[inline]
    fn drain<T: Tracer>(
        &mut self,
        queue: &mut Queue,
        stats: &mut Stats,
        trace: &mut T,
        depth: u32,
    ) -> Result<(), Contradiction> {
        while let Some(cell) = queue.pop() {
            if self.cells[cell] != 0 {
                continue;
            }
            // Candidates only shrink and an empty mask returned an error, so one bit is left.
            let digit = self.cand[cell].trailing_zeros() as u8 + 1;
            if T::ON {
                trace.record(Step::NakedSingle { cell, digit, depth });
            }
            stats.propagations += 1;
            self.assign(cell, digit, queue)?;
        }
        Ok(())
    }

    /// The candidate folds of the 27 units (rows, columns, boxes), branch-free: each row's
    /// three thirds are folded once and shared by the row and its box; the columns are folded
    /// down the rows, all nine at once.
    #[inline]
    #[allow(clippy::needless_range_loop)] // `r` indexes both the folds and the candidates
    fn folds(&self) -> [Fold; 27] {
        let c = &self.cand;
        let mut f = [Fold::default(); 27];
        for band in 0..3 {
            let mut boxes = [Fold::default(); 3];
            for r in 3 * band..3 * band + 3 {
                let i = 9 * r;
                let t0 = Fold::of3(c[i], c[i + 1], c[i + 2]);
                let t1 = Fold::of3(c[i + 3], c[i + 4], c[i + 5]);
                let t2 = Fold::of3(c[i + 6], c[i + 7], c[i + 8]);
                f[r] = t0.join(t1).join(t2);
                boxes[0] = boxes[0].join(t0);
                boxes[1] = boxes[1].join(t1);
                boxes[2] = boxes[2].join(t2);
            }
            f[18 + 3 * band..21 + 3 * band].copy_from_slice(&boxes);
        }
        // The columns down the rows, four columns per 64-bit word (columns 0-3, 4-7, 8).
        let lanes = |i: usize| -> u64 {
            c[i] as u64
                | (c[i + 1] as u64) << 16
                | (c[i + 2] as u64) << 32
                | (c[i + 3] as u64) << 48
        };
        let (mut once, mut twice) = ([0u64; 3], [0u64; 3]);
        for r in 0..9 {
            let i = 9 * r;
            let row = [lanes(i), lanes(i + 4), c[i + 8] as u64];
            for k in 0..3 {
                twice[k] |= once[k] & row[k];
                once[k] |= row[k];
            }
        }
        for k in 0..9 {
            let shift = 16 * (k % 4);
            f[9 + k] = Fold {
                once: (once[k / 4] >> shift) as u16,
                twice: (twice[k / 4] >> shift) as u16,
            };
        }
        f
    }

    /// Naked and hidden singles to a fixpoint. Each pass folds the 27 units once (a digit with
    /// no place left in a unit is a contradiction), then fills every hidden single the pass
    /// found, in unit order, each followed by the naked singles it creates; a hidden single that
    /// an earlier fill of the same pass took away is skipped (the next pass sees the
    /// contradiction, if any).
    fn propagate<T: Tracer>(
        &mut self,
        queue: &mut Queue,
        stats: &mut Stats,
        trace: &mut T,
        depth: u32,
    ) -> Result<(), Contradiction> {
        loop {
            self.drain(queue, stats, trace, depth)?;
            if self.empty == 0 {
                return Ok(());
            }
            let folds = self.folds();
            let mut any = 0;
            for (u, f) in folds.iter().enumerate() {
                let missing = ALL & !(f.once | self.placed[u]);
                if missing != 0 {
                    return Err(Contradiction::NoPlace {
                        digit: missing.trailing_zeros() as u8 + 1,
                        unit: unit_name(u),
                    });
                }
                any |= f.once & !f.twice;
            }
            if any == 0 {
                return Ok(());
            }
            for (u, f) in folds.iter().enumerate() {
                let mut hidden = f.once & !f.twice;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden ^= bit;
                    let Some(&c) = UNIT_CELLS[u]
                        .iter()
                        .find(|&&c| self.cand[c as usize] & bit != 0)
                    else {
                        continue;
                    };
                    let (cell, digit) = (c as usize, bit.trailing_zeros() as u8 + 1);
                    if T::ON {
                        trace.record(Step::HiddenSingle {
                            cell,
                            digit,
                            unit: unit_name(u),
                            depth,
                        });
                    }
                    stats.propagations += 1;
                    self.assign(cell, digit, queue)?;
                    self.drain(queue, stats, trace, depth)?;
                }
            }
        }
    }

    /// The empty cell with the fewest candidates ([`TIE_BREAK_ORDER`] on ties), and its
    /// candidates. At a fixpoint no cell has fewer than two, so the first cell with two ends the
    /// scan.
    #[inline]
    fn mrv(&self) -> (usize, u16) {
        let (mut best, mut best_n) = (0, u8::MAX);
        for &cell in TIE_BREAK_ORDER.iter() {
            let cell = cell as usize;
            let n = COUNT[self.cand[cell] as usize & 511];
            if n < best_n {
                best_n = n;
                best = cell;
                if n <= 2 {
                    break;
                }
            }
        }
        (best, self.cand[best])
    }

    /// Candidates as shown to a player: a filled cell holds only its digit's bit.
    fn pencil_marks(&self) -> [u16; 81] {
        std::array::from_fn(|i| match self.cells[i] {
            0 => self.cand[i],
            d => 1 << (d - 1),
        })
    }
}

struct Search<'a, T: Tracer> {
    tally: Tally<'a>,
    trace: T,
}

impl<T: Tracer> Search<'_, T> {
    /// Explores the node `s` (counted and propagated); true when the search must stop.
    fn search(&mut self, s: &State, depth: u32) -> bool {
        if s.empty == 0 {
            if T::ON {
                self.trace.record(Step::Solved { depth });
            }
            return self.tally.solution(|| s.cells);
        }
        let (cell, candidates) = s.mrv();
        self.tally.stats.guesses += 1;
        let mut rest = candidates;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            if self.tally.enter_node() {
                return true;
            }
            let digit = bit.trailing_zeros() as u8 + 1;
            if T::ON {
                self.trace.record(Step::Guess {
                    cell,
                    digit,
                    candidates,
                    depth,
                });
            }
            let mut child = *s;
            let mut queue = Queue::new();
            let result = child.assign(cell, digit, &mut queue).and_then(|()| {
                child.propagate(
                    &mut queue,
                    &mut self.tally.stats,
                    &mut self.trace,
                    depth + 1,
                )
            });
            match result {
                Ok(()) => {
                    if self.search(&child, depth + 1) {
                        return true;
                    }
                }
                Err(reason) => {
                    if T::ON {
                        self.trace.record(Step::Contradiction {
                            reason,
                            depth: depth + 1,
                        });
                    }
                }
            }
            self.tally.stats.backtracks += 1;
        }
        false
    }
}

fn run<'a, T: Tracer>(puzzle: &Grid, limit: u64, budget: &'a Budget, trace: T) -> Search<'a, T> {
    let mut search = Search {
        tally: Tally::new(limit, budget),
        trace,
    };
    if search.tally.out_of_budget {
        return search;
    }
    let mut queue = Queue::new();
    let root = State::from_givens(puzzle, &mut queue).and_then(|mut s| {
        s.propagate(&mut queue, &mut search.tally.stats, &mut search.trace, 0)
            .map(|()| s)
    });
    match root {
        Ok(s) => {
            search.search(&s, 0);
        }
        Err(reason) => {
            if T::ON {
                search
                    .trace
                    .record(Step::Contradiction { reason, depth: 0 });
            }
        }
    }
    search
}

impl DomainReduction {
    /// Searches `puzzle` up to `limit` solutions: a 9x9 board on the fast path ([`Search`], which
    /// can also trace), any other shape on [`ShapedState`] with the narrowest mask for its side.
    fn tally<'a>(&mut self, puzzle: &Board, limit: u64, budget: &'a Budget) -> Tally<'a> {
        match puzzle.to_grid() {
            Some(grid) => run(&grid, limit, budget, NoTrace).tally,
            None => by_width!(puzzle.shape().side(), run_board(puzzle, limit, budget)),
        }
    }
}

crate::search::board_solver!(DomainReduction, ANY_SHAPE);

/// One change to a [`ShapedState`], written on its trail so that it can be undone.
enum Undo<M> {
    /// The cell's candidates were these.
    Cand(u32, M),
    /// The cell was filled (its symbol is still in the cell when this is undone).
    Assign(u32),
}

/// A contradiction of the shaped search (which one does not matter: no trace).
struct Dead;

/// The state of [`DomainReduction`]'s search on a board of any shape (side N <= `M::BITS`):
/// candidates per cell (empty for a filled cell), the symbols placed in each unit, the cells,
/// the trail of changes, and the naked-single queue.
struct ShapedState<M: Mask> {
    units: Units,
    /// Cell `i`'s peers, ascending: `peers[peer_start[i]..peer_start[i + 1]]`.
    peers: Vec<u32>,
    peer_start: Vec<u32>,
    /// The cells in MRV tie-break order.
    order: Vec<u32>,
    all: M,
    cand: Vec<M>,
    placed: Vec<M>,
    cells: Vec<Symbol>,
    empty: usize,
    trail: Vec<Undo<M>>,
    queue: Vec<u32>,
    /// Scratch for the folds of one pass: (seen once, seen twice) per unit.
    folds: Vec<(M, M)>,
}

impl<M: Mask> ShapedState<M> {
    /// The empty grid of `shape`. O(N³) for the peers.
    fn new(shape: Shape) -> ShapedState<M> {
        let n = shape.side();
        let units = shape.units();
        let mut peers = Vec::new();
        let mut peer_start = Vec::with_capacity(shape.cells() + 1);
        for i in 0..shape.cells() {
            peer_start.push(peers.len() as u32);
            peers.extend(units.peers(i));
        }
        peer_start.push(peers.len() as u32);
        // The broken diagonals, (row - column) mod N = 0 first, each from column 1 to N (the 9x9
        // path's TIE_BREAK_ORDER at N = 9).
        let order = (0..shape.cells())
            .map(|k| {
                let (diagonal, c) = (k / n, k % n);
                (n * ((c + diagonal) % n) + c) as u32
            })
            .collect();
        let all = M::all(n);
        ShapedState {
            peers,
            peer_start,
            order,
            all,
            cand: vec![all; shape.cells()],
            placed: vec![M::ZERO; units.len()],
            cells: vec![0; shape.cells()],
            empty: shape.cells(),
            trail: Vec::new(),
            queue: Vec::new(),
            folds: vec![(M::ZERO, M::ZERO); units.len()],
            units,
        }
    }

    /// [`State::assign`]: fills `cell` with `symbol` (a candidate of it) and removes `symbol`
    /// from its peers' candidates, queueing peers left with one. Every change goes on the trail.
    #[inline]
    fn assign(&mut self, cell: usize, symbol: Symbol) -> Result<(), Dead> {
        let bit = M::symbol(symbol);
        self.trail.push(Undo::Cand(cell as u32, self.cand[cell]));
        self.trail.push(Undo::Assign(cell as u32));
        self.cells[cell] = symbol;
        self.cand[cell] = M::ZERO;
        self.empty -= 1;
        for &u in self.units.of_cell(cell) {
            self.placed[u as usize] |= bit;
        }
        let (from, to) = (
            self.peer_start[cell] as usize,
            self.peer_start[cell + 1] as usize,
        );
        for k in from..to {
            let p = self.peers[k] as usize;
            let c = self.cand[p];
            if (c & bit).is_empty() {
                continue;
            }
            self.trail.push(Undo::Cand(p as u32, c));
            let left = c & !bit;
            self.cand[p] = left;
            if left.at_most_one() {
                if left.is_empty() {
                    return Err(Dead);
                }
                self.queue.push(p as u32);
            }
        }
        Ok(())
    }

    /// Undoes the trail back to `mark` (its length at a branch point).
    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop() {
                Some(Undo::Cand(cell, old)) => self.cand[cell as usize] = old,
                Some(Undo::Assign(cell)) => {
                    let cell = cell as usize;
                    let bit = M::symbol(self.cells[cell]);
                    self.cells[cell] = 0;
                    self.empty += 1;
                    for &u in self.units.of_cell(cell) {
                        self.placed[u as usize] ^= bit;
                    }
                }
                None => break,
            }
        }
    }

    /// Places the givens (not propagations); a given its peers rule out is a contradiction.
    fn givens(&mut self, puzzle: &Board) -> Result<(), Dead> {
        for (cell, &symbol) in puzzle.cells().iter().enumerate() {
            if symbol != 0 {
                if (self.cand[cell] & M::symbol(symbol)).is_empty() {
                    return Err(Dead);
                }
                self.assign(cell, symbol)?;
            }
        }
        Ok(())
    }

    /// [`State::drain`]: fills the queued naked singles, and those they create.
    fn drain(&mut self, stats: &mut Stats) -> Result<(), Dead> {
        while let Some(cell) = self.queue.pop() {
            let cell = cell as usize;
            if self.cells[cell] != 0 {
                continue;
            }
            let symbol = self.cand[cell].first();
            stats.propagations += 1;
            self.assign(cell, symbol)?;
        }
        Ok(())
    }

    /// [`State::propagate`]: naked and hidden singles to a fixpoint, in the same order (a pass
    /// folds every unit, fails on a symbol with no place, then fills the hidden singles it found
    /// in unit order, each followed by the naked singles it creates).
    fn propagate(&mut self, stats: &mut Stats) -> Result<(), Dead> {
        loop {
            self.drain(stats)?;
            if self.empty == 0 {
                return Ok(());
            }
            let mut any = M::ZERO;
            for u in 0..self.units.len() {
                let (mut once, mut twice) = (M::ZERO, M::ZERO);
                for &c in self.units.cells(u) {
                    let a = self.cand[c as usize];
                    twice |= once & a;
                    once |= a;
                }
                if !(self.all & !(once | self.placed[u])).is_empty() {
                    return Err(Dead);
                }
                any |= once & !twice;
                self.folds[u] = (once, twice);
            }
            if any.is_empty() {
                return Ok(());
            }
            for u in 0..self.units.len() {
                let (once, twice) = self.folds[u];
                let mut hidden = once & !twice;
                while !hidden.is_empty() {
                    let bit = hidden.lowest();
                    hidden ^= bit;
                    let Some(&c) = self
                        .units
                        .cells(u)
                        .iter()
                        .find(|&&c| !(self.cand[c as usize] & bit).is_empty())
                    else {
                        continue;
                    };
                    stats.propagations += 1;
                    self.assign(c as usize, bit.first())?;
                    self.drain(stats)?;
                }
            }
        }
    }

    /// [`State::mrv`]: the empty cell with the fewest candidates (the first in tie-break order),
    /// and its candidates.
    fn mrv(&self) -> (usize, M) {
        let (mut best, mut best_n) = (0, u32::MAX);
        for &cell in &self.order {
            let cell = cell as usize;
            let a = self.cand[cell];
            let n = if a.is_empty() { u32::MAX } else { a.count() };
            if n < best_n {
                best_n = n;
                best = cell;
                if n <= 2 {
                    break;
                }
            }
        }
        (best, self.cand[best])
    }
}

/// A branch point of the shaped search: its cell, the symbols not tried, the trail's mark.
struct Branch<M> {
    cell: usize,
    rest: M,
    mark: usize,
}

/// [`DomainReduction`]'s search on a board of any shape, up to `limit` solutions: the recursion
/// of [`Search::search`] as a loop over a stack of branch points, with its counters.
fn run_board<'a, M: Mask>(puzzle: &Board, limit: u64, budget: &'a Budget) -> Tally<'a> {
    let mut tally = Tally::new(limit, budget);
    if tally.out_of_budget {
        return tally;
    }
    let mut s = ShapedState::<M>::new(puzzle.shape());
    if s.givens(puzzle)
        .and_then(|()| s.propagate(&mut tally.stats))
        .is_err()
    {
        return tally;
    }
    let mut stack: Vec<Branch<M>> = Vec::new();
    loop {
        let mut failed = if s.empty == 0 {
            if tally.solution(|| s.cells.clone()) {
                return tally;
            }
            true
        } else {
            let (cell, rest) = s.mrv();
            tally.stats.guesses += 1;
            stack.push(Branch {
                cell,
                rest,
                mark: s.trail.len(),
            });
            false
        };
        // Back to the innermost branch point with a symbol left; the next node is its child.
        loop {
            let Some(top) = stack.last_mut() else {
                return tally;
            };
            let (cell, rest, mark) = (top.cell, top.rest, top.mark);
            let bit = rest.lowest();
            top.rest = rest ^ bit;
            if rest.is_empty() {
                stack.pop();
            }
            s.undo_to(mark);
            if failed {
                tally.stats.backtracks += 1;
            }
            failed = true;
            if rest.is_empty() {
                continue;
            }
            if tally.enter_node() {
                return tally;
            }
            s.queue.clear();
            if s.assign(cell, bit.first())
                .and_then(|()| s.propagate(&mut tally.stats))
                .is_ok()
            {
                break;
            }
        }
    }
}

/// Solves like [`DomainReduction`] and also returns every event of the search in order: the
/// deductions at the root, then each guess followed by the deductions and the contradiction
/// (or the solution) under it. The outcome is the same as [`Solver::solve`]'s.
///
/// Memory: one [`Step`] (16 bytes) per event; bound the work with `budget`.
pub fn solve_traced(puzzle: &Grid, budget: &Budget) -> (Outcome, Vec<Step>) {
    let s = run(puzzle, 1, budget, Vec::new());
    (s.tally.outcome(crate::Shape::CLASSIC), s.trace)
}

/// The pencil marks after the rules alone: what naked and hidden singles deduce from the givens,
/// before any guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reduction {
    /// The givens plus every digit the rules placed (81 cells, row-major, 0 = still empty).
    pub grid: Grid,
    /// Candidates per cell, bit `d - 1` for digit `d`; a filled cell holds only its digit's bit.
    pub candidates: [u16; 81],
    /// The deductions, in order, each naming its rule and unit.
    pub steps: Vec<Step>,
    /// Set when the rules ran into a contradiction (the puzzle has no solution); `grid` and
    /// `candidates` are then the state at that point.
    pub contradiction: Option<Contradiction>,
}

/// Applies naked and hidden singles to a fixpoint from the givens, without guessing. O(81 x 27)
/// per pass; a handful of passes.
pub fn reduce(puzzle: &Grid) -> Reduction {
    let mut queue = Queue::new();
    let mut stats = Stats::default();
    let mut steps = Vec::new();
    let mut state = State::empty_grid();
    let result = (|| {
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                if state.cand[cell] & (1 << (digit - 1)) == 0 {
                    return Err(Contradiction::GivenRepeated { cell, digit });
                }
                state.assign(cell, digit, &mut queue)?;
            }
        }
        state.propagate(&mut queue, &mut stats, &mut steps, 0)
    })();
    Reduction {
        grid: Grid::from_cells(state.cells).expect("digits"),
        candidates: state.pencil_marks(),
        steps,
        contradiction: result.err(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_boards::shaped_counts_match_the_fast_path;
    use crate::test_puzzles::OnGrid;
    use crate::Solver;
    use crate::Status;

    /// On the classic shape the shaped search (trail, peers from [`Units`]) makes the fast
    /// path's search: same answers, same counters (propagations included), same counts.
    #[test]
    fn the_shaped_search_is_the_fast_path_on_9x9() {
        let puzzles = [
            SEED,
            "..........4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6",
            ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
            "12.......34.............................................................5........",
            "1234567..........8.........9.....................................................",
            "11...............................................................................",
        ];
        let shaped = [run_board::<u16>, run_board::<u128>];
        shaped_counts_match_the_fast_path(&mut DomainReduction, &puzzles, &shaped);
    }

    crate::search::test_boards::any_side_solver_tests!(DomainReduction);

    use crate::test_puzzles::{SEED, SEED_SOLUTION};

    #[test]
    fn peers_are_twenty_distinct_cells() {
        for (cell, peers) in PEERS.iter().enumerate() {
            let mut seen = [false; 81];
            for &p in peers {
                assert!(p as usize != cell && !seen[p as usize]);
                seen[p as usize] = true;
            }
        }
    }

    #[test]
    fn solves_seed_and_counts_one() {
        let g: Grid = SEED.parse().unwrap();
        let out = DomainReduction.solve_grid(&g, &Budget::unlimited());
        assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
        let c = DomainReduction
            .count_grid(&g, 2, &Budget::unlimited())
            .unwrap();
        assert_eq!((c.solutions, c.complete), (1, true));
    }

    #[test]
    fn trace_matches_solve_and_names_units() {
        let g: Grid = SEED.parse().unwrap();
        let (out, steps) = solve_traced(&g, &Budget::unlimited());
        assert_eq!(
            Some(out.clone()),
            DomainReduction.solve(&g.into(), &Budget::unlimited())
        );
        let placed = steps
            .iter()
            .filter(|s| matches!(s, Step::NakedSingle { .. } | Step::HiddenSingle { .. }))
            .count() as u64;
        assert_eq!(placed, out.stats.propagations);
        for s in &steps {
            let line = s.to_string();
            if matches!(s, Step::NakedSingle { .. } | Step::HiddenSingle { .. }) {
                assert!(
                    line.contains("single in row")
                        || line.contains("single in column")
                        || line.contains("single in box"),
                    "{line}"
                );
            }
        }
        assert!(matches!(steps.last(), Some(Step::Solved { .. })));
    }

    #[test]
    fn hidden_single_found_when_no_naked_single_exists() {
        // 1 at r2c1 (box 1), r3c4 (box 2), r4c7 (column 7) and r7c8 (column 8) leaves r1c9 as
        // the only place for 1 in row 1, while every cell of row 1 keeps 8 or 9 candidates
        // (worked by hand).
        let mut g = Grid::EMPTY;
        g.set(9, 1); // r2c1
        g.set(21, 1); // r3c4
        g.set(33, 1); // r4c7
        g.set(61, 1); // r7c8
        assert!(g.first_conflict().is_none());
        let r = reduce(&g);
        assert_eq!(r.grid.get(8), 1, "r1c9 = 1");
        assert_eq!(r.steps[0].to_string(), "r1c9 = 1  hidden single in row 1");
    }

    #[test]
    fn contradictions_give_no_solution() {
        // No candidate for r1c9.
        let g = crate::test_puzzles::dead_cell();
        assert_eq!(
            DomainReduction.solve_grid(&g, &Budget::unlimited()).status,
            Status::NoSolution
        );
        assert!(reduce(&g).contradiction.is_some());
        // Repeated given: never panics.
        let g = Grid::parse_line(&format!("11{}", ".".repeat(79))).unwrap();
        assert_eq!(
            DomainReduction.solve_grid(&g, &Budget::unlimited()).status,
            Status::NoSolution
        );
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        let c = DomainReduction
            .count_grid(&Grid::EMPTY, 5, &Budget::unlimited())
            .unwrap();
        assert_eq!((c.solutions, c.complete), (5, true));
    }
}
