//! Wings: a few bivalue cells (two candidates) that force a digit somewhere.
//!
//! - **XY-wing**: a pivot `xy` seeing two pincers `xz` and `yz`. Whatever the pivot holds, one
//!   pincer is `z`: a cell seeing both pincers loses `z`.
//! - **XYZ-wing**: a pivot `xyz` seeing pincers `xz` and `yz`: one of the three is `z`, so a cell
//!   seeing all three loses `z`.
//! - **W-wing**: two cells `ab`, and a strong link on `b` (a unit
//!   with exactly two places for it) whose ends see one cell each. One of the two cells is `a`:
//!   a cell seeing both loses `a`.

use super::board::{bit, cells, unit, Board, PEERS};
use super::{Candidate, Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::XyWing => xy_wing(b, out),
        Technique::XyzWing => xyz_wing(b, out),
        Technique::WWing => w_wing(b, out),
        _ => {}
    }
}

fn bivalue(b: &Board) -> u128 {
    (0..81)
        .filter(|&c| b.count(c) == 2)
        .fold(0, |m, c| m | 1u128 << c)
}

fn wing_step(
    t: Technique,
    b: &Board,
    pivot: usize,
    p1: usize,
    p2: usize,
    z: u8,
    elim: u128,
) -> Step {
    let mut s = Step::new(t);
    s.digits = b.cands(pivot) | b.cands(p1) | b.cands(p2);
    s.cells = vec![pivot as u8, p1 as u8, p2 as u8];
    if t == Technique::XyzWing {
        s.fins.push(Candidate::new(pivot, z));
    }
    s.fins.push(Candidate::new(p1, z));
    s.fins.push(Candidate::new(p2, z));
    s.eliminate_all(elim, z);
    s
}

/// XY-wings in HoDoKu's order: every three bivalue cells in cell order, each tried as the pivot
/// (the first, the second, the third), the first that eliminates taken.
fn xy_wing(b: &Board, out: &mut Finds) {
    let bi: Vec<usize> = cells(bivalue(b)).collect();
    for (i, &x) in bi.iter().enumerate() {
        for (j, &y) in bi.iter().enumerate().skip(i + 1) {
            if (b.cands(x) | b.cands(y)).count_ones() != 3 {
                continue;
            }
            for &z in &bi[j + 1..] {
                let (mx, my, mz) = (b.cands(x), b.cands(y), b.cands(z));
                if (mx | my | mz).count_ones() != 3 || mx == my || my == mz || mx == mz {
                    continue;
                }
                for (pivot, p1, p2) in [(x, y, z), (y, x, z), (z, y, x)] {
                    if PEERS[pivot] & (1u128 << p1) == 0 || PEERS[pivot] & (1u128 << p2) == 0 {
                        continue;
                    }
                    let d = (b.cands(p1) & b.cands(p2)).trailing_zeros() as u8 + 1;
                    let wing = 1u128 << pivot | 1u128 << p1 | 1u128 << p2;
                    let elim = b.digit_cells(d) & PEERS[p1] & PEERS[p2] & !wing;
                    if elim != 0
                        && out.push(wing_step(Technique::XyWing, b, pivot, p1, p2, d, elim))
                    {
                        return;
                    }
                }
            }
        }
    }
}

fn xyz_wing(b: &Board, out: &mut Finds) {
    let bi = bivalue(b);
    for pivot in (0..81).filter(|&c| b.count(c) == 3) {
        let pm = b.cands(pivot);
        let wings: Vec<usize> = cells(bi & PEERS[pivot])
            .filter(|&c| b.cands(c) & !pm == 0)
            .collect();
        for (i, &p1) in wings.iter().enumerate() {
            for &p2 in &wings[i + 1..] {
                let (m1, m2) = (b.cands(p1), b.cands(p2));
                if m1 == m2 {
                    continue;
                }
                let z = (m1 & m2).trailing_zeros() as u8 + 1;
                let elim = b.digit_cells(z) & PEERS[p1] & PEERS[p2] & PEERS[pivot];
                if elim != 0 && out.push(wing_step(Technique::XyzWing, b, pivot, p1, p2, z, elim)) {
                    return;
                }
            }
        }
    }
}

fn w_wing(b: &Board, out: &mut Finds) {
    let bi: Vec<usize> = cells(bivalue(b)).collect();
    for (i, &c1) in bi.iter().enumerate() {
        for &c2 in &bi[i + 1..] {
            let m = b.cands(c1);
            if b.cands(c2) != m {
                continue;
            }
            let pair: Vec<u8> = super::board::digits(m).collect();
            for (a, l) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                let elim = b.digit_cells(a) & PEERS[c1] & PEERS[c2];
                if elim == 0 {
                    continue;
                }
                for u in 0..27 {
                    let p = b.in_unit(u, l);
                    if p.count_ones() != 2 || p & (1u128 << c1 | 1u128 << c2) != 0 {
                        continue;
                    }
                    let mut it = cells(p);
                    let (w1, w2) = (it.next().expect("two"), it.next().expect("two"));
                    let sees = |w: usize, c: usize| PEERS[w] & (1u128 << c) != 0;
                    let (w1, w2) = if sees(w1, c1) && sees(w2, c2) {
                        (w1, w2)
                    } else if sees(w1, c2) && sees(w2, c1) {
                        (w2, w1)
                    } else {
                        continue;
                    };
                    if (sees(w1, c1) && sees(w1, c2)) || (sees(w2, c1) && sees(w2, c2)) {
                        continue;
                    }
                    let mut s = Step::new(Technique::WWing);
                    s.digits = bit(a) | bit(l);
                    s.units = vec![unit(u)];
                    s.cells = vec![c1 as u8, c2 as u8];
                    s.fins = [c1, c2, w1, w2]
                        .iter()
                        .map(|&c| Candidate::new(c, l))
                        .collect();
                    s.eliminate_all(elim, a);
                    if out.push(s) {
                        return;
                    }
                    break;
                }
            }
        }
    }
}
