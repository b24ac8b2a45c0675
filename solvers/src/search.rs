//! What the searching solvers share on grids of every [`Shape`]: candidate sets as bit masks
//! ([`Mask`], monomorphised for `u16`, `u32`, `u64`, `u128` and sets of several words
//! ([`Wide`]), picked by the side, see
//! [`by_width!`](crate::search::by_width)), the unit slots of each cell ([`Slots`]), the
//! fixed-order depth-first search of `backtracking` and `bitmask-dfs` ([`fixed_order`]), and the
//! bookkeeping of a search whose first solution is a [`Board`] ([`Tally`]).
//!
//! Symbol `s` (1..=N) is bit `s - 1` of a mask, so N symbols need N bits: a `u16` up to side 16
//! (9x9 among them), a `u32` up to 32 (every Sudoku up to 25x25), a `u64` up to 64, a `u128` up
//! to 128, and several 64-bit words ([`Wide`]) up to [`MAX_SIDE`](crate::MAX_SIDE). The searches
//! ask a mask only for what [`Mask`] declares (set operations, the lowest symbol, a count), so the
//! wide sets take every search unchanged, and 9x9 keeps its `u16`.

use crate::budget::Poll;
use crate::{Board, Budget, Count, Outcome, Shape, Stats, Symbol};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of symbols of a grid of side N <= `BITS`: bit `s - 1` for symbol `s`.
pub(crate) trait Mask:
    Copy
    + Eq
    + 'static
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// Bits in the mask: the largest side it holds.
    const BITS: usize;
    /// The symbols `1..=n` (`n <= BITS`).
    fn all(n: usize) -> Self;
    /// The set of symbol `s` (1..=BITS).
    fn symbol(s: Symbol) -> Self;
    /// Number of symbols in the set.
    fn count(self) -> u32;
    /// The smallest symbol of a non-empty set.
    fn first(self) -> Symbol;
    /// The smallest symbol's bit alone (`x & -x`); 0 for the empty set.
    fn lowest(self) -> Self;
    /// True for the empty set.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// True when the set holds at most one symbol (`x & (x - 1) == 0`).
    fn at_most_one(self) -> bool;
}

macro_rules! impl_mask {
    ($t:ty) => {
        impl Mask for $t {
            const ZERO: $t = 0;
            const BITS: usize = <$t>::BITS as usize;
            #[inline(always)]
            fn all(n: usize) -> $t {
                if n >= <Self as Mask>::BITS {
                    <$t>::MAX
                } else {
                    ((1 as $t) << n) - 1
                }
            }
            #[inline(always)]
            fn symbol(s: Symbol) -> $t {
                (1 as $t) << (s as u32 - 1)
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn first(self) -> Symbol {
                self.trailing_zeros() as Symbol + 1
            }
            #[inline(always)]
            fn lowest(self) -> $t {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn at_most_one(self) -> bool {
                self & self.wrapping_sub(1) == 0
            }
        }
    };
}

impl_mask!(u16);
impl_mask!(u32);
impl_mask!(u64);
impl_mask!(u128);

/// A set of up to `64·W` symbols in `W` words, for sides above 128 (up to
/// [`MAX_SIDE`](crate::MAX_SIDE)): symbol `s` is bit `(s - 1) % 64` of word `(s - 1) / 64`. The
/// set operations work word by word; the lowest symbol is found in the first word that is not
/// empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Wide<const W: usize>([u64; W]);

macro_rules! wide_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for Wide<W> {
            type Output = Wide<W>;
            #[inline(always)]
            fn $f(mut self, other: Wide<W>) -> Wide<W> {
                self.$fa(other);
                self
            }
        }
        impl<const W: usize> $tra for Wide<W> {
            #[inline(always)]
            fn $fa(&mut self, other: Wide<W>) {
                for (a, b) in self.0.iter_mut().zip(other.0) {
                    *a $op b;
                }
            }
        }
    };
}

wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> Not for Wide<W> {
    type Output = Wide<W>;
    #[inline(always)]
    fn not(self) -> Wide<W> {
        Wide(self.0.map(|w| !w))
    }
}

impl<const W: usize> Mask for Wide<W> {
    const ZERO: Wide<W> = Wide([0; W]);
    const BITS: usize = 64 * W;
    #[inline(always)]
    fn all(n: usize) -> Wide<W> {
        let mut words = [0u64; W];
        for (i, w) in words.iter_mut().enumerate() {
            *w = <u64 as Mask>::all(n.saturating_sub(64 * i));
        }
        Wide(words)
    }
    #[inline(always)]
    fn symbol(s: Symbol) -> Wide<W> {
        let b = usize::from(s) - 1;
        let mut words = [0u64; W];
        words[b / 64] = 1 << (b % 64);
        Wide(words)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn first(self) -> Symbol {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return (64 * i) as Symbol + w.first();
            }
        }
        (64 * W) as Symbol + 1
    }
    #[inline(always)]
    fn lowest(self) -> Wide<W> {
        let mut words = [0u64; W];
        if let Some(i) = self.0.iter().position(|&w| w != 0) {
            words[i] = self.0[i].lowest();
        }
        Wide(words)
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline(always)]
    fn at_most_one(self) -> bool {
        match self.0.iter().position(|&w| w != 0) {
            None => true,
            Some(i) => self.0[i].at_most_one() && self.0[i + 1..].iter().all(|&w| w == 0),
        }
    }
}

/// Calls `$f::<M>(args)` with the narrowest [`Mask`] `M` that holds `$side` symbols: `u16` up to
/// 16, `u32` up to 32, `u64` up to 64, `u128` up to 128, then words of 64 bits: three up to 192
/// (144x144, 169x169), four up to 256 (196x196 to 256x256), seven up to 448 (every side up to
/// [`MAX_SIDE`](crate::MAX_SIDE)).
macro_rules! by_width {
    ($side:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $side {
            0..=16 => $f::<u16>($($arg),*),
            17..=32 => $f::<u32>($($arg),*),
            33..=64 => $f::<u64>($($arg),*),
            65..=128 => $f::<u128>($($arg),*),
            129..=192 => $f::<$crate::search::Wide<3>>($($arg),*),
            193..=256 => $f::<$crate::search::Wide<4>>($($arg),*),
            _ => $f::<$crate::search::Wide<7>>($($arg),*),
        }
    };
}
pub(crate) use by_width;

/// The methods of [`crate::Solver`] for a solver written as one search over [`Board`]s of
/// every shape, with its `tally(&mut self, &Board, limit, &Budget) -> Tally`: `solve` and
/// `count`, or `solve` alone for a solver that does not count (`board_search_methods!(solve)`).
macro_rules! board_search_methods {
    (solve) => {
        fn solve(
            &mut self,
            puzzle: &$crate::Board,
            budget: &$crate::Budget,
        ) -> Option<$crate::Outcome> {
            if !self.caps().shapes.takes(puzzle.shape()) {
                return None;
            }
            Some(self.tally(puzzle, 1, budget).outcome(puzzle.shape()))
        }
    };
    () => {
        $crate::search::board_search_methods!(solve);

        fn count(
            &mut self,
            puzzle: &$crate::Board,
            limit: u64,
            budget: &$crate::Budget,
        ) -> Option<$crate::Count> {
            if !self.caps().shapes.takes(puzzle.shape()) {
                return None;
            }
            Some(self.tally(puzzle, limit, budget).count(puzzle.shape()))
        }
    };
}
pub(crate) use board_search_methods;

