//! Almost locked sets (ALS): `n` cells of one unit holding `n + 1` digits between them (a
//! bivalue cell is an ALS of one cell). Take one digit away and the rest is locked.
//!
//! - **Restricted common** (RC) of two ALS that share no cell: a digit of both whose places in
//!   the two all see each other. It is true in at most one of them, so the other is locked.
//! - **ALS-XZ**: two ALS with an RC `x`; a digit `z` of both (not `x`) is true in one of them,
//!   so a cell seeing every `z` of both loses `z`. With two RCs (doubly linked) both ALS are
//!   locked: each RC goes from the cells seeing all its places in both, and every other digit of
//!   an ALS from the cells (outside the other) seeing all its places in that ALS.
//! - **ALS-XY-wing**: ALS `A` and `B` each with an RC to a pivot ALS `C` (RCs `x` and `y`);
//!   a digit `z` of `A` and `B` that is neither goes from the cells seeing all its places in both.
//! - **ALS-XY-chain**: ALS linked in a row by RCs, each RC other than the one before it; the two
//!   end ALS then act as an ALS-XZ on a digit `z` that is not an end RC.
//! - **Death blossom**: a *stem* cell and, for each of its digits, a *petal*: an ALS whose
//!   places of that digit all see the stem. Whatever the stem holds, its petal loses that digit
//!   and is locked, so a digit `z` of every petal (not a stem digit) is in some petal: a cell
//!   outside them seeing every `z` of every petal loses `z`.
//!
//! HoDoKu's choices, kept so the rater takes HoDoKu's step: ALS are collected unit by unit
//! (rows, columns, boxes), cell sets in increasing order, each once; RCs are searched from an ALS
//! to the ALS collected after it, at most two per pair; ALS-XZ and ALS-XY-wing take the first
//! step found; among ALS-XY-chains the step with the most eliminations wins (then the lowest
//! weighted sum of the eliminations' cells, HoDoKu's tie break). Source: HoDoKu's technique
//! pages "ALS-XZ", "ALS-XY-Wing", "ALS-XY-Chain", "Death Blossom" (Bernhard Hobiger). The code is our own.

use super::board::{bit, cells, digits, seen_by_all, unit, Board, Cells, UNIT_CELLS};
use super::{index_sum, Candidate, Finds, Step, Technique};
use crate::Unit;
use std::collections::{HashMap, HashSet};

/// One almost locked set.
pub(crate) struct Als {
    pub(crate) cells: Cells,
    pub(crate) cands: u16,
    /// The unit it was found in.
    unit: usize,
    /// Per digit (index `d - 1`): the ALS's cells holding it.
    pub(crate) with: [Cells; 9],
    /// Per digit: the cells outside the ALS holding it that see all of `with`.
    pub(crate) buddies: [Cells; 9],
}

/// A restricted common of ALS `a` and `b` (`a < b`): one digit, or two (`d2 != 0`).
#[derive(Clone, Copy)]
struct Rc {
    a: usize,
    b: usize,
    d1: u8,
    d2: u8,
}

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    let alses = collect(b);
    // The rater's step (the first) follows HoDoKu's default search; every step of an
    // ALS-XY-wing or ALS-XY-chain also takes overlapping ALS, and a chain links to ALS
    // collected before it too, as HoDoKu's library cases do.
    let wide = !out.first_only() && matches!(t, Technique::AlsXyWing | Technique::AlsXyChain);
    let rcs = if t == Technique::DeathBlossom {
        Vec::new()
    } else {
        restricted_commons(&alses, wide)
    };
    match t {
        Technique::AlsXz => xz(&alses, &rcs, out),
        Technique::AlsXyWing => xy_wing(&alses, &rcs, wide, out),
        Technique::AlsXyChain => xy_chain(&alses, &rcs, wide, out),
        Technique::DeathBlossom => death_blossom(b, &alses, out),
        _ => {}
    }
}

/// Every ALS of `b` (bivalue cells too), unit by unit (rows, columns, boxes), each cell set
/// once, as HoDoKu collects them.
pub(crate) fn collect(b: &Board) -> Vec<Als> {
    struct Found {
        alses: Vec<Als>,
        seen: HashSet<Cells>,
    }
    fn go(b: &Board, u: usize, start: usize, set: Cells, m: u16, n: u32, out: &mut Found) {
        if n >= 8 {
            return;
        }
        for i in start..9 {
            let c = UNIT_CELLS[u][i] as usize;
            if b.value(c) != 0 {
                continue;
            }
            let (s, mm) = (set | 1u128 << c, m | b.cands(c));
            if mm.count_ones() == n + 2 && out.seen.insert(s) {
                out.alses.push(make(b, u, s, mm));
            }
            go(b, u, i + 1, s, mm, n + 1, out);
        }
    }
    let mut out = Found {
        alses: Vec::new(),
        seen: HashSet::new(),
    };
    for u in 0..27 {
        go(b, u, 0, 0, 0, 0, &mut out);
    }
    out.alses
}

