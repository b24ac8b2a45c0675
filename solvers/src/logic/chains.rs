//! Chains: alternating strong and weak links between candidates.
//!
//! A *strong link* joins two candidates of which at least one is true (the two places of a digit
//! in a unit, or the two candidates of a bivalue cell); a *weak link* joins two of which at most
//! one is true (same digit in one unit, or two digits of one cell). A chain that starts and ends
//! with a strong link proves that one of its ends is true, so whatever sees both ends goes.
//!
//! - **Turbot fish**: three links on one digit (strong, weak, strong): skyscrapers and kites are
//!   special cases, found earlier.
//! - **X-chain**: any such chain on one digit, up to 19 links.
//! - **XY-chain**: a chain through bivalue cells, strong links inside cells, weak links between
//!   them, from digit `a` back to digit `a`: a cell seeing both ends loses `a`.
//! - **Remote pair**: bivalue cells with the same two digits linked in a chain of four or more:
//!   cells at an odd distance have opposite digits, so a cell seeing two such cells loses both.
//! - **AIC** (alternating inference chain, HoDoKu's nice loops): any candidates, any links. Ends
//!   with the same digit: a cell seeing both loses it; ends in one cell: its other candidates go;
//!   ends with different digits in cells that see each other: each end's cell loses the other
//!   end's digit; a chain from a candidate back to itself proves it true; a chain whose ends are
//!   also weakly linked is a continuous loop, and every weak link of it eliminates.
//!
//! Chains are found as implications: assume a candidate false; a strong link makes its partner
//! true; a weak link from a true candidate makes its neighbours false; a breadth-first search
//! gives, for every candidate reached as true, the shortest chain. X- and XY-chains never come
//! back to a cell they left; an AIC is searched as HoDoKu keeps it: the shortest implication of
//! each candidate, dropped when it is a lasso. Among all chains found, those with the most
//! eliminations come first (HoDoKu's preference), then by HoDoKu's index sum ([`index_sum`]),
//! shorter ones before longer; a continuous loop's weak links eliminate in cells off the loop.

use super::board::{bit, cells, digits, Board, CELL_UNITS, PEERS, UNIT_MASK};
use super::{in_hodoku_order, index_sum, Candidate, Finds, Step, Technique};
use std::cmp::Reverse;
use std::collections::HashMap;

/// The longest chain, in links (HoDoKu: chains of at most 20 candidates).
const MAX_LINKS: usize = 19;

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::RemotePair => remote_pair(b, out),
        Technique::TurbotFish | Technique::XChain | Technique::XyChain | Technique::Aic => {
            chains(b, t, out)
        }
        _ => {}
    }
}

/// Node `cell * 9 + digit - 1` of the implication graph.
#[inline]
pub(crate) fn node(cell: usize, d: u8) -> usize {
    cell * 9 + d as usize - 1
}

#[inline]
fn cand(n: usize) -> Candidate {
    Candidate::new(n / 9, (n % 9) as u8 + 1)
}

/// Which links a chain may use.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One digit, links along units.
    X(u8),
    /// Bivalue cells: strong links inside cells, weak links along units.
    Xy,
    /// Everything.
    Any,
}

/// The strong and weak links of every candidate, for chains of `kind`.
pub(crate) struct Links {
    strong: Vec<Vec<u16>>,
    weak: Vec<Vec<u16>>,
}

