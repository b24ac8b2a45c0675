//! The four CNF encodings of Sudoku the `sat` solver can use, from the smallest correct one to
//! the extended one plus redundant box-line clauses.
//!
//! All four use the same 729 variables x(r, c, d) ("cell (r, c) holds digit d", numbered by
//! [`var`](super::var)) and are built from five families of clauses (the 27 *units* are the 9
//! rows, 9 columns and 9 boxes):
//!
//! | family | clauses | literals each | minimal | efficient | extended | redundant |
//! |---|---|---|---|---|---|---|
//! | cell: at least one digit | 81 | 9 | yes | yes | yes | yes |
//! | cell: at most one digit | 81 x 36 = 2,916 | 2 | | yes | yes | yes |
//! | unit: each digit at least once | 27 x 9 = 243 | 9 | | | yes | yes |
//! | unit: each digit at most once | 27 x 9 x 36 = 8,748 | 2 | yes | yes | yes | yes |
//! | box-line: locked candidates | 2 x 9 x 6 x 9 x 6 = 5,832 | 7 | | | | yes |
//! | **total** | | | **8,829** | **11,745** | **11,988** | **17,820** |
//!
//! Sources: I. Lynce and J. Ouaknine, "Sudoku as a SAT Problem", 9th International Symposium on
//! Artificial Intelligence and Mathematics (AIMATH), 2006, define the *minimal*, *efficient* and
//! *extended* encodings. G. Kwon and H. Jain, "Optimized CNF Encoding for Sudoku Puzzles", LPAR
//! 2006, remove the clauses the givens satisfy and the literals the givens make false before
//! solving ([`Encoding::fixed_literal_size`] counts what is left).
//!
//! What each family buys, in the terms of a player (unit propagation is what a SAT solver does
//! between decisions):
//! - the **minimal** encoding is already correct: 9 cells of a row, each with at least one digit,
//!   no digit twice, hold exactly one digit each (pigeonhole). But unit propagation does not know
//!   that: it finds **naked singles** only (a cell's "at least one" clause with 8 false literals).
//! - **efficient** adds "at most one digit per cell", so a digit placed by a decision or a naked
//!   single at once removes the cell's other digits: what the pigeonhole argument gave only
//!   through search.
//! - **extended** adds "each digit at least once per unit": once 8 places of a digit in a row are
//!   false, the row's clause forces the ninth, a **hidden single**.
//! - **redundant** adds the CNF form of **locked candidates**. For a box B, a line L (row or
//!   column) through it, their three common cells T, and a digit d:
//!   - *pointing*: if d is in none of the 6 cells of B outside T, it is in T (box clause), so not
//!     in L outside B. For each of the 6 cells c of L outside B: (-x(c,d) v x(b1,d) v ... v
//!     x(b6,d)) over the 6 cells b of B outside T;
//!   - *claiming* (box-line reduction): if d is in none of the 6 cells of L outside B, it is not
//!     in B outside T. For each cell b of B outside T: (-x(b,d) v x(c1,d) v ... v x(c6,d)) over
//!     the 6 cells c of L outside B.
//!
//!   Each is a consequence of the extended clauses (so no solution is lost), but unit
//!   propagation on the extended clauses alone cannot make it: it needs the reasoning "d is in
//!   one of three cells" that no single clause states. 9 boxes x 6 lines x 9 digits x 6 cells,
//!   for each of the two rules.

use crate::{Grid, Shape};

/// A CNF encoding of Sudoku (see the [module docs](self) for the clauses of each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// Cell at least one digit + unit at most once: 8,829 clauses (Lynce & Ouaknine).
    Minimal,
    /// Minimal + cell at most one digit: 11,745 clauses (Lynce & Ouaknine).
    Efficient,
    /// Efficient + unit at least once: 11,988 clauses (Lynce & Ouaknine).
    Extended,
    /// Extended + the pointing and claiming box-line clauses: 17,820 clauses.
    Redundant,
}

/// Which cell is the `k`-th (0..9) of unit `u` (0..9) of `kind` (0 rows, 1 columns, 2 boxes).
#[inline]
pub(crate) fn unit_cell(kind: usize, u: usize, k: usize) -> usize {
    match kind {
        0 => u * 9 + k,
        1 => k * 9 + u,
        _ => (u / 3) * 27 + (u % 3) * 3 + (k / 3) * 9 + k % 3,
    }
}

