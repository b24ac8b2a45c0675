//! Uniqueness: patterns that would let a puzzle have two solutions, so they cannot occur in a
//! puzzle with one. Valid only for puzzles known to have exactly one solution (the rater checks;
//! the `logic` solver never uses them).
//!
//! A *unique rectangle* is four empty cells in two rows, two columns and two boxes that could
//! all take only the digits `a` and `b`: the two could then be swapped, a second solution. So
//! some cell of the rectangle must hold another digit:
//! - **Test 1**: three corners hold only `ab`: the fourth loses `a` and `b`.
//! - **Test 2 / 5**: the corners with more digits all have one extra digit `x`, so one of them is
//!   `x`: a cell seeing all of them loses `x` (test 2 when the two such corners share a row or
//!   column, test 5 otherwise).
//! - **Test 3**: the extras of two corners in one unit act as one cell; with other cells of the
//!   unit they form a naked subset, whose digits go from the rest of the unit.
//! - **Test 4**: two corners in one row (column) with extras, and `a` only there in that row: one
//!   of them is `a`, so neither is `b`.
//! - **Test 6**: two diagonal corners with extras, and `a` in their rows and columns only inside
//!   the rectangle: `a` sits on the other diagonal, so the extra corners lose `a`.
//! - **Hidden rectangle**: a corner with only `ab`, and `a` only in the rectangle along the row
//!   and column of the opposite corner: that corner loses `b`.
//! - **Avoidable rectangle 1 / 2**: the same reasoning on cells already filled (not givens) with
//!   `a`, `b`, `b`: the fourth cannot take `a` (type 1); or two filled and two empty corners with
//!   one common extra digit, which a cell seeing both loses (type 2).
//! - **BUG+1**: every empty cell has two candidates but one with three, and every digit has two
//!   places in each unit but the one that has three in that cell's row, column and box: that
//!   digit goes there (the other candidates are eliminated).
//!
//! Rectangles are found as HoDoKu finds them: a corner with exactly two candidates, corners where
//! both digits are still *allowed* (no filled peer holds them) even if a technique removed one.

use super::board::{
    bit, box_of, cells, col_of, digits, row_of, seen_by_all, Board, CELL_UNITS, PEERS, UNIT_CELLS,
    UNIT_MASK,
};
use super::{Candidate, Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::BugPlus1 => bug_plus_1(b, out),
        Technique::AvoidableRectangle1 | Technique::AvoidableRectangle2 => avoidable(b, t, out),
        _ => rectangles(b, t, out),
    }
}

/// Per digit, the empty cells where no filled peer holds it.
fn allowed(b: &Board) -> [u128; 9] {
    let mut a = [0u128; 9];
    let empty = b.empty();
    for (i, m) in a.iter_mut().enumerate() {
        let d = i as u8 + 1;
        let mut blocked = 0u128;
        for c in 0..81 {
            if b.value(c) == d {
                blocked |= PEERS[c];
            }
        }
        *m = empty & !blocked;
    }
    a
}

/// The rectangles starting at every cell: `f(corners, a, b)` with corners `[i11, i12, i21, i22]`
/// (`i11` and `i12` in one box and one line, `i21`/`i22` opposite them in another box); `f`
/// returns true to stop. `start` gives the digits of a first corner, `second` those of the
/// rectangle once its second corner is known (`None`: not a second corner), and `far` says
/// whether the two opposite corners fit.
fn for_each_rectangle(
    second: &dyn Fn(usize, (u8, u8)) -> Option<(u8, u8)>,
    start: &dyn Fn(usize) -> Option<(u8, u8)>,
    far: &dyn Fn(usize, usize, u8, u8) -> bool,
    f: &mut dyn FnMut([usize; 4], u8, u8) -> bool,
) {
    let mut seen = std::collections::HashSet::new();
    for i11 in 0..81 {
        let Some(first) = start(i11) else {
            continue;
        };
        for &i12 in &UNIT_CELLS[18 + box_of(i11)] {
            let i12 = i12 as usize;
            if i12 == i11 || (row_of(i12) != row_of(i11) && col_of(i12) != col_of(i11)) {
                continue;
            }
            let Some((c1, c2)) = second(i12, first) else {
                continue;
            };
            let same_row = row_of(i11) == row_of(i12);
            for k in 0..9 {
                let (i21, i22) = if same_row {
                    (k * 9 + col_of(i11), k * 9 + col_of(i12))
                } else {
                    (row_of(i11) * 9 + k, row_of(i12) * 9 + k)
                };
                if box_of(i21) == box_of(i11) || !far(i21, i22, c1, c2) {
                    continue;
                }
                let mut key = [i11, i12, i21, i22];
                key.sort_unstable();
                if !seen.insert(key) {
                    continue;
                }
                if f([i11, i12, i21, i22], c1, c2) {
                    return;
                }
            }
        }
    }
}

