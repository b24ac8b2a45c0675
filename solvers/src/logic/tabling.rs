//! Nice loops and AICs, found the way HoDoKu's tabling finds them, so that the step a rater
//! takes (and so its path and score) is HoDoKu's.
//!
//! For every candidate, assumed true and assumed false (the *premise*), a table lists what
//! follows from it, in breadth-first order: a true candidate makes the other candidates of its
//! cell and its digit's other places in its row, column and box false (weak links, in that
//! order); a false candidate makes the other candidate of a bivalue cell and the other place of
//! a conjugate pair in its row, column or box true (strong links). Each implication keeps the
//! first chain that reached it, the shortest.
//!
//! - **Nice loops**: an implication back in the premise's cell, by a chain that leaves the cell
//!   with its first link and comes back from outside it with its last, never returning to a
//!   cell it left (a *lasso*) but for the start cell. By the strength of its first and last
//!   links and its end digits, a loop is *discontinuous* (the start cell loses a candidate, or
//!   keeps only one) or *continuous* (every weak link between cells eliminates its digit from
//!   cells off the loop that see both ends; a cell entered and left by strong links on two
//!   digits keeps only those two).
//! - **AICs**: a chain from a premise assumed false to a candidate in another cell made true,
//!   with no lasso, at least three links: ends of one digit take it from every cell that sees
//!   both (when at least two do); ends of two digits in cells that see each other take each
//!   end's digit from the other end's cell (when both have it).
//!
//! Loops from true premises come first, then from false ones, then AICs, premises in candidate
//! order; of two chains with the same eliminations (and kind) the first stays unless a later
//! one is shorter. Steps are then ordered as HoDoKu orders them: more eliminations first, then
//! the smaller index sum (HoDoKu's tie break), then the shorter chain; ties keep their order.
//!
//! Source: HoDoKu 2.2 (Bernhard Hobiger), its "Nice Loops / AIC" technique page and the
//! behaviour of its tabling solver as documented by the `hodoku-py` port. The code is our own.

use super::board::{bit, cells, digits, Board, CELL_UNITS, PEERS, UNIT_MASK};
use super::chains::{group_links, GroupKey};
use super::{in_hodoku_order, index_sum, Candidate, Finds, Step, Technique};
use std::collections::HashMap;

/// The most implications a table holds, the premise included (HoDoKu's table size).
const TABLE_SIZE: usize = 1000;

/// No predecessor: a state not reached.
const UNSEEN: u16 = u16::MAX;

/// What a chain proves, as HoDoKu names it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Kind {
    ContinuousLoop,
    DiscontinuousLoop,
    Aic,
}

/// A state: `2 * node + 1` is candidate `node` (`cell * 9 + digit - 1`) true, `2 * node` false.
#[inline]
pub(crate) fn cell_of(s: usize) -> usize {
    s / 18
}

#[inline]
pub(crate) fn digit_of(s: usize) -> u8 {
    (s / 2 % 9) as u8 + 1
}

#[inline]
pub(crate) fn is_on(s: usize) -> bool {
    s % 2 == 1
}

#[inline]
pub(crate) fn state(cell: usize, d: u8, on: bool) -> usize {
    2 * (cell * 9 + d as usize - 1) + usize::from(on)
}

/// The direct implications of every state, in HoDoKu's order: the 1,458 candidate states, then,
/// with group nodes, two states per group node (`1458 + 2 * g` false, `+ 1` true).
pub(crate) struct Implications {
    pub(crate) next: Vec<Vec<u16>>,
    groups: Vec<GroupNode>,
}

/// A group node: digit `digit`'s places (two or three) where a row or column crosses a box.
struct GroupNode {
    digit: u8,
    cells: u128,
    /// The cells that see all of them.
    seen: u128,
    boxu: usize,
    /// The row or column (unit 0..18).
    line: usize,
}

