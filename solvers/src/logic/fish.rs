//! Fish: one digit, `n` base lines (rows, or columns) whose candidates lie in `n` cover lines
//! of the other direction.
//!
//! - **Basic fish** (X-wing `n = 2`, swordfish 3, jellyfish 4): each base line has its digit in
//!   a cover line, so the `n` digits of the base lines fill the `n` cover lines; every other
//!   candidate of the cover lines goes.
//! - **Finned fish**: base candidates outside the cover lines (the *fins*, at most five). Either
//!   the fish holds or a fin is true, so a cover-line candidate outside the base lines that sees
//!   every fin goes.
//! - **Sashimi fish**: a finned fish in which some base line keeps at most one candidate once
//!   the fins are taken out (without its fins the fish would be degenerate). HoDoKu rates it
//!   apart.
//!
//! Base lines of a basic fish hold two to `n` candidates; of a finned fish, at least one.

use super::board::{bit, cells, col_of, row_of, seen_by_all, unit, Board, UNIT_MASK};
use super::{Candidate, Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    use Technique::*;
    match t {
        XWing => basic(b, 2, t, out),
        Swordfish => basic(b, 3, t, out),
        Jellyfish => basic(b, 4, t, out),
        FinnedXWing => finned(b, 2, false, t, out),
        SashimiXWing => finned(b, 2, true, t, out),
        FinnedSwordfish => finned(b, 3, false, t, out),
        SashimiSwordfish => finned(b, 3, true, t, out),
        FinnedJellyfish => finned(b, 4, false, t, out),
        SashimiJellyfish => finned(b, 4, true, t, out),
        _ => {}
    }
}

/// Calls `f` with every `k`-subset of `items` (in order); `f` returns true to stop.
pub(crate) fn combos(items: &[usize], k: usize, f: &mut dyn FnMut(&[usize]) -> bool) -> bool {
    fn go(
        items: &[usize],
        k: usize,
        start: usize,
        chosen: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if chosen.len() == k {
            return f(chosen);
        }
        for i in start..items.len() {
            if items.len() - i < k - chosen.len() {
                break;
            }
            chosen.push(items[i]);
            let stop = go(items, k, i + 1, chosen, f);
            chosen.pop();
            if stop {
                return true;
            }
        }
        false
    }
    go(items, k, 0, &mut Vec::with_capacity(k), f)
}

/// The lines of the other direction the cells of `set` touch (bit `i` = line `i`, 0..9).
fn cover_lines(set: u128, rows: bool) -> u16 {
    cells(set).fold(0u16, |m, c| {
        m | 1 << if rows { col_of(c) } else { row_of(c) }
    })
}

fn line_mask(rows: bool, i: usize) -> u128 {
    UNIT_MASK[if rows { i } else { 9 + i }]
}

#[allow(clippy::too_many_arguments)] // the parts of one fish, named
fn fish_step(
    t: Technique,
    d: u8,
    rows: bool,
    base: &[usize],
    covers: &[usize],
    base_cells: u128,
    fins: u128,
    elim: u128,
) -> Step {
    let mut s = Step::new(t);
    s.digits = bit(d);
    s.units = base
        .iter()
        .map(|&i| unit(if rows { i } else { 9 + i }))
        .chain(covers.iter().map(|&i| unit(if rows { 9 + i } else { i })))
        .collect();
    s.cells = cells(base_cells).map(|c| c as u8).collect();
    s.fins = cells(fins).map(|c| Candidate::new(c, d)).collect();
    s.eliminate_all(elim, d);
    s
}

fn basic(b: &Board, n: usize, t: Technique, out: &mut Finds) {
    for d in 1..=9u8 {
        let dc = b.digit_cells(d);
        for rows in [true, false] {
            let eligible: Vec<usize> = (0..9)
                .filter(|&i| (2..=n as u32).contains(&(dc & line_mask(rows, i)).count_ones()))
                .collect();
            if eligible.len() < n {
                continue;
            }
            let stop = combos(&eligible, n, &mut |base| {
                let base_cells = base.iter().fold(0, |m, &i| m | dc & line_mask(rows, i));
                let cl = cover_lines(base_cells, rows);
                if cl.count_ones() as usize != n {
                    return false;
                }
                let covers: Vec<usize> = (0..9).filter(|&i| cl & 1 << i != 0).collect();
                let cover = covers.iter().fold(0, |m, &i| m | line_mask(!rows, i));
                let elim = dc & cover & !base_cells;
                if elim == 0 {
                    return false;
                }
                out.push(fish_step(t, d, rows, base, &covers, base_cells, 0, elim))
            });
            if stop {
                return;
            }
        }
    }
}

fn finned(b: &Board, n: usize, sashimi: bool, t: Technique, out: &mut Finds) {
    for d in 1..=9u8 {
        let dc = b.digit_cells(d);
        for rows in [true, false] {
            let eligible: Vec<usize> = (0..9).filter(|&i| dc & line_mask(rows, i) != 0).collect();
            if eligible.len() < n {
                continue;
            }
            let stop = combos(&eligible, n, &mut |base| {
                let base_cells = base.iter().fold(0, |m, &i| m | dc & line_mask(rows, i));
                let cl = cover_lines(base_cells, rows);
                let k = cl.count_ones() as usize;
                if k <= n || k > n + 3 {
                    return false;
                }
                let candidates: Vec<usize> = (0..9).filter(|&i| cl & 1 << i != 0).collect();
                combos(&candidates, n, &mut |covers| {
                    let cover = covers.iter().fold(0, |m, &i| m | line_mask(!rows, i));
                    let fins = base_cells & !cover;
                    if fins == 0 || fins.count_ones() > 5 {
                        return false;
                    }
                    let elim = dc & cover & !base_cells & seen_by_all(fins);
                    if elim == 0 {
                        return false;
                    }
                    let is_sashimi = base
                        .iter()
                        .any(|&i| (dc & line_mask(rows, i) & cover).count_ones() <= 1);
                    if is_sashimi != sashimi {
                        return false;
                    }
                    out.push(fish_step(t, d, rows, base, covers, base_cells, fins, elim))
                })
            });
            if stop {
                return;
            }
        }
    }
}
