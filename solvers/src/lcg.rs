//! `lcg`: lazy clause generation — `cdcl`'s engine with all-different per unit as a propagator
//! that explains itself, for grids of every order (built for the hard 25x25 puzzles and
//! quasigroups with holes).
//!
//! ## Model
//! `cdcl`'s (see [`crate::cdcl`]): one Boolean variable `x(c, s)` per cell `c` and symbol `s`,
//! the exactly-one **groups** of cells and of units' symbols as native propagators (naked and
//! hidden singles), locked candidates with reasons on grids with boxes, learnt clauses watched
//! by two literals. On top, each unit is an **all-different** constraint kept domain
//! consistent ([`crate::alldiff`]: Régin's maximum matching, repaired incrementally and never
//! undone, and the strongly connected components of the value graph), its rows the unit's
//! symbols and its columns their places (each symbol group's places not yet false, read with no
//! copy). This is the *lazy clause generation* of Ohrimenko, Stuckey & Codish (Constraints
//! 2009): the propagator sets Boolean variables false, and gives each removal a reason only
//! when conflict analysis asks for it. The reason is the Hall set read off the matching
//! (Katsirelos & Bacchus 2005; Downing, Feydy & Stuckey, "Explaining alldifferent", ACSC 2012):
//! the symbols `H` that the component of the removed place's matched symbol reaches can only go
//! to their `|H|` matched places, so the clause is "not this, or some symbol of `H` outside
//! those places". One record per Hall set (unit, symbols, places) serves every removal it
//! causes; a position that held a symbol when the record was made stands for its `|H|` literals
//! by one, "not its symbol". A unit whose symbols cannot all be placed is a conflict whose
//! clause is the Hall violator's. Records live on a stack cut back with the trail.
//!
//! Propagation order: the groups and clauses to their fixpoint first (cheap), then the filter of
//! one unit whose symbols lost a place since its last filtering; as soon as that filter removes
//! anything, back to the cheap propagators. A unit is filtered again only after it changed.
//!
//! ## Search
//! `cdcl`'s: VSIDS, target and saved phases, first-UIP learning with recursive minimisation,
//! LBD-based reduction, Luby restarts in units of 1,000 conflicts; counting adds
//! blocking clauses. Nothing is random.
//!
//! Counters: **nodes** the root plus one per decision; **guesses** the decisions;
//! **backtracks** the conflicts; **propagations** the symbols placed by propagation;
//! **updates** the restarts.
//!
//! Shapes: every [`Shape`](crate::Shape) ([`Shapes::Any`](crate::engine::Shapes::Any)), square or rectangular boxes, and Latin squares.

use crate::alldiff::{Filter, Matching};
use crate::cdcl::{
    lit, Conflict, Engine, Extension, Model, State, EXT, NO_REASON, TAG, TRUE, UNDEF,
};
use crate::search::Tally;
use crate::{Board, Budget};

/// The LCG solver: `cdcl`'s engine plus all-different per unit, explained by Hall sets. Keeps
/// the model of the last shape it solved; counts solutions.
#[derive(Debug, Default)]
pub struct Lcg {
    engine: Engine<AllDiff>,
}

/// A Hall set of one unit, read off its matching ([`crate::alldiff`]): the symbols `rows` can
/// only go to the positions `cols` (as many), so every other symbol leaves those positions.
/// The reason of each such removal is the clause "not this, or some symbol of `rows` in some
/// position outside `cols`", where a position that held a symbol when the record was made
/// (`fixed`) stands for all its literals by one: "not the symbol it holds". A failed matching is
/// a record too (`cols` then holds fewer positions than `rows` symbols), read as a conflict.
#[derive(Debug, Clone, Copy)]
struct Hall {
    unit: u32,
    rows: u128,
    cols: u128,
    fixed: u128,
}

/// All-different per unit as the engine's [`Extension`].
#[derive(Debug, Default)]
pub(crate) struct AllDiff {
    /// Per unit: its all-different matching (symbols to positions), kept across the search.
    matching: Vec<Matching>,
    filter: Filter,
    /// Units whose symbols lost a place since their last filtering.
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    /// The Hall records of the reasons on the trail.
    halls: Vec<Hall>,
    /// Per decision level: the number of records when it began.
    hall_at: Vec<u32>,
    /// Scratch: per component of the last filtering, its record (`u32::MAX` when none).
    record_of: Vec<u32>,
}

impl Extension for AllDiff {
    fn reset(&mut self, m: &Model) {
        let units = (m.groups() - m.shape.cells()) / m.n;
        self.matching = (0..units).map(|_| Matching::new(m.n)).collect();
        self.dirty = (0..units as u32).collect();
        self.is_dirty = vec![true; units];
        self.halls.clear();
        self.hall_at.clear();
    }

    #[inline(always)]
    fn lost_place(&mut self, m: &Model, g: u32) {
        let u = (g as usize - m.shape.cells()) / m.n;
        if !self.is_dirty[u] {
            self.is_dirty[u] = true;
            self.dirty.push(u as u32);
        }
    }

    fn decide(&mut self) {
        self.hall_at.push(self.halls.len() as u32);
    }

    fn backjump(&mut self, level: u32) {
        self.halls.truncate(self.hall_at[level as usize] as usize);
        self.hall_at.truncate(level as usize);
    }

