//! Single-digit patterns: two strong links of one digit (a unit with exactly two places for
//! it) joined by a weak link.
//!
//! - **Skyscraper**: two rows (or columns) each with two places for the digit, one end of each
//!   in a common column (row). One of the two other ends holds the digit, so a cell seeing both
//!   loses it.
//! - **2-string kite**: a row and a column each with two places, one end of each in a common
//!   box. One of the other ends holds the digit: the cell in the row of one and the column of
//!   the other loses it.
//! - **Empty rectangle**: in a box the digit's places lie in one row and one column (the "cross")
//!   and not in one line alone. A strong link of the digit from a cell of the cross's row (outside
//!   the box) along its column ends in some row; the cell of that row in the cross's column loses
//!   the digit (and the same with rows and columns swapped).

use super::board::{bit, box_of, cells, col_of, row_of, unit, Board, PEERS, UNIT_MASK};
use super::{Candidate, Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::Skyscraper => skyscraper(b, out),
        Technique::TwoStringKite => kite(b, out),
        Technique::EmptyRectangle => empty_rectangle(b, out),
        _ => {}
    }
}

/// The units of `range` holding exactly two places for `d`, as (first, second) cells.
fn pairs(b: &Board, d: u8, range: std::ops::Range<usize>) -> Vec<(usize, usize, usize)> {
    range
        .filter_map(|u| {
            let p = b.in_unit(u, d);
            (p.count_ones() == 2).then(|| {
                let mut it = cells(p);
                (u, it.next().expect("two"), it.next().expect("two"))
            })
        })
        .collect()
}

fn skyscraper(b: &Board, out: &mut Finds) {
    for rows in [true, false] {
        let cross = |c: usize| if rows { col_of(c) } else { row_of(c) };
        for d in 1..=9u8 {
            let ps = pairs(b, d, if rows { 0..9 } else { 9..18 });
            for (i, &(u1, a0, a1)) in ps.iter().enumerate() {
                for &(u2, b0, b1) in &ps[i + 1..] {
                    let (linked, free) = if cross(a0) == cross(b0) {
                        ((a0, b0), (a1, b1))
                    } else if cross(a1) == cross(b1) {
                        ((a1, b1), (a0, b0))
                    } else {
                        continue;
                    };
                    if cross(free.0) == cross(free.1) {
                        continue; // an X-wing
                    }
                    let elim = b.digit_cells(d) & PEERS[free.0] & PEERS[free.1];
                    if elim == 0 {
                        continue;
                    }
                    let mut s = Step::new(Technique::Skyscraper);
                    s.digits = bit(d);
                    s.units = vec![unit(u1), unit(u2)];
                    s.cells = vec![free.0 as u8, free.1 as u8, linked.0 as u8, linked.1 as u8];
                    s.eliminate_all(elim, d);
                    if out.push(s) {
                        return;
                    }
                }
            }
        }
    }
}

fn kite(b: &Board, out: &mut Finds) {
    for d in 1..=9u8 {
        let rows = pairs(b, d, 0..9);
        let cols = pairs(b, d, 9..18);
        for &(ru, r0, r1) in &rows {
            for &(cu, c0, c1) in &cols {
                // (row end in the box, row free end, column end in the box, column free end)
                let Some((rb, rf, cb, cf)) = [
                    (r0, r1, c0, c1),
                    (r0, r1, c1, c0),
                    (r1, r0, c0, c1),
                    (r1, r0, c1, c0),
                ]
                .into_iter()
                .find(|&(rb, _, cb, _)| box_of(rb) == box_of(cb)) else {
                    continue;
                };
                if rb == cb || rb == cf || rf == cb || rf == cf {
                    continue;
                }
                let target = row_of(cf) * 9 + col_of(rf);
                if !b.has(target, d) {
                    continue;
                }
                let mut s = Step::new(Technique::TwoStringKite);
                s.digits = bit(d);
                s.units = vec![unit(ru), unit(cu)];
                s.cells = vec![rf as u8, cf as u8, rb as u8, cb as u8];
                s.fins = vec![Candidate::new(rb, d), Candidate::new(cb, d)];
                s.eliminations.push(Candidate::new(target, d));
                if out.push(s) {
                    return;
                }
            }
        }
    }
}

fn empty_rectangle(b: &Board, out: &mut Finds) {
    for d in 1..=9u8 {
        let dc = b.digit_cells(d);
        for bx in 0..9 {
            let here = b.in_unit(18 + bx, d);
            if !(2..=5).contains(&here.count_ones()) {
                continue;
            }
            let (r0, c0) = ((bx / 3) * 3, (bx % 3) * 3);
            for er_row in r0..r0 + 3 {
                for er_col in c0..c0 + 3 {
                    let (row, col) = (UNIT_MASK[er_row], UNIT_MASK[9 + er_col]);
                    if here & !(row | col) != 0 || here & row & !col == 0 || here & col & !row == 0
                    {
                        continue;
                    }
                    // along the cross's row: strong links in columns, then the target in the
                    // cross's column; and the same with rows and columns swapped
                    for along_row in [true, false] {
                        let line = if along_row { row } else { col };
                        for x in cells(dc & line & !UNIT_MASK[18 + bx]) {
                            let link = if along_row {
                                UNIT_MASK[9 + col_of(x)]
                            } else {
                                UNIT_MASK[row_of(x)]
                            };
                            let p = dc & link;
                            if p.count_ones() != 2 {
                                continue;
                            }
                            let y = (p & !(1u128 << x)).trailing_zeros() as usize;
                            let target = if along_row {
                                row_of(y) * 9 + er_col
                            } else {
                                er_row * 9 + col_of(y)
                            };
                            if box_of(target) == bx || !b.has(target, d) {
                                continue;
                            }
                            let mut s = Step::new(Technique::EmptyRectangle);
                            s.digits = bit(d);
                            s.units = vec![unit(18 + bx)];
                            s.cells = vec![x as u8, y as u8];
                            s.fins = cells(here).map(|c| Candidate::new(c, d)).collect();
                            s.eliminations.push(Candidate::new(target, d));
                            if out.push(s) {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }
}