impl Links {
    pub(crate) fn new(b: &Board, kind: Kind) -> Links {
        let mut strong = vec![Vec::new(); 729];
        let mut weak = vec![Vec::new(); 729];
        for cell in 0..81 {
            let m = b.cands(cell);
            if m == 0 || (kind == Kind::Xy && m.count_ones() != 2) {
                continue;
            }
            for d in digits(m) {
                if let Kind::X(x) = kind {
                    if x != d {
                        continue;
                    }
                }
                let n = node(cell, d);
                if kind != Kind::X(d) {
                    for e in digits(m & !bit(d)) {
                        if m.count_ones() == 2 {
                            strong[n].push(node(cell, e) as u16);
                        }
                        if kind == Kind::Any {
                            weak[n].push(node(cell, e) as u16);
                        }
                    }
                }
                let dc = b.digit_cells(d);
                let mut along = 0u128;
                for u in CELL_UNITS[cell] {
                    let p = dc & UNIT_MASK[u] & !(1u128 << cell);
                    if p.count_ones() == 1 && kind != Kind::Xy {
                        let other = p.trailing_zeros() as usize;
                        if !strong[n].contains(&(node(other, d) as u16)) {
                            strong[n].push(node(other, d) as u16);
                        }
                    }
                    along |= p;
                }
                for other in cells(along) {
                    if kind == Kind::Xy && b.count(other) != 2 {
                        continue;
                    }
                    weak[n].push(node(other, d) as u16);
                }
            }
        }
        Links { strong, weak }
    }
}

/// Breadth-first implications from candidate `start` assumed false. State `2 * node + 1` is
/// "node true", `2 * node` "node false"; `prev[s]` is the state before `s` (u16::MAX: not
/// reached), `dist[s]` its number of links, `cells[s]` the cells on its chain. A chain never
/// comes back to a cell it has left (HoDoKu's "lasso" rule), except to end in the start cell.
pub(crate) struct Search {
    pub(crate) prev: Vec<u16>,
    dist: Vec<u8>,
    cells: Vec<u128>,
    queue: Vec<u16>,
}

impl Search {
    pub(crate) fn new() -> Search {
        Search {
            prev: vec![u16::MAX; 1458],
            dist: vec![0; 1458],
            cells: vec![0; 1458],
            queue: Vec::with_capacity(1458),
        }
    }

    fn run(&mut self, links: &Links, start: usize) {
        self.run_from(links, 2 * start, true);
    }

    /// The search from state `s0` (`2 * node`: node false, `+ 1`: node true); `lasso`: keep
    /// HoDoKu's chain rule (no return to a cell left), else follow every implication.
    pub(crate) fn run_from(&mut self, links: &Links, s0: usize, lasso: bool) {
        self.prev.fill(u16::MAX);
        self.queue.clear();
        let start_cell = s0 / 18;
        self.prev[s0] = s0 as u16;
        self.dist[s0] = 0;
        self.cells[s0] = 1u128 << start_cell;
        self.queue.push(s0 as u16);
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head] as usize;
            head += 1;
            let d = self.dist[s] as usize;
            if d >= MAX_LINKS {
                continue;
            }
            let (n, on) = (s / 2, s % 2 == 1);
            let cell = n / 9;
            let next = if on { &links.weak[n] } else { &links.strong[n] };
            for &m in next {
                let t = 2 * m as usize + usize::from(!on);
                if self.prev[t] != u16::MAX {
                    continue;
                }
                let to = m as usize / 9;
                let closes = lasso && to == start_cell && cell != start_cell;
                if lasso && to != cell && !closes && self.cells[s] & (1u128 << to) != 0 {
                    continue; // a lasso
                }
                self.prev[t] = s as u16;
                self.dist[t] = (d + 1) as u8;
                self.cells[t] = self.cells[s] | 1u128 << to;
                if !closes {
                    self.queue.push(t as u16);
                }
            }
        }
    }

    /// The chain's candidates from the start to node `end` (reached true).
    fn path(&self, end: usize) -> Vec<Candidate> {
        let mut s = 2 * end + 1;
        let mut v = vec![cand(end)];
        while self.prev[s] as usize != s {
            s = self.prev[s] as usize;
            v.push(cand(s / 2));
        }
        v.reverse();
        v
    }
}

/// True when `path` comes back to a cell it has left (HoDoKu's lasso), other than ending in
/// the start cell; a chain that ends in its start cell must leave it with its first link.
fn is_lasso(path: &[Candidate]) -> bool {
    let start = path[0].cell;
    let last = path.len() - 1;
    if path[last].cell == start && path.get(1).is_some_and(|c| c.cell == start) {
        return true;
    }
    let mut left: u128 = 0;
    for (i, w) in path.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        if a.cell == b.cell {
            continue;
        }
        left |= 1u128 << a.cell;
        if left & (1u128 << b.cell) != 0 && !(b.cell == start && i + 1 == last) {
            return true;
        }
    }
    false
}

