//! `cdcl`: conflict-driven clause learning over the grid's own exactly-one constraints, for
//! grids of every order (built for 16x16 to 100x100 and quasigroups with holes).
//!
//! ## Model
//! One Boolean variable `x(c, s)` per cell `c` and symbol `s` (N³ of them). Each cell takes
//! exactly one symbol, and each unit holds each symbol exactly once: these **groups** (N² cells,
//! and N per unit: 4N² with boxes, 3N² in a Latin square) are the whole model. They are not
//! written as clauses, as a CNF encoding would (the extended encoding has N²(N - 1)/2 binary
//! clauses a group, 1.2 million at 25x25): each group is a native propagator,
//! - *at most one*: a variable set true sets the other N - 1 of each of its groups false (the
//!   implied binary clause `¬x ∨ ¬y` is its reason);
//! - *at least one*: each group keeps the number of its variables not yet false and their XOR;
//!   when one is left it is set true (a naked single for a cell's group, a hidden single for a
//!   unit's; the group's clause is its reason), and when none is left the group is the conflict.
//!
//! ## Search
//! The loop of MiniSat (Eén & Sörensson, SAT 2003) and its successors: decisions on the
//! variable of highest activity (VSIDS, Moskewicz et al., DAC 2001), its value taken from the
//! longest conflict-free trail since the last restart (*target phases*, Biere & Fleury, POS
//! 2020), else its saved phase (Pipatsrisawat & Darwiche, SAT 2007); at a conflict, the first-UIP clause is learnt (Zhang et
//! al., ICCAD 2001), shrunk by recursive minimisation (Sörensson & Biere, SAT 2009), and the
//! search jumps back to the level where it asserts; learnt clauses are watched by two literals
//! (Chaff) and kept by their literal block distance (LBD; Audemard & Simon, IJCAI 2009): half
//! of those above 2 are dropped at each reduction. Restarts follow Luby's sequence (Luby,
//! Sinclair & Zuckerman, IPL 1993) in units of 1,000 conflicts. Nothing is random: the same
//! puzzle takes the same path on every run.
//!
//! Grids with boxes also run **locked candidates** as a propagator with reasons: when a unit's
//! places for a symbol (the variables of its group not yet false) all lie in one crossing unit
//! (a box's in one row or column, a line's in one box), the symbol leaves the rest of that unit;
//! the reason of each removal is the clause "not here, or in one of the unit's places outside
//! the crossing" (all false), so conflict analysis reads it like any clause. CNF solvers must
//! learn each such step; here it is one propagation, as in `large`.
//!
//! To count past a solution, the search adds a clause that blocks it (the negated decisions
//! of the path that found it: any other solution differs from one of them) and goes on, so
//! counts are exact.
//!
//! Counters: **nodes** is the root plus one per decision; **guesses** counts decisions;
//! **backtracks** counts conflicts (each undoes at least one decision); **propagations**
//! counts symbols placed by propagation (a variable set true by a group or a learnt clause).
//!
//! Shapes: every [`Shape`] ([`Shapes::Any`](crate::engine::Shapes::Any)), square or rectangular boxes, and Latin squares.
//! A 9x9 [`Grid`] takes the same code.

use crate::search::{luby, Tally};
use crate::{Board, Budget, Shape};

/// The CDCL solver: the exactly-one groups as native propagators, first-UIP learning, VSIDS,
/// Luby restarts. Keeps the model of the last shape it solved; counts solutions.
#[derive(Debug, Default)]
pub struct Cdcl {
    engine: Engine<()>,
}

/// The engine: the model of the last shape it solved and the search state, with extension `E`
/// (`()` for none: `cdcl`; all-different: `lcg`).
#[derive(Debug, Default)]
pub(crate) struct Engine<E> {
    model: Option<Model>,
    pub(crate) state: State<E>,
}

impl<E: Extension> Engine<E> {
    /// Searches `puzzle` up to `limit` solutions.
    pub(crate) fn tally<'b>(
        &mut self,
        puzzle: &Board,
        limit: u64,
        budget: &'b Budget,
    ) -> Tally<'b> {
        let shape = puzzle.shape();
        if self.model.as_ref().map(|m| m.shape) != Some(shape) {
            self.model = Some(Model::of(shape));
        }
        let m = self.model.as_ref().expect("just set");
        run(m, &mut self.state, puzzle, limit, budget)
    }
}

/// A propagator the engine runs beside the groups, locked candidates and clauses, explaining
/// its removals with reasons of tag [`EXT`] (`lcg`'s all-different); `()` is none.
pub(crate) trait Extension: Default + std::fmt::Debug + Sized {
    /// Ready for a new solve on `m`.
    fn reset(&mut self, m: &Model);
    /// A variable of group `g`, a unit's symbol group, was set false.
    fn lost_place(&mut self, m: &Model, g: u32);
    /// A decision level begins.
    fn decide(&mut self);
    /// The levels above `level` were undone.
    fn backjump(&mut self, level: u32);
    /// Propagates every propagator to a fixpoint ([`State::propagate`] for the others); the
    /// conflict if one is found.
    fn propagate(s: &mut State<Self>, m: &Model) -> Option<Conflict>;
    /// Appends to `s.buf` the false literals of the reason with `payload` (all but the one
    /// it implies).
    fn reason_lits(s: &mut State<Self>, m: &Model, payload: u32);
}

