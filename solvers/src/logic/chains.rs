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

use super::board::{bit, cells, digits, seen_by_all, Board, CELL_UNITS, PEERS, UNIT_MASK};
use super::{in_hodoku_order, index_sum, Candidate, Finds, Step, Technique};
use std::cmp::Reverse;
use std::collections::HashMap;

/// The longest chain, in links (HoDoKu: chains of at most 20 candidates).
const MAX_LINKS: usize = 19;

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::RemotePair => remote_pair(b, out),
        Technique::TurbotFish
        | Technique::XChain
        | Technique::XyChain
        | Technique::Aic
        | Technique::GroupedAic => chains(b, t, out),
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

/// A group node: digit `digit` in the 2 or 3 cells `cells` of one box that share a row or a
/// column (every place of the digit there); true when the digit is in one of them.
#[derive(Clone, Copy)]
pub(crate) struct Group {
    digit: u8,
    cells: u128,
    /// The row or column (unit 0..18) and the box (18..27) the cells share.
    line: usize,
    boxu: usize,
}

/// The strong and weak links of every node, for chains of `kind`: the 729 candidates (node
/// `cell * 9 + digit - 1`), then the group nodes, if any (node `729 + i` is `groups[i]`).
pub(crate) struct Links {
    strong: Vec<Vec<u16>>,
    weak: Vec<Vec<u16>>,
    groups: Vec<Group>,
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
        Links {
            strong,
            weak,
            groups: Vec::new(),
        }
    }

    /// The links of AICs with group nodes (HoDoKu's grouped nice loops and AICs): every link
    /// of [`Kind::Any`], and group nodes, collected as HoDoKu collects them (rows, then
    /// columns; each digit; each box), linked as HoDoKu links them:
    ///
    /// - weakly to every candidate of the digit that sees all the group's cells, and to the other
    ///   group nodes of the digit in the same row, column or box that share no cell with it;
    /// - strongly to a candidate that is the digit's only other place in the box or the line;
    /// - strongly to a group node that is the only other one of the box or the line and, with
    ///   it, holds every place of the digit there.
    pub(crate) fn grouped(b: &Board) -> Links {
        let mut l = Links::new(b, Kind::Any);
        let mut groups = Vec::new();
        for line in 0..18 {
            for d in 1..=9u8 {
                let p = b.in_unit(line, d);
                for boxu in 18..27 {
                    let g = p & UNIT_MASK[boxu];
                    if g.count_ones() >= 2 {
                        groups.push(Group {
                            digit: d,
                            cells: g,
                            line,
                            boxu,
                        });
                    }
                }
            }
        }
        let base = l.strong.len();
        l.strong.resize(base + groups.len(), Vec::new());
        l.weak.resize(base + groups.len(), Vec::new());
        for (i, g) in groups.iter().enumerate() {
            let gn = base + i;
            let dc = b.digit_cells(g.digit);
            let seen = dc & seen_by_all(g.cells);
            for c in cells(seen) {
                let n = node(c, g.digit);
                l.weak[gn].push(n as u16);
                l.weak[n].push(gn as u16);
            }
            for house in [g.boxu, g.line] {
                let rest = dc & UNIT_MASK[house] & !g.cells;
                if rest.count_ones() == 1 {
                    let n = node(rest.trailing_zeros() as usize, g.digit);
                    l.strong[gn].push(n as u16);
                    l.strong[n].push(gn as u16);
                }
            }
            // other group nodes: weak links in a shared line or box, strong when the only one
            let mut only = [None::<usize>; 2];
            let mut count = [0; 2];
            for (j, h) in groups.iter().enumerate() {
                if j == i || h.digit != g.digit || h.cells & g.cells != 0 {
                    continue;
                }
                for (k, shared) in [h.line == g.line, h.boxu == g.boxu].into_iter().enumerate() {
                    if shared {
                        count[k] += 1;
                        only[k] = Some(j);
                        l.weak[gn].push((base + j) as u16);
                    }
                }
            }
            for (k, house) in [g.line, g.boxu].into_iter().enumerate() {
                if let (1, Some(j)) = (count[k], only[k]) {
                    if dc & UNIT_MASK[house] & !g.cells & !groups[j].cells == 0 {
                        l.strong[gn].push((base + j) as u16);
                    }
                }
            }
        }
        l.groups = groups;
        l
    }
}