impl Implications {
    /// Candidates only (the links of nice loops and AICs).
    pub(crate) fn plain(b: &Board) -> Implications {
        let mut next = vec![Vec::new(); 1458];
        for cell in 0..81 {
            let m = b.cands(cell);
            for d in digits(m) {
                let (on, off) = (state(cell, d, true), state(cell, d, false));
                for e in digits(m & !bit(d)) {
                    next[on].push(state(cell, e, false) as u16);
                    if m.count_ones() == 2 {
                        next[off].push(state(cell, e, true) as u16);
                    }
                }
                for u in CELL_UNITS[cell] {
                    let places = b.digit_cells(d) & UNIT_MASK[u] & !(1u128 << cell);
                    for c in cells(places) {
                        let s = state(c, d, false) as u16;
                        if !next[on].contains(&s) {
                            next[on].push(s);
                        }
                    }
                    if places.count_ones() == 1 {
                        let s = state(places.trailing_zeros() as usize, d, true) as u16;
                        if !next[off].contains(&s) {
                            next[off].push(s);
                        }
                    }
                }
            }
        }
        Implications {
            next,
            groups: Vec::new(),
        }
    }

    /// Candidates and group nodes (the links of forcing chains). A group node true makes its
    /// digit false in every cell that sees all its cells and in the other group nodes of its
    /// row, column or box; false, it makes true the digit's one other place in its box (or line)
    /// and the one other group node of a house that holds every other place there. A candidate
    /// true makes false the group nodes it sees; false, it makes true a group node that is the
    /// digit's only other place in a box or line.
    pub(crate) fn with_groups(b: &Board) -> Implications {
        let mut imp = Implications::plain(b);
        let groups: Vec<GroupNode> = b
            .line_box_groups()
            .map(|(line, digit, boxu, g)| GroupNode {
                digit,
                cells: g,
                seen: super::board::seen_by_all(g),
                boxu,
                line,
            })
            .collect();
        imp.next.resize(1458 + 2 * groups.len(), Vec::new());
        let keys: Vec<GroupKey> = groups
            .iter()
            .map(|g| (g.digit, g.cells, g.line, g.boxu))
            .collect();
        let next = &mut imp.next;
        for (i, g) in groups.iter().enumerate() {
            let (on, off) = (1458 + 2 * i + 1, 1458 + 2 * i);
            let visible = b.digit_cells(g.digit) & g.seen;
            for c in cells(visible) {
                next[on].push(state(c, g.digit, false) as u16);
                next[state(c, g.digit, true)].push(off as u16);
            }
            for house in [g.boxu, g.line] {
                let v = visible & UNIT_MASK[house];
                if v.count_ones() == 1 {
                    let c = v.trailing_zeros() as usize;
                    next[off].push(state(c, g.digit, true) as u16);
                    next[state(c, g.digit, false)].push(on as u16);
                }
            }
            let (weak, strong) = group_links(b, &keys, i);
            next[on].extend(weak.iter().map(|&j| (1458 + 2 * j) as u16));
            next[off].extend(strong.iter().map(|&j| (1458 + 2 * j + 1) as u16));
        }
        imp.groups = groups;
        imp
    }
}

/// One premise's table: the states reached, in order, each with the state before it.
pub(crate) struct Table {
    pub(crate) order: Vec<u16>,
    prev: Vec<u16>,
    dist: Vec<u8>,
}

impl Table {
    pub(crate) fn new() -> Table {
        Table {
            order: Vec::with_capacity(TABLE_SIZE),
            prev: Vec::new(),
            dist: Vec::new(),
        }
    }