/// What a chain from `x` (assumed false) to `y` (then true) eliminates: `x` or `y` is true.
fn chain_eliminations(b: &Board, x: Candidate, y: Candidate, kind: Kind) -> Vec<Candidate> {
    let (xc, yc) = (x.cell as usize, y.cell as usize);
    let mut e = Vec::new();
    if x == y {
        for d in digits(b.cands(xc) & !bit(x.digit)) {
            e.push(Candidate::new(xc, d));
        }
    } else if x.digit == y.digit {
        for c in cells(b.digit_cells(x.digit) & PEERS[xc] & PEERS[yc]) {
            e.push(Candidate::new(c, x.digit));
        }
    } else if kind == Kind::Any {
        if xc == yc {
            for d in digits(b.cands(xc) & !bit(x.digit) & !bit(y.digit)) {
                e.push(Candidate::new(xc, d));
            }
        } else if PEERS[xc] & (1u128 << yc) != 0 {
            if b.has(xc, y.digit) {
                e.push(Candidate::new(xc, y.digit));
            }
            if b.has(yc, x.digit) {
                e.push(Candidate::new(yc, x.digit));
            }
        }
    }
    e.sort();
    e
}

/// What a continuous loop eliminates (`path` ends where it starts; links alternate strong, weak,
/// starting strong). Each weak link has exactly one true end in a continuous loop: two
/// candidates of one cell leave it no other candidate; one digit in two cells leaves no cell
/// seeing both with it.
fn loop_eliminations(b: &Board, path: &[Candidate]) -> Vec<Candidate> {
    let on_loop = path.iter().fold(0u128, |m, c| m | 1u128 << c.cell);
    let mut e = Vec::new();
    for i in (1..path.len() - 1).step_by(2) {
        let (u, v) = (path[i], path[i + 1]);
        let (uc, vc) = (u.cell as usize, v.cell as usize);
        if uc == vc {
            for d in digits(b.cands(uc) & !bit(u.digit) & !bit(v.digit)) {
                e.push(Candidate::new(uc, d));
            }
        } else {
            for c in cells(b.digit_cells(u.digit) & PEERS[uc] & PEERS[vc] & !on_loop) {
                e.push(Candidate::new(c, u.digit));
            }
        }
    }
    e.sort();
    e.dedup();
    e
}

fn chains(b: &Board, t: Technique, out: &mut Finds) {
    let kinds: Vec<Kind> = match t {
        Technique::TurbotFish | Technique::XChain => (1..=9).map(Kind::X).collect(),
        Technique::XyChain => vec![Kind::Xy],
        _ => vec![Kind::Any],
    };
    let (min, max) = match t {
        Technique::TurbotFish => (3, 3),
        _ => (3, MAX_LINKS),
    };
    // eliminations -> shortest chain proving them
    let mut best: HashMap<Vec<Candidate>, Vec<Candidate>> = HashMap::new();
    let mut search = Search::new();
    for kind in kinds {
        let links = Links::new(b, kind);
        for start in 0..729 {
            if links.strong[start].is_empty() {
                continue;
            }
            if kind == Kind::Xy && b.count(start / 9) != 2 {
                continue;
            }
            if kind == Kind::Any {
                // HoDoKu's tables: one shortest implication per candidate, a lasso dropped
                search.run_from(&links, 2 * start, false);
            } else {
                search.run(&links, start);
            }
            for end in 0..729 {
                let s = 2 * end + 1;
                if search.prev[s] == u16::MAX {
                    continue;
                }
                let len = search.dist[s] as usize;
                if len < min || len > max {
                    continue;
                }
                let (x, y) = (cand(start), cand(end));
                if kind != Kind::Any && (x.digit != y.digit || x == y) {
                    continue;
                }
                let mut path = search.path(end);
                if kind == Kind::Any && is_lasso(&path) {
                    continue;
                }
                let closes =
                    kind == Kind::Any && x != y && links.weak[end].contains(&(start as u16));
                let e = if closes {
                    // a continuous loop: every weak link holds exactly one true end
                    path.push(x);
                    loop_eliminations(b, &path)
                } else {
                    chain_eliminations(b, x, y, kind)
                };
                if e.is_empty() {
                    continue;
                }
                match best.get(&e) {
                    Some(p) if p.len() <= path.len() => {}
                    _ => {
                        best.insert(e, path);
                    }
                }
            }
        }
    }
    let mut found: Vec<(Vec<Candidate>, Vec<Candidate>)> = best.into_iter().collect();
    found.sort_by_cached_key(|(e, path)| (Reverse(e.len()), index_sum(e), path.len(), e.clone()));
    for (elims, path) in found {
        let mut s = Step::new(t);
        s.digits = path.iter().fold(0, |m, c| m | bit(c.digit));
        s.cells = path.iter().map(|c| c.cell).collect();
        s.cells.dedup();
        s.candidates = path;
        s.eliminations = elims;
        in_hodoku_order(&mut s.eliminations);
        if out.push(s) {
            return;
        }
    }
}

