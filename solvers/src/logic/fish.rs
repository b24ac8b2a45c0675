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
//!
//! - **Franken and mutant fish** (HoDoKu's generalised fish, [`general`]): base and cover sets
//!   among rows, columns and boxes. Franken: rows and boxes against columns and boxes (or the
//!   other way round); mutant: any other mix. A candidate in two base sets is an *endo fin*; a
//!   base candidate in two cover sets is eliminated (*cannibalism*).

use super::board::{
    bit, box_of, cells, col_of, row_of, seen_by_all, unit, Board, Cells, ALL_CELLS, CELL_UNITS,
    PEERS, UNIT_MASK,
};
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
        FrankenXWing => general(b, Class::Franken, 2, false, t, out),
        FrankenSwordfish => general(b, Class::Franken, 3, false, t, out),
        FrankenJellyfish => general(b, Class::Franken, 4, false, t, out),
        FinnedFrankenXWing => general(b, Class::Franken, 2, true, t, out),
        FinnedFrankenSwordfish => general(b, Class::Franken, 3, true, t, out),
        FinnedFrankenJellyfish => general(b, Class::Franken, 4, true, t, out),
        MutantXWing => general(b, Class::Mutant, 2, false, t, out),
        MutantSwordfish => general(b, Class::Mutant, 3, false, t, out),
        MutantJellyfish => general(b, Class::Mutant, 4, false, t, out),
        FinnedMutantXWing => general(b, Class::Mutant, 2, true, t, out),
        FinnedMutantSwordfish => general(b, Class::Mutant, 3, true, t, out),
        FinnedMutantJellyfish => general(b, Class::Mutant, 4, true, t, out),
        FinnedMutantSquirmbag => general(b, Class::Mutant, 5, true, t, out),
        FinnedMutantWhale => general(b, Class::Mutant, 6, true, t, out),
        _ => {}
    }
}

