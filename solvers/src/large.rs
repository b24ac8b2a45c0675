//! `large`: constraint propagation over cells *and* places, built for grids of order 4 to 10
//! (16x16 to 100x100) and Latin squares, then a binary search branching on the smallest choice.
//!
//! ## State
//! Two views of the same candidates, kept equal by every change:
//! - the **domain** of each cell: the symbols it may still take (an N-bit mask, a `u16`,
//!   `u32`, `u64`, `u128` or several 64-bit words by the side, `search.rs`);
//! - the **place set** of each unit and symbol: the positions in the unit whose cell may still
//!   take the symbol (an N-bit mask over the unit's N cells).
//!
//! A filled cell keeps its own symbol as its domain, so a placed symbol's place set is that one
//! cell. Removing symbol `s` from cell `c` clears one bit of `c`'s domain and one bit in each of
//! the two or three place sets of `s` in `c`'s units; it is written on a trail (cell, symbol)
//! that the search undoes back to a branch point's mark, so nothing is copied on a branch.
//!
//! ## Propagation
//! Each removal looks at the four masks it changed:
//! - a domain left with one symbol queues a **naked single**; an empty domain is a contradiction;
//! - a place set left with one position queues a **hidden single**; an empty place set (the
//!   symbol has no place left in the unit) is a contradiction.
//!
//! The queues are drained to a fixpoint (placing a symbol removes every other symbol of its cell
//! and the symbol from the cells of its units that still have it, found from the place sets, so
//! a placement costs about the candidates it removes). Grids with boxes also run **locked
//! candidates** (pointing and claiming), incrementally: every removal queues the place sets it
//! changed (once each), and when no single is queued one of them is looked at: a box's place set
//! whose positions lie in one row (or column) removes the symbol from the rest of that row
//! (column) (*pointing*); a row's (column's) whose positions lie in one box removes it from the
//! rest of that box (*claiming*). The search branches only at a fixpoint, so a branch starts
//! with the queues empty and looks only at what it changes (the root looks at every place set).
//! Latin squares have no boxes and skip the rule.
//!
//! ## Search
//! At the fixpoint the search picks the smallest choice among both views (*dual MRV*): the empty
//! cell with the fewest candidates, or the unit and unplaced symbol with the fewest places, each
//! size divided by a failure weight (*dom/wdeg*, Boussemart, Hemery, Lecoutre & Sais, ECAI
//! 2004): a place set's weight is 1 + the contradictions it raised (its symbol left without a
//! place in its unit); a cell's is 1 + the contradictions of its empty domain + those of the place
//! sets of its candidates. The latter sum is kept per cell by every removal and restore (and a
//! place set's weight only grows while it is empty, when no cell counts it), so the choice reads
//! it in O(1) and costs one pass over the cells and place sets. The value is read on the dual
//! view (after Geelen's dual-viewpoint heuristics, ECAI 1992): of a cell, its candidate with the fewest places in one of the cell's units (the symbol that has
//! the fewest other places to go); of a place set, its cell with the fewest candidates. Ties
//! are drawn by a seeded xorshift generator, so the search is the same on every run. The search
//! branches two ways: left, the symbol goes in the cell; right, it does not (the symbol is
//! removed, which itself propagates). Both branches partition the solutions, so counting is
//! exact. The search is a loop over an explicit stack (a 100x100 path is too deep for
//! recursion). This is the search of constraint-programming solvers over an all-different model
//! channelled with its dual (symbol-to-place) view; the rules are the first ones of every
//! player's manual. Randomised restarts (Gomes, Selman & Kautz, AAAI 1998, with Luby, Sinclair
//! & Zuckerman's cutoffs, IPL 1993) were measured and left out: with the weights kept across
//! restarts, a cutoff of 100 failures made the two Gecode 25x25 variants 3 to 5 times more
//! nodes, and no cutoff solved one more grid with half its cells empty (docs/grids.md).
//!
//! Counters: the root (the givens and their propagation) is one node; each left and each right
//! branch taken enters one more node. **guesses** counts decisions (each has two branches);
//! **backtracks** counts branches that ended without ending the search (a contradiction, or a
//! subtree whose solutions were all counted); **propagations** counts symbols placed by the
//! naked- and hidden-single rules (locked candidates place nothing and are not counted).
//!
//! Shapes: every [`Shape`] ([`Shapes::Any`](crate::engine::Shapes::Any)), 1x1 to 400x400, square or rectangular boxes, and
//! Latin squares. A 9x9 [`Grid`] takes the same code (there is no 9x9 fast path).

