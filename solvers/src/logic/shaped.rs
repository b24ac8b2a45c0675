//! The `logic` solver on grids of every shape: the techniques that carry over from 9x9 to any
//! side and box shape, in HoDoKu's order — full house and naked singles, hidden singles, locked
//! candidates (pointing and claiming; none in a Latin square), naked and hidden pairs, triples
//! and quadruples, X-wing, swordfish and jellyfish — and an MRV guess when none applies.
//!
//! The 9x9 grid keeps the rater's own board and every technique of [`super::Technique`]
//! ([`super::solver`]); this file is the same solver's search for every other [`Shape`], over
//! candidate sets of up to 128 symbols (`u128`, symbol `v` = bit `v - 1`) and the shape's
//! [`Units`]. Counters as the crate docs define them: the root is one node and every guessed
//! symbol one more; **propagations** counts symbols placed by singles.

use crate::{Board, Budget, Count, Shape, Stats, Symbol, Units};

type Set = u128;

/// The pencil marks of a position: each cell's value (0 = empty) and, for an empty cell, its
/// candidates.
#[derive(Clone)]
struct Marks {
    value: Vec<Symbol>,
    cand: Vec<Set>,
    empty: usize,
}

/// What a search with the techniques of this file needs across its nodes.
struct Search<'a> {
    units: Units,
    shape: Shape,
    n: usize,
    full: Set,
    /// For each box, the row units and column units that cross it (empty for a Latin square).
    crossings: Vec<Vec<usize>>,
    budget: &'a Budget,
    limit: u64,
    stats: Stats,
    found: u64,
    first: Option<Vec<Symbol>>,
    out_of_budget: bool,
}

/// A position that cannot be completed (a cell without candidates, a symbol without a cell).
struct Contradiction;

#[inline]
fn bit(v: Symbol) -> Set {
    1u128 << (v - 1)
}

/// The symbols of a set, ascending.
fn symbols(mut s: Set) -> impl Iterator<Item = Symbol> {
    std::iter::from_fn(move || {
        (s != 0).then(|| {
            let v = s.trailing_zeros() as Symbol + 1;
            s &= s - 1;
            v
        })
    })
}

/// Calls `f(pick, union)` on every `k`-subset of `items` whose sets (`set_of` each) unite to
/// exactly `k` elements, until it returns true. Partial picks whose union already exceeds `k`
/// are pruned, which keeps quadruples cheap on large grids.
fn locked_sets(
    items: &[usize],
    k: usize,
    set_of: &impl Fn(usize) -> Set,
    f: &mut impl FnMut(&[usize], Set) -> bool,
) -> bool {
    #[allow(clippy::too_many_arguments)]
    fn go(
        items: &[usize],
        k: usize,
        start: usize,
        union: Set,
        pick: &mut Vec<usize>,
        set_of: &impl Fn(usize) -> Set,
        f: &mut impl FnMut(&[usize], Set) -> bool,
    ) -> bool {
        if pick.len() == k {
            return union.count_ones() as usize == k && f(pick, union);
        }
        for i in start..items.len() {
            if items.len() - i < k - pick.len() {
                break;
            }
            let u = union | set_of(items[i]);
            if u.count_ones() as usize > k {
                continue;
            }
            pick.push(items[i]);
            if go(items, k, i + 1, u, pick, set_of, f) {
                return true;
            }
            pick.pop();
        }
        false
    }
    go(items, k, 0, 0, &mut Vec::with_capacity(k), set_of, f)
}