/// Calls `f` with every `k`-subset of `items` (1 <= `k` <= 9), in lexicographic order; `f`
/// returns true to stop (and then so does this).
pub(crate) fn combos<F: FnMut(&[usize]) -> bool>(items: &[usize], k: usize, mut f: F) -> bool {
    let n = items.len();
    if k == 0 || k > n || k > 9 {
        return false;
    }
    let mut idx = [0usize; 9];
    let mut chosen = [0usize; 9];
    for i in 0..k {
        idx[i] = i;
    }
    loop {
        for i in 0..k {
            chosen[i] = items[idx[i]];
        }
        if f(&chosen[..k]) {
            return true;
        }
        // the rightmost index that can move, moved; those after it follow it
        let Some(i) = (0..k).rev().find(|&i| idx[i] < n - k + i) else {
            return false;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
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
            let stop = combos(&eligible, n, |base| {
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
            // per line: the digit's cells, and the lines of the other direction they touch
            let lines: [u128; 9] = std::array::from_fn(|i| dc & line_mask(rows, i));
            let touch: [u16; 9] = std::array::from_fn(|i| cover_lines(lines[i], rows));
            let stop = combos(&eligible, n, |base| {
                let base_cells = base.iter().fold(0, |m, &i| m | lines[i]);
                let cl = base.iter().fold(0u16, |m, &i| m | touch[i]);
                let k = cl.count_ones() as usize;
                if k <= n || k > n + 3 {
                    return false;
                }
                let mut candidates = [0usize; 9];
                let mut len = 0;
                for i in 0..9 {
                    if cl & 1 << i != 0 {
                        candidates[len] = i;
                        len += 1;
                    }
                }
                combos(&candidates[..len], n, |covers| {
                    let cover = covers.iter().fold(0, |m, &i| m | line_mask(!rows, i));
                    let fins = base_cells & !cover;
                    if fins == 0 || fins.count_ones() > 5 {
                        return false;
                    }
                    // fins in two boxes: no cell of a cover line off the base sees them all
                    let fin_box = UNIT_MASK[18 + box_of(fins.trailing_zeros() as usize)];
                    if fins & !fin_box != 0 {
                        return false;
                    }
                    let elim = dc & cover & !base_cells & seen_by_all(fins);
                    if elim == 0 {
                        return false;
                    }
                    let is_sashimi = base.iter().any(|&i| (lines[i] & cover).count_ones() <= 1);
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

/// Which unit types a generalised fish takes: HoDoKu's classes, from the types of its base and
/// cover sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Rows against columns (or columns against rows): the fish above.
    Basic,
    /// Rows and boxes against columns and boxes (or columns and boxes against rows and boxes).
    Franken,
    /// Any other mix: rows and columns on the same side.
    Mutant,
}

const ROW: u8 = 1;
const COL: u8 = 2;
const BOX: u8 = 4;

/// The type bit of unit `u` (0..27).
fn unit_type(u: usize) -> u8 {
    match u {
        0..=8 => ROW,
        9..=17 => COL,
        _ => BOX,
    }
}

/// The class of a fish whose base sets have the type bits `base` and cover sets `cover`.
fn class_of(base: u8, cover: u8) -> Class {
    if (base, cover) == (ROW, COL) || (base, cover) == (COL, ROW) {
        Class::Basic
    } else if (base & !(ROW | BOX) == 0 && cover & !(COL | BOX) == 0)
        || (base & !(COL | BOX) == 0 && cover & !(ROW | BOX) == 0)
    {
        Class::Franken
    } else {
        Class::Mutant
    }
}

/// HoDoKu's limits for generalised fish: fins (endo fins included), and endo fins.
const MAX_FINS: u32 = 5;
const MAX_ENDO_FINS: u32 = 2;

/// One digit's generalised fish search state: the digit's cells, the chosen base sets and what
/// they hold, the covers that may go with them.
struct General {
    t: Technique,
    class: Class,
    n: usize,
    finned: bool,
    d: u8,
    dc: Cells,
    base: Vec<usize>,
    base_cells: Cells,
    endo: Cells,
    base_types: u8,
    /// Eligible covers (unit, its cells of the digit), in unit order.
    covers: Vec<(usize, Cells)>,
    /// The index of the first box among `covers`.
    first_box: usize,
    /// `reach[i]`: the union of the cells of covers `i..`.
    reach: Vec<Cells>,
    /// The units of `covers` (bit `u` for unit `u`).
    cover_units: u32,
    chosen: Vec<usize>,
}

/// Franken and mutant fish (HoDoKu's generalised fish): `n` base sets and `n` cover sets among
/// rows, columns and boxes, of one digit. The base sets hold no candidate twice, except up to two
/// *endo fins* (cells in two base sets) in a finned fish; the covers hold every base candidate
/// but the fins (at most five, endo fins included, which are always fins). A fish without fins
/// eliminates every cover candidate outside the base sets, and the base candidates in two covers
/// (*cannibalism*); a finned fish only those of them that see every fin.
///
/// The search is HoDoKu's, in its order (digits, then base sets with rows first and then columns
/// for franken fish, then covers, each in unit order: rows, columns, boxes), each
/// elimination set found once; a fish of another class than `class` (a basic fish, or a franken
/// fish searched as mutant) is passed over. Finned: a branch whose first covers already hold
/// every base candidate is not followed (HoDoKu's search does the same). Cost: up to
/// C(18, n) base choices times C(17, n) cover choices per digit and direction (27 units each for
/// mutant fish), cut short where the covers cannot bring the fins under the limit, where no
/// candidate could be a finned fish's target (`some_target`), and where the fins so far leave
/// no candidate that sees them all. The rater tries the franken X-wing and swordfish only where
/// every technique before them fails: on the 100 puzzles of `level-extreme`, they add about 4 %
/// to the rating time.
fn general(b: &Board, class: Class, n: usize, finned: bool, t: Technique, out: &mut Finds) {
    let mut seen: Vec<(u8, Cells)> = Vec::new();
    for d in 1..=9u8 {
        let dc = b.digit_cells(d);
        if dc == 0 {
            continue;
        }
        let sides: &[bool] = if class == Class::Mutant {
            &[true]
        } else {
            &[true, false]
        };
        for &rows in sides {
            let allowed = |u: usize, as_base: bool| -> bool {
                let ty = unit_type(u);
                match class {
                    Class::Mutant => true,
                    _ if ty == BOX => true,
                    _ => (ty == ROW) == (rows == as_base),
                }
            };
            let pool: Vec<usize> = (0..27)
                .filter(|&u| {
                    let k = (dc & UNIT_MASK[u]).count_ones();
                    k > 0 && allowed(u, true) && (finned || k as usize <= n)
                })
                .collect();
            if pool.len() < n {
                continue;
            }
            let cover_pool: Vec<usize> = (0..27)
                .filter(|&u| dc & UNIT_MASK[u] != 0 && allowed(u, false))
                .collect();
            let mut g = General {
                t,
                class,
                n,
                finned,
                d,
                dc,
                base: Vec::with_capacity(n),
                base_cells: 0,
                endo: 0,
                base_types: 0,
                covers: Vec::with_capacity(27),
                first_box: 0,
                reach: Vec::with_capacity(28),
                cover_units: 0,
                chosen: Vec::with_capacity(n),
            };
            let stop = bases(&pool, n, finned, dc, &mut |base, base_cells, endo| {
                let base_units = base.iter().fold(0u32, |m, &u| m | 1 << u);
                g.covers.clear();
                g.covers.extend(
                    cover_pool
                        .iter()
                        .filter(|&&u| base_units & 1 << u == 0 && UNIT_MASK[u] & base_cells != 0)
                        .map(|&u| (u, dc & UNIT_MASK[u])),
                );
                if g.covers.len() < n {
                    return false;
                }
                g.base.clear();
                g.base.extend_from_slice(base);
                g.base_cells = base_cells;
                g.endo = endo;
                g.base_types = base.iter().fold(0, |m, &u| m | unit_type(u));
                g.reach.clear();
                g.reach.resize(g.covers.len() + 1, 0);
                for i in (0..g.covers.len()).rev() {
                    g.reach[i] = g.reach[i + 1] | g.covers[i].1;
                }
                g.cover_units = g.covers.iter().fold(0, |m, c| m | 1 << c.0);
                if !g.some_target() || !g.can_cover(0, 0) {
                    return false;
                }
                g.first_box = g
                    .covers
                    .iter()
                    .position(|c| c.0 >= 18)
                    .unwrap_or(g.covers.len());
                g.cover(0, 0, 0, &mut seen, out)
            });
            if stop {
                return;
            }
        }
    }
}

/// Calls `f` with every choice of `n` base units of `pool` (in order) whose cells of the digit
/// overlap as allowed (not at all without fins; in at most [`MAX_ENDO_FINS`] cells with), with
/// the base cells and the endo fins; `f` returns true to stop.
fn bases(
    pool: &[usize],
    n: usize,
    finned: bool,
    dc: Cells,
    f: &mut dyn FnMut(&[usize], Cells, Cells) -> bool,
) -> bool {
    #[allow(clippy::too_many_arguments)] // the recursion's state
    fn go(
        pool: &[usize],
        n: usize,
        finned: bool,
        dc: Cells,
        start: usize,
        chosen: &mut Vec<usize>,
        cells: Cells,
        endo: Cells,
        f: &mut dyn FnMut(&[usize], Cells, Cells) -> bool,
    ) -> bool {
        if chosen.len() == n {
            return f(chosen, cells, endo);
        }
        for i in start..pool.len() {
            if pool.len() - i < n - chosen.len() {
                break;
            }
            let unit = dc & UNIT_MASK[pool[i]];
            let overlap = cells & unit;
            let endo2 = endo | overlap;
            if overlap != 0 && (!finned || endo2.count_ones() > MAX_ENDO_FINS) {
                continue;
            }
            chosen.push(pool[i]);
            let stop = go(pool, n, finned, dc, i + 1, chosen, cells | unit, endo2, f);
            chosen.pop();
            if stop {
                return true;
            }
        }
        false
    }
    go(pool, n, finned, dc, 0, &mut Vec::with_capacity(n), 0, 0, f)
}

/// True when `picks` covers can hold all of `set`, `shares[u]` being what unit `u` holds as a
/// cover (empty when it is none): exact, each step branching on the covers of the lowest cell
/// left (at most three units), so at most `3^picks` steps.
fn coverable(shares: &[Cells; 27], picks: usize, set: Cells) -> bool {
    if set == 0 {
        return true;
    }
    if picks == 0 {
        return false;
    }
    let m = set.trailing_zeros() as usize;
    CELL_UNITS[m]
        .iter()
        .any(|&u| shares[u] != 0 && coverable(shares, picks - 1, set & !shares[u]))
}

/// The most of `set` that `picks` of `covers` can take: their largest shares of it summed.
fn top_share(covers: &[(usize, Cells)], picks: usize, set: Cells) -> u32 {
    let mut best = [0u32; 8];
    for &(_, c) in covers {
        let k = (c & set).count_ones();
        // insert k into the descending top `picks`
        let mut j = picks;
        while j > 0 && best[j - 1] < k {
            if j < picks {
                best[j] = best[j - 1];
            }
            j -= 1;
        }
        if j < picks {
            best[j] = k;
        }
    }
    best[..picks].iter().sum()
}

impl General {
    /// Chooses the covers from index `start` on, `covered` the union of those chosen and
    /// `twice` the cells in two of them; true when the search can stop.
    fn cover(
        &mut self,
        start: usize,
        covered: Cells,
        twice: Cells,
        seen: &mut Vec<(u8, Cells)>,
        out: &mut Finds,
    ) -> bool {
        let level = self.chosen.len() + 1;
        if !self.can_cover(start, covered) {
            return false;
        }
        let mut from = start;
        if level == self.n && self.class == Class::Franken {
            // A franken fish has a box: without one so far, the last cover is a box.
            let types = self
                .chosen
                .iter()
                .fold(self.base_types, |m, &i| m | unit_type(self.covers[i].0));
            if types & BOX == 0 {
                from = from.max(self.first_box);
            }
        }
        for i in from..self.covers.len() {
            if self.covers.len() - i < self.n - self.chosen.len() {
                break;
            }
            // Fins every completion keeps: base cells no chosen or later cover holds.
            let sure = (self.base_cells & !covered & !self.reach[i]) | self.endo;
            if sure.count_ones() > if self.finned { MAX_FINS } else { 0 } {
                break;
            }
            if sure != 0 && self.dc & seen_by_all(sure) == 0 {
                break;
            }
            let cells = self.covers[i].1;
            let (now, twice_now) = (covered | cells, twice | (covered & cells));
            self.chosen.push(i);
            let stop = if level < self.n {
                if self.finned && self.base_cells & !now == 0 {
                    false
                } else {
                    self.cover(i + 1, now, twice_now, seen, out)
                }
            } else {
                self.leaf(now, twice_now, seen, out)
            };
            self.chosen.pop();
            if stop {
                return true;
            }
        }
        false
    }

    /// False when the covers left to choose (from index `start` on) cannot bring the base
    /// candidates outside `covered` down to the fins allowed: the most those covers could take
    /// of them, the largest shares summed, falls short.
    fn can_cover(&self, start: usize, covered: Cells) -> bool {
        // Endo fins stay fins, covered or not.
        let open = self.base_cells & !covered & !self.endo;
        let allowed = if self.finned {
            MAX_FINS.saturating_sub(self.endo.count_ones())
        } else {
            0
        };
        let need = open.count_ones().saturating_sub(allowed);
        need == 0 || top_share(&self.covers[start..], self.n - self.chosen.len(), open) >= need
    }

    /// False when no choice of covers can eliminate anything from a finned fish. A target `x`
    /// sees every fin (endo fins, always fins, included), so the base candidates it does not see
    /// must all be covered; it is itself in a cover (in two when it is a base candidate,
    /// cannibalism), and such a cover, a unit of `x`, holds none of them. So the other covers,
    /// `n - 1` (or `n - 2`), must take them all: the ones with the largest shares of them cannot.
    fn some_target(&self) -> bool {
        if !self.finned {
            return true;
        }
        let body = self.base_cells & !self.endo;
        let mut shares = [0; 27];
        for &(u, c) in &self.covers {
            shares[u] = c & body;
        }
        let seeing_endo = if self.endo == 0 {
            ALL_CELLS
        } else {
            seen_by_all(self.endo)
        };
        cells(self.dc & self.reach[0] & seeing_endo).any(|x| {
            let cannibal = self.base_cells & 1u128 << x != 0;
            if cannibal
                && CELL_UNITS[x]
                    .iter()
                    .filter(|&&u| self.cover_units & 1 << u != 0)
                    .count()
                    < 2
            {
                return false;
            }
            let must = body & !PEERS[x] & !(1u128 << x);
            coverable(&shares, self.n - 1 - usize::from(cannibal), must)
        })
    }

    /// A complete fish: its step if it is of the class searched, eliminates something not
    /// eliminated before; true when the search can stop.
    fn leaf(
        &self,
        covered: Cells,
        twice: Cells,
        seen: &mut Vec<(u8, Cells)>,
        out: &mut Finds,
    ) -> bool {
        let fins = self.base_cells & !covered;
        let all_fins = fins | self.endo;
        let targets = (self.dc & covered & !self.base_cells) | (self.dc & twice);
        let elim = if self.finned {
            if all_fins == 0 || all_fins.count_ones() > MAX_FINS {
                return false;
            }
            targets & seen_by_all(all_fins)
        } else {
            if all_fins != 0 {
                return false;
            }
            targets
        };
        if elim == 0 {
            return false;
        }
        let cover_types = self
            .chosen
            .iter()
            .fold(0, |m, &i| m | unit_type(self.covers[i].0));
        if class_of(self.base_types, cover_types) != self.class || seen.contains(&(self.d, elim)) {
            return false;
        }
        seen.push((self.d, elim));
        let mut s = Step::new(self.t);
        s.digits = bit(self.d);
        s.units = self
            .base
            .iter()
            .copied()
            .chain(self.chosen.iter().map(|&i| self.covers[i].0))
            .map(unit)
            .collect();
        s.cells = cells(self.base_cells & !fins).map(|c| c as u8).collect();
        s.fins = cells(fins)
            .chain(cells(self.endo & !fins))
            .map(|c| Candidate::new(c, self.d))
            .collect();
        s.eliminate_all(elim, self.d);
        out.push(s)
    }
}
