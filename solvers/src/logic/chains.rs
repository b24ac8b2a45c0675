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
//! - **Grouped AIC** (HoDoKu's grouped nice loops and AICs): any candidates, any links, and
//!   group nodes. Ends with the same digit: a cell seeing both loses it; ends in one cell: its
//!   other candidates go; ends with different digits in cells that see each other: each end's
//!   cell loses the other end's digit; a chain from a candidate back to itself proves it true; a
//!   chain whose ends are also weakly linked is a continuous loop, and every weak link of it
//!   eliminates. Plain AICs and nice loops are [`super::tabling`]'s.
//!
//! Chains are found as implications: assume a candidate false; a strong link makes its partner
//! true; a weak link from a true candidate makes its neighbours false; a breadth-first search
//! gives, for every candidate reached as true, the shortest chain. X- and XY-chains never come
//! back to a cell they left; a grouped AIC is searched as HoDoKu keeps it: the shortest
//! implication of each candidate, dropped when it is a lasso. Among all chains found, those with
//! the most eliminations come first (HoDoKu's preference), then by HoDoKu's index sum
//! ([`index_sum`]), shorter ones before longer; a continuous loop's weak links eliminate in cells
//! off the loop.
//!
//! Grouped AICs add group nodes (a digit's places in a box that share a line) and, among every
//! step ([`super::find_all`], not the rater's first step: HoDoKu's default leaves them off), ALS
//! nodes: a digit in an almost locked set,
//! entered by a weak link on one digit and left by a weak link on another, or by a strong link
//! to the one candidate the locked ALS leaves a cell of three or more. In a continuous loop the
//! ALS's other digits are locked in it. Every step also takes, where the shortest chain to a
//! candidate is a plain one or a lasso, the shortest chain through a group or ALS node that
//! keeps the lasso rule (two kept per candidate), so that it finds HoDoKu's library cases.
//! Source: HoDoKu's technique pages "Grouped Nice Loops / AIC" and "ALS" (Bernhard Hobiger).

use super::als;
use super::board::{bit, cells, digits, seen_by_all, Board, CELL_UNITS, PEERS, UNIT_MASK};
use super::{in_hodoku_order, index_sum, Candidate, Finds, Step, Technique};
use std::cmp::Reverse;
use std::collections::{HashMap, VecDeque};

/// The longest chain, in links (HoDoKu: chains of at most 20 candidates).
const MAX_LINKS: usize = 19;