fn remote_pair(b: &Board, out: &mut Finds) {
    let pairs: Vec<u16> = {
        let mut v: Vec<u16> = (0..81)
            .filter(|&c| b.count(c) == 2)
            .map(|c| b.cands(c))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    for m in pairs {
        let set = (0..81)
            .filter(|&c| b.cands(c) == m)
            .fold(0u128, |s, c| s | 1u128 << c);
        let mut left = set;
        while left != 0 {
            // one component, with every cell's distance from every other
            let start = left.trailing_zeros() as usize;
            let mut comp = 1u128 << start;
            let mut frontier = comp;
            while frontier != 0 {
                let next = cells(frontier).fold(0, |s, c| s | PEERS[c]) & set & !comp;
                comp |= next;
                frontier = next;
            }
            left &= !comp;
            if comp.count_ones() < 4 {
                continue;
            }
            let members: Vec<usize> = cells(comp).collect();
            let mut elim = 0u128;
            let mut ends = Vec::new();
            for &p in &members {
                // distances from p inside the component
                let mut dist = [u8::MAX; 81];
                dist[p] = 0;
                let mut frontier = 1u128 << p;
                let mut seen = frontier;
                let mut k = 0;
                while frontier != 0 {
                    k += 1;
                    let next = cells(frontier).fold(0, |s, c| s | PEERS[c]) & comp & !seen;
                    for c in cells(next) {
                        dist[c] = k;
                    }
                    seen |= next;
                    frontier = next;
                }
                for &q in &members {
                    if q > p && dist[q] >= 3 && dist[q] % 2 == 1 {
                        let e = PEERS[p] & PEERS[q] & !comp;
                        if e != 0 {
                            elim |= e;
                            ends.push((p, q));
                        }
                    }
                }
            }
            let mut s = Step::new(Technique::RemotePair);
            s.digits = m;
            s.cells = members.iter().map(|&c| c as u8).collect();
            for d in digits(m) {
                s.eliminate_all(elim & b.digit_cells(d), d);
            }
            in_hodoku_order(&mut s.eliminations);
            if out.push(s) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(cells: &[usize]) -> Vec<Candidate> {
        cells.iter().map(|&c| Candidate::new(c, 1)).collect()
    }

    #[test]
    fn a_lasso_comes_back_to_a_cell_it_left() {
        assert!(!is_lasso(&path(&[0, 5, 5, 40])));
        assert!(
            !is_lasso(&path(&[0, 5, 40, 0])),
            "a loop may end in its start cell"
        );
        assert!(is_lasso(&path(&[0, 5, 40, 5, 60])));
        assert!(
            is_lasso(&path(&[0, 5, 0, 40])),
            "the start cell only at the end"
        );
        assert!(
            is_lasso(&path(&[0, 0, 5, 0])),
            "a loop leaves its start cell first"
        );
    }
}