fn make(b: &Board, u: usize, set: Cells, cands: u16) -> Als {
    let mut a = Als {
        cells: set,
        cands,
        unit: u,
        with: [0; 9],
        buddies: [0; 9],
    };
    for d in digits(cands) {
        let w = set & b.digit_cells(d);
        a.with[d as usize - 1] = w;
        a.buddies[d as usize - 1] = seen_by_all(w) & !set & b.digit_cells(d);
    }
    a
}

/// The RCs of every pair of ALS, in order of the first ALS then the second: disjoint pairs
/// only, or with `overlap` also overlapping pairs whose RC has no place in the overlap.
fn restricted_commons(alses: &[Als], overlap: bool) -> Vec<Rc> {
    let mut rcs = Vec::new();
    for (i, a) in alses.iter().enumerate() {
        for (j, b) in alses.iter().enumerate().skip(i + 1) {
            let shared = a.cells & b.cells;
            if shared != 0 && !overlap {
                continue;
            }
            let mut rc = Rc {
                a: i,
                b: j,
                d1: 0,
                d2: 0,
            };
            for d in digits(a.cands & b.cands) {
                let k = d as usize - 1;
                let all = a.with[k] | b.with[k];
                if all & shared != 0
                    || all & !((a.buddies[k] | a.with[k]) & (b.buddies[k] | b.with[k])) != 0
                {
                    continue;
                }
                if rc.d1 == 0 {
                    rc.d1 = d;
                } else {
                    rc.d2 = d;
                    break;
                }
            }
            if rc.d1 != 0 {
                rcs.push(rc);
            }
        }
    }
    rcs
}

fn mask(ds: &[u8]) -> u16 {
    ds.iter().filter(|&&d| d != 0).fold(0, |m, &d| m | bit(d))
}

/// Digits of both `a` and `b` but `exclude`, eliminated where they see all places in both.
fn common_elims(a: &Als, b: &Als, exclude: u16, out: &mut Vec<Candidate>) {
    for d in digits(a.cands & b.cands & !exclude) {
        let k = d as usize - 1;
        for c in cells(a.buddies[k] & b.buddies[k]) {
            out.push(Candidate::new(c, d));
        }
    }
}

fn als_step(t: Technique, alses: &[&Als], rc_digits: u16, mut elims: Vec<Candidate>) -> Step {
    elims.sort();
    elims.dedup();
    let mut s = Step::new(t);
    s.digits = rc_digits;
    s.units = alses.iter().map(|a| unit(a.unit)).collect::<Vec<Unit>>();
    for a in alses {
        s.cells.extend(cells(a.cells).map(|c| c as u8));
    }
    s.eliminations = elims;
    s
}

fn xz(alses: &[Als], rcs: &[Rc], out: &mut Finds) {
    for rc in rcs {
        let (a, b) = (&alses[rc.a], &alses[rc.b]);
        let mut elims = Vec::new();
        common_elims(a, b, bit(rc.d1), &mut elims);
        if rc.d2 != 0 {
            common_elims(a, b, bit(rc.d2), &mut elims);
            let both = bit(rc.d1) | bit(rc.d2);
            for (x, y) in [(a, b), (b, a)] {
                for d in digits(x.cands & !both) {
                    for c in cells(x.buddies[d as usize - 1] & !y.cells) {
                        elims.push(Candidate::new(c, d));
                    }
                }
            }
        }
        if !elims.is_empty()
            && out.push(als_step(
                Technique::AlsXz,
                &[a, b],
                mask(&[rc.d1, rc.d2]),
                elims,
            ))
        {
            return;
        }
    }
}

/// The pivot and the two wings of two RCs sharing exactly one ALS.
fn pivot(r1: &Rc, r2: &Rc) -> Option<(usize, usize, usize)> {
    if r1.a == r2.a && r1.b != r2.b {
        Some((r1.a, r1.b, r2.b))
    } else if r1.a == r2.b && r1.b != r2.a {
        Some((r1.a, r1.b, r2.a))
    } else if r1.b == r2.a && r1.a != r2.b {
        Some((r1.b, r1.a, r2.b))
    } else if r1.b == r2.b && r1.a != r2.a {
        Some((r1.b, r1.a, r2.a))
    } else {
        None
    }
}