/// The most nodes of an implication graph (links hold node numbers as `u16`).
const MAX_NODES: usize = 32_000;

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    match t {
        Technique::RemotePair => remote_pair(b, out),
        Technique::Aic => super::tabling::find(b, false, out),
        // the rater's step, as HoDoKu's default finds it; every step, wider (ALS nodes too)
        Technique::GroupedAic if out.first_only() => super::tabling::find(b, true, out),
        Technique::TurbotFish | Technique::XChain | Technique::XyChain | Technique::GroupedAic => {
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

/// A node beyond the 729 candidates: a group node or an ALS node.
///
/// A group node is digit `digit` in the 2 or 3 cells `cells` of one box that share a row or a
/// column (every place of the digit there); true when the digit is in one of them. An ALS node
/// is digit `digit` in an almost locked set `als` (its places `cells` there): true when the ALS
/// holds the digit. One digit missing from an ALS locks every other, so the nodes of one ALS are
/// pairwise strongly linked.
#[derive(Clone, Copy)]
pub(crate) struct Group {
    digit: u8,
    cells: u128,
    /// The cells a chain through the node occupies: `cells`, or every cell of the ALS.
    span: u128,
    /// The row or column (unit 0..18) and the box (18..27) the cells share (group nodes).
    line: usize,
    boxu: usize,
    /// The ALS's index in [`Links::alses`], or `u32::MAX` for a group node.
    als: u32,
}

impl Group {
    fn is_als(&self) -> bool {
        self.als != u32::MAX
    }
}

/// The strong and weak links of every node, for chains of `kind`: the 729 candidates (node
/// `cell * 9 + digit - 1`), then the group nodes, if any (node `729 + i` is `groups[i]`).
pub(crate) struct Links {
    strong: Vec<Vec<u16>>,
    weak: Vec<Vec<u16>>,
    groups: Vec<Group>,
    /// The ALS behind the ALS nodes (their cells and digits).
    alses: Vec<AlsCells>,
}

/// The cells of an ALS and, per digit (index `d - 1`), its cells holding the digit and the
/// cells outside it holding the digit that see all of those.
#[derive(Clone, Copy)]
struct AlsCells {
    cells: u128,
    cands: u16,
    with: [u128; 9],
    buddies: [u128; 9],
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
            alses: Vec::new(),
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
    ///
    /// With `with_als`, ALS nodes too ([`Links::add_als`]).
    pub(crate) fn grouped(b: &Board, with_als: bool) -> Links {
        let mut l = Links::new(b, Kind::Any);
        let groups: Vec<Group> = b
            .line_box_groups()
            .map(|(line, digit, boxu, g)| Group {
                digit,
                cells: g,
                span: g,
                line,
                boxu,
                als: u32::MAX,
            })
            .collect();
        let base = l.strong.len();
        let keys: Vec<GroupKey> = groups
            .iter()
            .map(|g| (g.digit, g.cells, g.line, g.boxu))
            .collect();
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
            let (weak, strong) = group_links(b, &keys, i);
            l.weak[gn].extend(weak.iter().map(|&j| (base + j) as u16));
            l.strong[gn].extend(strong.iter().map(|&j| (base + j) as u16));
        }
        l.groups = groups;
        if with_als {
            l.add_als(b);
        }
        l
    }

    /// ALS nodes (HoDoKu's "ALS in chains", which its default configuration leaves off): a node
    /// per digit of every ALS of two or more cells ([`als::collect`]), after the group nodes,
    /// linked
    ///
    /// - strongly to the other nodes of its ALS (one digit missing locks the others);
    /// - weakly to the candidates of its digit outside the ALS that see all its places there, to
    ///   the group nodes of the digit outside the ALS whose cells all do, and to the nodes of the
    ///   digit of the ALS that share no cell with it and whose places all do.
    ///
    /// A chain goes through an ALS as HoDoKu's does: in by a weak link on one digit, out by a
    /// weak link on another. ALS are taken in collection order while the node count stays
    /// within [`MAX_NODES`].
    fn add_als(&mut self, b: &Board) {
        let base = self.strong.len();
        let ngroups = self.groups.len();
        let mut nodes: Vec<(usize, u8)> = Vec::new();
        for a in als::collect(b) {
            if a.cells.count_ones() < 2 {
                continue;
            }
            if base + nodes.len() + a.cands.count_ones() as usize > MAX_NODES {
                break;
            }
            let k = self.alses.len();
            self.alses.push(AlsCells {
                cells: a.cells,
                cands: a.cands,
                with: a.with,
                buddies: a.buddies,
            });
            for d in digits(a.cands) {
                nodes.push((k, d));
                self.groups.push(Group {
                    digit: d,
                    cells: a.with[d as usize - 1],
                    span: a.cells,
                    line: 0,
                    boxu: 0,
                    als: k as u32,
                });
            }
        }
        self.strong.resize(base + nodes.len(), Vec::new());
        self.weak.resize(base + nodes.len(), Vec::new());
        let mut by_digit: [Vec<usize>; 9] = Default::default();
        let mut k = 0;
        while k < nodes.len() {
            let i = nodes[k].0;
            let end = k + nodes[k..].iter().take_while(|x| x.0 == i).count();
            for x in k..end {
                for y in k..end {
                    if x != y {
                        self.strong[base + x].push((base + y) as u16);
                    }
                }
            }
            k = end;
        }
        for (k, &(i, d)) in nodes.iter().enumerate() {
            let n = base + k;
            let a = self.alses[i];
            let di = d as usize - 1;
            let sees = a.buddies[di];
            for c in cells(sees) {
                let m = node(c, d);
                self.weak[n].push(m as u16);
                self.weak[m].push(n as u16);
            }
            // the ALS locked without `d` leaves a cell of three or more candidates one
            let mut hit = 0u128;
            for e in digits(a.cands & !bit(d)) {
                hit |= a.buddies[e as usize - 1];
            }
            for c in cells(hit) {
                let m = b.cands(c);
                if m.count_ones() < 3 {
                    continue;
                }
                let left = digits(m & a.cands & !bit(d))
                    .filter(|&e| a.buddies[e as usize - 1] & (1u128 << c) != 0)
                    .fold(m, |left, e| left & !bit(e));
                if left.count_ones() == 1 {
                    let f = left.trailing_zeros() as u8 + 1;
                    self.strong[n].push(node(c, f) as u16);
                }
            }
            for j in 0..ngroups {
                let g = self.groups[j];
                if g.digit == d && g.cells & !sees == 0 {
                    self.weak[n].push((729 + j) as u16);
                    self.weak[729 + j].push(n as u16);
                }
            }
            for &k2 in &by_digit[di] {
                let o = self.alses[nodes[k2].0];
                if o.cells & a.cells == 0 && o.with[di] & !sees == 0 {
                    self.weak[n].push((base + k2) as u16);
                    self.weak[base + k2].push(n as u16);
                }
            }
            by_digit[di].push(k);
        }
    }
}

/// A group node as [`group_links`] sees it: its digit, cells, line (unit 0..18) and box (18..27).
pub(crate) type GroupKey = (u8, u128, usize, usize);

/// How group node `i` of `groups` links to the others, as HoDoKu links them: weakly to each
/// group node of its digit that shares no cell with it, once per house shared (line, then box);
/// strongly to the only one of its line (then of its box) when the two hold every place of the
/// digit there. Returns (weak, strong), as indices into `groups`.
pub(crate) fn group_links(b: &Board, groups: &[GroupKey], i: usize) -> (Vec<usize>, Vec<usize>) {
    let (d, cells_i, line, boxu) = groups[i];
    let mut weak = Vec::new();
    let (mut only, mut count) = ([0usize; 2], [0usize; 2]);
    for (j, &(e, cells_j, line_j, box_j)) in groups.iter().enumerate() {
        if j == i || e != d || cells_j & cells_i != 0 {
            continue;
        }
        for (k, shared) in [line_j == line, box_j == boxu].into_iter().enumerate() {
            if shared {
                count[k] += 1;
                if count[k] == 1 {
                    only[k] = j;
                }
                weak.push(j);
            }
        }
    }
    let strong = [line, boxu]
        .into_iter()
        .enumerate()
        .filter(|&(k, house)| {
            count[k] == 1
                && b.digit_cells(d) & UNIT_MASK[house] & !cells_i & !groups[only[k]].1 == 0
        })
        .map(|(k, _)| only[k])
        .collect();
    (weak, strong)
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

/// The cells a chain through node `n` occupies (an ALS node: every cell of its ALS).
fn node_span(groups: &[Group], n: usize) -> u128 {
    if n < 729 {
        1u128 << (n / 9)
    } else {
        groups[n - 729].span
    }
}

/// Breadth-first implications from candidate `start` assumed false. State `2 * node + 1` is
/// "node true", `2 * node` "node false". A chain never comes back to a cell it has left
/// (HoDoKu's "lasso" rule), except to end in the start cell, when the search keeps that rule.
///
/// A search *through group nodes* runs on two layers of states, before and after the first
/// node beyond the candidates, and reaches a state only by a chain through such a node: the
/// shortest grouped chain to each state, where the shortest chain may be a plain one.
pub(crate) struct Search {
    /// Per label (`(state * layers + layer) * slots + slot`: a chain to the state, the
    /// layer, one of `slots` chains kept): the label before it ([`UNREACHED`]: none; itself:
    /// the start).
    prev: Vec<u32>,
    /// Its number of links.
    dist: Vec<u8>,
    /// The cells on its chain (searches keeping the lasso rule).
    cells: Vec<u128>,
    queue: VecDeque<u32>,
    layers: usize,
    slots: usize,
    /// The longest chain followed, in links.
    max: usize,
}

/// [`Search::prev`] of a state not reached.
const UNREACHED: u32 = u32::MAX;

impl Search {
    pub(crate) fn new() -> Search {
        Search {
            prev: vec![UNREACHED; 1458],
            dist: vec![0; 1458],
            cells: vec![0; 1458],
            queue: VecDeque::with_capacity(1458),
            layers: 1,
            slots: 1,
            max: MAX_LINKS,
        }
    }

    /// The search from candidate `start` assumed false, keeping the lasso rule, to chains of at
    /// most `max` links.
    fn run(&mut self, links: &Links, start: usize, max: usize) {
        self.max = max;
        self.run_layered(links, 2 * start, true, 1);
        self.max = MAX_LINKS;
    }

    /// The search from state `s0` (`2 * node`: node false, `+ 1`: node true); `lasso`: keep
    /// HoDoKu's chain rule (no return to a cell left), else follow every implication.
    pub(crate) fn run_from(&mut self, links: &Links, s0: usize, lasso: bool) {
        self.run_layered(links, s0, lasso, 1);
    }

    /// The search from state `s0` that reaches states only through a group or ALS node, never
    /// coming back to a cell it left but to end in the start cell; it keeps two chains to each
    /// state, so that a chain that cannot go on without coming back to a cell leaves room for
    /// another.
    fn run_through_groups(&mut self, links: &Links, s0: usize) {
        self.run_layered(links, s0, false, 2);
    }

    fn run_layered(&mut self, links: &Links, s0: usize, lasso: bool, layers: usize) {
        self.layers = layers;
        let slots = layers;
        self.slots = slots;
        let width = layers * slots;
        let states = 2 * links.strong.len() * width;
        if self.prev.len() < states {
            self.prev.resize(states, UNREACHED);
            self.dist.resize(states, 0);
            self.cells.resize(states, 0);
        }
        self.prev.fill(UNREACHED);
        self.queue.clear();
        let start_cell = s0 / 18;
        let k0 = s0 * width;
        self.prev[k0] = k0 as u32;
        self.dist[k0] = 0;
        self.cells[k0] = if layers == 2 { 0 } else { 1u128 << start_cell };
        self.queue.push_back(k0 as u32);
        while let Some(k) = self.queue.pop_front() {
            let k = k as usize;
            let d = self.dist[k] as usize;
            if d >= self.max {
                continue;
            }
            let (s, layer) = (k / width, k / slots % layers);
            let (n, on) = (s / 2, s % 2 == 1);
            let cell = n / 9;
            let next = if on { &links.weak[n] } else { &links.strong[n] };
            for &m in next {
                let m = m as usize;
                let t = 2 * m + usize::from(!on);
                let base = (t * layers + (layer | usize::from(layers == 2 && m >= 729))) * slots;
                // through an ALS (two of its nodes) as one step, as HoDoKu counts an ALS node
                let within = layers == 2
                    && n >= 729
                    && m >= 729
                    && links.groups[n - 729].is_als()
                    && links.groups[n - 729].als == links.groups[m - 729].als;
                let dt = d + usize::from(!within);
                // a free slot, else one with a longer chain
                let Some(kt) = (base..base + slots)
                    .find(|&j| self.prev[j] == UNREACHED)
                    .or_else(|| (base..base + slots).find(|&j| self.dist[j] as usize > dt))
                else {
                    continue;
                };
                let mut home = false;
                if layers == 2 {
                    // the cells left behind: no coming back to them, but to end in the start cell
                    let (from, to) = (node_span(&links.groups, n), node_span(&links.groups, m));
                    let mut left = self.cells[k];
                    if from != to {
                        left |= from;
                    }
                    let first = to & to.wrapping_neg();
                    home = first == 1u128 << start_cell && left & first != 0;
                    if left & first != 0 && !home {
                        continue;
                    }
                    self.cells[kt] = left;
                }
                let to = m / 9;
                let closes = lasso && to == start_cell && cell != start_cell;
                if lasso && to != cell && !closes && self.cells[k] & (1u128 << to) != 0 {
                    continue; // a lasso
                }
                self.prev[kt] = k as u32;
                self.dist[kt] = dt as u8;
                if lasso {
                    self.cells[kt] = self.cells[k] | 1u128 << to;
                }
                if closes || home {
                    // an end, not followed further
                } else if within {
                    self.queue.push_front(kt as u32);
                } else {
                    self.queue.push_back(kt as u32);
                }
            }
        }
    }

    /// The layered state a chain to state `s` ends in (through a group node, when layered).
    #[inline]
    fn key(&self, s: usize) -> usize {
        (s * self.layers + self.layers - 1) * self.slots
    }

    /// True when state `s` was reached.
    #[inline]
    pub(crate) fn reached(&self, s: usize) -> bool {
        self.prev[self.key(s)] != UNREACHED
    }

    /// The links of the chain to state `s` (reached).
    #[inline]
    fn dist(&self, s: usize) -> usize {
        self.dist[self.key(s)] as usize
    }

    /// The chain's nodes from the start to state `s` (reached).
    fn path(&self, s: usize) -> Vec<usize> {
        let mut k = self.key(s);
        let width = self.layers * self.slots;
        let mut v = vec![k / width / 2];
        while self.prev[k] as usize != k {
            k = self.prev[k] as usize;
            v.push(k / width / 2);
        }
        v.reverse();
        v
    }

    /// The chain's nodes from the start to node `end` (reached true).
    fn nodes(&self, end: usize) -> Vec<usize> {
        self.path(2 * end + 1)
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

/// What a continuous loop eliminates (`path`, its nodes, ends where it starts; links alternate
/// strong, weak, starting strong). Each link has exactly one true end in a continuous loop: a
/// weak link of two candidates of one cell leaves it no other candidate; a weak link of one
/// digit in two nodes leaves no cell seeing all their cells with it; a strong link between two
/// nodes of one ALS leaves the ALS's other digits locked in it.
fn loop_eliminations(b: &Board, links: &Links, path: &[usize]) -> Vec<Candidate> {
    let groups = &links.groups;
    let on_loop = path.iter().fold(0u128, |m, &n| m | node_span(groups, n));
    let mut e = Vec::new();
    for i in (1..path.len() - 1).step_by(2) {
        let ((ud, uc), (vd, vc)) = (node_cells(groups, path[i]), node_cells(groups, path[i + 1]));
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
    for i in (0..path.len() - 1).step_by(2) {
        // an ALS between two links: in by digit `g.digit`, out to node `v`
        let (u, v) = (path[i], path[i + 1]);
        if u < 729 || !groups[u - 729].is_als() {
            continue;
        }
        let g = groups[u - 729];
        let a = links.alses[g.als as usize];
        // out to another of its digits, or to a cell it leaves one candidate (the others go)
        let (out, forced) = match v.checked_sub(729).map(|k| groups[k]) {
            Some(h) if h.als == g.als => (bit(h.digit), 0u128),
            Some(_) => continue,
            None => (b.cands(v / 9) & !bit((v % 9) as u8 + 1), PEERS[v / 9]),
        };
        // the ALS misses `g.digit` or one of `out`: its other digits are locked in it; a
        // digit of `out` is in it or in the forced cell
        for d in digits(a.cands & !bit(g.digit)) {
            let mut sees = a.buddies[d as usize - 1];
            if out & bit(d) != 0 {
                if forced == 0 {
                    continue;
                }
                sees &= forced;
            }
            for c in cells(sees) {
                e.push(Candidate::new(c, d));
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
                if b.count(cell) == 2 && search.reached(2 * end) {
                    (2 * end, Vec::new(), true)
                } else {
                    (2 * end + 1, vec![Candidate::new(cell, x)], false)
                }
            } else if y != x {
                (2 * end, vec![Candidate::new(cell, y)], false)
            } else {
                continue;
            };
            if !search.reached(s) || search.dist(s) < 3 || search.dist(s) > MAX_LINKS {
                continue;
            }
            let mut path = search.path(s);
            if path.iter().all(|&n| n < 729) {
                continue; // a plain loop
            }
            let mut spans: Vec<u128> = path.iter().map(|&n| node_span(&links.groups, n)).collect();
            let last = spans.len() - 1;
            if spans[1] == spans[0] || spans[last - 1] == spans[last] {
                continue; // the loop must leave the start cell and come back from outside
            }
            spans[last] = spans[0];
            if is_lasso(&spans, true) {
                continue;
            }
            let e = if continuous {
                // y false = x true starts the loop with a strong link
                path.insert(0, end);
                loop_eliminations(b, links, &path)
            } else {
                e
            };
            if !e.is_empty() {
                keep(best, e, path);
            }
        }
    }
}

/// The chains of `search` (from candidate `start` assumed false) to every candidate reached
/// true, with `min..=max` links, kept in `best` by their eliminations.
#[allow(clippy::too_many_arguments)]
fn chain_ends(
    b: &Board,
    links: &Links,
    search: &Search,
    start: usize,
    kind: Kind,
    (min, max): (usize, usize),
    grouped: bool,
    best: &mut HashMap<Vec<Candidate>, Vec<usize>>,
) {
    // an X-chain ends on its digit
    let ends: Box<dyn Iterator<Item = usize>> = match kind {
        Kind::X(d) => Box::new(cells(b.digit_cells(d)).map(move |c| node(c, d))),
        _ => Box::new(0..729),
    };
    for end in ends {
        let s = 2 * end + 1;
        if !search.reached(s) {
            continue;
        }
        let len = search.dist(s);
        if len < min || len > max {
            continue;
        }
        let (x, y) = (cand(start), cand(end));
        if kind != Kind::Any && (x.digit != y.digit || x == y) {
            continue;
        }
        let closes = kind == Kind::Any && x != y && links.weak[end].contains(&(start as u16));
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
        let nice = grouped && x.cell == y.cell;
        let spans: Vec<u128> = path.iter().map(|&n| node_span(&links.groups, n)).collect();
        if kind == Kind::Any && is_lasso(&spans, nice) {
            continue;
        }
        let e = if closes {
            // a continuous loop: every link holds exactly one true end
            path.push(start);
            loop_eliminations(b, links, &path)
        } else {
            e
        };
        if e.is_empty() {
            continue;
        }
        keep(best, e, path);
    }
}

fn chains(b: &Board, t: Technique, out: &mut Finds) {
    let kinds: Vec<Kind> = match t {
        Technique::TurbotFish | Technique::XChain => (1..=9).map(Kind::X).collect(),
        Technique::XyChain => vec![Kind::Xy],
        _ => vec![Kind::Any],
    };
    let range = match t {
        Technique::TurbotFish => (3, 3),
        _ => (3, MAX_LINKS),
    };
    let grouped = t == Technique::GroupedAic;
    // Every step (not the rater's, which follows HoDoKu's default): ALS nodes too, and the
    // shortest grouped chain where the shortest chain is a plain one or a lasso, as HoDoKu's
    // library cases take them.
    let wide = grouped && !out.first_only();
    let layers: &[bool] = if wide { &[false, true] } else { &[false] };
    // eliminations -> shortest chain proving them (its nodes)
    let mut best: HashMap<Vec<Candidate>, Vec<usize>> = HashMap::new();
    let mut search = Search::new();
    let mut groups = Vec::new();
    for kind in kinds {
        let links = if grouped {
            Links::grouped(b, wide)
        } else {
            Links::new(b, kind)
        };
        for start in 0..729 {
            if grouped && b.has(start / 9, (start % 9) as u8 + 1) {
                for &through in layers {
                    if through {
                        search.run_through_groups(&links, 2 * start + 1);
                    } else {
                        search.run_from(&links, 2 * start + 1, false);
                    }
                    nice_loops(b, &links, &search, start, true, &mut best);
                }
            }
            if links.strong[start].is_empty() {
                continue;
            }
            if kind == Kind::Xy && b.count(start / 9) != 2 {
                continue;
            }
            for &through in layers {
                if through {
                    search.run_through_groups(&links, 2 * start);
                } else if kind == Kind::Any {
                    // HoDoKu's tables: one shortest implication per candidate, a lasso dropped
                    search.run_from(&links, 2 * start, false);
                } else {
                    search.run(&links, start, range.1);
                }
                chain_ends(b, &links, &search, start, kind, range, grouped, &mut best);
                if grouped {
                    nice_loops(b, &links, &search, start, false, &mut best);
                }
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