/// `impl Solver for $ty` for a solver written as one search over [`Board`]s with its `tally`,
/// taking the shapes of the named [`crate::engine::Caps`] constant (`ANY_SHAPE`, `UP_TO_128`):
/// `board_solver!(T, CAPS)` solves and counts, `board_solver!(T, CAPS, solve)` only solves.
macro_rules! board_solver {
    ($ty:ty, $caps:ident) => {
        impl $crate::Solver for $ty {
            fn caps(&self) -> $crate::engine::Caps {
                $crate::engine::Caps::$caps
            }

            $crate::search::board_search_methods!();
        }
    };
    ($ty:ty, $caps:ident, solve) => {
        impl $crate::Solver for $ty {
            fn caps(&self) -> $crate::engine::Caps {
                $crate::engine::Caps {
                    counts: false,
                    ..$crate::engine::Caps::$caps
                }
            }

            $crate::search::board_search_methods!(solve);
        }
    };
}
pub(crate) use board_solver;

/// Luby's sequence: 1, 1, 2, 1, 1, 2, 4, ... (`i` from 0): the restart cutoffs of Luby, Sinclair
/// & Zuckerman (IPL 1993), in units of conflicts or failures.
pub(crate) fn luby(mut i: u64) -> u64 {
    let (mut size, mut seq) = (1u64, 0u32);
    while size < i + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) >> 1;
        seq -= 1;
        i %= size;
    }
    1 << seq
}

/// The unit slots of every cell, for solvers that keep one mask per unit: slot `r` for row `r`,
/// `N + c` for column `c`, `2N + b` for box `b`. A Latin square has no boxes; its third slot is
/// `2N + r`, a shadow of the row that every placement updates as it updates the row, so the
/// AND of the three slots is the AND of the row and the column and no loop tests for the box.
/// Slot `3N` ([`Slots::none`]) never holds a symbol.
pub(crate) struct Slots {
    /// Three slots per cell, row-major.
    of_cell: Vec<[u16; 3]>,
    side: usize,
}

impl Slots {
    /// The slots of `shape`'s cells. O(N²).
    pub(crate) fn of(shape: Shape) -> Slots {
        let n = shape.side();
        let of_cell = (0..shape.cells())
            .map(|i| {
                let (r, c) = (shape.row_of(i), shape.col_of(i));
                let b = shape.box_of(i).unwrap_or(r);
                [r as u16, (n + c) as u16, (2 * n + b) as u16]
            })
            .collect();
        Slots { of_cell, side: n }
    }

    /// The slots of cell `i`.
    #[inline(always)]
    pub(crate) fn cell(&self, i: usize) -> [u16; 3] {
        self.of_cell[i]
    }

    /// How many slots there are, [`Slots::none`] included: 3N + 1.
    pub(crate) fn len(&self) -> usize {
        3 * self.side + 1
    }

    /// The slot that never holds a symbol (3N).
    pub(crate) fn none(&self) -> u16 {
        (3 * self.side) as u16
    }

    /// One mask per slot: every symbol free in the 3N unit slots, none in [`Slots::none`], then
    /// the givens of `puzzle` taken out of their cells' slots (cleared, not toggled: a repeated
    /// given does not free its symbol again).
    pub(crate) fn free_masks<M: Mask>(&self, puzzle: &Board) -> Vec<M> {
        let mut free = vec![M::all(self.side); self.len()];
        free[self.none() as usize] = M::ZERO;
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                for s in self.cell(i) {
                    free[s as usize] &= !M::symbol(v);
                }
            }
        }
        free
    }
}

/// The cells of a solution as a search keeps them (a 9x9 grid's `[u8; 81]`, a vector of `u8` or
/// of [`Symbol`]s), turned into a [`Board`]'s cells once, when the first solution is recorded.
pub(crate) trait IntoSymbols {
    /// The cells as [`Symbol`]s.
    fn into_symbols(self) -> Vec<Symbol>;
}

impl IntoSymbols for Vec<Symbol> {
    fn into_symbols(self) -> Vec<Symbol> {
        self
    }
}

impl IntoSymbols for Vec<u8> {
    fn into_symbols(self) -> Vec<Symbol> {
        self.into_iter().map(Symbol::from).collect()
    }
}