impl Encoding {
    /// The four encodings, smallest first.
    pub const ALL: [Encoding; 4] = [
        Encoding::Minimal,
        Encoding::Efficient,
        Encoding::Extended,
        Encoding::Redundant,
    ];

    /// The short name: `minimal`, `efficient`, `extended`, `redundant`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Minimal => "minimal",
            Encoding::Efficient => "efficient",
            Encoding::Extended => "extended",
            Encoding::Redundant => "redundant",
        }
    }

    /// The name of the solver that uses this encoding: `sat-minimal`, `sat-efficient`,
    /// `sat-extended`, `sat-redundant`.
    pub fn solver_name(self) -> &'static str {
        match self {
            Encoding::Minimal => "sat-minimal",
            Encoding::Efficient => "sat-efficient",
            Encoding::Extended => "sat-extended",
            Encoding::Redundant => "sat-redundant",
        }
    }

    /// The encoding whose [`Encoding::solver_name`] is `name`.
    pub fn from_solver_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.solver_name() == name)
    }

    /// A one-line description for `harness list`.
    pub fn description(self) -> &'static str {
        match self {
            Encoding::Minimal => {
                "varisat on the minimal encoding (8,829 clauses: cell >= 1 digit, unit <= 1 each digit)"
            }
            Encoding::Efficient => {
                "varisat on the efficient encoding (11,745 clauses: minimal + cell <= 1 digit)"
            }
            Encoding::Extended => {
                "varisat on the extended encoding (11,988 clauses: efficient + unit >= 1 each digit)"
            }
            Encoding::Redundant => {
                "varisat on extended + locked-candidate box-line clauses (17,820 clauses)"
            }
        }
    }

    /// Number of clauses before the givens: 8,829, 11,745, 11,988 or 17,820.
    pub const fn clauses(self) -> usize {
        match self {
            Encoding::Minimal => 81 + 8_748,
            Encoding::Efficient => 81 + 2_916 + 8_748,
            Encoding::Extended => 81 + 2_916 + 243 + 8_748,
            Encoding::Redundant => 81 + 2_916 + 243 + 8_748 + 5_832,
        }
    }

    /// Calls `emit` with each of the [`Encoding::clauses`] clauses as DIMACS literals, family by
    /// family in the order of the module docs' table. The extended encoding's clauses come in the
    /// order [`write_dimacs`](super::write_dimacs) writes them.
    pub fn for_each_clause(self, mut emit: impl FnMut(&[i32])) {
        use super::var;
        let with_cell_amo = self != Encoding::Minimal;
        let with_unit_alo = matches!(self, Encoding::Extended | Encoding::Redundant);
        let mut lits = [0i32; 9];
        for cell in 0..81 {
            for d in 1..=9u8 {
                lits[d as usize - 1] = var(cell, d);
            }
            emit(&lits);
        }
        if with_cell_amo {
            for cell in 0..81 {
                for d in 1..=9u8 {
                    for e in d + 1..=9 {
                        emit(&[-var(cell, d), -var(cell, e)]);
                    }
                }
            }
        }
        if with_unit_alo {
            for kind in 0..3 {
                for u in 0..9 {
                    for d in 1..=9u8 {
                        for (k, lit) in lits.iter_mut().enumerate() {
                            *lit = var(unit_cell(kind, u, k), d);
                        }
                        emit(&lits);
                    }
                }
            }
        }
        for kind in 0..3 {
            for u in 0..9 {
                for d in 1..=9u8 {
                    for k in 0..9 {
                        for l in k + 1..9 {
                            emit(&[
                                -var(unit_cell(kind, u, k), d),
                                -var(unit_cell(kind, u, l), d),
                            ]);
                        }
                    }
                }
            }
        }
        if self == Encoding::Redundant {
            for_each_box_line_clause(emit);
        }
    }

    /// The size of this encoding's formula for `puzzle` after Kwon and Jain's fixed-literal
    /// simplification: `(variables, clauses)` left once the givens' literals are fixed. The fixed
    /// literals are the givens (true) and every literal a given makes false through one binary
    /// clause of this encoding (the same digit in the given's peers, and, except in the minimal
    /// encoding, the given cell's other digits). Clauses holding a true literal are dropped,
    /// false literals are dropped from the others; the variables counted are those still
    /// occurring in a clause. Givens that contradict each other still give a count (a clause
    /// left empty counts as a clause).
    pub fn fixed_literal_size(self, puzzle: &Grid) -> (usize, usize) {
        use super::VARS;
        // value[v]: 0 unknown, 1 true, -1 false (v = DIMACS variable).
        let mut value = [0i8; VARS + 1];
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                value[super::var(cell, d) as usize] = 1;
            }
        }
        let givens = value;
        self.for_each_clause(|c| {
            if let [a, b] = *c {
                // (-a v -b): a true given falsifies the other.
                if givens[a.unsigned_abs() as usize] == 1 {
                    value[b.unsigned_abs() as usize] = -1;
                }
                if givens[b.unsigned_abs() as usize] == 1 {
                    value[a.unsigned_abs() as usize] = -1;
                }
            }
        });
        // Givens stay true even when a contradicting given falsified them.
        for v in 1..=VARS {
            if givens[v] == 1 {
                value[v] = 1;
            }
        }
        let mut used = [false; VARS + 1];
        let mut clauses = 0;
        self.for_each_clause(|c| {
            let truth = |l: i32| value[l.unsigned_abs() as usize] * if l > 0 { 1 } else { -1 };
            if c.iter().any(|&l| truth(l) == 1) {
                return;
            }
            clauses += 1;
            for &l in c {
                if truth(l) == 0 {
                    used[l.unsigned_abs() as usize] = true;
                }
            }
        });
        (used.iter().filter(|&&u| u).count(), clauses)
    }

    /// Unit propagation of the givens on this encoding, no decision: the number of cells that
    /// hold a true digit literal at the fixpoint (the givens included), or `None` when
    /// propagation reaches a conflict (then the puzzle has no solution). What the encoding lets
    /// a SAT solver deduce for free: 81 means the puzzle is solved without a single decision.
    pub fn propagated_cells(self, puzzle: &Grid) -> Option<usize> {
        Propagator::new(self).run(puzzle)
    }
}