    /// Everything that follows from state `premise`, in breadth-first order (at most
    /// [`TABLE_SIZE`] states).
    pub(crate) fn fill(&mut self, next: &[Vec<u16>], premise: usize) {
        if self.prev.len() < next.len() {
            self.prev.resize(next.len(), UNSEEN);
            self.dist.resize(next.len(), 0);
        }
        for &s in &self.order {
            self.prev[s as usize] = UNSEEN;
        }
        self.order.clear();
        self.order.push(premise as u16);
        self.prev[premise] = premise as u16;
        self.dist[premise] = 0;
        let mut i = 0;
        while i < self.order.len() {
            let s = self.order[i] as usize;
            i += 1;
            for &t in &next[s] {
                if self.order.len() >= TABLE_SIZE {
                    return;
                }
                if self.prev[t as usize] == UNSEEN {
                    self.prev[t as usize] = s as u16;
                    self.dist[t as usize] = self.dist[s].saturating_add(1);
                    self.order.push(t);
                }
            }
        }
    }

    /// The chain from the premise to `s`, premise first.
    fn chain(&self, mut s: usize) -> Vec<usize> {
        let mut v = vec![s];
        while self.prev[s] as usize != s {
            s = self.prev[s] as usize;
            v.push(s);
        }
        v.reverse();
        v
    }
}

impl Implications {
    /// The first cell of state `s`'s node (a group node's lowest cell).
    fn cell(&self, s: usize) -> usize {
        if s < 1458 {
            cell_of(s)
        } else {
            self.groups[(s - 1458) / 2].cells.trailing_zeros() as usize
        }
    }

    fn digit(&self, s: usize) -> u8 {
        if s < 1458 {
            digit_of(s)
        } else {
            self.groups[(s - 1458) / 2].digit
        }
    }

    /// The cells of state `s`'s node.
    fn span(&self, s: usize) -> u128 {
        if s < 1458 {
            1u128 << cell_of(s)
        } else {
            self.groups[(s - 1458) / 2].cells
        }
    }

    /// The cells that see every cell of state `s`'s node.
    fn seen(&self, s: usize) -> u128 {
        if s < 1458 {
            PEERS[cell_of(s)]
        } else {
            self.groups[(s - 1458) / 2].seen
        }
    }

    /// True when `chain` comes back to a cell it left two or more nodes before (a node counts
    /// by its first cell; a group node leaves all of its cells), the start cell excepted in a
    /// loop (`nice`).
    fn is_lasso(&self, chain: &[usize], nice: bool) -> bool {
        let start = self.cell(chain[0]);
        let mut left = 0u128;
        let mut last = None;
        for &s in chain {
            if left & (1u128 << self.cell(s)) != 0 {
                return true;
            }
            if let Some(l) = last {
                if !(nice && self.cell(l) == start) {
                    left |= self.span(l);
                }
            }
            last = Some(s);
        }
        false
    }

    /// The loop closed by reaching `chain`'s end in the premise's cell, if it eliminates
    /// anything.
    fn nice_loop(&self, b: &Board, chain: Vec<usize>) -> Option<Found> {
        let n = chain.len();
        let (premise, end) = (chain[0], chain[n - 1]);
        let c = cell_of(premise);
        if n < 4
            || self.cell(chain[1]) == c
            || self.cell(chain[n - 2]) == c
            || self.is_lasso(&chain, true)
        {
            return None;
        }
        let first_strong = !is_on(premise);
        let last_strong = is_on(end);
        let (x, y) = (digit_of(premise), digit_of(end));
        let mut elims = Vec::new();
        let mut kind = Kind::DiscontinuousLoop;
        if !first_strong && !last_strong && x == y {
            elims.push(Candidate::new(c, x));
        } else if first_strong && last_strong && x == y {
            elims.extend(digits(b.cands(c) & !bit(x)).map(|d| Candidate::new(c, d)));
        } else if first_strong != last_strong && x != y {
            elims.push(Candidate::new(c, if first_strong { y } else { x }));
        } else if (!first_strong && !last_strong && b.count(c) == 2)
            || (first_strong && last_strong)
        {
            kind = Kind::ContinuousLoop;
            elims = self.continuous_eliminations(b, &chain, first_strong && last_strong);
        } else {
            return None;
        }
        (!elims.is_empty()).then(|| self.found(kind, chain, elims))
    }

