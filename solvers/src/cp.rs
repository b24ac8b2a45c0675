//! `cp`: a constraint-programming solver for grids of every shape — domain-consistent
//! all-different per unit, dom/wdeg branching with seeded random ties, Luby restarts.
//!
//! ## Model
//! One variable per cell, its domain a bit set of symbols (`u128`: sides up to 128). Each unit
//! (row, column, box) is one all-different constraint kept *domain consistent* by Régin's
//! filtering ([`crate::alldiff`]: a maximum matching repaired incrementally, and the strongly
//! connected components of the value graph), so every symbol left in a cell's domain lies in
//! some assignment of the whole unit. This subsumes naked and hidden singles, locked pairs,
//! triples and every other Hall set of one unit. The Sudoku *channel* (each symbol's places in
//! a unit, as a second set of variables) adds nothing on top of it: it is the same bipartite
//! graph read from the other side, and a domain-consistent filter removes the same edges from
//! either side. Propagation is a queue of the units whose cells lost a symbol; each is filtered
//! in one pass (Régin's filter reaches its fixpoint in one call).
//!
//! ## Search
//! Binary branching (`cell = symbol`, then `cell ≠ symbol`) on the cell of smallest
//! `|domain| / wdeg` (Boussemart, Hemery, Lecoutre & Sais, ECAI 2004): each unit carries a
//! weight, 1 at the start, raised by one each time its filter fails, and a cell's `wdeg` is the
//! sum of its units' weights. Ties, and the symbol tried, are drawn from a seeded generator
//! (xorshift; the same puzzle takes the same path on every run). The search restarts after a
//! number of failures that follows Luby's sequence (Luby, Sinclair & Zuckerman, IPL 1993) in
//! units of [`RESTART_UNIT`]: restarts with randomised choices cut the heavy tails of
//! backtracking search (Gomes, Selman & Kautz, AAAI 1998); the weights are kept, so each run
//! starts from what the failures taught. A count runs one complete search without restarts, and
//! so does every search of [`Cp::without_restarts`] (the registered variant `cp-norestart`,
//! the same solver but for that: the baseline of the heavy-tail studies in docs/scaling.md).
//!
//! Counters: **nodes** the root plus one per decision `cell = symbol`; **guesses** those
//! decisions; **backtracks** the failures (a filter that fails, each undoing a decision);
//! **propagations** the cells fixed by filtering; **updates** the restarts.

use crate::alldiff::{Filter, Matching};
use crate::search::{luby, Tally};
use crate::{Board, Budget, Shape};

/// The CP solver: domain-consistent all-different per unit, dom/wdeg, Luby restarts. Keeps the
/// model of the last shape it solved; counts solutions.
#[derive(Debug)]
pub struct Cp {
    model: Option<Model>,
    /// Whether a search for one solution restarts (Luby); a count never does.
    restarts: bool,
}

impl Default for Cp {
    fn default() -> Cp {
        Cp {
            model: None,
            restarts: true,
        }
    }
}

impl Cp {
    /// The same solver without restarts: every search is one complete depth-first search, with
    /// the same propagation, dom/wdeg branching and random ties.
    pub fn without_restarts() -> Cp {
        Cp {
            restarts: false,
            ..Cp::default()
        }
    }
}

/// The units of a shape.
#[derive(Debug)]
struct Model {
    shape: Shape,
    n: usize,
    /// Unit `u`'s cells: `cells[u * n .. u * n + n]`.
    cells: Vec<u32>,
    /// Cell `c`'s units: `units_of[c * k .. c * k + k]`.
    units_of: Vec<u32>,
    /// Units per cell (2 in a Latin square, 3 with boxes).
    k: usize,
    units: usize,
}

impl Model {
    fn of(shape: Shape) -> Model {
        let n = shape.side();
        let units = shape.units();
        let k = shape.units_per_cell();
        let mut cells = Vec::with_capacity(units.len() * n);
        for u in 0..units.len() {
            cells.extend(units.cells(u).iter().copied());
        }
        let mut units_of = Vec::with_capacity(shape.cells() * k);
        for c in 0..shape.cells() {
            units_of.extend(units.of_cell(c).iter().map(|&u| u as u32));
        }
        Model {
            shape,
            n,
            cells,
            units_of,
            k,
            units: units.len(),
        }
    }

    #[inline]
    fn unit(&self, u: usize) -> &[u32] {
        &self.cells[u * self.n..u * self.n + self.n]
    }