fn ur_step(t: Technique, corners: [usize; 4], c1: u8, c2: u8) -> Step {
    let mut s = Step::new(t);
    s.digits = bit(c1) | bit(c2);
    s.cells = corners.iter().map(|&c| c as u8).collect();
    s
}

/// Tests 4 and 6: the step of `t` that removes digit `del` from the `extra` cells, for the first
/// `(d, del)` of `rules` whose digit `d` has no place in `cells`; `None` when each has one.
fn remove_from_extra(
    b: &Board,
    t: Technique,
    corners: [usize; 4],
    (c1, c2): (u8, u8),
    extra: &[usize],
    cells: u128,
    rules: [(u8, u8); 2],
) -> Option<Step> {
    let del = rules
        .iter()
        .find(|&&(d, _)| b.digit_cells(d) & cells == 0)?
        .1;
    let mut s = ur_step(t, corners, c1, c2);
    for &c in extra {
        if b.has(c, del) {
            s.eliminations.push(Candidate::new(c, del));
        }
    }
    Some(s)
}

fn rectangles(b: &Board, t: Technique, out: &mut Finds) {
    let allowed = allowed(b);
    let both = |c: usize, c1: u8, c2: u8| {
        b.value(c) == 0
            && allowed[c1 as usize - 1] & (1 << c) != 0
            && allowed[c2 as usize - 1] & (1 << c) != 0
    };
    let start = |c: usize| {
        (b.value(c) == 0 && b.count(c) == 2).then(|| {
            let mut d = digits(b.cands(c));
            (d.next().expect("two"), d.next().expect("two"))
        })
    };
    let far = |x: usize, y: usize, c1: u8, c2: u8| both(x, c1, c2) && both(y, c1, c2);
    let second = |c: usize, (c1, c2): (u8, u8)| both(c, c1, c2).then_some((c1, c2));
    for_each_rectangle(&second, &start, &far, &mut |corners, c1, c2| {
        check_rectangle(b, t, corners, c1, c2, out)
    });
}

