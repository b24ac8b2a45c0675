//! Subsets: `n` cells of a unit holding `n` digits between them.
//!
//! - **Naked pair / triple / quadruple**: `n` cells of a unit whose candidates together are `n`
//!   digits; those digits go from every other cell of each unit the `n` cells share.
//! - **Locked pair / triple**: a naked pair or triple inside one box and one line that eliminates
//!   in both (HoDoKu counts it apart, as cheaper than a naked subset).
//! - **Hidden pair / triple / quadruple**: `n` digits whose places in a unit are `n` cells; those
//!   cells lose every other candidate.
//!
//! Units are searched boxes first, then rows, then columns (HoDoKu's order).

use super::board::{bit, cells, unit, Board, CELL_UNITS, UNIT_CELLS, UNIT_MASK};
use super::{Candidate, Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::LockedPair => naked(b, 2, true, out),
        Technique::LockedTriple => naked(b, 3, true, out),
        Technique::NakedPair => naked(b, 2, false, out),
        Technique::NakedTriple => naked(b, 3, false, out),
        Technique::NakedQuadruple => naked(b, 4, false, out),
        Technique::HiddenPair => hidden(b, 2, out),
        Technique::HiddenTriple => hidden(b, 3, out),
        Technique::HiddenQuadruple => hidden(b, 4, out),
        _ => {}
    }
}

/// Calls `f` with every choice of `k` of `items` (in order) whose OR of `mask(item)` has at most
/// `k` bits, pruning as soon as a partial choice has more; `f` returns true to stop.
fn choose<T: Copy>(
    items: &[T],
    k: usize,
    bits: fn(T) -> u128,
    f: &mut dyn FnMut(&[T], u128) -> bool,
) -> bool {
    fn go<T: Copy>(
        items: &[T],
        k: usize,
        start: usize,
        acc: u128,
        chosen: &mut Vec<T>,
        bits: fn(T) -> u128,
        f: &mut dyn FnMut(&[T], u128) -> bool,
    ) -> bool {
        if chosen.len() == k {
            return f(chosen, acc);
        }
        let need = k - chosen.len();
        for i in start..items.len() {
            if items.len() - i < need {
                break;
            }
            let m = acc | bits(items[i]);
            if m.count_ones() as usize > k {
                continue;
            }
            chosen.push(items[i]);
            let stop = go(items, k, i + 1, m, chosen, bits, f);
            chosen.pop();
            if stop {
                return true;
            }
        }
        false
    }
    go(items, k, 0, 0, &mut Vec::with_capacity(k), bits, f)
}

fn naked(b: &Board, n: usize, locked_wanted: bool, out: &mut Finds) {
    let units: Vec<usize> = if locked_wanted {
        (18..27).collect()
    } else {
        (18..27).chain(0..18).collect()
    };
    for u in units {
        // (cell, candidate mask) of the empty cells with at most n candidates
        let items: Vec<(usize, u16)> = UNIT_CELLS[u]
            .iter()
            .map(|&c| (c as usize, b.cands(c as usize)))
            .filter(|&(_, m)| m != 0 && m.count_ones() as usize <= n)
            .collect();
        if items.len() < n {
            continue;
        }
        let stop = choose(&items, n, |(_, m)| m as u128, &mut |chosen, union| {
            if union.count_ones() as usize != n {
                return false;
            }
            let digits = union as u16;
            let set: u128 = chosen.iter().fold(0, |s, &(c, _)| s | 1u128 << c);
            let first = chosen[0].0;
            let shared: Vec<usize> = CELL_UNITS[first]
                .into_iter()
                .filter(|&x| set & !UNIT_MASK[x] == 0)
                .collect();
            let mut s = Step::new(Technique::NakedPair);
            let mut seen: u128 = 0;
            let (mut line_outside_box, mut in_box) = (false, false);
            let bx = CELL_UNITS[first][2];
            let in_one_box = shared.contains(&bx);
            for &x in &shared {
                for c in cells(UNIT_MASK[x] & !set) {
                    let del = b.cands(c) & digits;
                    if del == 0 {
                        continue;
                    }
                    if x == bx {
                        in_box = true;
                    } else if !in_one_box || UNIT_MASK[bx] & (1u128 << c) == 0 {
                        line_outside_box = true;
                    }
                    if seen & (1u128 << c) == 0 {
                        seen |= 1u128 << c;
                        for d in super::board::digits(del) {
                            s.eliminations.push(Candidate::new(c, d));
                        }
                    }
                }
            }
            if s.eliminations.is_empty() {
                return false;
            }
            let locked = n < 4 && in_one_box && shared.len() == 2 && line_outside_box && in_box;
            if locked != locked_wanted {
                return false;
            }
            s.technique = match (n, locked) {
                (2, true) => Technique::LockedPair,
                (3, true) => Technique::LockedTriple,
                (2, false) => Technique::NakedPair,
                (3, false) => Technique::NakedTriple,
                _ => Technique::NakedQuadruple,
            };
            s.digits = digits;
            s.units = shared.iter().map(|&x| unit(x)).collect();
            s.cells = chosen.iter().map(|&(c, _)| c as u8).collect();
            out.push(s)
        });
        if stop {
            return;
        }
    }
}

fn hidden(b: &Board, n: usize, out: &mut Finds) {
    let t = match n {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        _ => Technique::HiddenQuadruple,
    };
    for u in (18..27).chain(0..18) {
        let empty = UNIT_CELLS[u]
            .iter()
            .filter(|&&c| b.value(c as usize) == 0)
            .count();
        if empty <= n {
            continue;
        }
        // (digit, its places in the unit) for the digits with 1..=n places
        let items: Vec<(u8, u128)> = (1..=9u8)
            .map(|d| (d, b.in_unit(u, d)))
            .filter(|&(_, p)| p != 0 && p.count_ones() as usize <= n)
            .collect();
        if items.len() < n {
            continue;
        }
        let stop = choose(&items, n, |(_, p)| p, &mut |chosen, places| {
            if places.count_ones() as usize != n {
                return false;
            }
            let digits = chosen.iter().fold(0u16, |m, &(d, _)| m | bit(d));
            let mut s = Step::new(t);
            for c in cells(places) {
                for d in super::board::digits(b.cands(c) & !digits) {
                    s.eliminations.push(Candidate::new(c, d));
                }
            }
            if s.eliminations.is_empty() {
                return false;
            }
            s.digits = digits;
            s.units = vec![unit(u)];
            s.cells = cells(places).map(|c| c as u8).collect();
            out.push(s)
        });
        if stop {
            return;
        }
    }
}
