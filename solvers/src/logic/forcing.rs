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

use super::board::{bit, cells, digits, Board, UNIT_MASK};
use super::chains::{node, Kind, Links, Search};
use super::{Candidate, Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::ForcingChainContradiction => chain_contradiction(b, out),
        Technique::ForcingChainVerity => chain_verity(b, out),
        Technique::ForcingNetContradiction => net_contradiction(b, out),
        Technique::ForcingNetVerity => net_verity(b, out),
        _ => {}
    }
}

/// After a search from an assumption: the first contradiction it reached, as the cells that show
/// it: a candidate made both true and false, an empty cell with every candidate false, or a unit
/// where a digit lost every place.
fn contradiction(b: &Board, search: &Search) -> Option<Vec<u8>> {
    let reached = |st: usize| search.reached(st);
    for n in 0..729 {
        if reached(2 * n) && reached(2 * n + 1) {
            return Some(vec![(n / 9) as u8]);
        }
    }
    for c in 0..81 {
        let m = b.cands(c);
        if m != 0 && digits(m).all(|d| reached(2 * node(c, d))) {
            return Some(vec![c as u8]);
        }
    }
    for u in 0..27 {
        for d in 1..=9u8 {
            let p = b.in_unit(u, d);
            if p != 0 && cells(p).all(|c| reached(2 * node(c, d))) {
                return Some(cells(p).map(|c| c as u8).collect());
            }
        }
    }
    None
}

/// Forcing chain contradiction: assuming a candidate true (or false) leads, by strong and weak
/// links, to a contradiction, so it is false (or true).
fn chain_contradiction(b: &Board, out: &mut Finds) {
    let links = Links::new(b, Kind::Any);
    let mut search = Search::new();
    let mut found = Vec::new();
    for n in 0..729 {
        let (cell, d) = (n / 9, (n % 9) as u8 + 1);
        if !b.has(cell, d) {
            continue;
        }
        for assume_true in [true, false] {
            search.run_from(&links, 2 * n + usize::from(assume_true), false);
            let Some(shown) = contradiction(b, &search) else {
                continue;
            };
            let mut s = Step::new(Technique::ForcingChainContradiction);
            s.digits = bit(d);
            s.cells = std::iter::once(cell as u8).chain(shown).collect();
            if assume_true {
                s.eliminations.push(Candidate::new(cell, d));
            } else {
                s.placements.push(Candidate::new(cell, d));
            }
            found.push(s);
        }
    }
    // placements first, then by cell (HoDoKu sorts singles first)
    found.sort_by_key(|s| (s.placements.is_empty(), s.cells[0]));
    for s in found {
        if out.push(s) {
            return;
        }
    }
}

/// Forcing chain verity: every candidate of a cell (or every place of a digit in a unit), assumed
/// true in turn, makes the same candidate true (it is true) or false (it is false).
fn chain_verity(b: &Board, out: &mut Finds) {
    let links = Links::new(b, Kind::Any);
    let mut search = Search::new();
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (branches, group_cells) in branch_groups(b) {
        let mut common: Option<Vec<bool>> = None;
        for &n in &branches {
            search.run_from(&links, 2 * n + 1, false);
            if contradiction(b, &search).is_some() {
                continue; // an impossible branch: the others decide
            }
            let reached: Vec<bool> = (0..1458).map(|st| search.reached(st)).collect();
            common = Some(match common {
                None => reached,
                Some(c) => c.iter().zip(&reached).map(|(a, b)| *a && *b).collect(),
            });
        }
        let Some(common) = common else {
            continue;
        };
        let mut s = Step::new(Technique::ForcingChainVerity);
        for n in 0..729 {
            let (cell, d) = (n / 9, (n % 9) as u8 + 1);
            if !b.has(cell, d) {
                continue;
            }
            if common[2 * n + 1] {
                s.placements.push(Candidate::new(cell, d));
            } else if common[2 * n] {
                s.eliminations.push(Candidate::new(cell, d));
            }
        }
        if s.is_empty() {
            continue;
        }
        if !s.placements.is_empty() {
            // a placement says it all (its eliminations follow as singles)
            s.placements.truncate(1);
            s.eliminations.clear();
        }
        if !seen.insert((s.placements.clone(), s.eliminations.clone())) {
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
