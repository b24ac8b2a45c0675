//! Forcing chains and nets: assume a candidate true (or false) and follow what it forces.
//!
//! - **Forcing chain contradiction**: the assumption leads, by strong and weak links alone, to a
//!   contradiction (a candidate both true and false, a cell or a unit's digit left without a
//!   place), so the candidate is the other way.
//! - **Forcing chain verity**: each candidate of a cell (each place of a digit in a unit), assumed
//!   true in turn, makes the same candidate true (or false): so it is.
//! - **Forcing net contradiction / verity**: the same, the assumption followed by placing every
//!   naked and hidden single it leads to (several inferences joined, a "net").
//!
//! HoDoKu rates them Extreme (forcing chains cost 500 a step, nets 700). The links are those of
//! [`super::chains`]; chains follow at most 19 links, nets go to the end.

use super::board::{bit, cells, digits, Board, PEERS, UNIT_MASK};
use super::tabling::{cell_of, digit_of, is_on, state, Implications, Table};
use super::{Candidate, Finds, Step, Technique};
use std::collections::HashSet;

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::ForcingChainContradiction | Technique::ForcingChainVerity => {
            forcing_chains(b, t, out)
        }
        Technique::ForcingNetContradiction | Technique::ForcingNetVerity => forcing_nets(b, t, out),
        _ => {}
    }
}

/// Forcing chains, contradiction and verity, as HoDoKu finds them: every candidate assumed true
/// and assumed false gets a table of what follows from it by strong and weak links, group nodes
/// included ([`Implications::with_groups`]), as far as it goes.
///
/// - A contradiction (a candidate both true and false, two digits true in a cell or one digit
///   twice in a house, a cell with every candidate false, a house where every cell that may
///   still hold a digit, by the digits placed, has it false) proves the assumption wrong.
/// - A verity: a candidate's table true and its table false, every candidate of a cell, or
///   every place of a digit in a house, made true, all lead to the same candidate true (or
///   false): so it is.
///
/// Each deduction is a step; placements come first, by cell, then eliminations, by cell and
/// digit (HoDoKu's order; the first of each found stays).
fn chain_steps(b: &Board) -> Vec<Step> {
    let next = Implications::with_groups(b).next;
    table_steps(
        b,
        &next,
        Technique::ForcingChainContradiction,
        Technique::ForcingChainVerity,
    )
}