use crate::search::{by_width, Mask, Tally};
use crate::{Board, Budget, Shape, Symbol, Units};

/// The large-grid solver: cell and place views, singles and locked candidates to a fixpoint,
/// dual-MRV dom/wdeg binary branching. Keeps the units of the last shape it solved; counts solutions.
#[derive(Debug, Clone, Default)]
pub struct Large {
    topology: Option<Topology>,
}

/// What the search needs of a shape, built once per shape: its units and the position of each
/// cell in each of its units.
#[derive(Debug, Clone)]
struct Topology {
    shape: Shape,
    units: Units,
    /// Units per cell (2 or 3).
    k: usize,
    /// Cell `i`'s position in its `j`-th unit: `pos[i * k + j]` (0..N).
    pos: Vec<u16>,
}

impl Topology {
    /// The topology of `shape`. O(N³) for the box units.
    fn of(shape: Shape) -> Topology {
        let units = shape.units();
        let k = shape.units_per_cell();
        let mut pos = vec![0u16; shape.cells() * k];
        for u in 0..units.len() {
            for (p, &cell) in units.cells(u).iter().enumerate() {
                let j = units
                    .of_cell(cell as usize)
                    .iter()
                    .position(|&v| v as usize == u)
                    .expect("a unit's cell has the unit");
                pos[cell as usize * k + j] = p as u16;
            }
        }
        Topology {
            shape,
            units,
            k,
            pos,
        }
    }
}

/// A trail entry's symbol bits: symbols up to [`MAX_SIDE`](crate::MAX_SIDE) (9 bits), cells
/// above them (18 bits for 400x400).
const SHIFT: u32 = 9;
const SYMBOL_BITS: u32 = (1 << SHIFT) - 1;

/// A contradiction: a cell with no candidate, or a symbol with no place in a unit.
struct Dead;

/// The masks of locked candidates for boxes of `r` x `c` in a grid of side N (positions as in
/// [`Units`]: a row's cells by column, a column's by row, a box's row-major).
struct Boxes<M> {
    r: usize,
    c: usize,
    /// Positions of box row `i` in a box: `c·i .. c·i + c`.
    box_row: Vec<M>,
    /// Positions of box column `j` in a box: `j, j + c, ...`.
    box_col: Vec<M>,
    /// Positions of the `j`-th box of a row: columns `c·j .. c·j + c`.
    row_span: Vec<M>,
    /// Positions of the `i`-th box of a column: rows `r·i .. r·i + r`.
    col_span: Vec<M>,
}

impl<M: Mask> Boxes<M> {
    fn new(n: usize, r: usize, c: usize) -> Boxes<M> {
        let set = |it: &mut dyn Iterator<Item = usize>| {
            it.fold(M::ZERO, |m, p| m | M::symbol(p as Symbol + 1))
        };
        Boxes {
            r,
            c,
            box_row: (0..r).map(|i| set(&mut (c * i..c * i + c))).collect(),
            box_col: (0..c).map(|j| set(&mut (j..n).step_by(c))).collect(),
            row_span: (0..n / c).map(|j| set(&mut (c * j..c * j + c))).collect(),
            col_span: (0..n / r).map(|i| set(&mut (r * i..r * i + r))).collect(),
        }
    }
}