    #[inline]
    fn units_of(&self, c: usize) -> &[u32] {
        &self.units_of[c * self.k..c * self.k + self.k]
    }
}

/// Failures per unit of the restart sequence.
const RESTART_UNIT: u64 = 100;

/// A decision on the search stack: the trail length before it, the cell and the symbol bit.
struct Decision {
    mark: usize,
    cell: u32,
    bit: u128,
}

/// The search state of one solve.
struct State<'m> {
    m: &'m Model,
    dom: Vec<u128>,
    /// (cell, its domain before the change).
    trail: Vec<(u32, u128)>,
    matching: Vec<Matching>,
    filter: Filter,
    weight: Vec<u64>,
    queued: Vec<bool>,
    queue: Vec<u32>,
    scratch: Vec<u128>,
    rng: u64,
    propagations: u64,
}

impl<'m> State<'m> {
    fn new(m: &'m Model) -> State<'m> {
        State {
            m,
            dom: vec![u128::MAX >> (128 - m.n); m.shape.cells()],
            trail: Vec::new(),
            matching: (0..m.units).map(|_| Matching::new(m.n)).collect(),
            filter: Filter::default(),
            weight: vec![1; m.units],
            queued: vec![false; m.units],
            queue: Vec::new(),
            scratch: vec![0; m.n],
            rng: 0x2545_f491_4f6c_dd1d,
            propagations: 0,
        }
    }

    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn enqueue(&mut self, u: u32) {
        if !self.queued[u as usize] {
            self.queued[u as usize] = true;
            self.queue.push(u);
        }
    }

    /// Narrows cell `c` to `d` (a subset of its domain), queueing its units but `except`.
    fn narrow(&mut self, c: usize, d: u128, except: u32) {
        let old = self.dom[c];
        if old == d {
            return;
        }
        self.trail.push((c as u32, old));
        self.dom[c] = d;
        if d.count_ones() == 1 {
            self.propagations += 1;
        }
        for j in 0..self.m.k {
            let u = self.m.units_of(c)[j];
            if u != except {
                self.enqueue(u);
            }
        }
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (c, d) = self.trail.pop().expect("above the mark");
            self.dom[c as usize] = d;
        }
    }

    fn clear_queue(&mut self) {
        for &u in &self.queue {
            self.queued[u as usize] = false;
        }
        self.queue.clear();
    }

    /// Filters the queued units to a fixpoint; false on a failure (its unit's weight raised).
    fn propagate(&mut self) -> bool {
        while let Some(u) = self.queue.pop() {
            self.queued[u as usize] = false;
            let m = self.m;
            let cells = m.unit(u as usize);
            for (p, &c) in cells.iter().enumerate() {
                self.scratch[p] = self.dom[c as usize];
            }
            let ok = self
                .filter
                .run(&mut self.matching[u as usize], &self.scratch[..m.n]);
            if ok.is_err() {
                self.weight[u as usize] += 1;
                self.clear_queue();
                return false;
            }
            for (p, &c) in cells.iter().enumerate() {
                let d = self.scratch[p];
                let kept = d & self.filter.comp_cols[self.filter.comp[p] as usize];
                if kept != d {
                    self.narrow(c as usize, kept, u);
                }
            }
        }
        true
    }

    /// The dom/wdeg choice: the open cell of smallest `|domain| / wdeg`, ties drawn at random;
    /// `None` when every cell is fixed.
    fn choose(&mut self) -> Option<(usize, u128)> {
        let m = self.m;
        let mut best: Option<(usize, u64, u64)> = None;
        let mut ties = 0u64;
        for c in 0..self.dom.len() {
            let size = self.dom[c].count_ones() as u64;
            if size < 2 {
                continue;
            }
            let w: u64 = m.units_of(c).iter().map(|&u| self.weight[u as usize]).sum();
            match best {
                Some((_, bs, bw)) if size * bw > bs * w => {}
                Some((_, bs, bw)) if size * bw == bs * w => {
                    ties += 1;
                    if self.next_random() % ties == 0 {
                        best = Some((c, size, w));
                    }
                }
                _ => {
                    best = Some((c, size, w));
                    ties = 1;
                }
            }
        }
        let (c, size, _) = best?;
        let mut d = self.dom[c];
        for _ in 0..self.next_random() % size {
            d &= d - 1;
        }
        Some((c, d & d.wrapping_neg()))
    }
}

