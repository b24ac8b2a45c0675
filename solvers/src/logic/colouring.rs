//! Colouring: the strong links of one digit (units with exactly two places for it) form
//! clusters; colouring a cluster's cells alternately with two colours, one colour holds the
//! digit everywhere and the other nowhere.
//!
//! - **Simple colours wrap**: two cells of one colour see each other, so that colour is false: it
//!   loses the digit everywhere.
//! - **Simple colours trap**: a cell outside the cluster seeing both colours loses the digit.
//! - **Multi-colours 2**: a colour of one cluster sees both colours of another cluster, so it is
//!   false.
//! - **Multi-colours 1**: a colour `a` of one cluster sees a colour `b` of another, so `a` and `b`
//!   are not both true: one of their opposite colours is, and a cell seeing both opposites loses
//!   the digit.

use super::board::{bit, cells, Board, PEERS};
use super::{Candidate, Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    for d in 1..=9u8 {
        let clusters = clusters(b, d);
        let stop = match t {
            Technique::SimpleColorsWrap | Technique::SimpleColorsTrap => clusters
                .iter()
                .any(|&(c1, c2)| simple(b, d, c1, c2, t, out)),
            Technique::MultiColors1 | Technique::MultiColors2 => multi(b, d, &clusters, t, out),
            _ => true,
        };
        if stop {
            return;
        }
    }
}

/// Every cell any cell of `set` sees.
fn seen(set: u128) -> u128 {
    cells(set).fold(0, |m, c| m | PEERS[c])
}

/// The clusters of digit `d`: each a pair of colours (sets of cells), the first holding the
/// lowest cell. Clusters of one cell (no strong link) are left out.
pub(crate) fn clusters(b: &Board, d: u8) -> Vec<(u128, u128)> {
    let dc = b.digit_cells(d);
    // strong-link partners of each cell
    let mut partners = [0u128; 81];
    for u in 0..27 {
        let p = b.in_unit(u, d);
        if p.count_ones() == 2 {
            let mut it = cells(p);
            let (x, y) = (it.next().expect("two"), it.next().expect("two"));
            partners[x] |= 1 << y;
            partners[y] |= 1 << x;
        }
    }
    let mut left = cells(dc)
        .filter(|&c| partners[c] != 0)
        .fold(0u128, |m, c| m | 1 << c);
    let mut out = Vec::new();
    while left != 0 {
        let start = left.trailing_zeros() as usize;
        let mut colour = [1u128 << start, 0];
        left &= !(1u128 << start);
        let mut frontier = [1u128 << start, 0];
        let mut side = 0;
        while frontier[side] != 0 {
            let next = cells(frontier[side]).fold(0, |m, c| m | partners[c]) & left;
            left &= !next;
            colour[1 - side] |= next;
            frontier = [0, 0];
            frontier[1 - side] = next;
            side = 1 - side;
        }
        out.push((colour[0], colour[1]));
    }
    out
}

fn colour_step(t: Technique, d: u8, c1: u128, c2: u128, elim: u128) -> Step {
    let mut s = Step::new(t);
    s.digits = bit(d);
    s.candidates = cells(c1)
        .chain(cells(c2))
        .map(|c| Candidate::new(c, d))
        .collect();
    s.split = c1.count_ones() as usize;
    s.cells = cells(c1 | c2).map(|c| c as u8).collect();
    s.eliminate_all(elim, d);
    s
}

fn simple(b: &Board, d: u8, c1: u128, c2: u128, t: Technique, out: &mut Finds) -> bool {
    let elim = if t == Technique::SimpleColorsWrap {
        let wrapped = |c: u128| cells(c).any(|x| PEERS[x] & c != 0);
        (if wrapped(c1) { c1 } else { 0 }) | (if wrapped(c2) { c2 } else { 0 })
    } else {
        b.digit_cells(d) & seen(c1) & seen(c2) & !(c1 | c2)
    };
    elim != 0 && out.push(colour_step(t, d, c1, c2, elim))
}

fn multi(b: &Board, d: u8, clusters: &[(u128, u128)], t: Technique, out: &mut Finds) -> bool {
    let dc = b.digit_cells(d);
    for (i, &(a1, a2)) in clusters.iter().enumerate() {
        for (j, &(b1, b2)) in clusters.iter().enumerate() {
            if i == j {
                continue;
            }
            let elim = if t == Technique::MultiColors2 {
                let sees_both = |a: u128| seen(a) & b1 != 0 && seen(a) & b2 != 0;
                (if sees_both(a1) { a1 } else { 0 }) | (if sees_both(a2) { a2 } else { 0 })
            } else {
                let mut e = 0;
                for (x, x_opp) in [(a1, a2), (a2, a1)] {
                    for (y, y_opp) in [(b1, b2), (b2, b1)] {
                        if seen(x) & y != 0 {
                            e |= dc & seen(x_opp) & seen(y_opp) & !(x_opp | y_opp);
                        }
                    }
                }
                e
            } & dc;
            if elim == 0 {
                continue;
            }
            let mut s = colour_step(t, d, a1, a2, elim);
            s.fins = cells(b1 | b2).map(|c| Candidate::new(c, d)).collect();
            if out.push(s) {
                return true;
            }
        }
    }
    false
}
