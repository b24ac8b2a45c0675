//! Sue de Coq (two-sector disjoint subsets): the intersection of a line and a box, read with a
//! set of cells of the line and a set of cells of the box that lock its digits.
//!
//! Take 2 or 3 empty cells `C` of a line-box intersection whose candidates `V` number at least
//! `|C| + 2`. Add cells `L` of the line (outside `C`) and cells `B` of the box (outside `C` and
//! `L`) such that no digit of `V` is a candidate of both `L` and `B`, and the cells number as
//! many as the digits they can hold, counting a digit outside `V` once for `L` and once for `B`
//! when both have it: `|C| + |L| + |B| = |V| + extra(L) + extra(B)`. Each digit then fills its
//! places exactly: a digit of `V` outside `B`, or of `L`, lies in the line part (`C` and `L`), so
//! the rest of the line loses it; a digit of `V` outside `L`, or of `B`, lies in the box part,
//! so the rest of the box loses it (an extra digit of both `L` and `B` leaves both).
//!
//! Search order (HoDoKu's, so the rater takes the step HoDoKu takes): rows then columns, boxes
//! in order, the intersection's pairs then triples, the line's cell sets then the box's in
//! increasing order. Source: HoDoKu's technique page "Sue de Coq" (Bernhard Hobiger), after
//! Sue de Coq's forum post (Sudoku Players' Forum, 2007). The code is our own.

use super::board::{cells, unit, Board, Cells, UNIT_MASK};
use super::{Candidate, Finds, Step, Technique};

/// The pattern as it grows: the intersection part, then the line's cells.
struct Pattern {
    line: usize,
    boxu: usize,
    inter: Cells,
    v: u16,
}

fn mask_of(b: &Board, set: Cells) -> u16 {
    cells(set).fold(0, |m, c| m | b.cands(c))
}

pub(crate) fn find(b: &Board, out: &mut Finds) {
    let empty = b.empty();
    for line in 0..18 {
        for boxu in 18..27 {
            let inter: Vec<usize> = cells(UNIT_MASK[line] & UNIT_MASK[boxu] & empty).collect();
            if inter.len() < 2 {
                continue;
            }
            for i in 0..inter.len() {
                for j in i + 1..inter.len() {
                    let two = 1u128 << inter[i] | 1u128 << inter[j];
                    if try_intersection(b, line, boxu, two, out) {
                        return;
                    }
                    for &k in &inter[j + 1..] {
                        if try_intersection(b, line, boxu, two | 1u128 << k, out) {
                            return;
                        }
                    }
                }
            }
        }
    }
}

fn try_intersection(b: &Board, line: usize, boxu: usize, inter: Cells, out: &mut Finds) -> bool {
    let v = mask_of(b, inter);
    let n_plus = v.count_ones() as i32 - inter.count_ones() as i32;
    if n_plus < 2 {
        return false;
    }
    let p = Pattern {
        line,
        boxu,
        inter,
        v,
    };
    let source: Vec<usize> = cells(UNIT_MASK[line] & b.empty() & !inter).collect();
    line_sets(b, &p, &source, 0, 0, n_plus, out)
}

/// Every set `L` of `source[start..]` added to `set`, and for each that qualifies the box sets.
fn line_sets(
    b: &Board,
    p: &Pattern,
    source: &[usize],
    start: usize,
    set: Cells,
    n_plus: i32,
    out: &mut Finds,
) -> bool {
    for i in start..source.len() {
        let l = set | 1u128 << source[i];
        let m = mask_of(b, l);
        let extra = (m & !p.v).count_ones() as i32;
        let taken = l.count_ones() as i32 - extra;
        if m & p.v != 0 && taken > 0 && taken < n_plus {
            let bsrc: Vec<usize> = cells(UNIT_MASK[p.boxu] & b.empty() & !p.inter & !l).collect();
            let allowed = !(m & p.v);
            if box_sets(b, p, l, m, &bsrc, 0, 0, n_plus - taken, allowed, out) {
                return true;
            }
        }
        if line_sets(b, p, source, i + 1, l, n_plus, out) {
            return true;
        }
    }
    false
}

/// Every set `B` of `source[start..]` added to `set` whose cells hold only `allowed` digits;
/// those that take exactly `need` digits of `V` complete a Sue de Coq.
#[allow(clippy::too_many_arguments)]
fn box_sets(
    b: &Board,
    p: &Pattern,
    l: Cells,
    lm: u16,
    source: &[usize],
    start: usize,
    set: Cells,
    need: i32,
    allowed: u16,
    out: &mut Finds,
) -> bool {
    for i in start..source.len() {
        if b.cands(source[i]) & !allowed != 0 {
            continue;
        }
        let s = set | 1u128 << source[i];
        let m = mask_of(b, s);
        let taken = s.count_ones() as i32 - (m & !p.v).count_ones() as i32;
        if m & p.v != 0 && taken == need && out.push(step(b, p, l, lm, s, m)) {
            return true;
        }
        if taken <= need && box_sets(b, p, l, lm, source, i + 1, s, need, allowed, out) {
            return true;
        }
    }
    false
}

fn step(b: &Board, p: &Pattern, l: Cells, lm: u16, bs: Cells, bm: u16) -> Step {
    let shared_extra = lm & bm & !p.v;
    let line_digits = ((p.v | lm) & !bm) | shared_extra;
    let box_digits = ((p.v | bm) & !lm) | shared_extra;
    let mut s = Step::new(Technique::SueDeCoq);
    s.digits = p.v | lm | bm;
    s.units = vec![unit(p.line), unit(p.boxu)];
    s.cells = cells(p.inter | l | bs).map(|c| c as u8).collect();
    let rest_line = UNIT_MASK[p.line] & b.empty() & !p.inter & !l;
    let rest_box = UNIT_MASK[p.boxu] & b.empty() & !p.inter & !bs;
    // HoDoKu's order: the box's eliminations, then the line's, each in cell order.
    for (rest, kill) in [(rest_box, box_digits), (rest_line, line_digits)] {
        for c in cells(rest) {
            for d in super::board::digits(b.cands(c) & kill) {
                s.eliminations.push(Candidate::new(c, d));
            }
        }
    }
    s
}