/// The search state on one shape (side N <= `M::BITS`).
struct State<'t, M: Mask> {
    t: &'t Topology,
    n: usize,
    /// Each cell's domain (its symbol alone once filled).
    dom: Vec<M>,
    /// Place sets: `place[u * N + s - 1]`, positions in unit `u` where symbol `s` may go.
    place: Vec<M>,
    /// Each cell's symbol, 0 while empty.
    value: Vec<Symbol>,
    /// Empty cells left.
    empty: usize,
    /// Removals `(cell << SHIFT) | symbol`, and fills `(cell << SHIFT) | 0`, undone back to a
    /// mark.
    trail: Vec<u32>,
    naked: Vec<u32>,
    hidden: Vec<u32>,
    boxes: Option<Boxes<M>>,
    /// Place sets changed since the last fixpoint (grids with boxes): the ones locked
    /// candidates looks at again; `queued` says which are in the list.
    dirty: Vec<u32>,
    queued: Vec<bool>,
    /// Failure weights (dom/wdeg): of each cell's domain, and of each unit and symbol.
    w_cell: Vec<u32>,
    w_place: Vec<u32>,
    /// Per cell, the sum over its candidates `s` and its units `u` of `w_place[u, s] - 1`, kept
    /// by every removal and restore (so the choice reads a cell's weight in O(1)).
    w_cand: Vec<u32>,
    /// The tie-break generator (xorshift64, seeded: the search is reproducible).
    rng: u64,
}