impl Extension for () {
    fn reset(&mut self, _: &Model) {}
    #[inline(always)]
    fn lost_place(&mut self, _: &Model, _: u32) {}
    fn decide(&mut self) {}
    fn backjump(&mut self, _: u32) {}
    fn propagate(s: &mut State<()>, m: &Model) -> Option<Conflict> {
        s.propagate(m)
    }
    fn reason_lits(_: &mut State<()>, _: &Model, _: u32) {
        unreachable!("no extension, no reason of its tag")
    }
}

/// The groups of a shape, built once per shape.
#[derive(Debug)]
pub(crate) struct Model {
    pub(crate) shape: Shape,
    pub(crate) n: usize,
    /// Group `g`'s N variables: `members[g * N .. g * N + N]`. Groups `0..N²` are the cells;
    /// then unit `u` and symbol `s` (0-based) is group `N² + u·N + s`.
    pub(crate) members: Vec<u32>,
    /// Variable `v`'s groups: `groups_of[v * gk .. v * gk + gk]`.
    pub(crate) groups_of: Vec<u32>,
    /// Groups per variable (3 in a Latin square, 4 with boxes).
    pub(crate) gk: usize,
    /// Variable `v`'s position in each of its groups: `pos[v * gk + j]` (0..N).
    pos: Vec<u8>,
    /// The position masks of locked candidates, if the shape has boxes.
    boxes: Option<Geometry>,
}

/// Boxes of `r` x `c` cells as masks of positions in a group (bit `p` = position `p`; a row's
/// positions are columns, a column's rows, a box's its cells in row-major order).
#[derive(Debug)]
struct Geometry {
    r: usize,
    c: usize,
    /// The longer side of a box, `max(r, c)`: the most places of a unit that one crossing
    /// unit can hold.
    side: usize,
    /// Box row `i`'s positions in a box.
    box_row: Vec<u128>,
    /// Box column `j`'s positions in a box.
    box_col: Vec<u128>,
    /// A row's positions in its `k`-th box (columns `c·k .. c·k + c`).
    row_span: Vec<u128>,
    /// A column's positions in its `k`-th box (rows `r·k .. r·k + r`).
    col_span: Vec<u128>,
}

impl Geometry {
    fn new(n: usize, r: usize, c: usize) -> Geometry {
        let set = |it: &mut dyn Iterator<Item = usize>| it.fold(0u128, |m, p| m | 1 << p);
        Geometry {
            r,
            c,
            side: r.max(c),
            box_row: (0..r).map(|i| set(&mut (c * i..c * i + c))).collect(),
            box_col: (0..c).map(|j| set(&mut (j..n).step_by(c))).collect(),
            row_span: (0..n / c).map(|k| set(&mut (c * k..c * k + c))).collect(),
            col_span: (0..n / r).map(|k| set(&mut (r * k..r * k + r))).collect(),
        }
    }
}

impl Model {
    /// The model of `shape`: O(N³).
    fn of(shape: Shape) -> Model {
        let n = shape.side();
        let cells = shape.cells();
        let units = shape.units();
        let gk = 1 + shape.units_per_cell();
        let groups = cells + units.len() * n;
        let mut members = vec![0u32; groups * n];
        let mut groups_of = vec![0u32; cells * n * gk];
        let mut pos = vec![0u8; cells * n * gk];
        for c in 0..cells {
            for s in 0..n {
                let v = c * n + s;
                members[c * n + s] = v as u32;
                groups_of[v * gk] = c as u32;
                pos[v * gk] = s as u8;
            }
        }
        for u in 0..units.len() {
            for (p, &c) in units.cells(u).iter().enumerate() {
                let c = c as usize;
                let j = 1 + units
                    .of_cell(c)
                    .iter()
                    .position(|&x| x as usize == u)
                    .expect("a unit's cell has the unit");
                for s in 0..n {
                    let g = cells + u * n + s;
                    let v = c * n + s;
                    members[g * n + p] = v as u32;
                    groups_of[v * gk + j] = g as u32;
                    pos[v * gk + j] = p as u8;
                }
            }
        }
        Model {
            shape,
            n,
            members,
            groups_of,
            gk,
            pos,
            boxes: shape.boxes().map(|(r, c)| Geometry::new(n, r, c)),
        }
    }

    pub(crate) fn vars(&self) -> usize {
        self.shape.cells() * self.n
    }

    pub(crate) fn groups(&self) -> usize {
        self.members.len() / self.n
    }

    #[inline(always)]
    pub(crate) fn group(&self, g: u32) -> &[u32] {
        let g = g as usize * self.n;
        &self.members[g..g + self.n]
    }

    #[inline(always)]
    pub(crate) fn groups_of(&self, v: u32) -> &[u32] {
        let v = v as usize * self.gk;
        &self.groups_of[v..v + self.gk]
    }
}

pub(crate) const FALSE: u8 = 0;
pub(crate) const TRUE: u8 = 1;
pub(crate) const UNDEF: u8 = 2;