impl<'a> Search<'a> {
    fn new(shape: Shape, limit: u64, budget: &'a Budget) -> Search<'a> {
        let units = shape.units();
        let n = shape.side();
        let mut crossings = Vec::new();
        if let Some((r, c)) = shape.boxes() {
            for b in 0..n {
                let first = units.cells(2 * n + b)[0] as usize;
                let (row, col) = (shape.row_of(first), shape.col_of(first));
                let mut lines: Vec<usize> = (row..row + r).collect();
                lines.extend((col..col + c).map(|c| n + c));
                crossings.push(lines);
            }
        }
        Search {
            units,
            shape,
            n,
            full: if n == 128 { !0 } else { (1u128 << n) - 1 },
            crossings,
            budget,
            limit: limit.max(1),
            stats: Stats {
                nodes: 1,
                ..Stats::default()
            },
            found: 0,
            first: None,
            out_of_budget: budget.exhausted(0),
        }
    }

    /// The marks of the puzzle, or a contradiction when two givens share a unit and symbol.
    fn marks(&self, puzzle: &Board) -> Result<Marks, Contradiction> {
        let cells = self.shape.cells();
        let mut used = vec![0 as Set; self.units.len()];
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                for &u in self.units.of_cell(i) {
                    if used[u as usize] & bit(v) != 0 {
                        return Err(Contradiction);
                    }
                    used[u as usize] |= bit(v);
                }
            }
        }
        let mut m = Marks {
            value: puzzle.cells().to_vec(),
            cand: vec![0; cells],
            empty: 0,
        };
        for i in 0..cells {
            if m.value[i] == 0 {
                let taken = self
                    .units
                    .of_cell(i)
                    .iter()
                    .fold(0, |a, &u| a | used[u as usize]);
                m.cand[i] = self.full & !taken;
                m.empty += 1;
            }
        }
        Ok(m)
    }

    /// Places `v` in `cell` and removes it from the cell's peers.
    fn place(&self, m: &mut Marks, cell: usize, v: Symbol) -> Result<(), Contradiction> {
        if m.value[cell] != 0 || m.cand[cell] & bit(v) == 0 {
            return Err(Contradiction);
        }
        m.value[cell] = v;
        m.cand[cell] = 0;
        m.empty -= 1;
        for &u in self.units.of_cell(cell) {
            for &j in self.units.cells(u as usize) {
                m.cand[j as usize] &= !bit(v);
            }
        }
        Ok(())
    }

    /// Removes `set` from the candidates of `cells`; true when any was there.
    fn eliminate(m: &mut Marks, cells: impl Iterator<Item = usize>, set: Set) -> bool {
        let mut changed = false;
        for j in cells {
            if m.cand[j] & set != 0 {
                m.cand[j] &= !set;
                changed = true;
            }
        }
        changed
    }

    /// Full houses and naked singles: every empty cell with one candidate gets it.
    fn naked_singles(&mut self, m: &mut Marks) -> Result<bool, Contradiction> {
        let mut placed = false;
        for i in 0..m.value.len() {
            if m.value[i] != 0 {
                continue;
            }
            let c = m.cand[i];
            if c == 0 {
                return Err(Contradiction);
            }
            if c & (c - 1) == 0 {
                self.place(m, i, c.trailing_zeros() as Symbol + 1)?;
                self.stats.propagations += 1;
                placed = true;
            }
        }
        Ok(placed)
    }

    /// Hidden singles, a unit at a time; a symbol with no cell left in a unit is a contradiction.
    fn hidden_singles(&mut self, m: &mut Marks) -> Result<bool, Contradiction> {
        for u in 0..self.units.len() {
            let (mut once, mut twice, mut placed) = (0 as Set, 0 as Set, 0 as Set);
            for &j in self.units.cells(u) {
                let j = j as usize;
                if m.value[j] != 0 {
                    placed |= bit(m.value[j]);
                }
                twice |= once & m.cand[j];
                once |= m.cand[j];
            }
            if (once | placed) != self.full {
                return Err(Contradiction);
            }
            let single = once & !twice;
            if single != 0 {
                for v in symbols(single) {
                    let cell = self
                        .units
                        .cells(u)
                        .iter()
                        .map(|&j| j as usize)
                        .find(|&j| m.cand[j] & bit(v) != 0)
                        .ok_or(Contradiction)?;
                    self.place(m, cell, v)?;
                    self.stats.propagations += 1;
                }
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Locked candidates: in a box, a symbol confined to one row or column leaves the rest of
    /// that line (pointing); in a line, a symbol confined to one box leaves the rest of the box
    /// (claiming).
    fn locked_candidates(&self, m: &mut Marks) -> bool {
        let n = self.n;
        for (b, lines) in self.crossings.iter().enumerate() {
            let bx = 2 * n + b;
            for &line in lines {
                let in_box = |j: &u32| self.shape.box_of(*j as usize) == Some(b);
                let on_line = |j: &u32| self.units.of_cell(*j as usize).contains(&(line as u16));
                let (mut inter, mut box_rest, mut line_rest) = (0 as Set, 0 as Set, 0 as Set);
                for &j in self.units.cells(bx) {
                    if on_line(&j) {
                        inter |= m.cand[j as usize];
                    } else {
                        box_rest |= m.cand[j as usize];
                    }
                }
                for &j in self.units.cells(line) {
                    if !in_box(&j) {
                        line_rest |= m.cand[j as usize];
                    }
                }
                let pointing = inter & !box_rest & line_rest;
                if pointing != 0 {
                    let rest = self.units.cells(line).iter().filter(|j| !in_box(j));
                    return Self::eliminate(m, rest.map(|&j| j as usize), pointing);
                }
                let claiming = inter & !line_rest & box_rest;
                if claiming != 0 {
                    let rest = self.units.cells(bx).iter().filter(|j| !on_line(j));
                    return Self::eliminate(m, rest.map(|&j| j as usize), claiming);
                }
            }
        }
        false
    }

    /// Naked subsets of size `k`: k cells of a unit whose candidates together are k symbols
    /// take those symbols from the unit's other cells.
    fn naked_subset(&self, m: &mut Marks, k: usize) -> bool {
        for u in 0..self.units.len() {
            let cells: Vec<usize> = self
                .units
                .cells(u)
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| m.value[j] == 0)
                .collect();
            if cells.len() <= k {
                continue;
            }
            let small: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&j| (m.cand[j].count_ones() as usize) <= k)
                .collect();
            let mut hit = None;
            locked_sets(&small, k, &|j| m.cand[j], &mut |pick, union| {
                let changes = cells
                    .iter()
                    .any(|j| !pick.contains(j) && m.cand[*j] & union != 0);
                if changes {
                    hit = Some((pick.to_vec(), union));
                }
                changes
            });
            if let Some((pick, union)) = hit {
                let rest = cells.iter().copied().filter(|j| !pick.contains(j));
                return Self::eliminate(m, rest, union);
            }
        }
        false
    }

    /// Hidden subsets of size `k`: k symbols confined to the same k cells of a unit leave those
    /// cells no other candidate.
    fn hidden_subset(&self, m: &mut Marks, k: usize) -> bool {
        for u in 0..self.units.len() {
            let cells = self.units.cells(u);
            // Where each symbol can go in the unit, as a set of positions 0..N.
            let mut places = vec![0 as Set; self.n + 1];
            let mut open = 0;
            for (p, &j) in cells.iter().enumerate() {
                let c = m.cand[j as usize];
                if c != 0 {
                    open += 1;
                }
                for v in symbols(c) {
                    places[v as usize] |= 1u128 << p;
                }
            }
            if open <= k {
                continue;
            }
            let few: Vec<usize> = (1..=self.n)
                .filter(|&v| (1..=k).contains(&(places[v].count_ones() as usize)))
                .collect();
            let mut hit = None;
            locked_sets(&few, k, &|v| places[v], &mut |pick, where_| {
                let keep = pick.iter().fold(0 as Set, |a, &v| a | bit(v as Symbol));
                let changes = (0..cells.len())
                    .any(|p| where_ & (1u128 << p) != 0 && m.cand[cells[p] as usize] & !keep != 0);
                if changes {
                    hit = Some((where_, keep));
                }
                changes
            });
            if let Some((where_, keep)) = hit {
                for (p, &j) in cells.iter().enumerate() {
                    if where_ & (1u128 << p) != 0 {
                        m.cand[j as usize] &= keep;
                    }
                }
                return true;
            }
        }
        false
    }

    /// Basic fish of size `k` (2 X-wing, 3 swordfish, 4 jellyfish): a symbol whose places in k
    /// rows lie in k columns leaves the other rows of those columns; and columns for rows.
    fn fish(&self, m: &mut Marks, k: usize) -> bool {
        let n = self.n;
        for v in 1..=n as Symbol {
            for rows_base in [true, false] {
                // Base line b's places of v, as a set of cover lines.
                let cell = |base: usize, cover: usize| {
                    if rows_base {
                        base * n + cover
                    } else {
                        cover * n + base
                    }
                };
                let mut places = vec![0 as Set; n];
                for (base, p) in places.iter_mut().enumerate() {
                    for cover in 0..n {
                        if m.cand[cell(base, cover)] & bit(v) != 0 {
                            *p |= 1u128 << cover;
                        }
                    }
                }
                let bases: Vec<usize> = (0..n)
                    .filter(|&b| (2..=k).contains(&(places[b].count_ones() as usize)))
                    .collect();
                let mut hit = None;
                locked_sets(&bases, k, &|b| places[b], &mut |pick, covers| {
                    let changes = (0..n).any(|b| !pick.contains(&b) && places[b] & covers != 0);
                    if changes {
                        hit = Some((pick.to_vec(), covers));
                    }
                    changes
                });
                if let Some((pick, covers)) = hit {
                    let targets = (0..n).filter(|b| !pick.contains(b)).flat_map(|b| {
                        (0..n)
                            .filter(move |&c| covers & (1u128 << c) != 0)
                            .map(move |c| cell(b, c))
                    });
                    let targets: Vec<usize> = targets.collect();
                    return Self::eliminate(m, targets.into_iter(), bit(v));
                }
            }
        }
        false
    }

    /// The techniques to a fixpoint, easiest first, one step at a time (singles place every
    /// single they find). Polls the budget at every step.
    fn propagate(&mut self, m: &mut Marks) -> Result<(), Contradiction> {
        loop {
            if m.empty == 0 {
                return Ok(());
            }
            if self.budget.exhausted(self.stats.nodes) {
                self.out_of_budget = true;
                return Ok(());
            }
            if self.naked_singles(m)? || self.hidden_singles(m)? || self.locked_candidates(m) {
                continue;
            }
            let stepped = self.naked_subset(m, 2)
                || self.naked_subset(m, 3)
                || self.hidden_subset(m, 2)
                || self.hidden_subset(m, 3)
                || self.naked_subset(m, 4)
                || self.hidden_subset(m, 4)
                || self.fish(m, 2)
                || self.fish(m, 3)
                || self.fish(m, 4);
            if !stepped {
                return Ok(());
            }
        }
    }

    /// Searches from `m`; true when the search must stop (limit reached or budget spent).
    fn node(&mut self, mut m: Marks) -> bool {
        if self.propagate(&mut m).is_err() {
            return false;
        }
        if self.out_of_budget {
            return true;
        }
        if m.empty == 0 {
            self.found += 1;
            if self.first.is_none() {
                self.first = Some(m.value);
            }
            return self.found >= self.limit;
        }
        let cell = (0..m.value.len())
            .filter(|&i| m.value[i] == 0)
            .min_by_key(|&i| m.cand[i].count_ones())
            .expect("an empty cell");
        let c = m.cand[cell];
        if c.count_ones() >= 2 {
            self.stats.guesses += 1;
        }
        for v in symbols(c) {
            self.stats.nodes += 1;
            if self.budget.check(self.stats.nodes) {
                self.out_of_budget = true;
                return true;
            }
            let mut child = m.clone();
            if self.place(&mut child, cell, v).is_ok() && self.node(child) {
                return true;
            }
            self.stats.backtracks += 1;
        }
        false
    }

    fn run(mut self, puzzle: &Board) -> Self {
        if !self.out_of_budget {
            if let Ok(m) = self.marks(puzzle) {
                self.node(m);
            }
        }
        self
    }

    fn first_board(&self) -> Option<Board> {
        let cells = self.first.clone()?;
        Board::new(self.shape, cells).ok()
    }
}