    /// What a continuous loop eliminates: each weak link between two cells, its digit from
    /// cells off the loop that see both ends; each cell entered and left by strong links (the
    /// start cell when both end links are strong), its candidates but those two.
    fn continuous_eliminations(
        &self,
        b: &Board,
        chain: &[usize],
        strong_ends: bool,
    ) -> Vec<Candidate> {
        let n = chain.len();
        let start = cell_of(chain[0]);
        let on_loop = chain.iter().fold(0u128, |m, &s| m | self.span(s));
        let mut elims = Vec::new();
        let keep_two = |elims: &mut Vec<Candidate>, cell: usize, d1: u8, d2: u8| {
            elims.extend(
                digits(b.cands(cell) & !bit(d1) & !bit(d2)).map(|d| Candidate::new(cell, d)),
            );
        };
        let cell = |i: usize| self.cell(chain[i]);
        for i in 0..n {
            let s = chain[i];
            if i == 0 && strong_ends {
                keep_two(
                    &mut elims,
                    start,
                    digit_of(chain[0]),
                    digit_of(chain[n - 1]),
                );
            } else if i > 0
                && is_on(s)
                && i + 3 <= n
                && cell(i - 1) != cell(i)
                && !is_on(chain[i + 1])
                && cell(i + 1) == cell(i)
                && is_on(chain[i + 2])
                && cell(i + 2) != cell(i)
            {
                keep_two(&mut elims, cell(i), self.digit(s), self.digit(chain[i + 2]));
            }
            if i > 0 && !is_on(s) && cell(i - 1) != cell(i) {
                let d = self.digit(s);
                let common = self.seen(chain[i - 1]) & self.seen(s) & !on_loop;
                let common = common & !(1u128 << start) & b.digit_cells(d);
                elims.extend(cells(common).map(|c| Candidate::new(c, d)));
            }
        }
        elims
    }

    /// The AIC from a premise assumed false to candidate state `end` made true, if it
    /// eliminates anything.
    fn aic(&self, b: &Board, table: &Table, premise: usize, end: usize) -> Option<Found> {
        let (c, x) = (cell_of(premise), digit_of(premise));
        let (e, y) = (cell_of(end), digit_of(end));
        let mut elims = Vec::new();
        if x == y {
            let common = PEERS[c] & PEERS[e] & b.digit_cells(x);
            if common.count_ones() < 2 {
                return None;
            }
            elims.extend(cells(common).map(|cell| Candidate::new(cell, x)));
        } else {
            if PEERS[c] & (1u128 << e) == 0 || !b.has(e, x) || !b.has(c, y) {
                return None;
            }
            elims.push(Candidate::new(c, y));
            elims.push(Candidate::new(e, x));
        }
        if table.dist[end] <= 2 {
            return None;
        }
        let chain = table.chain(end);
        if self.is_lasso(&chain, false) {
            return None;
        }
        Some(self.found(Kind::Aic, chain, elims))
    }

    fn found(&self, kind: Kind, chain: Vec<usize>, elims: Vec<Candidate>) -> Found {
        let grouped = chain.iter().any(|&s| s >= 1458);
        Found {
            kind,
            grouped,
            chain,
            elims,
        }
    }

    /// Reports `f` as a step; true when the search can stop.
    fn push(&self, f: &Found, out: &mut Finds) -> bool {
        let t = if f.grouped {
            Technique::GroupedAic
        } else {
            Technique::Aic
        };
        let mut s = Step::new(t);
        // shown strong link first: a chain from a true premise starts after it
        let shown = if is_on(f.chain[0]) {
            &f.chain[1..]
        } else {
            &f.chain[..]
        };
        for &st in shown {
            let c = Candidate::new(self.cell(st), self.digit(st));
            s.digits |= bit(c.digit);
            s.candidates.push(c);
            if st >= 1458 {
                s.fins
                    .extend(cells(self.span(st)).map(|x| Candidate::new(x, c.digit)));
            }
            s.cells.extend(cells(self.span(st)).map(|x| x as u8));
        }
        s.cells.dedup();
        let mut e = f.elims.clone();
        e.sort();
        e.dedup();
        in_hodoku_order(&mut e);
        s.eliminations = e;
        out.push(s)
    }
}