/// What one encoding writes for a grid of any [`Shape`]; the 9x9 numbers of the module docs
/// are the case N = 9.
///
/// Variables x(cell, s), N³ of them, numbered by [`var_of`](super::var_of): `cell * N + s`, `s`
/// in 1..=N (for 9x9 the numbering of [`var`](super::var)). The families, with k = 2 units per
/// cell for a Latin square and 3 with boxes (kN units):
///
/// | family | clauses | literals each |
/// |---|---|---|
/// | cell: at least one symbol | N² | N |
/// | cell: at most one symbol | N²·N(N-1)/2 | 2 |
/// | unit: each symbol at least once | kN·N | N |
/// | unit: each symbol at most once | kN·N·N(N-1)/2 | 2 |
/// | box-line (boxes of r x c) | N·N·(2r(N-c) + 2c(N-r)) | N-c+1 (rows), N-r+1 (columns) |
///
/// A Latin square has no boxes, so its redundant encoding is its extended one. For 25x25 the
/// extended encoding is 15,625 variables and 797,500 clauses.
impl Encoding {
    /// Number of clauses of this encoding for `shape`, before the givens ([`Encoding::clauses`]
    /// for 9x9).
    pub fn clauses_of(self, shape: Shape) -> usize {
        let n = shape.side();
        let k = shape.units_per_cell();
        let pairs = n * n.saturating_sub(1) / 2;
        let mut total = n * n + k * n * n * pairs;
        if self != Encoding::Minimal {
            total += n * n * pairs;
        }
        if matches!(self, Encoding::Extended | Encoding::Redundant) {
            total += k * n * n;
        }
        if let (Encoding::Redundant, Some((r, c))) = (self, shape.boxes()) {
            total += n * n * (2 * r * (n - c) + 2 * c * (n - r));
        }
        total
    }