fn xy_wing(alses: &[Als], rcs: &[Rc], overlap: bool, out: &mut Finds) {
    for (i, r1) in rcs.iter().enumerate() {
        for r2 in &rcs[i + 1..] {
            if r1.d2 == 0 && r2.d2 == 0 && r1.d1 == r2.d1 {
                continue;
            }
            let Some((c, a, b)) = pivot(r1, r2) else {
                continue;
            };
            let (a, b) = (&alses[a], &alses[b]);
            let union = a.cells | b.cells;
            if (a.cells & b.cells != 0 && !overlap) || union == a.cells || union == b.cells {
                continue;
            }
            let rc_digits = mask(&[r1.d1, r1.d2, r2.d1, r2.d2]);
            let mut elims = Vec::new();
            common_elims(a, b, rc_digits, &mut elims);
            if !elims.is_empty()
                && out.push(als_step(
                    Technique::AlsXyWing,
                    &[a, b, &alses[c]],
                    rc_digits,
                    elims,
                ))
            {
                return;
            }
        }
    }
}

/// The digits of `rc` in use after the RC before it used `prev` (HoDoKu's rule: an RC may not
/// reuse the digit(s) the previous one used; a doubly linked first RC is tried with each digit).
fn active(rc: &Rc, prev: Option<u16>, first_try: bool) -> u16 {
    let own = mask(&[rc.d1, rc.d2]);
    match prev {
        None if rc.d2 != 0 => bit(if first_try { rc.d1 } else { rc.d2 }),
        None => own,
        Some(p) => own & !p,
    }
}

/// The chain search's state.
struct ChainSearch<'a> {
    alses: &'a [Als],
    /// Per ALS, its RCs as (the other ALS, the RC).
    links: Vec<Vec<(usize, Rc)>>,
    /// The most RCs of a chain.
    max: usize,
    in_chain: Vec<bool>,
    chain: Vec<(usize, u16)>,
    start: usize,
    first_active: u16,
    found: HashMap<Vec<Candidate>, usize>,
    steps: Vec<(u32, Step)>,
}

const MAX_RCS: usize = 50;

/// The most RCs of an ALS-XY-chain that links to ALS collected before it or to overlapping
/// ALS (HoDoKu bounds such chains by its "ALS chain length", 6 by default; one of its library
/// cases needs 7, and the search grows steeply with the bound: 3.5 s on that case at 7).
const MAX_RCS_BOTH_WAYS: usize = 7;

/// ALS-XY-chains: from each ALS along RCs between disjoint ALS to ALS collected after it
/// (HoDoKu's default), and with `both_ways` also, in chains of at most [`MAX_RCS_BOTH_WAYS`]
/// RCs, to disjoint ALS collected before it, and to overlapping ALS (the RCs of `rcs`)
/// collected after it.
fn xy_chain(alses: &[Als], rcs: &[Rc], both_ways: bool, out: &mut Finds) {
    let mut s = ChainSearch {
        alses,
        links: Vec::new(),
        max: MAX_RCS,
        in_chain: vec![false; alses.len()],
        chain: Vec::new(),
        start: 0,
        first_active: 0,
        found: HashMap::new(),
        steps: Vec::new(),
    };
    // forward between disjoint ALS; both ways between disjoint ALS; forward between any
    for pass in 0..if both_ways { 3 } else { 1 } {
        let mut links = vec![Vec::new(); alses.len()];
        for rc in rcs {
            let disjoint = alses[rc.a].cells & alses[rc.b].cells == 0;
            if disjoint || pass == 2 {
                links[rc.a].push((rc.b, *rc));
            }
            if disjoint && pass == 1 {
                links[rc.b].push((rc.a, *rc));
            }
        }
        s.links = links;
        s.max = if pass == 0 {
            MAX_RCS
        } else {
            MAX_RCS_BOTH_WAYS
        };
        for i in 0..alses.len() {
            s.start = i;
            s.in_chain[i] = true;
            chain_from(&mut s, i, None);
            s.in_chain[i] = false;
        }
    }
    let mut steps: Vec<Step> = s.steps.into_iter().map(|(_, st)| st).collect();
    steps.sort_by_key(|st| {
        (
            std::cmp::Reverse(st.eliminations.len()),
            index_sum(&st.eliminations),
        )
    });
    for st in steps {
        if out.push(st) {
            return;
        }
    }
}