/// No reason: a decision, or a fact of level 0.
pub(crate) const NO_REASON: u32 = u32::MAX;
/// Reason tags (low three bits): the variable set true that excludes this one (at most one),
/// the group left with this variable alone (at least one), a clause, locked candidates, an
/// [`Extension`]'s reason.
const AMO: u32 = 0;
const ALO: u32 = 1;
const CLAUSE: u32 = 2;
/// Locked candidates: payload `(g << 2) | j`, group `g`'s variables not false all lie in one
/// crossing unit, the `j`-th group (1 row, 2 column, 3 box) of each of them, so the symbol
/// leaves the rest of that unit. Its clause for the variable `y` it sets false: `¬y` or one of
/// `g`'s variables outside `y`'s `j`-th unit.
const LOCKED: u32 = 3;
/// An [`Extension`]'s reason: its payload is the extension's own.
pub(crate) const EXT: u32 = 4;
/// Bits of the reason tag, and their mask.
pub(crate) const TAG: u32 = 3;
const TAGS: u32 = 7;

/// A conflict: two variables of one group both true, a group with every variable false, or a
/// clause with every literal false.
#[derive(Clone, Copy)]
pub(crate) enum Conflict {
    Pair(u32, u32),
    Group(u32),
    Clause(u32),
    /// A variable set true that a locked-candidates reason (the payload) excludes.
    Locked(u32, u32),
    /// An [`Extension`]'s: its reason's payload, and the variable set true that the reason
    /// excludes ([`NO_REASON`] when the reason alone is the conflict).
    Ext(u32, u32),
}

/// A stored clause: its literals `lits[start .. start + len]`, the first two watched.
#[derive(Debug, Clone, Copy)]
struct Clause {
    start: u32,
    len: u32,
    lbd: u32,
    learnt: bool,
    /// Used in a conflict analysis since the last reduction (kept one more round).
    used: bool,
}

/// A watch: the clause, and one of its literals (when true, the clause is satisfied).
#[derive(Debug, Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: u32,
}

/// The variables by activity, highest first (a binary heap with positions).
#[derive(Debug, Default)]
struct Heap {
    heap: Vec<u32>,
    pos: Vec<u32>,
}

const OUT: u32 = u32::MAX;

impl Heap {
    fn reset(&mut self, vars: usize) {
        self.heap.clear();
        self.pos.clear();
        self.pos.resize(vars, OUT);
    }

    fn contains(&self, v: u32) -> bool {
        self.pos[v as usize] != OUT
    }

    fn insert(&mut self, v: u32, act: &[f64]) {
        if self.contains(v) {
            return;
        }
        self.pos[v as usize] = self.heap.len() as u32;
        self.heap.push(v);
        self.up(self.heap.len() - 1, act);
    }

    fn pop(&mut self, act: &[f64]) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("not empty");
        self.pos[top as usize] = OUT;
        if !self.heap.is_empty() {
            self.put(0, last);
            self.down(0, act);
        }
        Some(top)
    }

    /// Restores the order after `v`'s activity grew.
    fn bumped(&mut self, v: u32, act: &[f64]) {
        if self.contains(v) {
            self.up(self.pos[v as usize] as usize, act);
        }
    }

    fn up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if act[p as usize] >= act[v as usize] {
                break;
            }
            self.put(i, p);
            i = parent;
        }
        self.put(i, v);
    }

    fn down(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        loop {
            let l = 2 * i + 1;
            if l >= self.heap.len() {
                break;
            }
            let r = l + 1;
            let child =
                if r < self.heap.len() && act[self.heap[r] as usize] > act[self.heap[l] as usize] {
                    r
                } else {
                    l
                };
            let c = self.heap[child];
            if act[c as usize] <= act[v as usize] {
                break;
            }
            self.put(i, c);
            i = child;
        }
        self.put(i, v);
    }

    /// Puts variable `v` at slot `i`, noting where it is.
    #[inline]
    fn put(&mut self, i: usize, v: u32) {
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }
}

/// The search state; its buffers are kept from one solve to the next of the same shape.
#[derive(Debug, Default)]
pub(crate) struct State<E> {
    /// Each variable's value: `FALSE`, `TRUE` or `UNDEF`.
    pub(crate) val: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    /// The saved phase: the value a decision on the variable takes.
    phase: Vec<u8>,
    /// The target phase: each variable's value on the longest conflict-free trail since the
    /// last restart (`UNDEF` where none), preferred to the saved phase.
    target: Vec<u8>,
    /// That trail's length.
    best: usize,
    activity: Vec<f64>,
    var_inc: f64,
    heap: Heap,
    /// Per group: the positions of its variables not false.
    pub(crate) alive: Vec<u128>,
    /// Literals (`2v` = `v` true, `2v + 1` = `v` false) in the order they were set.
    trail: Vec<u32>,
    /// Where each decision level starts on the trail.
    levels: Vec<u32>,
    /// The next trail entry to propagate.
    head: usize,
    clauses: Vec<Clause>,
    lits: Vec<u32>,
    /// Per literal: the clauses watching it (looked at when it becomes false).
    watches: Vec<Vec<Watch>>,
    /// Per literal, a bit set once its watch list may hold a watch: the lists are looked at
    /// only where it is set (at 100x100 the 2 million list headers miss the cache; the bits do
    /// not).
    watched: Vec<u64>,
    seen: Vec<bool>,
    /// Scratch: literals of a reason, the analysis stack, variables to unmark.
    pub(crate) buf: Vec<u32>,
    stack: Vec<u32>,
    to_clear: Vec<u32>,
    /// Per decision level: the last conflict that counted it (for the LBD).
    level_stamp: Vec<u64>,
    conflicts: u64,
    /// Restarts so far.
    pub(crate) restarts: u64,
    /// The propagator beyond the groups and clauses.
    pub(crate) ext: E,
}