/// Counts the solutions of `puzzle` (any shape) up to `limit`.
pub(crate) fn count(puzzle: &Board, limit: u64, budget: &Budget) -> Count {
    let s = Search::new(puzzle.shape(), limit, budget).run(puzzle);
    Count {
        solutions: s.found,
        complete: !s.out_of_budget,
        first: s.first_board(),
        stats: s.stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Outcome, Status};

    fn solve(puzzle: &Board, budget: &Budget) -> Outcome {
        count(puzzle, 1, budget).outcome()
    }

    /// A valid grid: row r of a Sudoku with `br` x `bc` boxes is 1..N shifted by
    /// `bc * (r % br) + r / br`; for a Latin square (`br` = 0), the cyclic square.
    fn pattern(shape: Shape) -> Vec<Symbol> {
        let n = shape.side();
        (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                let shift = match shape.boxes() {
                    Some((br, bc)) => bc * (r % br) + r / br,
                    None => r,
                };
                ((c + shift) % n) as Symbol + 1
            })
            .collect()
    }

    fn holes(cells: &[Symbol], every: usize) -> Vec<Symbol> {
        cells
            .iter()
            .enumerate()
            .map(|(i, &v)| if (i * 7 + 3) % every == 0 { v } else { 0 })
            .collect()
    }

    #[test]
    fn solves_every_shape_from_a_pattern_grid() {
        for shape in [
            Shape::of_order(1).unwrap(),
            Shape::of_order(2).unwrap(),
            Shape::of_order(4).unwrap(),
            Shape::of_order(5).unwrap(),
            Shape::sudoku(2, 3).unwrap(),
            Shape::sudoku(3, 4).unwrap(),
            Shape::latin(5).unwrap(),
            Shape::latin(10).unwrap(),
        ] {
            let grid = pattern(shape);
            let puzzle = Board::new(shape, holes(&grid, 2)).unwrap();
            let out = solve(&puzzle, &Budget::unlimited().max_nodes(Some(20_000)));
            assert_eq!(out.status, Status::Solved, "{shape}");
            let sol = out.solution.unwrap();
            // The answer keeps the givens and no unit repeats a symbol.
            assert!(sol.is_full() && sol.first_conflict().is_none(), "{shape}");
            assert!(puzzle
                .cells()
                .iter()
                .zip(sol.cells())
                .all(|(&p, &s)| p == 0 || p == s));
        }
    }

    #[test]
    fn counts_and_finds_contradictions() {
        // The empty 4x4 Sudoku has 288 solutions (a count checked by hand in the literature:
        // 4! * 12 = 288).
        let s4 = Shape::of_order(2).unwrap();
        let c = count(&Board::empty(s4), 1000, &Budget::unlimited());
        assert_eq!((c.solutions, c.complete), (288, true));
        // Latin squares of order 4: 576.
        let l4 = Shape::latin(4).unwrap();
        assert_eq!(
            count(&Board::empty(l4), 1000, &Budget::unlimited()).solutions,
            576
        );
        // r1c1..r1c3 hold 1, 2, 3 and r2c4 holds 4: r1c4 has no candidate.
        let mut b = Board::empty(s4);
        for (i, v) in [(0, 1), (1, 2), (2, 3), (7, 4)] {
            b.set(i, v);
        }
        let out = solve(&b, &Budget::unlimited());
        assert_eq!(out.status, Status::NoSolution);
        // A node budget stops the search of the empty 25x25.
        let s25 = Shape::of_order(5).unwrap();
        let c = count(
            &Board::empty(s25),
            u64::MAX,
            &Budget::unlimited().max_nodes(Some(50)),
        );
        assert!(!c.complete);
    }
}