/// A chain found, with what it eliminates (a candidate may appear twice, as HoDoKu counts it).
struct Found {
    kind: Kind,
    /// Through a group node.
    grouped: bool,
    chain: Vec<usize>,
    elims: Vec<Candidate>,
}

/// Nice loops and AICs on `b` (technique [`Technique::Aic`]), or with group nodes too
/// (`grouped`: [`Technique::GroupedAic`]; a chain through none is reported as an AIC), in
/// HoDoKu's order.
pub(crate) fn find(b: &Board, grouped: bool, out: &mut Finds) {
    let imp = if grouped {
        Implications::with_groups(b)
    } else {
        Implications::plain(b)
    };
    let mut table = Table::new();
    let premises: Vec<(usize, u8)> = (0..81)
        .flat_map(|c| digits(b.cands(c)).map(move |d| (c, d)))
        .collect();
    let (mut loops_on, mut loops_off, mut aics) = (Vec::new(), Vec::new(), Vec::new());
    for on in [true, false] {
        for &(c, d) in &premises {
            let premise = state(c, d, on);
            table.fill(&imp.next, premise);
            for &s in &table.order[1..] {
                let s = s as usize;
                if s < 1458 && cell_of(s) == c && table.dist[s] > 2 {
                    if let Some(f) = imp.nice_loop(b, table.chain(s)) {
                        if on { &mut loops_on } else { &mut loops_off }.push(f);
                    }
                }
            }
            if !on {
                for &s in &table.order[1..] {
                    let s = s as usize;
                    if s < 1458 && is_on(s) && cell_of(s) != c {
                        aics.extend(imp.aic(b, &table, premise, s));
                    }
                }
            }
        }
    }
    // one chain per set of eliminations and kind: the first, unless a later one is shorter
    let mut kept: Vec<(Vec<Candidate>, Found)> = Vec::new();
    let mut index: HashMap<(Vec<Candidate>, Kind, bool), usize> = HashMap::new();
    for f in loops_on.into_iter().chain(loops_off).chain(aics) {
        let mut key = f.elims.clone();
        in_hodoku_order(&mut key);
        let k = (key.clone(), f.kind, f.grouped);
        if let Some(&i) = index.get(&k) {
            if kept[i].1.chain.len() <= f.chain.len() {
                continue;
            }
        }
        index.insert(k, kept.len());
        kept.push((key, f));
    }
    let sums: Vec<u64> = kept.iter().map(|(k, _)| index_sum(k)).collect();
    let mut order: Vec<usize> = (0..kept.len()).collect();
    order.sort_by(|&i, &j| {
        let (ki, fi) = (&kept[i].0, &kept[i].1);
        let (kj, fj) = (&kept[j].0, &kept[j].1);
        kj.len().cmp(&ki.len()).then_with(|| {
            if fi.kind != fj.kind || fi.grouped != fj.grouped || ki != kj {
                sums[i].cmp(&sums[j])
            } else {
                fi.chain.len().cmp(&fj.chain.len())
            }
        })
    });
    for i in order {
        if imp.push(&kept[i].1, out) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lasso_rule_lets_a_loop_come_home() {
        // cells 0 -> 1 -> 2 -> 0: a loop may come back to its start cell, an AIC may not
        let imp = Implications {
            next: Vec::new(),
            groups: Vec::new(),
        };
        let chain = [
            state(0, 1, true),
            state(1, 1, false),
            state(2, 2, true),
            state(0, 2, false),
        ];
        assert!(!imp.is_lasso(&chain, true));
        assert!(imp.is_lasso(&chain, false));
        // back to cell 1 after leaving it
        let chain = [
            state(0, 1, false),
            state(1, 1, true),
            state(2, 2, false),
            state(1, 2, true),
        ];
        assert!(imp.is_lasso(&chain, true));
    }
}
