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
use super::chains::node;
use super::tabling::{cell_of, digit_of, is_on, state, Implications, Table};
use super::{Candidate, Finds, Step, Technique};
use std::collections::HashSet;

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::ForcingChainContradiction | Technique::ForcingChainVerity => {
            forcing_chains(b, t, out)
        }
        Technique::ForcingNetContradiction => net_contradiction(b, out),
        Technique::ForcingNetVerity => net_verity(b, out),
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
            table.fill(&next, premise);
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
                add(
                    Technique::ForcingChainContradiction,
                    cells,
                    bit(d),
                    Candidate::new(c, d),
                    !on,
                );
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
                    add(Technique::ForcingChainVerity, shown.clone(), ds, c, set);
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

/// The branch sets of the verity techniques: every cell with two or more candidates, every digit
/// with two or more places in a unit; each as (its candidates as nodes, its cells).
fn branch_groups(b: &Board) -> Vec<(Vec<usize>, Vec<u8>)> {
    let mut groups: Vec<(Vec<usize>, Vec<u8>)> = Vec::new();
    for c in 0..81 {
        if b.count(c) >= 2 {
            groups.push((
                digits(b.cands(c)).map(|d| node(c, d)).collect(),
                vec![c as u8],
            ));
        }
    }
    for u in 0..27 {
        for d in 1..=9u8 {
            let p = b.in_unit(u, d);
            if p.count_ones() >= 2 {
                groups.push((
                    cells(p).map(|c| node(c, d)).collect(),
                    cells(p).map(|c| c as u8).collect(),
                ));
            }
        }
    }
    groups
}

/// Places naked and hidden singles until none is left; false when the board reaches a
/// contradiction.
fn propagate(b: &mut Board) -> bool {
    loop {
        let mut progress = false;
        for c in 0..81 {
            if b.value(c) != 0 {
                continue;
            }
            match b.count(c) {
                0 => return false,
                1 => {
                    b.place(c, b.cands(c).trailing_zeros() as u8 + 1);
                    progress = true;
                }
                _ => {}
            }
        }
        for u in 0..27 {
            let mut placed = 0u16;
            for c in cells(UNIT_MASK[u]) {
                if b.value(c) != 0 {
                    placed |= bit(b.value(c));
                }
            }
            for d in 1..=9u8 {
                if placed & bit(d) != 0 {
                    continue;
                }
                let p = b.in_unit(u, d);
                match p.count_ones() {
                    0 => return false,
                    1 => {
                        b.place(p.trailing_zeros() as usize, d);
                        placed |= bit(d);
                        progress = true;
                    }
                    _ => {}
                }
            }
        }
        if !progress {
            return !b.contradiction();
        }
    }
}

/// The board after assuming candidate `(cell, d)` true (`set`) or false, and its singles; `None`
/// on a contradiction.
fn assume(b: &Board, cell: usize, d: u8, set: bool) -> Option<Board> {
    let mut x = b.clone();
    if set {
        x.place(cell, d);
    } else {
        x.eliminate(cell, d);
    }
    propagate(&mut x).then_some(x)
}

fn net_contradiction(b: &Board, out: &mut Finds) {
    let mut found = Vec::new();
    for cell in 0..81 {
        for d in digits(b.cands(cell)) {
            for set in [true, false] {
                if assume(b, cell, d, set).is_some() {
                    continue;
                }
                let mut s = Step::new(Technique::ForcingNetContradiction);
                s.digits = bit(d);
                s.cells = vec![cell as u8];
                if set {
                    s.eliminations.push(Candidate::new(cell, d));
                } else {
                    s.placements.push(Candidate::new(cell, d));
                }
                found.push(s);
            }
        }
    }
    found.sort_by_key(|s| (s.placements.is_empty(), s.cells[0]));
    for s in found {
        if out.push(s) {
            return;
        }
    }
}

fn net_verity(b: &Board, out: &mut Finds) {
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (branches, group_cells) in branch_groups(b) {
        let outcomes: Vec<Board> = branches
            .iter()
            .filter_map(|&n| assume(b, n / 9, (n % 9) as u8 + 1, true))
            .collect();
        if outcomes.is_empty() {
            continue;
        }
        let mut s = Step::new(Technique::ForcingNetVerity);
        for cell in 0..81 {
            if b.value(cell) != 0 {
                continue;
            }
            let v = outcomes[0].value(cell);
            if v != 0 && outcomes.iter().all(|o| o.value(cell) == v) {
                s.placements.push(Candidate::new(cell, v));
                break;
            }
            for d in digits(b.cands(cell)) {
                if outcomes
                    .iter()
                    .all(|o| o.value(cell) != d && !o.has(cell, d))
                {
                    s.eliminations.push(Candidate::new(cell, d));
                }
            }
        }
        if !s.placements.is_empty() {
            s.eliminations.clear();
        }
        if s.is_empty() || !seen.insert((s.placements.clone(), s.eliminations.clone())) {
            continue;
        }
        s.digits = branches.iter().fold(0, |m, &n| m | bit((n % 9) as u8 + 1));
        s.cells = group_cells;
        found.push(s);
    }
    found.sort_by_key(|s| {
        (
            s.placements.is_empty(),
            std::cmp::Reverse(s.eliminations.len()),
        )
    });
    for s in found {
        if out.push(s) {
            return;
        }
    }
}