impl<const N: usize> IntoSymbols for [u8; N] {
    fn into_symbols(self) -> Vec<Symbol> {
        self.iter().map(|&v| Symbol::from(v)).collect()
    }
}

/// The bookkeeping of a search, shared by every searching solver: the counters, the budget,
/// how many solutions to look for (`limit`, at least 1), how many were found and the first one
/// (its cells, row-major), and whether the budget stopped the search.
pub(crate) struct Tally<'a> {
    pub(crate) stats: Stats,
    pub(crate) budget: &'a Budget,
    pub(crate) limit: u64,
    pub(crate) found: u64,
    pub(crate) first: Option<Vec<Symbol>>,
    pub(crate) out_of_budget: bool,
}

impl<'a> Tally<'a> {
    /// The root counted as one node. `out_of_budget` is already set when the budget is spent
    /// before the search starts: the caller then does not search.
    pub(crate) fn new(limit: u64, budget: &'a Budget) -> Tally<'a> {
        Tally {
            stats: Stats {
                nodes: 1,
                ..Stats::default()
            },
            budget,
            limit: limit.max(1),
            found: 0,
            first: None,
            out_of_budget: budget.exhausted(0),
        }
    }

    /// Enters one more node and polls the budget ([`Budget::check`]); true when the budget is
    /// spent (then `out_of_budget` is set and the search must stop).
    #[inline(always)]
    pub(crate) fn enter_node(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.budget.check(self.stats.nodes) {
            self.out_of_budget = true;
            return true;
        }
        false
    }

    /// Records a solution (`cells` is called for the first one only); true when `limit`
    /// solutions are found and the search must stop.
    #[inline(always)]
    pub(crate) fn solution<C: IntoSymbols>(&mut self, cells: impl FnOnce() -> C) -> bool {
        self.found += 1;
        if self.first.is_none() {
            self.first = Some(cells().into_symbols());
        }
        self.found >= self.limit
    }

    /// The [`Outcome`] of the search on a board of `shape`.
    pub(crate) fn outcome(self, shape: Shape) -> Outcome {
        let first = self.first.map(|cells| Board::solved(shape, cells));
        Outcome::of(first, self.out_of_budget, self.stats)
    }

    /// The [`Count`] of the search on a board of `shape`; complete unless the budget stopped it.
    pub(crate) fn count(self, shape: Shape) -> Count {
        Count {
            solutions: self.found,
            complete: !self.out_of_budget,
            first: self.first.map(|cells| Board::solved(shape, cells)),
            stats: self.stats,
        }
    }
}

/// What a depth-first search over the empty cells in a fixed order asks of its grid, at every
/// shape (`backtracking` and `bitmask-dfs`; each finds the candidates its own way).
pub(crate) trait FixedOrder<M: Mask> {
    /// The symbols the empty cell at position `k` may take, given those placed before it.
    fn candidates(&self, k: usize) -> M;
    /// Places the symbol of `bit` in the empty cell at position `k`.
    fn place(&mut self, k: usize, bit: M);
    /// Takes back the symbol of `bit` from the empty cell at position `k`.
    fn take_back(&mut self, k: usize, bit: M);
    /// Whether the search looks ahead: it reads the candidates of position `k + 1` once, when
    /// it enters position `k`, and tries each symbol of `k` against them
    /// ([`FixedOrder::shares_next`]), placing only the symbols that leave `k + 1` a candidate.
    /// The tree and its counters are the same either way; without it (the textbook form) each
    /// symbol is placed and position `k + 1`'s candidates read anew.
    const LOOKAHEAD: bool = false;
    /// Whether positions `k` and `k + 1` share a unit, so that the symbol at `k` is not a
    /// candidate of `k + 1` (asked only when [`FixedOrder::LOOKAHEAD`]).
    fn shares_next(&self, _k: usize) -> bool {
        true
    }
}

/// The depth-first search over the `len` positions of `grid` in order, symbols lowest first:
/// the recursion (one call per node: fill position `k`, then call for `k + 1`) as a loop over an
/// explicit stack of the symbols left at each position, with the counters of the recursive form
/// (the root and every placement a node; a guess, a node with two or more candidates; a
/// backtrack, a placement taken back). The counters stay in locals and the budget is polled as
/// [`Budget::check`] would. Returns the tally (no solution recorded in it) and, when every
/// position is filled, the symbol placed at each, as its bit.
pub(crate) fn fixed_order<'a, M: Mask, G: FixedOrder<M>>(
    grid: &mut G,
    len: usize,
    budget: &'a Budget,
) -> (Tally<'a>, Option<Vec<M>>) {
    let mut t = Tally::new(1, budget);
    let mut poll = Poll::new(budget);
    // stack[k]: the symbols position k has not tried yet, the one it holds, and (looking ahead)
    // the candidates of position k + 1 while k is empty.
    let mut stack = vec![(M::ZERO, M::ZERO, M::ZERO); len];
    let ahead = |grid: &G, k: usize| {
        if G::LOOKAHEAD && k + 1 < len {
            grid.candidates(k + 1)
        } else {
            M::ZERO
        }
    };
    let (mut nodes, mut guesses, mut backtracks) = (1u64, 0u64, 0u64);
    // The call for position 0 (the root), checked as every node is.
    t.out_of_budget = poll.spent(nodes);
    let full = 'search: {
        if t.out_of_budget {
            break 'search false;
        }
        if len == 0 {
            break 'search true;
        }
        stack[0].0 = grid.candidates(0);
        stack[0].2 = ahead(grid, 0);
        guesses += !stack[0].0.at_most_one() as u64;
        let mut k = 0;
        loop {
            let cand = stack[k].0;
            if cand.is_empty() {
                // The call for position k returns false: its caller takes back its symbol.
                if k == 0 {
                    break 'search false;
                }
                k -= 1;
                grid.take_back(k, stack[k].1);
                backtracks += 1;
                continue;
            }
            let bit = cand.lowest();
            stack[k].0 = cand ^ bit;
            stack[k].1 = bit;
            if !G::LOOKAHEAD {
                grid.place(k, bit);
            }
            // The call for position k + 1.
            nodes += 1;
            if poll.spent(nodes) {
                t.out_of_budget = true;
                break 'search false;
            }
            if k + 1 >= len {
                if G::LOOKAHEAD {
                    grid.place(k, bit);
                }
                break 'search true;
            }
            let next = if !G::LOOKAHEAD {
                grid.candidates(k + 1)
            } else if grid.shares_next(k) {
                stack[k].2 & !bit
            } else {
                stack[k].2
            };
            guesses += !next.at_most_one() as u64;
            if next.is_empty() {
                // A dead end: the call for position k + 1 returns false at once.
                if !G::LOOKAHEAD {
                    grid.take_back(k, bit);
                }
                backtracks += 1;
                continue;
            }
            if G::LOOKAHEAD {
                grid.place(k, bit);
            }
            k += 1;
            stack[k].0 = next;
            stack[k].2 = ahead(grid, k);
        }
    };
    t.stats.nodes = nodes;
    t.stats.guesses = guesses;
    t.stats.backtracks = backtracks;
    (
        t,
        full.then(|| stack.into_iter().map(|(_, bit, _)| bit).collect()),
    )
}

