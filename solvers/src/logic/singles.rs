//! Singles: a digit that has one place to go.
//!
//! - **Full house**: a unit with one empty cell left; it takes the unit's missing digit.
//! - **Naked single**: a cell with one candidate left.
//! - **Hidden single**: a digit with one place left in a unit (boxes searched first, then rows,
//!   then columns).

use super::board::{bit, cells, unit, Board, UNIT_CELLS};
use super::{Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::FullHouse => full_house(b, out),
        Technique::NakedSingle => naked_single(b, out),
        Technique::HiddenSingle => hidden_single(b, out),
        _ => {}
    }
}

fn full_house(b: &Board, out: &mut Finds) {
    let mut seen: u128 = 0;
    for u in 0..27 {
        let mut empty = UNIT_CELLS[u].iter().filter(|&&c| b.value(c as usize) == 0);
        let (Some(&cell), None) = (empty.next(), empty.next()) else {
            continue;
        };
        let cell = cell as usize;
        if seen & (1 << cell) != 0 || b.count(cell) != 1 {
            continue;
        }
        seen |= 1 << cell;
        let d = b.cands(cell).trailing_zeros() as u8 + 1;
        let mut s = Step::placing(Technique::FullHouse, cell, d);
        s.units.push(unit(u));
        if out.push(s) {
            return;
        }
    }
}

fn naked_single(b: &Board, out: &mut Finds) {
    for cell in 0..81 {
        if b.value(cell) == 0 && b.count(cell) == 1 {
            let d = b.cands(cell).trailing_zeros() as u8 + 1;
            if out.push(Step::placing(Technique::NakedSingle, cell, d)) {
                return;
            }
        }
    }
}

fn hidden_single(b: &Board, out: &mut Finds) {
    let mut seen = [0u16; 81];
    for u in (18..27).chain(0..18) {
        for d in 1..=9u8 {
            let places = b.in_unit(u, d);
            if places.count_ones() != 1 {
                continue;
            }
            let cell = cells(places).next().expect("one cell");
            if seen[cell] & bit(d) != 0 {
                continue;
            }
            seen[cell] |= bit(d);
            let mut s = Step::placing(Technique::HiddenSingle, cell, d);
            s.units.push(unit(u));
            if out.push(s) {
                return;
            }
        }
    }
}