/// Every step of technique `t` on one rectangle; true when the search can stop.
fn check_rectangle(
    b: &Board,
    t: Technique,
    corners: [usize; 4],
    c1: u8,
    c2: u8,
    out: &mut Finds,
) -> bool {
    let ur = bit(c1) | bit(c2);
    let ur_cells = corners.iter().fold(0u128, |m, &c| m | 1 << c);
    let (two, extra): (Vec<usize>, Vec<usize>) =
        corners.iter().partition(|&&c| b.cands(c) & !ur == 0);
    match t {
        Technique::UniquenessTest1 if two.len() == 3 => {
            let mut s = ur_step(t, corners, c1, c2);
            for d in [c1, c2] {
                if b.has(extra[0], d) {
                    s.eliminations.push(Candidate::new(extra[0], d));
                }
            }
            out.push(s)
        }
        Technique::UniquenessTest2 | Technique::UniquenessTest5
            if two.len() == 1 || two.len() == 2 =>
        {
            let extras = extra.iter().fold(0u16, |m, &c| m | b.cands(c)) & !ur;
            if extras.count_ones() != 1 {
                return false;
            }
            let x = extras.trailing_zeros() as u8 + 1;
            let set = extra.iter().fold(0u128, |m, &c| m | 1 << c);
            let elim = b.digit_cells(x) & seen_by_all(set) & !ur_cells;
            if elim == 0 {
                return false;
            }
            let (i1, i2) = (extra[0], if extra.len() > 1 { extra[1] } else { two[0] });
            let aligned = row_of(i1) == row_of(i2) || col_of(i1) == col_of(i2);
            let found = if extra.len() <= 2 && aligned {
                Technique::UniquenessTest2
            } else {
                Technique::UniquenessTest5
            };
            if found != t {
                return false;
            }
            let mut s = ur_step(t, corners, c1, c2);
            s.eliminate_all(elim, x);
            out.push(s)
        }
        Technique::UniquenessTest3 if two.len() == 2 => test3(b, corners, c1, c2, &extra, out),
        Technique::UniquenessTest4 if two.len() == 2 => {
            let (i1, i2) = (extra[0], extra[1]);
            if row_of(i1) != row_of(i2) && col_of(i1) != col_of(i2) {
                return false;
            }
            // A digit with no place among the extra cells' common peers is locked in them.
            let shared = PEERS[i1] & PEERS[i2];
            let rules = [(c1, c2), (c2, c1)];
            let Some(s) = remove_from_extra(b, t, corners, (c1, c2), &extra, shared, rules) else {
                return false;
            };
            out.push(s)
        }
        Technique::UniquenessTest6 if two.len() == 2 => {
            let (i1, i2) = (extra[0], extra[1]);
            if row_of(i1) == row_of(i2) || col_of(i1) == col_of(i2) {
                return false;
            }
            let lines = (UNIT_MASK[row_of(i1)]
                | UNIT_MASK[row_of(i2)]
                | UNIT_MASK[9 + col_of(i1)]
                | UNIT_MASK[9 + col_of(i2)])
                & !ur_cells;
            let rules = [(c1, c1), (c2, c2)];
            let Some(mut s) = remove_from_extra(b, t, corners, (c1, c2), &extra, lines, rules)
            else {
                return false;
            };
            s.eliminations.sort();
            out.push(s)
        }
        Technique::HiddenRectangle if two.len() == 1 || two.len() == 2 => {
            if two.len() == 2
                && (row_of(two[0]) == row_of(two[1]) || col_of(two[0]) == col_of(two[1]))
            {
                return false;
            }
            for &corner in &two {
                let (i1, i2) = (extra[0], extra[1]);
                let line = if row_of(i1) != row_of(corner) {
                    row_of(i1)
                } else {
                    row_of(i2)
                };
                let col = if col_of(i1) != col_of(corner) {
                    col_of(i1)
                } else {
                    col_of(i2)
                };
                for (check, del) in [(c1, c2), (c2, c1)] {
                    let others = b.digit_cells(check) & (UNIT_MASK[line] | UNIT_MASK[9 + col]);
                    if others & !ur_cells != 0 {
                        continue;
                    }
                    let target = line * 9 + col;
                    if b.has(target, del) {
                        let mut s = ur_step(t, corners, c1, c2);
                        s.eliminations.push(Candidate::new(target, del));
                        if out.push(s) {
                            return true;
                        }
                    }
                }
            }
            false
        }
        _ => false,
    }
}

/// Every non-empty subset of `0..n` as a bit mask, in depth-first order ({0}, {0,1}, {0,1,2},
/// ..., {0,2}, ...): the order HoDoKu tries a uniqueness test 3's subsets in.
fn subsets_depth_first(n: usize) -> Vec<u32> {
    fn go(n: usize, start: usize, mask: u32, out: &mut Vec<u32>) {
        for i in start..n {
            out.push(mask | 1 << i);
            go(n, i + 1, mask | 1 << i, out);
        }
    }
    let mut out = Vec::with_capacity((1 << n) - 1);
    go(n, 0, 0, &mut out);
    out
}

fn test3(b: &Board, corners: [usize; 4], c1: u8, c2: u8, extra: &[usize], out: &mut Finds) -> bool {
    let ur = bit(c1) | bit(c2);
    let (i1, i2) = (extra[0], extra[1]);
    let extras = (b.cands(i1) | b.cands(i2)) & !ur;
    let shared: Vec<usize> = CELL_UNITS[i1]
        .into_iter()
        .filter(|u| CELL_UNITS[i2].contains(u))
        .collect();
    for &u in &shared {
        let pool: Vec<usize> = UNIT_CELLS[u]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| !corners.contains(&c) && b.value(c) == 0 && b.cands(c) & ur == 0)
            .collect();
        // subsets of the pool that, with the pseudo-cell, hold one digit fewer than cells
        let n = pool.len();
        for mask in subsets_depth_first(n) {
            let chosen: Vec<usize> = (0..n)
                .filter(|&k| mask & 1 << k != 0)
                .map(|k| pool[k])
                .collect();
            if u >= 18 {
                let all_row = chosen
                    .iter()
                    .chain([i1, i2].iter())
                    .all(|&c| row_of(c) == row_of(i1));
                let all_col = chosen
                    .iter()
                    .chain([i1, i2].iter())
                    .all(|&c| col_of(c) == col_of(i1));
                if all_row || all_col {
                    continue; // found in the row or column pass already
                }
            }
            let digits_set = chosen.iter().fold(extras, |m, &c| m | b.cands(c));
            if digits_set.count_ones() as usize != chosen.len() + 1 {
                continue;
            }
            let members = chosen
                .iter()
                .fold(1u128 << i1 | 1u128 << i2, |m, &c| m | 1 << c);
            let mut units = vec![u];
            if u < 18 {
                let bx = CELL_UNITS[i1][2];
                if members & !UNIT_MASK[bx] == 0 {
                    units.push(bx);
                }
            }
            let mut s = ur_step(Technique::UniquenessTest3, corners, c1, c2);
            let mut seen = 0u128;
            for &x in &units {
                for c in cells(UNIT_MASK[x] & !members & !seen) {
                    seen |= 1 << c;
                    for d in digits(b.cands(c) & digits_set) {
                        s.eliminations.push(Candidate::new(c, d));
                    }
                }
            }
            for d in digits(digits_set) {
                for c in cells(members) {
                    if b.has(c, d) {
                        s.fins.push(Candidate::new(c, d));
                    }
                }
            }
            if out.push(s) {
                return true;
            }
        }
    }
    false
}

