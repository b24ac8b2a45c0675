//! Locked candidates: a digit confined to the intersection of a box and a line.
//!
//! - **Type 1 (pointing)**: in a box, the digit's candidates all lie in one row (or column); the
//!   digit must be there, so it goes from the rest of that row (column).
//! - **Type 2 (claiming)**: in a row (column), the digit's candidates all lie in one box; it goes
//!   from the rest of that box.

use super::board::{unit, Board, UNIT_MASK};
use super::{Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    // Boxes are units 18..27, lines (rows, then columns) 0..18.
    let (froms, intos) = match t {
        Technique::LockedCandidates1 => (18..27, 0..18),
        Technique::LockedCandidates2 => (0..18, 18..27),
        _ => return,
    };
    for from in froms {
        for d in 1..=9u8 {
            let here = b.in_unit(from, d);
            if !(2..=3).contains(&here.count_ones()) {
                continue;
            }
            for into in intos.clone() {
                if here & !UNIT_MASK[into] == 0 && step(b, d, from, into, here, t, out) {
                    return;
                }
            }
        }
    }
}

/// The step for digit `d` locked from unit `from` into unit `into` (candidates `here`): `d`
/// goes from the rest of `into`. True when the search can stop.
fn step(
    b: &Board,
    d: u8,
    from: usize,
    into: usize,
    here: u128,
    t: Technique,
    out: &mut Finds,
) -> bool {
    let elim = b.in_unit(into, d) & !here;
    if elim == 0 {
        return false;
    }
    let mut s = Step::new(t);
    s.digits = super::board::bit(d);
    s.units = vec![unit(from), unit(into)];
    s.cells = super::board::cells(here).map(|c| c as u8).collect();
    s.eliminate_all(elim, d);
    out.push(s)
}