impl<'t, M: Mask> State<'t, M> {
    /// The empty grid.
    fn new(t: &'t Topology) -> State<'t, M> {
        let n = t.shape.side();
        let all = M::all(n);
        State {
            t,
            n,
            dom: vec![all; t.shape.cells()],
            place: vec![all; t.units.len() * n],
            value: vec![0; t.shape.cells()],
            empty: t.shape.cells(),
            trail: Vec::new(),
            naked: Vec::new(),
            hidden: Vec::new(),
            boxes: t.shape.boxes().map(|(r, c)| Boxes::new(n, r, c)),
            dirty: Vec::new(),
            queued: vec![false; t.units.len() * n],
            w_cell: vec![1; t.shape.cells()],
            w_place: vec![1; t.units.len() * n],
            w_cand: vec![0; t.shape.cells()],
            rng: 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// Removes `symbol` from `cell`'s domain (nothing if it is not there), keeping the place
    /// sets equal and queueing the singles the removal makes.
    #[inline]
    fn remove(&mut self, cell: usize, symbol: Symbol) -> Result<(), Dead> {
        let bit = M::symbol(symbol);
        let d = self.dom[cell];
        if (d & bit).is_empty() {
            return Ok(());
        }
        let d = d ^ bit;
        self.dom[cell] = d;
        self.trail.push(((cell as u32) << SHIFT) | symbol as u32);
        let k = self.t.k;
        let mut dead = d.is_empty();
        if dead {
            self.w_cell[cell] += 1;
        }
        if !dead && d.at_most_one() && self.value[cell] == 0 {
            self.naked.push(cell as u32);
        }
        for j in 0..k {
            let u = self.t.units.of_cell(cell)[j] as usize;
            let idx = u * self.n + symbol as usize - 1;
            let p = self.place[idx] ^ M::symbol(self.t.pos[cell * k + j] + 1);
            self.place[idx] = p;
            self.w_cand[cell] -= self.w_place[idx] - 1;
            if self.boxes.is_some() && !self.queued[idx] {
                self.queued[idx] = true;
                self.dirty.push(idx as u32);
            }
            if p.at_most_one() {
                if p.is_empty() {
                    dead = true;
                    self.w_place[idx] += 1;
                } else {
                    self.hidden.push(idx as u32);
                }
            }
        }
        if dead {
            Err(Dead)
        } else {
            Ok(())
        }
    }

    /// Fills `cell` (empty, `symbol` in its domain) with `symbol`: removes its other symbols,
    /// and `symbol` from every other cell of its units.
    fn assign(&mut self, cell: usize, symbol: Symbol) -> Result<(), Dead> {
        self.value[cell] = symbol;
        self.empty -= 1;
        self.trail.push((cell as u32) << SHIFT);
        let mut others = self.dom[cell] & !M::symbol(symbol);
        while !others.is_empty() {
            let b = others.lowest();
            others ^= b;
            self.remove(cell, b.first())?;
        }
        let k = self.t.k;
        for j in 0..k {
            let u = self.t.units.of_cell(cell)[j] as usize;
            let idx = u * self.n + symbol as usize - 1;
            let mut rest = self.place[idx] & !M::symbol(self.t.pos[cell * k + j] + 1);
            while !rest.is_empty() {
                let b = rest.lowest();
                rest ^= b;
                let other = self.t.units.cells(u)[b.first() as usize - 1] as usize;
                self.remove(other, symbol)?;
            }
        }
        Ok(())
    }

    /// Undoes the trail back to `mark`.
    fn undo_to(&mut self, mark: usize) {
        let k = self.t.k;
        while self.trail.len() > mark {
            let e = self.trail.pop().expect("longer than the mark");
            let (cell, symbol) = ((e >> SHIFT) as usize, (e & SYMBOL_BITS) as Symbol);
            if symbol == 0 {
                self.value[cell] = 0;
                self.empty += 1;
                continue;
            }
            self.dom[cell] |= M::symbol(symbol);
            for j in 0..k {
                let u = self.t.units.of_cell(cell)[j] as usize;
                let idx = u * self.n + symbol as usize - 1;
                self.place[idx] |= M::symbol(self.t.pos[cell * k + j] + 1);
                self.w_cand[cell] += self.w_place[idx] - 1;
            }
        }
    }

    /// Places the givens; a given its peers rule out is a contradiction.
    fn givens(&mut self, puzzle: &Board) -> Result<(), Dead> {
        for (cell, &symbol) in puzzle.cells().iter().enumerate() {
            if symbol != 0 {
                if self.value[cell] == symbol {
                    continue;
                }
                if self.value[cell] != 0 || (self.dom[cell] & M::symbol(symbol)).is_empty() {
                    return Err(Dead);
                }
                self.assign(cell, symbol)?;
            }
        }
        Ok(())
    }

    /// Naked and hidden singles to a fixpoint; when none is queued, locked candidates on one
    /// changed place set; until nothing is queued.
    fn propagate(&mut self, stats: &mut crate::Stats) -> Result<(), Dead> {
        loop {
            if let Some(cell) = self.naked.pop() {
                let cell = cell as usize;
                if self.value[cell] == 0 {
                    stats.propagations += 1;
                    self.assign(cell, self.dom[cell].first())?;
                }
                continue;
            }
            if let Some(idx) = self.hidden.pop() {
                let idx = idx as usize;
                let p = self.place[idx];
                if p.at_most_one() && !p.is_empty() {
                    let u = idx / self.n;
                    let cell = self.t.units.cells(u)[p.first() as usize - 1] as usize;
                    if self.value[cell] == 0 {
                        stats.propagations += 1;
                        self.assign(cell, (idx % self.n) as Symbol + 1)?;
                    }
                }
                continue;
            }
            if self.empty == 0 {
                return Ok(());
            }
            let Some(idx) = self.dirty.pop() else {
                return Ok(());
            };
            self.queued[idx as usize] = false;
            if let Some(bx) = self.boxes.take() {
                let r = self.locked(&bx, idx as usize);
                self.boxes = Some(bx);
                r?;
            }
        }
    }

    /// Empties the queues (a branch starts from a fixpoint: nothing is left to look at).
    fn clear_queues(&mut self) {
        self.naked.clear();
        self.hidden.clear();
        for &idx in &self.dirty {
            self.queued[idx as usize] = false;
        }
        self.dirty.clear();
    }

    /// Queues every place set for locked candidates (the root).
    fn queue_all(&mut self) {
        if self.boxes.is_some() {
            self.dirty = (0..self.place.len() as u32).rev().collect();
            self.queued.fill(true);
        }
    }

    /// Locked candidates on place set `idx`: of a box, *pointing* (the symbol's places in the
    /// box lie in one row or column: it leaves the rest of that line); of a row or column,
    /// *claiming* (its places in the line lie in one box: it leaves the rest of that box).
    fn locked(&mut self, bx: &Boxes<M>, idx: usize) -> Result<(), Dead> {
        let n = self.n;
        let (r, c) = (bx.r, bx.c);
        let stacks = n / c;
        let (u, s) = (idx / n, idx % n);
        let symbol = s as Symbol + 1;
        let p = self.place[idx];
        if p.at_most_one() {
            return Ok(());
        }
        let first = p.first() as usize - 1;
        if u >= 2 * n {
            let b = u - 2 * n;
            let (row0, col0) = ((b / stacks) * r, (b % stacks) * c);
            let i = first / c;
            if (p & !bx.box_row[i]).is_empty() {
                let row = row0 + i;
                let mut t = self.place[row * n + s] & !bx.row_span[col0 / c];
                while !t.is_empty() {
                    let bit = t.lowest();
                    t ^= bit;
                    self.remove(row * n + bit.first() as usize - 1, symbol)?;
                }
            }
            let j = first % c;
            if (p & !bx.box_col[j]).is_empty() {
                let col = col0 + j;
                let mut t = self.place[(n + col) * n + s] & !bx.col_span[row0 / r];
                while !t.is_empty() {
                    let bit = t.lowest();
                    t ^= bit;
                    self.remove((bit.first() as usize - 1) * n + col, symbol)?;
                }
            }
            return Ok(());
        }
        let (b, inside) = if u < n {
            let j = first / c;
            if !(p & !bx.row_span[j]).is_empty() {
                return Ok(());
            }
            ((u / r) * stacks + j, bx.box_row[u % r])
        } else {
            let (line, i) = (u - n, first / r);
            if !(p & !bx.col_span[i]).is_empty() {
                return Ok(());
            }
            (i * stacks + line / c, bx.box_col[line % c])
        };
        let mut t = self.place[(2 * n + b) * n + s] & !inside;
        while !t.is_empty() {
            let bit = t.lowest();
            t ^= bit;
            let cell = self.t.units.cells(2 * n + b)[bit.first() as usize - 1];
            self.remove(cell as usize, symbol)?;
        }
        Ok(())
    }

    /// The decision at a fixpoint with empty cells, as (cell, symbol). The variable: the
    /// smallest choice among cell domains and unplaced symbols' place sets, each size divided
    /// by its failure weight (dom/wdeg), ties drawn at random. The value: of a cell, the
    /// candidate with the fewest places in one of the cell's units; of a place set, the cell
    /// with the fewest candidates; ties drawn at random.
    fn choose(&mut self) -> (usize, Symbol) {
        // best: size and weight of the best so far (size/weight smallest); place set or cell.
        let (mut bs, mut bw, mut ties) = (u64::MAX, 1u64, 0u32);
        let mut best = (usize::MAX, true);
        for cell in 0..self.dom.len() {
            if self.value[cell] != 0 {
                continue;
            }
            let size = self.dom[cell].count() as u64;
            let w = u64::from(self.w_cell[cell] + self.w_cand[cell]);
            if self.better(size, w, (bs, bw), &mut ties) {
                (bs, bw) = (size, w);
                best = (cell, true);
            }
        }
        for idx in 0..self.place.len() {
            let size = self.place[idx].count() as u64;
            if size < 2 {
                continue;
            }
            let w = u64::from(self.w_place[idx]);
            if self.better(size, w, (bs, bw), &mut ties) {
                (bs, bw) = (size, w);
                best = (idx, false);
            }
        }
        match best {
            (cell, true) => (cell, self.value_of(cell)),
            (idx, false) => (self.cell_of(idx), (idx % self.n) as Symbol + 1),
        }
    }

    /// Whether `size / w` beats the best `bs / bw` (a tie wins at random).
    fn better(&mut self, size: u64, w: u64, (bs, bw): (u64, u64), ties: &mut u32) -> bool {
        let (l, r) = (
            u128::from(size) * u128::from(bw),
            u128::from(bs) * u128::from(w),
        );
        if l < r {
            *ties = 1;
            true
        } else {
            l == r && self.tie(ties)
        }
    }

    /// The candidate of `cell` with the fewest places in one of its units.
    fn value_of(&mut self, cell: usize) -> Symbol {
        let k = self.t.k;
        let (mut best, mut bs, mut ties) = (0, u32::MAX, 0u32);
        let mut rest = self.dom[cell];
        while !rest.is_empty() {
            let b = rest.lowest();
            rest ^= b;
            let s = b.first();
            let size = (0..k)
                .map(|j| {
                    let u = self.t.units.of_cell(cell)[j] as usize;
                    self.place[u * self.n + s as usize - 1].count()
                })
                .min()
                .expect("two units or more");
            if size < bs || (size == bs && self.tie(&mut ties)) {
                if size < bs {
                    ties = 1;
                }
                (best, bs) = (s, size);
            }
        }
        best
    }

    /// The cell of place set `idx` with the fewest candidates.
    fn cell_of(&mut self, idx: usize) -> usize {
        let u = idx / self.n;
        let (mut best, mut bs, mut ties) = (0usize, u32::MAX, 0u32);
        let mut rest = self.place[idx];
        while !rest.is_empty() {
            let b = rest.lowest();
            rest ^= b;
            let cell = self.t.units.cells(u)[b.first() as usize - 1] as usize;
            let size = self.dom[cell].count();
            if size < bs || (size == bs && self.tie(&mut ties)) {
                if size < bs {
                    ties = 1;
                }
                (best, bs) = (cell, size);
            }
        }
        best
    }

    /// One more tie: true with probability 1/ties (reservoir sampling).
    fn tie(&mut self, ties: &mut u32) -> bool {
        *ties += 1;
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng % *ties as u64 == 0
    }
}

/// One open branch of the search: its decision, whether it is the left one (the symbol placed)
/// and the trail's length before it.
struct Open {
    cell: u32,
    symbol: Symbol,
    left: bool,
    mark: usize,
}

/// The search on `puzzle` up to `limit` solutions.
fn run<'b, M: Mask>(t: &Topology, puzzle: &Board, limit: u64, budget: &'b Budget) -> Tally<'b> {
    let mut tally = Tally::new(limit, budget);
    if tally.out_of_budget {
        return tally;
    }
    let mut s = State::<M>::new(t);
    s.queue_all();
    if s.givens(puzzle)
        .and_then(|()| s.propagate(&mut tally.stats))
        .is_err()
    {
        return tally;
    }
    let mut stack: Vec<Open> = Vec::new();
    loop {
        // At a consistent fixpoint: a solution, or a decision.
        if s.empty == 0 {
            if tally.solution(|| s.value.clone()) {
                return tally;
            }
        } else {
            let (cell, symbol) = s.choose();
            tally.stats.guesses += 1;
            if tally.enter_node() {
                return tally;
            }
            stack.push(Open {
                cell: cell as u32,
                symbol,
                left: true,
                mark: s.trail.len(),
            });
            s.clear_queues();
            if s.assign(cell, symbol)
                .and_then(|()| s.propagate(&mut tally.stats))
                .is_ok()
            {
                continue;
            }
        }
        // The innermost open branch ended: take the right branch of the innermost left one.
        loop {
            let Some(top) = stack.pop() else {
                return tally;
            };
            tally.stats.backtracks += 1;
            s.undo_to(top.mark);
            if !top.left {
                continue;
            }
            if tally.enter_node() {
                return tally;
            }
            stack.push(Open { left: false, ..top });
            s.clear_queues();
            if s.remove(top.cell as usize, top.symbol)
                .and_then(|()| s.propagate(&mut tally.stats))
                .is_ok()
            {
                break;
            }
        }
    }
}

impl Large {
    /// The topology of `shape`, built on first use and kept.
    fn topology(&mut self, shape: Shape) -> &Topology {
        if self.topology.as_ref().map(|t| t.shape) != Some(shape) {
            self.topology = Some(Topology::of(shape));
        }
        self.topology.as_ref().expect("just set")
    }

    fn tally<'b>(&mut self, puzzle: &Board, limit: u64, budget: &'b Budget) -> Tally<'b> {
        let t = self.topology(puzzle.shape());
        by_width!(t.shape.side(), run(t, puzzle, limit, budget))
    }
}

crate::search::board_solver!(Large, ANY_SHAPE);

#[cfg(test)]
mod tests {
    use super::*;

    crate::search::test_boards::board_solver_tests!(Large::default());

    #[test]
    fn solves_blanked_patterns_above_128() {
        crate::search::test_boards::solves_blanked_wide_patterns(&mut Large::default());
    }
}