/// Grids of every shape for the solvers' unit tests: valid solutions made by a pattern, and
/// puzzles made from them by blanking cells.
#[cfg(test)]
pub(crate) mod test_boards {
    use crate::{Board, Shape, Symbol};

    /// A solution of `shape`: for boxes of r x c, symbol `((row·c + row / r + col) mod N) + 1`
    /// (the classic pattern grid); for a Latin square, the cyclic `((row + col) mod N) + 1`.
    pub(crate) fn pattern(shape: Shape) -> Board {
        let n = shape.side();
        let cells = (0..shape.cells())
            .map(|i| {
                let (row, col) = (i / n, i % n);
                let v = match shape.boxes() {
                    Some((r, c)) => (row * c + row / r + col) % n,
                    None => (row + col) % n,
                };
                v as Symbol + 1
            })
            .collect();
        Board::new(shape, cells).unwrap()
    }

    /// An empty board of `shape` with `givens`, each `(cell, symbol)`.
    pub(crate) fn with_givens(shape: Shape, givens: &[(usize, Symbol)]) -> Board {
        let mut b = Board::empty(shape);
        for &(cell, s) in givens {
            b.set(cell, s);
        }
        b
    }

    /// `solution` with every cell `i` for which `(i * 7 + 3) % every < holes` blanked: a
    /// spread, reproducible set of holes (`holes` out of each `every` cells).
    pub(crate) fn blank(solution: &Board, holes: usize, every: usize) -> Board {
        let cells = solution
            .cells()
            .iter()
            .enumerate()
            .map(|(i, &v)| if (i * 7 + 3) % every < holes { 0 } else { v })
            .collect();
        Board::new(solution.shape(), cells).unwrap()
    }

