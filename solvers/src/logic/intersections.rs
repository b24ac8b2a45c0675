//! Locked candidates: a digit confined to the intersection of a box and a line.
//!
//! - **Type 1 (pointing)**: in a box, the digit's candidates all lie in one row (or column); the
//!   digit must be there, so it goes from the rest of that row (column).
//! - **Type 2 (claiming)**: in a row (column), the digit's candidates all lie in one box; it goes
//!   from the rest of that box.

use super::board::{unit, Board, UNIT_MASK};
use super::{Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::LockedCandidates1 => {
            for bx in 18..27 {
                for d in 1..=9u8 {
                    let here = b.in_unit(bx, d);
                    if !(2..=3).contains(&here.count_ones()) {
                        continue;
                    }
                    for line in 0..18 {
                        if here & !UNIT_MASK[line] == 0
                            && step(b, d, bx, line, here, Technique::LockedCandidates1, out)
                        {
                            return;
                        }
                    }
                }
            }
        }
        Technique::LockedCandidates2 => {
            for line in 0..18 {
                for d in 1..=9u8 {
                    let here = b.in_unit(line, d);
                    if !(2..=3).contains(&here.count_ones()) {
                        continue;
                    }
                    for bx in 18..27 {
                        if here & !UNIT_MASK[bx] == 0
                            && step(b, d, line, bx, here, Technique::LockedCandidates2, out)
                        {
                            return;
                        }
                    }
                }
            }
        }
        _ => {}
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