/// The digit and cells of node `n` (candidates, then `groups`).
fn node_cells(groups: &[Group], n: usize) -> (u8, u128) {
    if n < 729 {
        ((n % 9) as u8 + 1, 1u128 << (n / 9))
    } else {
        let g = groups[n - 729];
        (g.digit, g.cells)
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
        let states = 2 * links.strong.len();
        if self.prev.len() < states {
            self.prev.resize(states, u16::MAX);
            self.dist.resize(states, 0);
            self.cells.resize(states, 0);
        }
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
                if lasso {
                    self.cells[t] = self.cells[s] | 1u128 << to;
                }
                if !closes {
                    self.queue.push(t as u16);
                }
            }
        }
    }

    /// The chain's nodes from the start to node `end` (reached true).
    fn nodes(&self, end: usize) -> Vec<usize> {
        let mut s = 2 * end + 1;
        let mut v = vec![end];
        while self.prev[s] as usize != s {
            s = self.prev[s] as usize;
            v.push(s / 2);
        }
        v.reverse();
        v
    }
}

/// True when a chain, given as the cells of its nodes, comes back to a cell it has left
/// (HoDoKu's lasso: a node whose first cell an earlier node held), other than ending in the
/// start cell; a chain that ends in its start cell must leave it with its first link. In a nice
/// loop (`nice`) the start cell is never left behind: a group node may hold it.
fn is_lasso(path: &[u128], nice: bool) -> bool {
    let start = path[0];
    let last = path.len() - 1;
    if path[last] == start && path.get(1) == Some(&start) {
        return true;
    }
    let mut left: u128 = 0;
    for (i, w) in path.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        if a == b {
            continue;
        }
        if !(nice && a == start) {
            left |= a;
        }
        let first = b & b.wrapping_neg();
        if left & first != 0 && !(b == start && i + 1 == last) {
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

/// What a continuous loop eliminates (`path`, each node's digit and cells, ends where it
/// starts; links alternate strong, weak, starting strong). Each weak link has exactly one true
/// end in a continuous loop: two candidates of one cell leave it no other candidate; one digit
/// in two nodes leaves no cell seeing all their cells with it.
fn loop_eliminations(b: &Board, path: &[(u8, u128)]) -> Vec<Candidate> {
    let on_loop = path.iter().fold(0u128, |m, n| m | n.1);
    let mut e = Vec::new();
    for i in (1..path.len() - 1).step_by(2) {
        let ((ud, uc), (vd, vc)) = (path[i], path[i + 1]);
        if uc == vc && uc.count_ones() == 1 {
            let cell = uc.trailing_zeros() as usize;
            for d in digits(b.cands(cell) & !bit(ud) & !bit(vd)) {
                e.push(Candidate::new(cell, d));
            }
        } else {
            for c in cells(b.digit_cells(ud) & seen_by_all(uc | vc) & !on_loop) {
                e.push(Candidate::new(c, ud));
            }
        }
    }
    e.sort();
    e.dedup();
    e
}

/// Keeps `path` as the chain proving eliminations `e` unless a chain as short is kept.
fn keep(best: &mut HashMap<Vec<Candidate>, Vec<usize>>, e: Vec<Candidate>, path: Vec<usize>) {
    match best.get(&e) {
        Some(p) if p.len() <= path.len() => {}
        _ => {
            best.insert(e, path);
        }
    }
}

/// Grouped nice loops back to the start cell (HoDoKu's loops, checked from every candidate
/// assumed true or false), after `search` from candidate `start` assumed true (`from_true`) or
/// false. Assumed true, it goes when its cell's other candidate is made true or itself false (a
/// discontinuous loop); in a bivalue cell, the other candidate made false closes a continuous
/// loop. Assumed false, a candidate of its cell made false goes. [`chains`] finds the others; a
/// group node next to the start cell keeps these from being found from another start.
fn nice_loops(
    b: &Board,
    links: &Links,
    search: &Search,
    start: usize,
    from_true: bool,
    best: &mut HashMap<Vec<Candidate>, Vec<usize>>,
) {
    let (cell, x) = (start / 9, (start % 9) as u8 + 1);
    {
        for y in digits(b.cands(cell)) {
            let end = node(cell, y);
            // the end state: x true leads to x false, or y true, or (bivalue) y false; x false
            // leads to y false
            let (s, e, continuous) = if from_true && y == x {
                (2 * end, vec![Candidate::new(cell, x)], false)
            } else if from_true {
                if b.count(cell) == 2 && search.prev[2 * end] != u16::MAX {
                    (2 * end, Vec::new(), true)
                } else {
                    (2 * end + 1, vec![Candidate::new(cell, x)], false)
                }
            } else if y != x {
                (2 * end, vec![Candidate::new(cell, y)], false)
            } else {
                continue;
            };
            if search.prev[s] == u16::MAX || (search.dist[s] as usize) < 3 {
                continue;
            }
            if (search.dist[s] as usize) > MAX_LINKS {
                continue;
            }
            let mut path = vec![end];
            let mut t = s;
            while search.prev[t] as usize != t {
                t = search.prev[t] as usize;
                path.push(t / 2);
            }
            path.reverse();
            if path.iter().all(|&n| n < 729) {
                continue; // a plain loop
            }
            let mut nodes: Vec<(u8, u128)> =
                path.iter().map(|&n| node_cells(&links.groups, n)).collect();
            let last = nodes.len() - 1;
            if nodes[1].1 == nodes[0].1 || nodes[last - 1].1 == nodes[last].1 {
                continue; // the loop must leave the start cell and come back from outside
            }
            let mut cells_only: Vec<u128> = nodes.iter().map(|n| n.1).collect();
            cells_only[last] = cells_only[0];
            if is_lasso(&cells_only, true) {
                continue;
            }
            let e = if continuous {
                // y false = x true starts the loop with a strong link
                nodes.insert(0, nodes[last]);
                path.insert(0, end);
                loop_eliminations(b, &nodes)
            } else {
                e
            };
            if !e.is_empty() {
                keep(best, e, path);
            }
        }
    }
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
    let grouped = t == Technique::GroupedAic;
    // eliminations -> shortest chain proving them (its nodes)
    let mut best: HashMap<Vec<Candidate>, Vec<usize>> = HashMap::new();
    let mut search = Search::new();
    let mut groups = Vec::new();
    for kind in kinds {
        let links = if grouped {
            Links::grouped(b)
        } else {
            Links::new(b, kind)
        };
        for start in 0..729 {
            if grouped && b.has(start / 9, (start % 9) as u8 + 1) {
                search.run_from(&links, 2 * start + 1, false);
                nice_loops(b, &links, &search, start, true, &mut best);
            }
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
                let closes =
                    kind == Kind::Any && x != y && links.weak[end].contains(&(start as u16));
                let e = if closes {
                    Vec::new()
                } else {
                    let e = chain_eliminations(b, x, y, kind);
                    if e.is_empty() {
                        continue;
                    }
                    e
                };
                let mut path = search.nodes(end);
                if grouped && path.iter().all(|&n| n < 729) {
                    continue; // a plain AIC
                }
                let mut nodes: Vec<(u8, u128)> =
                    path.iter().map(|&n| node_cells(&links.groups, n)).collect();
                let nice = grouped && x.cell == y.cell;
                let cells_only: Vec<u128> = nodes.iter().map(|n| n.1).collect();
                if kind == Kind::Any && is_lasso(&cells_only, nice) {
                    continue;
                }
                let e = if closes {
                    // a continuous loop: every weak link holds exactly one true end
                    path.push(start);
                    nodes.push(node_cells(&links.groups, start));
                    loop_eliminations(b, &nodes)
                } else {
                    e
                };
                if e.is_empty() {
                    continue;
                }
                keep(&mut best, e, path);
            }
            if grouped {
                nice_loops(b, &links, &search, start, false, &mut best);
            }
        }
        groups = links.groups;
    }
    let mut found: Vec<(Vec<Candidate>, Vec<usize>)> = best.into_iter().collect();
    found.sort_by_cached_key(|(e, path)| (Reverse(e.len()), index_sum(e), path.len(), e.clone()));
    for (elims, path) in found {
        let mut s = Step::new(t);
        for &n in &path {
            let (d, set) = node_cells(&groups, n);
            s.digits |= bit(d);
            s.candidates
                .push(Candidate::new(set.trailing_zeros() as usize, d));
            if n >= 729 {
                s.fins.extend(cells(set).map(|c| Candidate::new(c, d)));
            }
            s.cells.extend(cells(set).map(|c| c as u8));
        }
        s.cells.dedup();
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

    fn is_lasso_aic(path: &[u128]) -> bool {
        is_lasso(path, false)
    }

    fn path(cells: &[usize]) -> Vec<u128> {
        cells.iter().map(|&c| 1u128 << c).collect()
    }

    #[test]
    fn a_lasso_comes_back_to_a_cell_it_left() {
        assert!(!is_lasso_aic(&path(&[0, 5, 5, 40])));
        assert!(
            !is_lasso_aic(&path(&[0, 5, 40, 0])),
            "a loop may end in its start cell"
        );
        assert!(is_lasso_aic(&path(&[0, 5, 40, 5, 60])));
        assert!(
            is_lasso_aic(&path(&[0, 5, 0, 40])),
            "the start cell only at the end"
        );
        assert!(
            is_lasso_aic(&path(&[0, 0, 5, 0])),
            "a loop leaves its start cell first"
        );
    }
}