    /// The groups and clauses to their fixpoint first, then the all-different filter of one
    /// unit whose symbols lost a place, and again.
    fn propagate(s: &mut State<AllDiff>, m: &Model) -> Option<Conflict> {
        loop {
            if let Some(c) = s.propagate(m) {
                return Some(c);
            }
            let mut pruned = false;
            while let Some(u) = s.ext.dirty.pop() {
                s.ext.is_dirty[u as usize] = false;
                match filter_unit(s, m, u as usize) {
                    Err(c) => return Some(c),
                    Ok(true) => {
                        pruned = true;
                        break;
                    }
                    Ok(false) => {}
                }
            }
            if !pruned {
                return None;
            }
        }
    }

    /// Hall record `h`'s clause: for each position outside its `cols`, "its symbol" when it
    /// was fixed, else each symbol of `rows` there.
    fn reason_lits(s: &mut State<AllDiff>, m: &Model, h: u32) {
        let hall = s.ext.halls[h as usize];
        let base = m.shape.cells() as u32 + hall.unit * m.n as u32;
        let mut out = !hall.cols & (u128::MAX >> (128 - m.n));
        while out != 0 {
            let p = out.trailing_zeros() as usize;
            out &= out - 1;
            // The cell at position p, through symbol 0's group.
            let cell = m.group(base)[p] as usize / m.n;
            if hall.fixed & (1u128 << p) != 0 {
                let t = s.alive[cell].trailing_zeros() as usize;
                s.buf.push(lit((cell * m.n + t) as u32, false));
            } else {
                let mut rows = hall.rows;
                while rows != 0 {
                    let r = rows.trailing_zeros() as usize;
                    rows &= rows - 1;
                    s.buf.push(lit((cell * m.n + r) as u32, true));
                }
            }
        }
    }
}

/// Filters unit `u`'s all-different constraint (symbols as rows, positions as columns):
/// `Ok(true)` when it removed a place, `Err` with the conflict when it fails.
fn filter_unit(s: &mut State<AllDiff>, m: &Model, u: usize) -> Result<bool, Conflict> {
    let base = m.shape.cells() + u * m.n;
    let x = &mut s.ext;
    let res = x.filter.run(&mut x.matching[u], &s.alive[base..base + m.n]);
    if let Err(v) = res {
        let fixed = fixed_positions(s, m, base, !v.cols);
        s.ext.halls.push(Hall {
            unit: u as u32,
            rows: v.rows,
            cols: v.cols,
            fixed,
        });
        return Err(Conflict::Ext(s.ext.halls.len() as u32 - 1, NO_REASON));
    }
    let f = &s.ext.filter;
    if (0..m.n).all(|r| s.alive[base + r] & !f.comp_cols[f.comp[r] as usize] == 0) {
        return Ok(false);
    }
    let x = &mut s.ext;
    x.filter
        .hall_sets(&x.matching[u], &s.alive[base..base + m.n]);
    x.record_of.clear();
    x.record_of.resize(x.filter.comp_cols.len(), u32::MAX);
    let mut pruned = false;
    for r in 0..m.n {
        let g = base + r;
        let dom = s.alive[g];
        let cut = dom & !s.ext.filter.comp_cols[s.ext.filter.comp[r] as usize];
        let mut cut_left = cut;
        while cut_left != 0 {
            let p = cut_left.trailing_zeros() as usize;
            cut_left &= cut_left - 1;
            let k = s.ext.filter.comp[s.ext.matching[u].row_of(p)] as usize;
            if s.ext.record_of[k] == u32::MAX {
                let cols = s.ext.filter.reach_cols[k];
                let fixed = fixed_positions(s, m, base, !cols);
                s.ext.record_of[k] = s.ext.halls.len() as u32;
                let rows = s.ext.filter.reach[k];
                s.ext.halls.push(Hall {
                    unit: u as u32,
                    rows,
                    cols,
                    fixed,
                });
            }
            let reason = s.ext.record_of[k] << TAG | EXT;
            let y = m.group(g as u32)[p];
            match s.val[y as usize] {
                UNDEF => {
                    s.set(m, lit(y, false), reason);
                    pruned = true;
                }
                TRUE => return Err(Conflict::Ext(s.ext.record_of[k], y)),
                _ => {}
            }
        }
    }
    Ok(pruned)
}

/// The positions of `among` in the unit whose symbol groups start at `base` whose cell holds a
/// symbol.
fn fixed_positions(s: &State<AllDiff>, m: &Model, base: usize, among: u128) -> u128 {
    let mut fixed = 0;
    let mut left = among & (u128::MAX >> (128 - m.n));
    while left != 0 {
        let p = left.trailing_zeros() as usize;
        left &= left - 1;
        let cell = m.group(base as u32)[p] as usize / m.n;
        let a = s.alive[cell];
        if a.count_ones() == 1 && s.val[cell * m.n + a.trailing_zeros() as usize] == TRUE {
            fixed |= 1u128 << p;
        }
    }
    fixed
}

impl Lcg {
    fn tally<'b>(&mut self, puzzle: &Board, limit: u64, budget: &'b Budget) -> Tally<'b> {
        let mut t = self.engine.tally(puzzle, limit, budget);
        t.stats.updates = self.engine.state.restarts;
        t
    }
}

crate::search::board_solver!(Lcg, UP_TO_128);

#[cfg(test)]
mod tests {
    use super::*;

    crate::search::test_boards::board_solver_tests!(Lcg::default());
}