/// The search on `puzzle` up to `limit` solutions; restarts only when looking for one and
/// `may_restart` is set.
fn run<'b>(
    m: &Model,
    puzzle: &Board,
    limit: u64,
    may_restart: bool,
    budget: &'b Budget,
) -> Tally<'b> {
    let mut tally = Tally::new(limit, budget);
    if tally.out_of_budget {
        return tally;
    }
    let mut s = State::new(m);
    for (c, &symbol) in puzzle.cells().iter().enumerate() {
        if symbol != 0 {
            s.dom[c] &= 1u128 << (symbol - 1);
        }
    }
    for u in 0..m.units as u32 {
        s.enqueue(u);
    }
    if !s.propagate() {
        return tally;
    }
    let restarting = may_restart && limit == 1;
    let (mut restarts, mut failures, mut until_restart) = (0u64, 0u64, RESTART_UNIT * luby(0));
    let mut stack: Vec<Decision> = Vec::new();
    loop {
        if let Some((cell, bit)) = s.choose() {
            tally.stats.guesses += 1;
            if tally.enter_node() {
                break;
            }
            stack.push(Decision {
                mark: s.trail.len(),
                cell: cell as u32,
                bit,
            });
            s.narrow(cell, bit, u32::MAX);
        } else {
            // Every cell fixed and every unit consistent: a solution.
            if tally.solution(|| {
                s.dom
                    .iter()
                    .map(|d| d.trailing_zeros() as u8 + 1)
                    .collect::<Vec<u8>>()
            }) {
                break;
            }
            // Go on past it as past a failure.
            if !refute(&mut s, &mut stack) {
                break;
            }
        }
        while !s.propagate() {
            tally.stats.backtracks += 1;
            failures += 1;
            until_restart = until_restart.saturating_sub(1);
            if !refute(&mut s, &mut stack) {
                tally.stats.propagations = s.propagations;
                tally.stats.updates = restarts;
                return tally;
            }
            if failures % 64 == 0 && budget.exhausted(tally.stats.nodes) {
                tally.out_of_budget = true;
                tally.stats.propagations = s.propagations;
                tally.stats.updates = restarts;
                return tally;
            }
        }
        if restarting && until_restart == 0 && !stack.is_empty() {
            restarts += 1;
            until_restart = RESTART_UNIT * luby(restarts);
            s.undo(stack[0].mark);
            stack.clear();
        }
    }
    tally.stats.propagations = s.propagations;
    tally.stats.updates = restarts;
    tally
}

/// Takes back the latest decision `cell = symbol` and posts `cell ≠ symbol` in its place (its
/// units queued); false when no decision is left (the search is over).
fn refute(s: &mut State, stack: &mut Vec<Decision>) -> bool {
    s.clear_queue();
    let Some(d) = stack.pop() else {
        return false;
    };
    s.undo(d.mark);
    let c = d.cell as usize;
    let rest = s.dom[c] & !d.bit;
    // The decision was taken on a cell of two symbols or more: one is left at least.
    s.narrow(c, rest, u32::MAX);
    true
}

impl Cp {
    fn tally<'b>(&mut self, puzzle: &Board, limit: u64, budget: &'b Budget) -> Tally<'b> {
        let shape = puzzle.shape();
        if self.model.as_ref().map(|m| m.shape) != Some(shape) {
            self.model = Some(Model::of(shape));
        }
        run(
            self.model.as_ref().expect("just set"),
            puzzle,
            limit,
            self.restarts,
            budget,
        )
    }
}

crate::search::board_solver!(Cp, UP_TO_128);

#[cfg(test)]
mod tests {
    use super::*;

    crate::search::test_boards::board_solver_tests!(Cp::default());

    #[test]
    fn without_restarts_solves_and_counts_the_same_and_never_restarts() {
        use crate::search::test_boards::{
            counts_small_grids_and_a_contradiction, solves_blanked_patterns,
        };
        use crate::{Solver, Status};
        let mut cp = Cp::without_restarts();
        solves_blanked_patterns(&mut cp);
        counts_small_grids_and_a_contradiction(&mut cp);
        // An empty 30x30 Latin square: with restarts the search may restart, without it never.
        let empty = Board::empty(Shape::latin(30).unwrap());
        let out = cp.solve(&empty, &Budget::unlimited()).unwrap();
        assert_eq!(out.status, Status::Solved);
        assert_eq!(out.stats.updates, 0);
    }
}