/// The literal of variable `v` with value `value`.
#[inline(always)]
pub(crate) fn lit(v: u32, value: bool) -> u32 {
    2 * v + u32::from(!value)
}

impl<E: Extension> State<E> {
    fn reset(&mut self, m: &Model) {
        let vars = m.vars();
        self.val.clear();
        self.val.resize(vars, UNDEF);
        self.level.clear();
        self.level.resize(vars, 0);
        self.reason.clear();
        self.reason.resize(vars, NO_REASON);
        self.phase.clear();
        self.phase.resize(vars, TRUE);
        self.target.clear();
        self.target.resize(vars, UNDEF);
        self.best = 0;
        self.activity.clear();
        self.activity.resize(vars, 0.0);
        self.var_inc = 1.0;
        self.heap.reset(vars);
        self.alive.clear();
        self.alive.resize(m.groups(), u128::MAX >> (128 - m.n));
        self.trail.clear();
        self.levels.clear();
        self.head = 0;
        self.clauses.clear();
        self.lits.clear();
        if self.watches.len() != 2 * vars {
            self.watches = vec![Vec::new(); 2 * vars];
            self.watched = vec![0; (2 * vars).div_ceil(64)];
        } else {
            for (i, word) in self.watched.iter_mut().enumerate() {
                let mut w = std::mem::take(word);
                while w != 0 {
                    self.watches[i * 64 + w.trailing_zeros() as usize].clear();
                    w &= w - 1;
                }
            }
        }
        self.seen.clear();
        self.seen.resize(vars, false);
        self.level_stamp.clear();
        self.conflicts = 0;
        self.restarts = 0;
        self.ext.reset(m);
    }

    #[inline(always)]
    fn lit_value(&self, l: u32) -> u8 {
        let v = self.val[(l >> 1) as usize];
        if v == UNDEF {
            UNDEF
        } else {
            v ^ (l & 1) as u8
        }
    }

    fn decision_level(&self) -> u32 {
        self.levels.len() as u32
    }

    /// Makes literal `l` true (its variable unassigned) with `reason`.
    #[inline(always)]
    pub(crate) fn set(&mut self, m: &Model, l: u32, reason: u32) {
        let v = l >> 1;
        let value = (l & 1 == 0) as u8;
        self.val[v as usize] = value;
        self.level[v as usize] = self.decision_level();
        self.reason[v as usize] = reason;
        self.trail.push(l);
        if value == FALSE {
            for j in 0..m.gk {
                let g = m.groups_of(v)[j];
                self.alive[g as usize] &= !(1u128 << m.pos[v as usize * m.gk + j]);
                if j > 0 {
                    self.ext.lost_place(m, g);
                }
            }
        }
    }

    /// Undoes every level above `level`.
    fn backjump(&mut self, m: &Model, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let start = self.levels[level as usize] as usize;
        for i in (start..self.trail.len()).rev() {
            let v = self.trail[i] >> 1;
            let value = self.val[v as usize];
            if value == FALSE {
                for j in 0..m.gk {
                    let g = m.groups_of(v)[j];
                    self.alive[g as usize] |= 1u128 << m.pos[v as usize * m.gk + j];
                }
            }
            self.phase[v as usize] = value;
            self.val[v as usize] = UNDEF;
            self.reason[v as usize] = NO_REASON;
            self.heap.insert(v, &self.activity);
        }
        self.trail.truncate(start);
        self.levels.truncate(level as usize);
        self.ext.backjump(level);
        self.head = start;
    }