    /// The shapes the tests cover: orders 1 to 5, boxes 2x3 and 3x4, Latin squares of order 5
    /// and 10, then order 6 (36x36, a `u64` mask) and a Latin square of order 70 (a `u128`).
    pub(crate) fn shapes() -> Vec<Shape> {
        let mut v: Vec<Shape> = (1..=5).map(|n| Shape::of_order(n).unwrap()).collect();
        v.push(Shape::sudoku(2, 3).unwrap());
        v.push(Shape::sudoku(3, 4).unwrap());
        v.push(Shape::latin(5).unwrap());
        v.push(Shape::latin(10).unwrap());
        v.push(Shape::of_order(6).unwrap());
        v.push(Shape::latin(70).unwrap());
        v
    }

    /// `solver` solves a third of the cells blanked at every one of [`shapes`]: a full grid
    /// without a conflict that keeps the givens.
    pub(crate) fn solves_blanked_patterns(solver: &mut dyn crate::Solver) {
        for shape in shapes() {
            solves_keeping_the_givens(solver, &blank(&pattern(shape), 1, 3));
        }
    }

    /// `solver` solves `puzzle`: a full grid without a conflict that keeps the givens.
    pub(crate) fn solves_keeping_the_givens(solver: &mut dyn crate::Solver, puzzle: &Board) {
        use crate::{Budget, Status};
        let shape = puzzle.shape();
        let out = solver.solve(puzzle, &Budget::unlimited()).unwrap();
        assert_eq!(out.status, Status::Solved, "{shape}");
        let got = out.solution.unwrap();
        assert!(got.is_full() && got.first_conflict().is_none(), "{shape}");
        for (i, &v) in puzzle.cells().iter().enumerate() {
            assert!(v == 0 || got.get(i) == v, "{shape}: given {i} kept");
        }
    }

    /// The shapes above 128x128, one for each width of [`crate::search::Wide`] masks: a Latin
    /// square of order 130 and a 144x144 Sudoku (three words), a Latin square of order 200
    /// (four), and one of order 260 (seven words; 67,600 cells, more than 16 bits count).
    pub(crate) fn wide_shapes() -> Vec<Shape> {
        vec![
            Shape::latin(130).unwrap(),
            Shape::of_order(12).unwrap(),
            Shape::latin(200).unwrap(),
            Shape::latin(260).unwrap(),
        ]
    }