fn avoidable(b: &Board, t: Technique, out: &mut Finds) {
    let givens = b.givens();
    let placed = |c: usize| b.value(c) != 0 && givens & (1 << c) == 0;
    let start = |c: usize| placed(c).then(|| (b.value(c), 0));
    // the second corner: placed, not a given; its digit is the rectangle's second digit
    let second = |c: usize, (c1, _): (u8, u8)| placed(c).then(|| (c1, b.value(c)));
    let bi_with = |c: usize, d: u8| b.value(c) == 0 && b.has(c, d) && b.count(c) == 2;
    let far = |i21: usize, i22: usize, c1: u8, c2: u8| {
        (b.value(i21) == c2 && placed(i21) && bi_with(i22, c1))
            || (b.value(i22) == c1 && placed(i22) && bi_with(i21, c2))
            || (bi_with(i21, c2) && bi_with(i22, c1))
    };
    for_each_rectangle(&second, &start, &far, &mut |corners, c1, c2| {
        let [_, _, i21, i22] = corners;
        let s = if b.value(i21) != 0 || b.value(i22) != 0 {
            let mut s = ur_step(Technique::AvoidableRectangle1, corners, c1, c2);
            if b.value(i21) != 0 {
                s.eliminations.push(Candidate::new(i22, c1));
            } else {
                s.eliminations.push(Candidate::new(i21, c2));
            }
            s
        } else {
            let x = b.cands(i21) & !bit(c2);
            if b.cands(i22) & x == 0 {
                return false;
            }
            let x = x.trailing_zeros() as u8 + 1;
            let elim = b.digit_cells(x) & PEERS[i21] & PEERS[i22];
            let mut s = ur_step(Technique::AvoidableRectangle2, corners, c1, c2);
            s.eliminate_all(elim, x);
            s
        };
        s.technique == t && out.push(s)
    });
}

fn bug_plus_1(b: &Board, out: &mut Finds) {
    let mut three = None;
    for c in 0..81 {
        if b.value(c) != 0 {
            continue;
        }
        match b.count(c) {
            2 => {}
            3 if three.is_none() => three = Some(c),
            _ => return,
        }
    }
    let Some(cell) = three else {
        return;
    };
    let mut digit = None;
    let mut units = [None; 3];
    for u in 0..27 {
        for d in 1..=9u8 {
            match b.in_unit(u, d).count_ones() {
                0..=2 => {}
                3 => {
                    let kind = u / 9;
                    if units[kind].is_some() || digit.is_some_and(|x| x != d) {
                        return;
                    }
                    digit = Some(d);
                    units[kind] = Some(u);
                }
                _ => return,
            }
        }
    }
    let Some(d) = digit else {
        return;
    };
    if units != CELL_UNITS[cell].map(Some) || !b.has(cell, d) {
        return;
    }
    let mut s = Step::new(Technique::BugPlus1);
    s.digits = bit(d);
    s.cells = vec![cell as u8];
    for e in digits(b.cands(cell) & !bit(d)) {
        s.eliminations.push(Candidate::new(cell, e));
    }
    out.push(s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_come_depth_first() {
        assert_eq!(
            subsets_depth_first(3),
            [0b001, 0b011, 0b111, 0b101, 0b010, 0b110, 0b100]
        );
        assert_eq!(subsets_depth_first(7).len(), 127);
    }
}