fn chain_from(s: &mut ChainSearch, als: usize, prev: Option<u16>) {
    if s.chain.len() >= s.max {
        return;
    }
    for i in 0..s.links[als].len() {
        let (next, rc) = s.links[als][i];
        let tries = if prev.is_none() && rc.d2 != 0 { 2 } else { 1 };
        for t in 0..tries {
            let act = active(&rc, prev, t == 0);
            if act == 0 || s.in_chain[next] {
                continue;
            }
            if s.chain.is_empty() {
                s.first_active = act;
            }
            s.chain.push((next, act));
            s.in_chain[next] = true;
            if s.chain.len() >= 3 {
                record(s, act);
            }
            chain_from(s, next, Some(act));
            s.in_chain[next] = false;
            s.chain.pop();
        }
    }
}

fn record(s: &mut ChainSearch, last: u16) {
    let (start, end) = (
        &s.alses[s.start],
        &s.alses[s.chain.last().expect("a link").0],
    );
    let mut elims = Vec::new();
    common_elims(start, end, s.first_active | last, &mut elims);
    if elims.is_empty() {
        return;
    }
    let mut members: Vec<&Als> = vec![start];
    members.extend(s.chain.iter().map(|&(a, _)| &s.alses[a]));
    let size: u32 = members.iter().map(|a| a.cells.count_ones()).sum();
    let step = als_step(
        Technique::AlsXyChain,
        &members,
        s.first_active | last,
        elims,
    );
    match s.found.get(&step.eliminations) {
        Some(&k) if s.steps[k].0 <= size => {}
        Some(&k) => s.steps[k] = (size, step),
        None => {
            s.found.insert(step.eliminations.clone(), s.steps.len());
            s.steps.push((size, step));
        }
    }
}

/// The death blossom search's state: the stem, the petal chosen for each stem digit so far.
struct Blossom<'a> {
    alses: &'a [Als],
    board: &'a Board,
    stem: usize,
    /// The stem's digits, in increasing order, each with the ALS that may be its petal.
    petals: Vec<(u8, Vec<usize>)>,
    chosen: Vec<usize>,
}

/// Death blossoms, stems in cell order, each stem digit's petal among the ALS in collection
/// order (HoDoKu's search; petals may share cells, as HoDoKu's library cases of type 2 do), each
/// choice kept while the petals have a digit in common.
fn death_blossom(b: &Board, alses: &[Als], out: &mut Finds) {
    for stem in cells(b.empty()) {
        let petals: Vec<(u8, Vec<usize>)> = digits(b.cands(stem))
            .map(|d| {
                let k = d as usize - 1;
                let with: Vec<usize> = (0..alses.len())
                    .filter(|&i| alses[i].buddies[k] & 1u128 << stem != 0)
                    .collect();
                (d, with)
            })
            .collect();
        if petals.iter().any(|(_, with)| with.is_empty()) {
            continue;
        }
        let mut s = Blossom {
            alses,
            board: b,
            stem,
            petals,
            chosen: Vec::new(),
        };
        if s.grow(0x1ff, out) {
            return;
        }
    }
}

impl Blossom<'_> {
    /// Chooses the petal of the next stem digit, `common` the digits of every petal so far;
    /// true when the search can stop.
    fn grow(&mut self, common: u16, out: &mut Finds) -> bool {
        let k = self.chosen.len();
        if k == self.petals.len() {
            return self.bloom(common, out);
        }
        for i in 0..self.petals[k].1.len() {
            let a = self.petals[k].1[i];
            let now = common & self.alses[a].cands;
            if now == 0 {
                continue;
            }
            self.chosen.push(a);
            let stop = self.grow(now, out);
            self.chosen.pop();
            if stop {
                return true;
            }
        }
        false
    }

    /// The eliminations of the chosen petals: each digit `z` of them all but the stem's, from
    /// the cells outside that see all of their places of `z`.
    fn bloom(&self, common: u16, out: &mut Finds) -> bool {
        let petal_cells = self
            .chosen
            .iter()
            .fold(1u128 << self.stem, |m, &a| m | self.alses[a].cells);
        let mut step = Step::new(Technique::DeathBlossom);
        for z in digits(common & !self.board.cands(self.stem)) {
            let places = self
                .chosen
                .iter()
                .fold(0, |m, &a| m | self.alses[a].with[z as usize - 1]);
            let targets = seen_by_all(places) & self.board.digit_cells(z) & !petal_cells;
            if targets != 0 {
                step.digits |= bit(z);
                step.eliminate_all(targets, z);
            }
        }
        if step.is_empty() {
            return false;
        }
        step.cells.push(self.stem as u8);
        for &a in &self.chosen {
            step.units.push(unit(self.alses[a].unit));
            step.cells
                .extend(cells(self.alses[a].cells).map(|c| c as u8));
        }
        out.push(step)
    }
}