    /// `solution` with about `percent` % of its cells blanked, scattered by a hash of the cell
    /// (where [`blank`] would empty whole columns of a side its period divides).
    pub(crate) fn scatter(solution: &Board, percent: u64) -> Board {
        let cells = solution
            .cells()
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let h = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                if (h >> 32) % 100 < percent {
                    0
                } else {
                    v
                }
            })
            .collect();
        Board::new(solution.shape(), cells).unwrap()
    }

    /// `solver` solves a twentieth of the cells blanked ([`scatter`]) at every one of
    /// [`wide_shapes`]: a full grid without a conflict that keeps the givens.
    pub(crate) fn solves_blanked_wide_patterns(solver: &mut dyn crate::Solver) {
        for shape in wide_shapes() {
            solves_keeping_the_givens(solver, &scatter(&pattern(shape), 5));
        }
    }

    /// On each 9x9 puzzle, at limits 1, 2 and 50 and at 2 under a 5-node budget, the count of
    /// every search of `shaped` (a solver's generic search at some mask widths) equals `fast`'s
    /// count: same answers, same counters.
    pub(crate) fn shaped_counts_match_the_fast_path(
        fast: &mut dyn crate::Solver,
        puzzles: &[&str],
        shaped: &[for<'a> fn(&Board, u64, &'a crate::Budget) -> super::Tally<'a>],
    ) {
        use crate::{Budget, Grid};
        for puzzle in puzzles {
            let grid: Grid = puzzle.parse().unwrap();
            let board = Board::from_grid(&grid);
            for (limit, nodes) in [(1, None), (2, None), (50, None), (2, Some(5))] {
                let budget = Budget::unlimited().max_nodes(nodes);
                let want = fast.count(&board, limit, &budget).unwrap();
                for run in shaped {
                    let got = run(&board, limit, &budget).count(Shape::CLASSIC);
                    assert_eq!(want, got, "{puzzle} {limit} {nodes:?}");
                }
            }
        }
    }

    /// `solver` solves the seed puzzle to its stated solution and counts its one solution.
    pub(crate) fn solves_the_seed_and_counts_one(solver: &mut dyn crate::Solver) {
        use crate::test_puzzles::{OnGrid, SEED, SEED_SOLUTION};
        use crate::{Budget, Grid, Status};
        let g: Grid = SEED.parse().unwrap();
        let out = solver.solve_grid(&g, &Budget::unlimited());
        assert_eq!(out.status, Status::Solved);
        assert_eq!(out.solution.unwrap().to_string(), SEED_SOLUTION);
        let c = solver.count_grid(&g, 2, &Budget::unlimited()).unwrap();
        assert_eq!((c.solutions, c.complete), (1, true));
    }

    /// The tests every counting solver of every shape passes, as `#[test]` functions, each on
    /// a fresh `$make`: [`solves_the_seed_and_counts_one`], [`solves_blanked_patterns`] and
    /// [`counts_small_grids_and_a_contradiction`].
    macro_rules! board_solver_tests {
        ($make:expr) => {
            #[test]
            fn solves_the_seed_puzzle() {
                $crate::search::test_boards::solves_the_seed_and_counts_one(&mut $make);
            }

            #[test]
            fn solves_blanked_patterns_of_every_shape() {
                $crate::search::test_boards::solves_blanked_patterns(&mut $make);
            }

            #[test]
            fn counts_small_grids_and_finds_no_solution_to_a_contradiction() {
                $crate::search::test_boards::counts_small_grids_and_a_contradiction(&mut $make);
            }
        };
    }
    pub(crate) use board_solver_tests;

    /// The tests of a solver of every side, as `#[test]` functions, each on a fresh `$make`:
    /// half the cells of each of [`shapes`] blanked, then [`solves_blanked_wide_patterns`].
    macro_rules! any_side_solver_tests {
        ($make:expr) => {
            #[test]
            fn solves_every_shape() {
                use $crate::search::test_boards::{blank, pattern, shapes};
                for shape in shapes() {
                    let puzzle = blank(&pattern(shape), 1, 2);
                    $crate::search::test_boards::solves_keeping_the_givens(&mut $make, &puzzle);
                }
            }

            #[test]
            fn solves_shapes_above_128() {
                $crate::search::test_boards::solves_blanked_wide_patterns(&mut $make);
            }
        };
    }
    pub(crate) use any_side_solver_tests;

    /// `solver` counts all the grids of each shape, `(shape, grids)` (at most 1,000), from its
    /// empty board; the first one found is full and has no conflict.
    pub(crate) fn counts_empty_grids(solver: &mut dyn crate::Solver, counts: &[(Shape, u64)]) {
        use crate::Budget;
        for &(shape, grids) in counts {
            let c = solver
                .count(&Board::empty(shape), 1000, &Budget::unlimited())
                .unwrap();
            assert_eq!((c.solutions, c.complete), (grids, true), "{shape}");
            let first = c.first.unwrap();
            assert!(
                first.is_full() && first.first_conflict().is_none(),
                "{shape}"
            );
        }
    }

    /// `solver` counts the 576 Latin squares of order 4 and the 288 4x4 Sudoku grids, and finds
    /// no solution where two givens repeat a symbol in a box.
    pub(crate) fn counts_small_grids_and_a_contradiction(solver: &mut dyn crate::Solver) {
        use crate::{Budget, Status};
        counts_empty_grids(
            solver,
            &[
                (Shape::latin(4).unwrap(), 576),
                (Shape::of_order(2).unwrap(), 288),
            ],
        );
        let mut cells = vec![0; 16];
        cells[0] = 1;
        cells[5] = 1; // same box
        let b = Board::new(Shape::of_order(2).unwrap(), cells).unwrap();
        let out = solver.solve(&b, &Budget::unlimited()).unwrap();
        assert_eq!(out.status, Status::NoSolution);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let got: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn masks_agree_across_widths() {
        assert_eq!(<u32 as Mask>::all(9), 0x1ff);
        assert_eq!(<u32 as Mask>::all(32), u32::MAX);
        assert_eq!(<u128 as Mask>::all(128), u128::MAX);
        assert_eq!(<u128 as Mask>::symbol(128), 1u128 << 127);
        assert_eq!((<u64 as Mask>::symbol(40) | 0b100).first(), 3);
        assert!(<u64 as Mask>::symbol(40).at_most_one());
        assert!(!(0b110u32).at_most_one());
        assert_eq!(0b110u32.lowest(), 0b10);
    }

    #[test]
    fn wide_masks_agree_with_one_word() {
        type W3 = Wide<3>;
        assert_eq!(W3::all(130).count(), 130);
        assert_eq!(W3::all(192), !W3::ZERO);
        assert_eq!(W3::all(64).0, [u64::MAX, 0, 0]);
        for s in [1, 64, 65, 128, 129, 192] {
            let m = W3::symbol(s);
            assert_eq!((m.count(), m.first()), (1, s), "{s}");
            assert!(m.at_most_one() && !m.is_empty());
        }
        let m = W3::symbol(70) | W3::symbol(150);
        assert_eq!((m.first(), m.lowest(), m.count()), (70, W3::symbol(70), 2));
        assert!(!m.at_most_one());
        assert_eq!((m ^ m.lowest()).first(), 150);
        assert_eq!(m & !W3::symbol(70), W3::symbol(150));
        assert!(W3::ZERO.is_empty() && W3::ZERO.at_most_one());
        assert_eq!(<Wide<7> as Mask>::all(400).count(), 400);
    }

    #[test]
    fn latin_slots_shadow_the_row() {
        let s = Slots::of(Shape::latin(5).unwrap());
        assert_eq!(s.cell(7), [1, 7, 11]);
        assert_eq!(s.none(), 15);
        let s = Slots::of(Shape::sudoku(2, 3).unwrap());
        assert_eq!(s.cell(9), [1, 6 + 3, 12 + 1]); // r2c4: box 2 of the 2x3 boxes
    }

    #[test]
    fn pattern_grids_are_solutions() {
        for shape in test_boards::shapes() {
            let b = test_boards::pattern(shape);
            assert!(b.is_full() && b.first_conflict().is_none(), "{shape}");
        }
    }
}