    /// Calls `emit` with each of the [`Encoding::clauses_of`] clauses of `shape` as DIMACS
    /// literals over [`var_of`](super::var_of), family by family as [`Encoding::for_each_clause`]
    /// (which gives the same clauses in the same order for 9x9, and is the 9x9 fast path).
    pub fn for_each_clause_of(self, shape: Shape, mut emit: impl FnMut(&[i32])) {
        let n = shape.side();
        let units = shape.units();
        let var = |cell: usize, s: usize| super::var_of(shape, cell, s);
        let with_cell_amo = self != Encoding::Minimal;
        let with_unit_alo = matches!(self, Encoding::Extended | Encoding::Redundant);
        let mut lits = vec![0i32; n];
        for cell in 0..n * n {
            for (s, lit) in lits.iter_mut().enumerate() {
                *lit = var(cell, s + 1);
            }
            emit(&lits);
        }
        if with_cell_amo {
            for cell in 0..n * n {
                for d in 1..=n {
                    for e in d + 1..=n {
                        emit(&[-var(cell, d), -var(cell, e)]);
                    }
                }
            }
        }
        if with_unit_alo {
            for u in 0..units.len() {
                for d in 1..=n {
                    for (lit, &cell) in lits.iter_mut().zip(units.cells(u)) {
                        *lit = var(cell as usize, d);
                    }
                    emit(&lits);
                }
            }
        }
        for u in 0..units.len() {
            let cells = units.cells(u);
            for d in 1..=n {
                for k in 0..n {
                    for l in k + 1..n {
                        emit(&[-var(cells[k] as usize, d), -var(cells[l] as usize, d)]);
                    }
                }
            }
        }
        if self == Encoding::Redundant {
            if let Some((r, c)) = shape.boxes() {
                for_each_box_line_clause_of(shape, &units, (r, c), emit);
            }
        }
    }
}

/// The pointing and claiming clauses of the redundant encoding at any shape with boxes of
/// `r` x `c`: for each box, each of its r rows and c columns, each symbol, as
/// [`for_each_box_line_clause`] does for 9x9 (same order there).
fn for_each_box_line_clause_of(
    shape: Shape,
    units: &crate::Units,
    (r, c): (usize, usize),
    mut emit: impl FnMut(&[i32]),
) {
    let n = shape.side();
    let mut lits = Vec::with_capacity(n + 1);
    for b in 0..n {
        let (band, stack) = (b / (n / c), b % (n / c));
        for kind in 0..2 {
            let lines = if kind == 0 { r } else { c };
            for i in 0..lines {
                let line = if kind == 0 {
                    band * r + i
                } else {
                    stack * c + i
                };
                let on_line = |cell: usize| {
                    if kind == 0 {
                        shape.row_of(cell) == line
                    } else {
                        shape.col_of(cell) == line
                    }
                };
                let box_rest: Vec<usize> = units
                    .cells(2 * n + b)
                    .iter()
                    .map(|&x| x as usize)
                    .filter(|&x| !on_line(x))
                    .collect();
                let line_rest: Vec<usize> = units
                    .cells(kind * n + line)
                    .iter()
                    .map(|&x| x as usize)
                    .filter(|&x| shape.box_of(x) != Some(b))
                    .collect();
                for d in 1..=n {
                    for (targets, others) in [(&line_rest, &box_rest), (&box_rest, &line_rest)] {
                        for &t in targets {
                            lits.clear();
                            lits.push(-super::var_of(shape, t, d));
                            lits.extend(others.iter().map(|&o| super::var_of(shape, o, d)));
                            emit(&lits);
                        }
                    }
                }
            }
        }
    }
}

/// The pointing and claiming clauses of the redundant encoding (module docs), 5,832 clauses of 7
/// literals.
fn for_each_box_line_clause(mut emit: impl FnMut(&[i32])) {
    use super::var;
    let mut lits = [0i32; 7];
    for b in 0..9 {
        let (band, stack) = (b / 3, b % 3);
        // The box's rows (kind 0) and columns (kind 1).
        for kind in 0..2 {
            for i in 0..3 {
                let line = if kind == 0 {
                    band * 3 + i
                } else {
                    stack * 3 + i
                };
                let in_box = |cell: usize| (cell / 27) * 3 + (cell % 9) / 3 == b;
                let on_line = |cell: usize| {
                    if kind == 0 {
                        cell / 9 == line
                    } else {
                        cell % 9 == line
                    }
                };
                let box_rest: Vec<usize> = (0..9)
                    .map(|k| unit_cell(2, b, k))
                    .filter(|&c| !on_line(c))
                    .collect();
                let line_rest: Vec<usize> = (0..9)
                    .map(|k| unit_cell(kind, line, k))
                    .filter(|&c| !in_box(c))
                    .collect();
                for d in 1..=9u8 {
                    // Pointing: d outside the box's triad -> d not elsewhere on the line.
                    for &c in &line_rest {
                        lits[0] = -var(c, d);
                        for (slot, &o) in lits[1..].iter_mut().zip(&box_rest) {
                            *slot = var(o, d);
                        }
                        emit(&lits);
                    }
                    // Claiming: d outside the line's triad -> d not elsewhere in the box.
                    for &c in &box_rest {
                        lits[0] = -var(c, d);
                        for (slot, &o) in lits[1..].iter_mut().zip(&line_rest) {
                            *slot = var(o, d);
                        }
                        emit(&lits);
                    }
                }
            }
        }
    }
}