    /// Propagates the trail to a fixpoint; the conflict if one is found.
    pub(crate) fn propagate(&mut self, m: &Model) -> Option<Conflict> {
        while self.head < self.trail.len() {
            let p = self.trail[self.head];
            self.head += 1;
            let v = p >> 1;
            if p & 1 == 0 {
                for gi in 0..m.gk {
                    let g = m.groups_of(v)[gi];
                    // Only the group's variables not yet false.
                    let mut rest =
                        self.alive[g as usize] & !(1u128 << m.pos[v as usize * m.gk + gi]);
                    while rest != 0 {
                        let w = m.group(g)[rest.trailing_zeros() as usize];
                        rest &= rest - 1;
                        if self.val[w as usize] == TRUE {
                            return Some(Conflict::Pair(v, w));
                        }
                        self.set(m, lit(w, false), (v << TAG) | AMO);
                    }
                }
            } else {
                for gi in 0..m.gk {
                    let g = m.groups_of(v)[gi];
                    let alive = self.alive[g as usize];
                    match alive.count_ones() {
                        0 => return Some(Conflict::Group(g)),
                        1 => {
                            let u = m.group(g)[alive.trailing_zeros() as usize];
                            if self.val[u as usize] == UNDEF {
                                self.set(m, lit(u, true), (g << TAG) | ALO);
                            }
                        }
                        k if gi > 0 => {
                            // Places that fit in one crossing unit: at most a box's side.
                            if let Some(geo) = m.boxes.as_ref().filter(|g| k as usize <= g.side) {
                                if let Some(x) = self.locked(m, geo, g, gi, alive) {
                                    return Some(x);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            if self.is_watched(p ^ 1) {
                if let Some(c) = self.propagate_clauses(m, p ^ 1) {
                    return Some(Conflict::Clause(c));
                }
            }
        }
        None
    }

    /// Locked candidates on group `g` (the `gi`-th group of its variables: 1 row, 2 column,
    /// 3 box; `alive` the positions of those not false): when they lie in one crossing unit,
    /// the symbol leaves the rest of it (a box's in one row or column: *pointing*; a line's in
    /// one box: *claiming*). O(1) to test, and O(1) a removal, on the position masks.
    fn locked(
        &mut self,
        m: &Model,
        geo: &Geometry,
        g: u32,
        gi: usize,
        alive: u128,
    ) -> Option<Conflict> {
        let first = alive.trailing_zeros() as usize;
        let w = m.group(g)[first] as usize;
        let at = |j: usize| m.pos[w * m.gk + j] as usize;
        // (slot of the crossing unit, the positions in it that lie inside g's unit)
        let mut found = [(0usize, 0u128); 2];
        let mut k = 0;
        match gi {
            3 => {
                if alive & !geo.box_row[first / geo.c] == 0 {
                    found[k] = (1, geo.row_span[at(1) / geo.c]);
                    k += 1;
                }
                if alive & !geo.box_col[first % geo.c] == 0 {
                    found[k] = (2, geo.col_span[at(2) / geo.r]);
                    k += 1;
                }
            }
            1 if alive & !geo.row_span[first / geo.c] == 0 => {
                found[k] = (3, geo.box_row[at(2) % geo.r]);
                k += 1;
            }
            2 if alive & !geo.col_span[first / geo.r] == 0 => {
                found[k] = (3, geo.box_col[at(1) % geo.c]);
                k += 1;
            }
            _ => {}
        }
        for &(j, inside) in &found[..k] {
            let cross = m.groups_of(w as u32)[j];
            let mut out = self.alive[cross as usize] & !inside;
            if out == 0 {
                continue;
            }
            let reason = (g << 2 | j as u32) << TAG | LOCKED;
            while out != 0 {
                let p = out.trailing_zeros() as usize;
                out &= out - 1;
                let y = m.group(cross)[p];
                match self.val[y as usize] {
                    UNDEF => self.set(m, lit(y, false), reason),
                    TRUE => return Some(Conflict::Locked(reason, y)),
                    _ => {}
                }
            }
        }
        None
    }

    /// Whether literal `l`'s watch list may hold a watch.
    #[inline(always)]
    fn is_watched(&self, l: u32) -> bool {
        self.watched[(l >> 6) as usize] & (1 << (l & 63)) != 0
    }

    /// Makes `clause` watch literal `l`, with `blocker` (another of its literals).
    #[inline(always)]
    fn watch(&mut self, l: u32, clause: u32, blocker: u32) {
        self.watches[l as usize].push(Watch { clause, blocker });
        self.watched[(l >> 6) as usize] |= 1 << (l & 63);
    }

    /// Visits the clauses watching `f`, a literal just made false.
    fn propagate_clauses(&mut self, m: &Model, f: u32) -> Option<u32> {
        let mut ws = std::mem::take(&mut self.watches[f as usize]);
        let (mut i, mut j) = (0, 0);
        let mut conflict = None;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            if self.lit_value(w.blocker) == TRUE {
                ws[j] = w;
                j += 1;
                continue;
            }
            let c = self.clauses[w.clause as usize];
            let s = c.start as usize;
            if self.lits[s] == f {
                self.lits.swap(s, s + 1);
            }
            let first = self.lits[s];
            if first != w.blocker && self.lit_value(first) == TRUE {
                ws[j] = Watch {
                    clause: w.clause,
                    blocker: first,
                };
                j += 1;
                continue;
            }
            let mut moved = false;
            for k in s + 2..s + c.len as usize {
                let l = self.lits[k];
                if self.lit_value(l) != FALSE {
                    self.lits.swap(s + 1, k);
                    self.watch(l, w.clause, first);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            ws[j] = Watch {
                clause: w.clause,
                blocker: first,
            };
            j += 1;
            if self.lit_value(first) == FALSE {
                conflict = Some(w.clause);
                while i < ws.len() {
                    ws[j] = ws[i];
                    i += 1;
                    j += 1;
                }
                break;
            }
            self.set(m, first, (w.clause << TAG) | CLAUSE);
        }
        ws.truncate(j);
        self.watches[f as usize] = ws;
        conflict
    }

    /// The false literals of `reason`'s clause other than variable `implied`'s, into `buf`.
    fn reason_lits(&mut self, m: &Model, reason: u32, implied: u32) {
        self.buf.clear();
        let payload = reason >> TAG;
        match reason & TAGS {
            AMO => self.buf.push(lit(payload, false)),
            ALO => self.buf.extend(
                m.group(payload)
                    .iter()
                    .filter(|&&w| w != implied)
                    .map(|&w| lit(w, true)),
            ),
            CLAUSE => {
                self.clauses[payload as usize].used = true;
                let c = self.clauses[payload as usize];
                let s = c.start as usize;
                self.buf.extend(
                    self.lits[s..s + c.len as usize]
                        .iter()
                        .filter(|&&l| l >> 1 != implied),
                );
            }
            LOCKED => self.locked_lits(m, payload, implied),
            _ => E::reason_lits(self, m, payload),
        }
    }

    /// The false literals of a locked-candidates reason (`payload`) for variable `y`: the
    /// group's variables outside `y`'s crossing unit.
    fn locked_lits(&mut self, m: &Model, payload: u32, y: u32) {
        let (g, j) = (payload >> 2, (payload & 3) as usize);
        let unit = m.groups_of(y)[j];
        self.buf.extend(
            m.group(g)
                .iter()
                .filter(|&&w| m.groups_of(w)[j] != unit)
                .map(|&w| lit(w, true)),
        );
    }

    /// The literals of `conflict`'s clause (all false), into `buf`.
    fn conflict_lits(&mut self, m: &Model, conflict: Conflict) {
        self.buf.clear();
        match conflict {
            Conflict::Pair(v, w) => self.buf.extend([lit(v, false), lit(w, false)]),
            Conflict::Group(g) => self.buf.extend(m.group(g).iter().map(|&w| lit(w, true))),
            Conflict::Clause(c) => {
                self.clauses[c as usize].used = true;
                let c = self.clauses[c as usize];
                let s = c.start as usize;
                self.buf
                    .extend_from_slice(&self.lits[s..s + c.len as usize]);
            }
            Conflict::Locked(reason, y) => {
                self.locked_lits(m, reason >> TAG, y);
                self.buf.push(lit(y, false));
            }
            Conflict::Ext(payload, y) => {
                E::reason_lits(self, m, payload);
                if y != NO_REASON {
                    self.buf.push(lit(y, false));
                }
            }
        }
    }

    fn bump(&mut self, v: u32) {
        self.activity[v as usize] += self.var_inc;
        if self.activity[v as usize] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        self.heap.bumped(v, &self.activity);
    }

    /// First-UIP analysis of `conflict` (at a level above 0): the learnt clause (its asserting
    /// literal first, a literal of the jump level second), the level to jump to, and its LBD.
    fn analyze(&mut self, m: &Model, conflict: Conflict) -> (Vec<u32>, u32, u32) {
        let current = self.decision_level();
        let mut learnt = vec![0u32];
        let mut pending = 0usize;
        let mut index = self.trail.len();
        self.conflict_lits(m, conflict);
        loop {
            let buf = std::mem::take(&mut self.buf);
            for &q in &buf {
                let v = q >> 1;
                if self.seen[v as usize] || self.level[v as usize] == 0 {
                    continue;
                }
                self.seen[v as usize] = true;
                self.bump(v);
                if self.level[v as usize] >= current {
                    pending += 1;
                } else {
                    learnt.push(q);
                }
            }
            self.buf = buf;
            loop {
                index -= 1;
                if self.seen[(self.trail[index] >> 1) as usize] {
                    break;
                }
            }
            let p = self.trail[index];
            let implied = p >> 1;
            self.seen[implied as usize] = false;
            pending -= 1;
            if pending == 0 {
                learnt[0] = p ^ 1;
                break;
            }
            let r = self.reason[implied as usize];
            self.reason_lits(m, r, implied);
        }
        self.minimize(m, &mut learnt);
        // The jump level: the highest level among the rest, its literal second.
        let mut jump = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for i in 2..learnt.len() {
                if self.level[(learnt[i] >> 1) as usize] > self.level[(learnt[best] >> 1) as usize]
                {
                    best = i;
                }
            }
            learnt.swap(1, best);
            jump = self.level[(learnt[1] >> 1) as usize];
        }
        let lbd = self.lbd(&learnt);
        self.var_inc /= VAR_DECAY;
        (learnt, jump, lbd)
    }

    /// Drops the literals of `learnt` implied by the others (recursive minimisation), and
    /// clears every mark.
    fn minimize(&mut self, m: &Model, learnt: &mut Vec<u32>) {
        let mut abstract_levels = 0u32;
        for &q in &learnt[1..] {
            abstract_levels |= 1 << (self.level[(q >> 1) as usize] & 31);
        }
        self.to_clear.clear();
        self.to_clear.extend(learnt.iter().map(|&q| q >> 1));
        let mut keep = 1;
        for i in 1..learnt.len() {
            let q = learnt[i];
            if self.reason[(q >> 1) as usize] == NO_REASON || !self.redundant(m, q, abstract_levels)
            {
                learnt[keep] = q;
                keep += 1;
            }
        }
        learnt.truncate(keep);
        for i in 0..self.to_clear.len() {
            let v = self.to_clear[i];
            self.seen[v as usize] = false;
        }
    }

    /// Whether the false literal `q` follows from marked literals (MiniSat's `litRedundant`).
    fn redundant(&mut self, m: &Model, q: u32, abstract_levels: u32) -> bool {
        self.stack.clear();
        self.stack.push(q);
        let top = self.to_clear.len();
        while let Some(l) = self.stack.pop() {
            let v = l >> 1;
            let r = self.reason[v as usize];
            self.reason_lits(m, r, v);
            for i in 0..self.buf.len() {
                let p = self.buf[i];
                let u = p >> 1;
                if self.seen[u as usize] || self.level[u as usize] == 0 {
                    continue;
                }
                if self.reason[u as usize] != NO_REASON
                    && (1 << (self.level[u as usize] & 31)) & abstract_levels != 0
                {
                    self.seen[u as usize] = true;
                    self.stack.push(p);
                    self.to_clear.push(u);
                } else {
                    for k in top..self.to_clear.len() {
                        let x = self.to_clear[k];
                        self.seen[x as usize] = false;
                    }
                    self.to_clear.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    /// The number of distinct decision levels among `lits`.
    fn lbd(&mut self, lits: &[u32]) -> u32 {
        self.conflicts += 1;
        let stamp = self.conflicts;
        if self.level_stamp.len() <= self.decision_level() as usize {
            self.level_stamp
                .resize(self.decision_level() as usize + 1, 0);
        }
        let mut n = 0;
        for &q in lits {
            let l = self.level[(q >> 1) as usize] as usize;
            if self.level_stamp[l] != stamp {
                self.level_stamp[l] = stamp;
                n += 1;
            }
        }
        n
    }

    /// Stores a clause of two literals or more, watching its first two.
    fn add_clause(&mut self, lits: &[u32], learnt: bool, lbd: u32) -> u32 {
        let ci = self.clauses.len() as u32;
        self.clauses.push(Clause {
            start: self.lits.len() as u32,
            len: lits.len() as u32,
            lbd,
            learnt,
            used: false,
        });
        self.lits.extend_from_slice(lits);
        self.watch(lits[0], ci, lits[1]);
        self.watch(lits[1], ci, lits[0]);
        ci
    }

    /// Drops half of the learnt clauses of LBD above 2 (those not used since the last
    /// reduction and not the reason of a set variable, highest LBD first), then compacts.
    fn reduce(&mut self) {
        let mut locked = vec![false; self.clauses.len()];
        for &l in &self.trail {
            let r = self.reason[(l >> 1) as usize];
            if r != NO_REASON && r & TAGS == CLAUSE {
                locked[(r >> TAG) as usize] = true;
            }
        }
        let mut candidates: Vec<u32> = (0..self.clauses.len() as u32)
            .filter(|&c| {
                let cl = &self.clauses[c as usize];
                cl.learnt && cl.lbd > 2 && !locked[c as usize]
            })
            .collect();
        candidates.sort_by_key(|&c| {
            let cl = &self.clauses[c as usize];
            (std::cmp::Reverse(cl.lbd), std::cmp::Reverse(cl.len))
        });
        let mut drop = vec![false; self.clauses.len()];
        let mut dropped = 0;
        let target = candidates.len() / 2;
        for &c in &candidates {
            if dropped >= target {
                break;
            }
            if self.clauses[c as usize].used {
                continue;
            }
            drop[c as usize] = true;
            dropped += 1;
        }
        // Compact: new indices, new literal store, watches rebuilt, reasons remapped.
        let mut map = vec![u32::MAX; self.clauses.len()];
        let mut clauses = Vec::with_capacity(self.clauses.len() - dropped);
        let mut lits = Vec::with_capacity(self.lits.len());
        for (c, cl) in self.clauses.iter().enumerate() {
            if drop[c] {
                continue;
            }
            map[c] = clauses.len() as u32;
            let s = cl.start as usize;
            clauses.push(Clause {
                start: lits.len() as u32,
                used: false,
                ..*cl
            });
            lits.extend_from_slice(&self.lits[s..s + cl.len as usize]);
        }
        for (i, &word) in self.watched.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let ws = &mut self.watches[i * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
                ws.retain_mut(|w| {
                    let c = map[w.clause as usize];
                    w.clause = c;
                    c != u32::MAX
                });
            }
        }
        for i in 0..self.trail.len() {
            let v = (self.trail[i] >> 1) as usize;
            let r = self.reason[v];
            if r != NO_REASON && r & TAGS == CLAUSE {
                self.reason[v] = (map[(r >> TAG) as usize] << TAG) | CLAUSE;
            }
        }
        self.clauses = clauses;
        self.lits = lits;
    }

    /// The next decision literal, or `None` when every variable is set.
    fn decide(&mut self) -> Option<u32> {
        loop {
            let v = self.heap.pop(&self.activity)?;
            if self.val[v as usize] == UNDEF {
                let t = self.target[v as usize];
                let value = if t == UNDEF {
                    self.phase[v as usize]
                } else {
                    t
                };
                return Some(lit(v, value == TRUE));
            }
        }
    }

    /// Each cell's symbol (1..=N) once every variable is set.
    fn cells(&self, m: &Model) -> Vec<u8> {
        (0..m.shape.cells())
            .map(|c| {
                let s = (0..m.n)
                    .position(|s| self.val[c * m.n + s] == TRUE)
                    .expect("a set cell");
                s as u8 + 1
            })
            .collect()
    }
}

/// Conflicts per unit of the restart sequence. Measured on the Gecode 25x25 minimal puzzles
/// and 36x36 grids with half their cells punched out (docs/scaling.md): units of 100 and
/// Glucose's LBD-average restarts (Audemard & Simon, CP 2012) lost to 1,000; so did a first
/// phase of "false" (a decision places a symbol: phases start true).
const RESTART_UNIT: u64 = 1000;
/// VSIDS: activities decay by this factor at each conflict (MiniSat's 0.95; 0.85 and 0.90 did
/// not do better here).
const VAR_DECAY: f64 = 0.95;
/// Conflicts before the first reduction, and the growth of the interval after each.
const REDUCE_FIRST: u64 = 2000;
const REDUCE_STEP: u64 = 300;

/// The search on `puzzle` up to `limit` solutions.
fn run<'b, E: Extension>(
    m: &Model,
    s: &mut State<E>,
    puzzle: &Board,
    limit: u64,
    budget: &'b Budget,
) -> Tally<'b> {
    let mut tally = Tally::new(limit, budget);
    if tally.out_of_budget {
        return tally;
    }
    s.reset(m);
    let n = m.n;
    for (c, &symbol) in puzzle.cells().iter().enumerate() {
        if symbol == 0 {
            continue;
        }
        let v = (c * n + symbol as usize - 1) as u32;
        match s.val[v as usize] {
            TRUE => {}
            UNDEF => {
                s.set(m, lit(v, true), NO_REASON);
                if s.propagate(m).is_some() {
                    return tally;
                }
            }
            _ => return tally,
        }
    }
    for v in 0..m.vars() as u32 {
        if s.val[v as usize] == UNDEF {
            s.heap.insert(v, &s.activity);
        }
    }
    let mut until_restart = RESTART_UNIT * luby(0);
    let mut next_reduce = REDUCE_FIRST;
    let mut reductions = 0;
    loop {
        if let Some(conflict) = E::propagate(s, m) {
            tally.stats.backtracks += 1;
            if s.decision_level() == 0 {
                return tally;
            }
            let clean = *s.levels.last().expect("above level 0") as usize;
            if clean > s.best {
                s.best = clean;
                for i in 0..clean {
                    let l = s.trail[i];
                    s.target[(l >> 1) as usize] = (l & 1 == 0) as u8;
                }
            }
            let (learnt, jump, lbd) = s.analyze(m, conflict);
            s.backjump(m, jump);
            if learnt.len() == 1 {
                s.set(m, learnt[0], NO_REASON);
            } else {
                let c = s.add_clause(&learnt, true, lbd);
                s.set(m, learnt[0], (c << TAG) | CLAUSE);
            }
            if learnt[0] & 1 == 0 {
                tally.stats.propagations += 1;
            }
            until_restart = until_restart.saturating_sub(1);
            if s.conflicts % 64 == 0 && budget.exhausted(tally.stats.nodes) {
                tally.out_of_budget = true;
                return tally;
            }
            continue;
        }
        if until_restart == 0 {
            s.restarts += 1;
            s.best = 0;
            until_restart = RESTART_UNIT * luby(s.restarts);
            s.backjump(m, 0);
        }
        if s.conflicts >= next_reduce {
            reductions += 1;
            next_reduce = s.conflicts + REDUCE_FIRST + REDUCE_STEP * reductions;
            s.reduce();
        }
        let Some(d) = s.decide() else {
            // Every variable set, no conflict: a solution.
            if tally.solution(|| s.cells(m)) || s.decision_level() == 0 {
                return tally;
            }
            block(m, s);
            continue;
        };
        tally.stats.guesses += 1;
        if tally.enter_node() {
            return tally;
        }
        s.levels.push(s.trail.len() as u32);
        s.ext.decide();
        s.set(m, d, NO_REASON);
    }
}

/// Adds the clause that blocks the solution just found (the negation of its decisions, the
/// latest first) and jumps back to where it asserts.
fn block<E: Extension>(m: &Model, s: &mut State<E>) {
    let clause: Vec<u32> = s
        .levels
        .iter()
        .rev()
        .map(|&at| s.trail[at as usize] ^ 1)
        .collect();
    let top = s.decision_level();
    s.backjump(m, top - 1);
    if clause.len() == 1 {
        s.set(m, clause[0], NO_REASON);
    } else {
        let c = s.add_clause(&clause, false, clause.len() as u32);
        s.set(m, clause[0], (c << TAG) | CLAUSE);
    }
}

impl Cdcl {
    fn tally<'b>(&mut self, puzzle: &Board, limit: u64, budget: &'b Budget) -> Tally<'b> {
        self.engine.tally(puzzle, limit, budget)
    }
}

crate::search::board_solver!(Cdcl, UP_TO_128);

#[cfg(test)]
mod tests {
    use super::*;

    crate::search::test_boards::board_solver_tests!(Cdcl::default());
}