/// The deductions of the tables built on `next` (contradictions as `contra`, verities as
/// `verity`), in HoDoKu's order: placements by cell, then eliminations by cell and digit.
fn table_steps(b: &Board, next: &[Vec<u16>], contra: Technique, verity_t: Technique) -> Vec<Step> {
    let mut table = Table::new();
    // digit d may still go in a cell, by the digits placed alone (index d - 1)
    let mut allowed = [b.empty(); 9];
    for c in 0..81 {
        let v = b.value(c);
        if v != 0 {
            allowed[v as usize - 1] &= !PEERS[c];
        }
    }
    let premises: Vec<(usize, u8)> = (0..81)
        .flat_map(|c| digits(b.cands(c)).map(move |d| (c, d)))
        .collect();
    // per candidate state: what its table makes true and false, per digit
    let mut sets: Vec<Sets> = (0..1458).map(|_| Sets::default()).collect();
    let mut steps: Vec<Step> = Vec::new();
    let mut seen = HashSet::new();
    let mut add = |t: Technique, shown: Vec<u8>, digits: u16, c: Candidate, set: bool| {
        if !seen.insert((t, c, set)) {
            return;
        }
        let mut s = Step::new(t);
        s.digits = digits;
        s.cells = shown;
        if set {
            s.placements.push(c);
        } else {
            s.eliminations.push(c);
        }
        steps.push(s);
    };
    for &(c, d) in &premises {
        for on in [true, false] {
            let premise = state(c, d, on);
            table.fill(next, premise);
            let mut t = Sets::default();
            for &st in &table.order {
                let st = st as usize;
                if st < 1458 {
                    let (cell, digit) = (cell_of(st), digit_of(st) as usize - 1);
                    if is_on(st) {
                        t.on[digit] |= 1u128 << cell;
                    } else {
                        t.off[digit] |= 1u128 << cell;
                    }
                }
            }
            sets[premise] = t;
        }
    }
    for on in [true, false] {
        for &(c, d) in &premises {
            let t = &sets[state(c, d, on)];
            if let Some(shown) = t.contradiction(b, &allowed) {
                let cells = std::iter::once(c as u8).chain(shown).collect();
                add(contra, cells, bit(d), Candidate::new(c, d), !on);
            }
        }
    }
    let mut verity = |tables: &[&Sets], shown: Vec<u8>, ds: u16, except: u128| {
        for k in 0..9 {
            let common_on = tables.iter().fold(!0u128, |m, t| m & t.on[k]) & !except;
            let common_off = tables.iter().fold(!0u128, |m, t| m & t.off[k]) & !except;
            for (set, common) in [(true, common_on), (false, common_off)] {
                for cell in cells(common) {
                    let c = Candidate::new(cell, k as u8 + 1);
                    add(verity_t, shown.clone(), ds, c, set);
                }
            }
        }
    };
    for &(c, d) in &premises {
        let pair = [&sets[state(c, d, true)], &sets[state(c, d, false)]];
        verity(&pair, vec![c as u8], bit(d), 1u128 << c);
    }
    for c in 0..81 {
        if b.value(c) == 0 {
            let tables: Vec<&Sets> = digits(b.cands(c))
                .map(|d| &sets[state(c, d, true)])
                .collect();
            verity(&tables, vec![c as u8], b.cands(c), 0);
        }
    }
    for u in 0..27 {
        for d in 1..=9u8 {
            let p = b.in_unit(u, d);
            if p != 0 {
                let tables: Vec<&Sets> = cells(p).map(|c| &sets[state(c, d, true)]).collect();
                verity(&tables, cells(p).map(|c| c as u8).collect(), bit(d), 0);
            }
        }
    }
    // placements first, by cell; then eliminations, by cell and digit
    steps.sort_by_key(|s| match s.placements.first() {
        Some(p) => (0, p.cell, 0),
        None => (1, s.eliminations[0].cell, s.eliminations[0].digit),
    });
    steps
}

/// What a forcing chain table makes true and false: per digit (index `d - 1`), the cells.
#[derive(Default)]
struct Sets {
    on: [u128; 9],
    off: [u128; 9],
}

impl Sets {
    /// The cells that show a contradiction, if the table has one (`allowed`: per digit, the
    /// cells that may hold it by the digits placed).
    fn contradiction(&self, b: &Board, allowed: &[u128; 9]) -> Option<Vec<u8>> {
        for k in 0..9 {
            let both = self.on[k] & self.off[k];
            if both != 0 {
                return Some(vec![both.trailing_zeros() as u8]);
            }
        }
        for k in 0..9 {
            for j in k + 1..9 {
                let both = self.on[k] & self.on[j];
                if both != 0 {
                    return Some(vec![both.trailing_zeros() as u8]);
                }
            }
        }
        for u in 0..27 {
            for k in 0..9 {
                let twice = self.on[k] & UNIT_MASK[u];
                if twice.count_ones() > 1 {
                    return Some(cells(twice).map(|c| c as u8).collect());
                }
            }
        }
        let any_on = self.on.iter().fold(0u128, |m, &x| m | x);
        for c in cells(b.empty() & !any_on) {
            if digits(b.cands(c)).all(|d| self.off[d as usize - 1] & (1u128 << c) != 0) {
                return Some(vec![c as u8]);
            }
        }
        for u in 0..27 {
            for k in 0..9 {
                let places = UNIT_MASK[u] & allowed[k];
                if places != 0 && places & !self.off[k] == 0 {
                    return Some(cells(places).map(|c| c as u8).collect());
                }
            }
        }
        None
    }
}