/// A small counter-based unit propagator over one encoding's clauses, for
/// [`Encoding::propagated_cells`]: for each clause the number of its literals that are false
/// and whether one is true; a clause with all but one literal false forces the last.
struct Propagator {
    /// Literals of all clauses, one after the other.
    lits: Vec<i32>,
    /// Start of each clause in `lits`, plus the end.
    starts: Vec<usize>,
    /// For each literal code (2 v + (l < 0)), the clauses that hold it.
    occurs: Vec<Vec<u32>>,
}

fn code(l: i32) -> usize {
    2 * l.unsigned_abs() as usize + usize::from(l < 0)
}

impl Propagator {
    fn new(e: Encoding) -> Propagator {
        let mut p = Propagator {
            lits: Vec::with_capacity(e.clauses() * 4),
            starts: vec![0],
            occurs: vec![Vec::new(); 2 * (super::VARS + 1)],
        };
        e.for_each_clause(|c| {
            let id = (p.starts.len() - 1) as u32;
            for &l in c {
                p.occurs[code(l)].push(id);
            }
            p.lits.extend_from_slice(c);
            p.starts.push(p.lits.len());
        });
        p
    }

    fn run(&self, puzzle: &Grid) -> Option<usize> {
        let n = self.starts.len() - 1;
        let mut value = vec![0i8; super::VARS + 1];
        let mut falses = vec![0u8; n];
        let mut satisfied = vec![false; n];
        let mut queue: Vec<i32> = Vec::with_capacity(super::VARS);
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                queue.push(super::var(cell, d));
            }
        }
        let truth = |value: &[i8], l: i32| value[l.unsigned_abs() as usize] * l.signum() as i8;
        while let Some(l) = queue.pop() {
            match truth(&value, l) {
                1 => continue,
                -1 => return None,
                _ => value[l.unsigned_abs() as usize] = l.signum() as i8,
            }
            for &c in &self.occurs[code(l)] {
                satisfied[c as usize] = true;
            }
            for &c in &self.occurs[code(-l)] {
                let c = c as usize;
                falses[c] += 1;
                if satisfied[c] {
                    continue;
                }
                let clause = &self.lits[self.starts[c]..self.starts[c + 1]];
                let len = clause.len() as u8;
                if falses[c] == len {
                    return None;
                }
                if falses[c] + 1 == len {
                    let last = clause
                        .iter()
                        .copied()
                        .find(|&m| truth(&value, m) == 0)
                        .expect("one literal is unassigned");
                    queue.push(last);
                }
            }
        }
        Some(
            (0..81)
                .filter(|&cell| (1..=9u8).any(|d| value[super::var(cell, d) as usize] == 1))
                .count(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clause_counts_and_shapes() {
        for e in Encoding::ALL {
            let mut by_len = [0usize; 10];
            let mut n = 0;
            e.for_each_clause(|c| {
                n += 1;
                by_len[c.len()] += 1;
                assert!(c.iter().all(|&l| l != 0 && l.unsigned_abs() <= 729));
            });
            assert_eq!(n, e.clauses(), "{e:?}");
            let expect = match e {
                Encoding::Minimal => [8_748, 0, 81],
                Encoding::Efficient => [8_748 + 2_916, 0, 81],
                Encoding::Extended => [8_748 + 2_916, 0, 81 + 243],
                Encoding::Redundant => [8_748 + 2_916, 5_832, 81 + 243],
            };
            assert_eq!([by_len[2], by_len[7], by_len[9]], expect, "{e:?}");
        }
    }

    /// At 9x9 the generic clauses are the 9x9 ones, in the same order.
    #[test]
    fn every_shape_clauses_agree_with_9x9_and_their_counts() {
        for e in Encoding::ALL {
            let mut classic = Vec::new();
            e.for_each_clause(|c| classic.push(c.to_vec()));
            let mut generic = Vec::new();
            e.for_each_clause_of(Shape::CLASSIC, |c| generic.push(c.to_vec()));
            assert!(classic == generic, "{e:?}");
            assert_eq!(e.clauses_of(Shape::CLASSIC), e.clauses(), "{e:?}");
            for shape in [
                Shape::of_order(1).unwrap(),
                Shape::of_order(2).unwrap(),
                Shape::sudoku(2, 3).unwrap(),
                Shape::sudoku(3, 4).unwrap(),
                Shape::latin(5).unwrap(),
            ] {
                let n3 = shape.cells() * shape.side();
                let mut count = 0;
                e.for_each_clause_of(shape, |c| {
                    count += 1;
                    assert!(c.iter().all(|&l| l != 0 && l.unsigned_abs() as usize <= n3));
                });
                assert_eq!(count, e.clauses_of(shape), "{e:?} {shape}");
            }
        }
        // 4x4 extended, by hand: 16 + 16·6 + 12·4 + 12·4·6 = 448.
        assert_eq!(
            Encoding::Extended.clauses_of(Shape::of_order(2).unwrap()),
            448
        );
        // A Latin square has no box-line clauses.
        let latin = Shape::latin(5).unwrap();
        assert_eq!(
            Encoding::Redundant.clauses_of(latin),
            Encoding::Extended.clauses_of(latin)
        );
    }

    #[test]
    fn box_line_clauses_by_hand() {
        // Box 0 (r1-3 c1-3), row 1, digit 1: pointing for r1c4 is
        // -x(r1c4,1) v x(b,1) for b in r2c1..r3c3.
        let mut all = Vec::new();
        for_each_box_line_clause(|c| all.push(c.to_vec()));
        let v = |cell: usize| super::super::var(cell, 1);
        let pointing = vec![-v(3), v(9), v(10), v(11), v(18), v(19), v(20)];
        let claiming = vec![-v(9), v(3), v(4), v(5), v(6), v(7), v(8)];
        assert!(all.contains(&pointing));
        assert!(all.contains(&claiming));
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 5_832);
    }

    #[test]
    fn fixed_literal_sizes_of_the_empty_grid_and_the_seed() {
        for e in Encoding::ALL {
            assert_eq!(e.fixed_literal_size(&Grid::EMPTY), (729, e.clauses()));
        }
        // One given r1c1 = 1. Extended: the cell's 8 other digits and the 20 peers' 1 are
        // fixed false (29 variables fixed). Satisfied clauses, counted by hand: the cell's
        // at-least-one (1), digit 1 at least once in row 1, column 1, box 1 (3), the cell's 36
        // at-most-one, the 3 x 36 at-most-once of digit 1 in its units, 20 x 8 at-most-one of
        // the peers holding -x(peer,1), 8 digits x 3 units x 8 at-most-once with -x(r1c1,d), and
        // 264 at-most-once of digit 1 in the other units touching a peer (rows 2-3, columns 2-3,
        // boxes 2, 3, 4, 7: 21 each; rows 4-9, columns 4-9: 8 each): 764.
        let mut one = Grid::EMPTY;
        one.set(0, 1);
        assert_eq!(
            Encoding::Extended.fixed_literal_size(&one),
            (729 - 29, 11_988 - 764)
        );
        // Minimal: only the 20 peers' 1 is fixed false; satisfied: 1 + 108 + 264.
        assert_eq!(
            Encoding::Minimal.fixed_literal_size(&one),
            (729 - 21, 8_829 - 373)
        );
    }

    #[test]
    fn propagation_finds_what_each_encoding_promises() {
        // A naked single: r1 holds 1..8 in c1..c8, so r1c9 = 9 by the cell clause: every
        // encoding finds it.
        let mut naked = Grid::EMPTY;
        for c in 0..8 {
            naked.set(c, c as u8 + 1);
        }
        for e in Encoding::ALL {
            assert_eq!(e.propagated_cells(&naked), Some(9), "{e:?}");
        }
        // A hidden single: 1 in r2c4, r3c7, r4c1, r7c2 leaves r1c3 as the only place of 1 in
        // box 1 (r1c1 and r1c2 see the 1s of columns 1 and 2): a hidden single, which only the
        // encodings with unit at-least-once clauses place.
        let mut hidden = Grid::EMPTY;
        hidden.set(9 + 3, 1);
        hidden.set(18 + 6, 1);
        hidden.set(27, 1);
        hidden.set(54 + 1, 1);
        assert_eq!(Encoding::Efficient.propagated_cells(&hidden), Some(4));
        assert_eq!(Encoding::Extended.propagated_cells(&hidden), Some(5));
        // Contradicting givens: two 1s in a row.
        let mut bad = Grid::EMPTY;
        bad.set(0, 1);
        bad.set(1, 1);
        assert_eq!(Encoding::Minimal.propagated_cells(&bad), None);
    }
}