/// Forcing chain steps of technique `t`: the first of either kind (HoDoKu's first forcing chain
/// step, whichever its kind), or every one of kind `t`.
fn forcing_chains(b: &Board, t: Technique, out: &mut Finds) {
    for s in chain_steps(b) {
        if (out.first_only() || s.technique == t) && out.push(s) {
            return;
        }
    }
}

/// Forcing nets as HoDoKu finds them: the table of each assumption holds what placing it (or
/// removing it) and then [`LOOK_AHEAD`] rounds of naked and hidden singles make true and false,
/// and the group nodes' links; tables are then joined as for forcing chains, and checked the
/// same way ([`table_steps`]).
fn net_steps(b: &Board) -> Vec<Step> {
    let mut next = Implications::with_groups(b).next;
    for cell in 0..81 {
        for d in digits(b.cands(cell)) {
            for on in [true, false] {
                let s = state(cell, d, on);
                let groups: Vec<u16> = next[s].iter().copied().filter(|&t| t >= 1458).collect();
                let mut v = look_ahead(b, cell, d, on);
                v.extend(groups);
                next[s] = v;
            }
        }
    }
    table_steps(
        b,
        &next,
        Technique::ForcingNetContradiction,
        Technique::ForcingNetVerity,
    )
}

/// Rounds of singles a forcing net's table looks ahead (HoDoKu's default).
const LOOK_AHEAD: usize = 4;

/// What assuming candidate `(cell, d)` true (`on`) or false makes true and false, as states:
/// the assumption, then rounds of every naked and hidden single of the board at the round's
/// start, each placed in turn.
fn look_ahead(b: &Board, cell: usize, d: u8, on: bool) -> Vec<u16> {
    let mut x = b.clone();
    let mut out: Vec<u16> = Vec::new();
    let mut seen = vec![false; 1458];
    let mut record = |s: usize, out: &mut Vec<u16>| {
        if !seen[s] {
            seen[s] = true;
            out.push(s as u16);
        }
    };
    // the placement of `d` in `c`: its peers that held `d` (before any assumption) and the
    // cell's other candidates go
    let set = |x: &mut Board,
               c: usize,
               d: u8,
               out: &mut Vec<u16>,
               record: &mut dyn FnMut(usize, &mut Vec<u16>)| {
        record(state(c, d, true), out);
        for p in cells(b.digit_cells(d) & PEERS[c]) {
            record(state(p, d, false), out);
        }
        for e in digits(x.cands(c) & !bit(d)) {
            record(state(c, e, false), out);
        }
        x.place(c, d);
    };
    if on {
        set(&mut x, cell, d, &mut out, &mut record);
    } else {
        x.eliminate(cell, d);
        record(state(cell, d, false), &mut out);
        if x.count(cell) == 1 {
            let e = x.cands(cell).trailing_zeros() as u8 + 1;
            set(&mut x, cell, e, &mut out, &mut record);
        }
    }
    for _ in 0..LOOK_AHEAD {
        let mut singles: Vec<(usize, u8)> = Vec::new();
        for c in 0..81 {
            if x.value(c) == 0 && x.count(c) == 1 {
                singles.push((c, x.cands(c).trailing_zeros() as u8 + 1));
            }
        }
        let mut hidden = 0u128;
        for u in 0..27 {
            for e in 1..=9u8 {
                let p = x.in_unit(u, e);
                if p.count_ones() == 1 && hidden & p == 0 {
                    hidden |= p;
                    singles.push((p.trailing_zeros() as usize, e));
                }
            }
        }
        if singles.is_empty() {
            break;
        }
        for (c, e) in singles {
            set(&mut x, c, e, &mut out, &mut record);
        }
    }
    out.retain(|&s| s as usize != state(cell, d, on));
    out
}

/// Forcing net steps of technique `t`: the first of either kind, or every one of kind `t`.
fn forcing_nets(b: &Board, t: Technique, out: &mut Finds) {
    for s in net_steps(b) {
        if (out.first_only() || s.technique == t) && out.push(s) {
            return;
        }
    }
}
