//! CNF encodings that scale: the givens propagated away before encoding, and five encodings of
//! "at most one".
//!
//! The [`Encoding`](super::Encoding) families write N³ variables x(cell, s) for a grid of side N
//! and state every at-most-one pairwise: N²·N(N−1)/2 clauses per family of groups, 33 million
//! clauses for a 64x64 puzzle. A [`CnfEncoding`] is two choices on top of the extended family
//! (each cell holds exactly one symbol, each unit holds each symbol exactly once):
//!
//! - **givens** kept as unit clauses over all N³ variables (`full`), or **propagated away**
//!   first (`reduced`): a given removes its symbol from its peers, and only the candidates that
//!   remain get a variable: the reduced "3D" encoding of H. Kautz, Y. Ruan, D. Achlioptas,
//!   C. Gomes, B. Selman and M. Stickel, "Balance and Filtering in Structured Satisfiable
//!   Problems", IJCAI 2001 (the forward checking C. Gomes's `lsencode` does for quasigroups with
//!   holes). Given cells get no variable; a unit's group for a symbol it already holds is dropped.
//!   The formula stays equivalent: every solution of the puzzle is a model and every model
//!   decodes to one ([`Formula::decode`] puts the givens back).
//! - **at most one** ([`Amo`]) of each group of literals (a cell's candidates; the places of a
//!   symbol in a unit) as pairwise clauses, a sequential counter (C. Sinz, "Towards an Optimal
//!   CNF Encoding of Boolean Cardinality Constraints", CP 2005), the commander encoding
//!   (W. Klieber and G. Kwon, "Efficient CNF Encoding for Selecting 1 from N Objects", CFV 2007),
//!   the bimander encoding (V. H. Nguyen and S. T. Mai, "A New Method to Encode the At-Most-One
//!   Constraint into SAT", SoICT 2015) or the product encoding (J. Chen, "A New SAT Encoding of the
//!   At-Most-One Constraint", ModRef 2010). All but pairwise add auxiliary variables, numbered
//!   after the cell variables.
//!
//! `full-pairwise` is the extended encoding of [`Encoding::Extended`](super::Encoding), clause
//! for clause. [`EncodingChoice::Auto`] picks one per shape ([`default_for`]), the same for the
//! `sat` solver and every `dimacs:` engine.

use crate::{Board, Shape};
use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;
use std::sync::RwLock;

/// An encoding of "at most one of these literals is true" (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Amo {
    /// (¬xᵢ ∨ ¬xⱼ) for every pair: n(n−1)/2 clauses, no auxiliary variable.
    Pairwise,
    /// Sinz's sequential counter for k = 1: auxiliaries s₁..sₙ₋₁ ("one of x₁..xᵢ is true"),
    /// (¬x₁ ∨ s₁), for 1 < i < n (¬xᵢ ∨ sᵢ), (¬sᵢ₋₁ ∨ sᵢ), (¬xᵢ ∨ ¬sᵢ₋₁), and (¬xₙ ∨ ¬sₙ₋₁):
    /// 3n − 4 clauses, n − 1 auxiliaries.
    Sequential,
    /// Klieber and Kwon's commander encoding, groups of 3: pairwise inside each group, a
    /// commander c per group of two or more with (¬x ∨ c) for its members, then at most one
    /// commander, recursively (pairwise once 3 or fewer remain). A group of one is its own
    /// commander.
    Commander,
    /// Nguyen and Mai's bimander encoding: m = ⌈√n⌉ groups of ⌈n/m⌉, pairwise inside each,
    /// and ⌈log₂ m⌉ bit variables: each literal of group i implies the binary code of i,
    /// (¬x ∨ bⱼ) or (¬x ∨ ¬bⱼ): Σ pairwise + n·⌈log₂ m⌉ clauses.
    Bimander,
    /// Chen's product encoding: the literals on a p x q grid (q = ⌈√n⌉, p = ⌈n/q⌉), a row
    /// variable rᵢ and a column variable cⱼ with (¬x ∨ rᵢ), (¬x ∨ cⱼ) for the literal at (i, j),
    /// then at most one r and at most one c, recursively (pairwise at 4 or fewer): 2n + ...
    Product,
}

impl Amo {
    /// The five, pairwise first.
    pub const ALL: [Amo; 5] = [
        Amo::Pairwise,
        Amo::Sequential,
        Amo::Commander,
        Amo::Bimander,
        Amo::Product,
    ];

    /// `pairwise`, `sequential`, `commander`, `bimander`, `product`.
    pub fn name(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Sequential => "sequential",
            Amo::Commander => "commander",
            Amo::Bimander => "bimander",
            Amo::Product => "product",
        }
    }

    /// Clauses this encoding writes for a group of `n` literals.
    pub fn clauses(self, n: usize) -> usize {
        let pairs = |n: usize| n * n.saturating_sub(1) / 2;
        match self {
            _ if n <= 1 => 0,
            Amo::Pairwise => pairs(n),
            Amo::Sequential => 3 * n - 4,
            Amo::Commander if n <= COMMANDER_GROUP => pairs(n),
            Amo::Commander => {
                let groups = n.div_ceil(COMMANDER_GROUP);
                let last = n - (groups - 1) * COMMANDER_GROUP;
                let per = |s: usize| if s >= 2 { pairs(s) + s } else { 0 };
                (groups - 1) * per(COMMANDER_GROUP) + per(last) + Amo::Commander.clauses(groups)
            }
            Amo::Bimander => {
                let (m, g) = bimander_groups(n);
                let last = n - (m - 1) * g;
                (m - 1) * pairs(g) + pairs(last) + n * bits(m)
            }
            Amo::Product if n <= PRODUCT_BASE => pairs(n),
            Amo::Product => {
                let (p, q) = product_grid(n);
                2 * n + Amo::Product.clauses(p) + Amo::Product.clauses(q)
            }
        }
    }

    /// Auxiliary variables this encoding adds for a group of `n` literals.
    pub fn aux(self, n: usize) -> usize {
        match self {
            _ if n <= 1 => 0,
            Amo::Pairwise => 0,
            Amo::Sequential => n - 1,
            Amo::Commander if n <= COMMANDER_GROUP => 0,
            Amo::Commander => {
                let groups = n.div_ceil(COMMANDER_GROUP);
                let last = n - (groups - 1) * COMMANDER_GROUP;
                (groups - 1) + usize::from(last >= 2) + Amo::Commander.aux(groups)
            }
            Amo::Bimander => bits(bimander_groups(n).0),
            Amo::Product if n <= PRODUCT_BASE => 0,
            Amo::Product => {
                let (p, q) = product_grid(n);
                p + q + Amo::Product.aux(p) + Amo::Product.aux(q)
            }
        }
    }

    /// Calls `emit` with the clauses of "at most one of `lits`" (DIMACS literals), taking
    /// auxiliary variables `*next + 1`, `*next + 2`, ... and leaving `*next` at the last one.
    /// Writes [`Amo::clauses`] clauses and takes [`Amo::aux`] variables.
    pub fn encode(self, lits: &[i32], next: &mut i32, emit: &mut dyn FnMut(&[i32])) {
        let n = lits.len();
        if n <= 1 {
            return;
        }
        let mut fresh = || {
            *next += 1;
            *next
        };
        match self {
            Amo::Pairwise => pairwise(lits, emit),
            Amo::Sequential => {
                let s0 = fresh();
                emit(&[-lits[0], s0]);
                let mut prev = s0;
                for &x in &lits[1..n - 1] {
                    let s = fresh();
                    emit(&[-x, s]);
                    emit(&[-prev, s]);
                    emit(&[-x, -prev]);
                    prev = s;
                }
                emit(&[-lits[n - 1], -prev]);
            }
            Amo::Commander if n <= COMMANDER_GROUP => pairwise(lits, emit),
            Amo::Commander => {
                let mut commanders = Vec::with_capacity(n.div_ceil(COMMANDER_GROUP));
                for group in lits.chunks(COMMANDER_GROUP) {
                    if group.len() == 1 {
                        commanders.push(group[0]);
                        continue;
                    }
                    pairwise(group, emit);
                    let c = fresh();
                    for &x in group {
                        emit(&[-x, c]);
                    }
                    commanders.push(c);
                }
                Amo::Commander.encode(&commanders, next, emit);
            }
            Amo::Bimander => {
                let (m, g) = bimander_groups(n);
                let b = bits(m);
                let first = *next + 1;
                *next += b as i32;
                for (i, group) in lits.chunks(g).enumerate() {
                    pairwise(group, emit);
                    for &x in group {
                        for j in 0..b {
                            let bit = first + j as i32;
                            emit(&[-x, if (i >> j) & 1 == 1 { bit } else { -bit }]);
                        }
                    }
                }
            }
            Amo::Product if n <= PRODUCT_BASE => pairwise(lits, emit),
            Amo::Product => {
                let (p, q) = product_grid(n);
                let rows: Vec<i32> = (0..p).map(|_| fresh()).collect();
                let cols: Vec<i32> = (0..q).map(|_| fresh()).collect();
                for (k, &x) in lits.iter().enumerate() {
                    emit(&[-x, rows[k / q]]);
                    emit(&[-x, cols[k % q]]);
                }
                Amo::Product.encode(&rows, next, emit);
                Amo::Product.encode(&cols, next, emit);
            }
        }
    }
}

/// The commander encoding's group size (Klieber and Kwon's choice).
const COMMANDER_GROUP: usize = 3;

/// At or below this many literals the product encoding states its rows and columns pairwise.
const PRODUCT_BASE: usize = 4;

fn pairwise(lits: &[i32], emit: &mut dyn FnMut(&[i32])) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            emit(&[-a, -b]);
        }
    }
}

/// The bimander encoding's groups for `n` literals: (m, size of each group but the last).
fn bimander_groups(n: usize) -> (usize, usize) {
    let m = (n as f64).sqrt().ceil() as usize;
    let g = n.div_ceil(m.max(1));
    // ⌈n/g⌉ groups are used (fewer than m when the last ones would be empty).
    (n.div_ceil(g), g)
}

/// Bits to number `m` groups: ⌈log₂ m⌉.
fn bits(m: usize) -> usize {
    if m <= 1 {
        0
    } else {
        (usize::BITS - (m - 1).leading_zeros()) as usize
    }
}

/// The product encoding's grid for `n` literals: (p rows, q columns), q = ⌈√n⌉, p = ⌈n/q⌉.
fn product_grid(n: usize) -> (usize, usize) {
    let q = (n as f64).sqrt().ceil() as usize;
    (n.div_ceil(q), q)
}

crate::text_by_name!(Amo);

/// A scalable CNF encoding: givens kept or propagated away, and an [`Amo`] encoding (see the
/// [module docs](self)). Written `full-pairwise`, `reduced-sequential`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CnfEncoding {
    /// Givens propagated away before encoding (variables only for the remaining candidates).
    pub reduced: bool,
    /// How each at-most-one group is written.
    pub amo: Amo,
}

impl CnfEncoding {
    /// The extended encoding of old: N³ variables, givens as unit clauses, pairwise.
    pub const FULL_PAIRWISE: CnfEncoding = CnfEncoding {
        reduced: false,
        amo: Amo::Pairwise,
    };

    /// All ten: full then reduced, each with the five [`Amo`] encodings.
    pub fn all() -> Vec<CnfEncoding> {
        [false, true]
            .into_iter()
            .flat_map(|reduced| Amo::ALL.map(|amo| CnfEncoding { reduced, amo }))
            .collect()
    }

    /// The same encoding with givens propagated away.
    pub const fn reduced(amo: Amo) -> CnfEncoding {
        CnfEncoding { reduced: true, amo }
    }
}

impl fmt::Display for CnfEncoding {
    /// `full-pairwise`, `reduced-product`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let givens = if self.reduced { "reduced" } else { "full" };
        write!(f, "{givens}-{}", self.amo)
    }
}

impl FromStr for CnfEncoding {
    type Err = String;

    /// `full-AMO` or `reduced-AMO` with AMO one of `pairwise`, `sequential`, `commander`,
    /// `bimander`, `product`; `extended` is `full-pairwise`.
    fn from_str(text: &str) -> Result<CnfEncoding, String> {
        let t = text.trim().to_ascii_lowercase();
        if t == "extended" {
            return Ok(CnfEncoding::FULL_PAIRWISE);
        }
        let bad = || {
            format!(
                "{text:?} is not an encoding (expected auto, or full-AMO or reduced-AMO with AMO \
                 one of pairwise, sequential, commander, bimander, product, e.g. reduced-pairwise)"
            )
        };
        let (givens, amo) = t.split_once('-').ok_or_else(bad)?;
        let reduced = match givens {
            "full" => false,
            "reduced" => true,
            _ => return Err(bad()),
        };
        let amo = Amo::ALL
            .into_iter()
            .find(|a| a.name() == amo)
            .ok_or_else(bad)?;
        Ok(CnfEncoding { reduced, amo })
    }
}

/// An encoding asked for: one for every shape, or [`default_for`] the shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EncodingChoice {
    /// [`default_for`] each puzzle's shape.
    #[default]
    Auto,
    /// This encoding at every shape.
    Fixed(CnfEncoding),
}

impl EncodingChoice {
    /// The encoding for a puzzle of `shape`.
    pub fn for_shape(self, shape: Shape) -> CnfEncoding {
        match self {
            EncodingChoice::Auto => default_for(shape),
            EncodingChoice::Fixed(e) => e,
        }
    }
}

impl fmt::Display for EncodingChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodingChoice::Auto => f.write_str("auto"),
            EncodingChoice::Fixed(e) => e.fmt(f),
        }
    }
}

impl FromStr for EncodingChoice {
    type Err = String;

    /// `auto` or a [`CnfEncoding`].
    fn from_str(text: &str) -> Result<EncodingChoice, String> {
        if text.trim().eq_ignore_ascii_case("auto") {
            Ok(EncodingChoice::Auto)
        } else {
            text.parse().map(EncodingChoice::Fixed)
        }
    }
}

/// The encoding `auto` picks for `shape`, measured in docs/sat.md ("Encodings that scale"):
/// `full-pairwise` at 9x9 (where the `sat` solver keeps one formula per thread and passes the
/// givens as assumptions, and every encoding solves in a few milliseconds), `reduced-pairwise`
/// elsewhere.
pub fn default_for(shape: Shape) -> CnfEncoding {
    if shape.is_classic() {
        CnfEncoding::FULL_PAIRWISE
    } else {
        CnfEncoding::reduced(Amo::Pairwise)
    }
}

static CHOICE: RwLock<EncodingChoice> = RwLock::new(EncodingChoice::Auto);

/// Sets the encoding the `sat` solver and every `dimacs:` engine of this process use (the
/// commands' `--encoding`), so that a race gives every SAT solver the same formula.
pub fn set_choice(choice: EncodingChoice) {
    *CHOICE.write().unwrap_or_else(|e| e.into_inner()) = choice;
}

/// The encoding set by [`set_choice`] (default [`EncodingChoice::Auto`]).
pub fn choice() -> EncodingChoice {
    *CHOICE.read().unwrap_or_else(|e| e.into_inner())
}

/// What [`choice`] means, for run.json: `reduced-sequential`, or for `auto` the encodings it
/// picks (`auto: full-pairwise at 9x9, reduced-pairwise at other shapes`).
pub fn choice_description() -> String {
    match choice() {
        EncodingChoice::Auto => format!(
            "auto: {} at 9x9, {} at other shapes",
            default_for(Shape::CLASSIC),
            default_for(Shape::of_order(4).expect("16x16"))
        ),
        fixed => fixed.to_string(),
    }
}

/// One puzzle's formula in a [`CnfEncoding`]: its cell variables (which cell and symbol each
/// stands for), and its clauses on demand ([`Formula::for_each_clause`]).
///
/// Cell variables come first, numbered 1.. cell by cell (row-major) and symbol by symbol; in
/// the full encoding that is `cell * N + s`, as [`var_of`](super::var_of). Auxiliary variables
/// of the at-most-one encodings follow.
#[derive(Debug, Clone)]
pub struct Formula {
    encoding: CnfEncoding,
    puzzle: Board,
    /// The candidates of each cell, cell after cell, ascending (all N in the full encoding;
    /// none for a given in the reduced one).
    cands: Vec<u16>,
    /// Where each cell's candidates start in `cands` (N² + 1 entries): cell `i`'s variables
    /// are `start[i] + 1 ..= start[i + 1]`.
    start: Vec<u32>,
    /// Two givens break a unit (the formula then holds the empty clause).
    clash: bool,
    variables: usize,
    clauses: usize,
}

impl Formula {
    /// The formula of `puzzle` in `encoding`. Time O(N³) for the candidates, then one pass over
    /// the clauses to count them and the auxiliary variables.
    pub fn new(encoding: CnfEncoding, puzzle: &Board) -> Formula {
        let shape = puzzle.shape();
        let n = shape.side();
        let units = shape.units();
        // held[u * (N + 1) + s]: unit u holds symbol s among its givens.
        let mut held = vec![false; units.len() * (n + 1)];
        let mut clash = false;
        for u in 0..units.len() {
            for &cell in units.cells(u) {
                let s = usize::from(puzzle.get(cell as usize));
                if s != 0 {
                    clash |= std::mem::replace(&mut held[u * (n + 1) + s], true);
                }
            }
        }
        let mut cands = Vec::new();
        let mut start = Vec::with_capacity(n * n + 1);
        start.push(0u32);
        for cell in 0..n * n {
            if !encoding.reduced {
                cands.extend(1..=n as u16);
            } else if puzzle.get(cell) == 0 {
                let of = units.of_cell(cell);
                cands.extend(
                    (1..=n)
                        .filter(|&s| of.iter().all(|&u| !held[u as usize * (n + 1) + s]))
                        .map(|s| s as u16),
                );
            }
            start.push(cands.len() as u32);
        }
        let mut f = Formula {
            encoding,
            puzzle: puzzle.clone(),
            cands,
            start,
            clash,
            variables: 0,
            clauses: 0,
        };
        let mut clauses = 0;
        let top = f.for_each_clause(|_| clauses += 1);
        f.clauses = clauses;
        f.variables = top as usize;
        f
    }

    /// The encoding.
    pub fn encoding(&self) -> CnfEncoding {
        self.encoding
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Board {
        &self.puzzle
    }

    /// Variables: the cell variables, then the auxiliary ones.
    pub fn variables(&self) -> usize {
        self.variables
    }

    /// Cell variables (x(cell, s) for the candidates kept).
    pub fn cell_variables(&self) -> usize {
        self.cands.len()
    }

    /// Clauses (the givens' unit clauses included in the full encoding).
    pub fn clauses(&self) -> usize {
        self.clauses
    }

    /// The variable of "`cell` holds `s`", or `None` when the reduced encoding dropped that
    /// candidate (or the cell is a given). O(log N).
    pub fn var(&self, cell: usize, s: usize) -> Option<i32> {
        let (a, b) = (self.start[cell] as usize, self.start[cell + 1] as usize);
        let k = self.cands[a..b].binary_search(&(s as u16)).ok()?;
        Some((a + k + 1) as i32)
    }

    /// Calls `emit` with every clause, in this order: the empty clause if two givens break a
    /// unit; each cell's "at least one" clause over its variables (empty when a reduced cell
    /// has no candidate left); each cell's at-most-one; for each unit and each symbol it lacks,
    /// "at least once" over the unit's variables of that symbol (empty when none is left); the
    /// same groups' at-most-one; in the full encoding, one unit clause per given. Returns the
    /// highest variable used (cell variables, then the auxiliaries the [`Amo`] encoding takes).
    pub fn for_each_clause(&self, mut emit: impl FnMut(&[i32])) -> i32 {
        let emit = &mut emit as &mut dyn FnMut(&[i32]);
        let shape = self.puzzle.shape();
        let n = shape.side();
        let amo = self.encoding.amo;
        let mut next = self.cands.len() as i32;
        if self.clash {
            emit(&[]);
        }
        let vars_of = |cell: usize| (self.start[cell] as i32 + 1)..=(self.start[cell + 1] as i32);
        let mut lits: Vec<i32> = Vec::with_capacity(n);
        let cells = shape.cells();
        for cell in 0..cells {
            if self.encoding.reduced && self.puzzle.get(cell) != 0 {
                continue;
            }
            lits.clear();
            lits.extend(vars_of(cell));
            emit(&lits);
        }
        for cell in 0..cells {
            lits.clear();
            lits.extend(vars_of(cell));
            amo.encode(&lits, &mut next, emit);
        }
        // For each unit, its variables grouped by symbol.
        let units = shape.units();
        let mut groups: Vec<Vec<i32>> = vec![Vec::new(); n + 1];
        let fill = |u: usize, groups: &mut Vec<Vec<i32>>| {
            for g in groups.iter_mut() {
                g.clear();
            }
            let mut held = vec![false; n + 1];
            for &cell in units.cells(u) {
                let cell = cell as usize;
                held[usize::from(self.puzzle.get(cell))] = true;
                let (a, b) = (self.start[cell] as usize, self.start[cell + 1] as usize);
                for (k, &s) in self.cands[a..b].iter().enumerate() {
                    groups[s as usize].push((a + k + 1) as i32);
                }
            }
            held
        };
        for u in 0..units.len() {
            let held = fill(u, &mut groups);
            for s in 1..=n {
                if !(self.encoding.reduced && held[s]) {
                    emit(&groups[s]);
                }
            }
        }
        for u in 0..units.len() {
            let held = fill(u, &mut groups);
            for s in 1..=n {
                if !(self.encoding.reduced && held[s]) {
                    amo.encode(&groups[s], &mut next, emit);
                }
            }
        }
        if !self.encoding.reduced {
            for cell in 0..cells {
                let s = usize::from(self.puzzle.get(cell));
                if s != 0 {
                    emit(&[super::var_of(shape, cell, s)]);
                }
            }
        }
        next
    }

    /// Writes the formula in DIMACS CNF with `extra` clauses after it (blocking clauses),
    /// counted in the header: comment lines naming the shape, the encoding and the variable
    /// numbering, `p cnf V C`, the clauses.
    ///
    /// # Errors
    /// Those of `out`.
    pub fn write_dimacs<C: AsRef<[i32]>>(
        &self,
        extra: &[C],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let shape = self.puzzle.shape();
        writeln!(
            out,
            "c {shape} grid, {} encoding (harness cnf --encoding {}): {} cell variables, {} auxiliary",
            self.encoding,
            self.encoding,
            self.cell_variables(),
            self.variables - self.cell_variables()
        )?;
        if self.encoding.reduced {
            writeln!(
                out,
                "c givens propagated away (Kautz et al. 2001): cell variables only for the candidates left; \
                 harness decode --puzzle P --encoding {} reads a model back",
                self.encoding
            )?;
        } else {
            writeln!(
                out,
                "c x(cell,s) = cell * {n} + s, cell = {n} row + column, s in 1..{n}; then the auxiliaries",
                n = shape.side()
            )?;
        }
        writeln!(
            out,
            "p cnf {} {}",
            self.variables,
            self.clauses + extra.len()
        )?;
        let mut line = String::with_capacity(256);
        let mut result = Ok(());
        let mut put = |clause: &[i32]| {
            if result.is_err() {
                return;
            }
            line.clear();
            for l in clause {
                line.push_str(&l.to_string());
                line.push(' ');
            }
            line.push_str("0\n");
            result = out.write_all(line.as_bytes());
        };
        self.for_each_clause(&mut put);
        for c in extra {
            put(c.as_ref());
        }
        result
    }

    /// The grid of a model (DIMACS literals, positive = true; 0s and auxiliary variables are
    /// skipped; a variable not listed is false): the givens, and in each empty cell the symbol
    /// of its one true variable.
    ///
    /// # Errors
    /// A message naming the cell (`r1c1`) when an empty cell has no true variable or two, or
    /// the variable when the model makes one both true and false.
    pub fn decode(&self, model: &[i32]) -> Result<Board, String> {
        let shape = self.puzzle.shape();
        let value = super::model_values(model, self.cands.len())?;
        let mut cells = self.puzzle.cells().to_vec();
        for (cell, slot) in cells.iter_mut().enumerate() {
            let given = *slot;
            let (a, b) = (self.start[cell] as usize, self.start[cell + 1] as usize);
            let mut found = 0u16;
            for (k, &s) in self.cands[a..b].iter().enumerate() {
                if value[a + k + 1] == 1 {
                    if found != 0 {
                        return Err(format!(
                            "cell {} has two true symbols in the model, {found} and {s}",
                            crate::board_cell_name(shape, cell)
                        ));
                    }
                    found = s;
                }
            }
            match (given, found) {
                (0, 0) => {
                    return Err(format!(
                        "cell {} has no true symbol in the model",
                        crate::board_cell_name(shape, cell)
                    ))
                }
                (0, s) => *slot = s,
                (g, s) if s != 0 && s != g => {
                    return Err(format!(
                        "cell {} holds the given {g} but the model makes {s} true",
                        crate::board_cell_name(shape, cell)
                    ))
                }
                _ => {}
            }
        }
        Board::new(shape, cells).map_err(|e| e.to_string())
    }

    /// The clause that excludes `solution`: not all of the puzzle's empty cells as they are
    /// (the negation of their true cell variables).
    pub fn blocking_clause(&self, solution: &Board) -> Vec<i32> {
        (0..self.puzzle.shape().cells())
            .filter(|&cell| self.puzzle.get(cell) == 0)
            .filter_map(|cell| self.var(cell, usize::from(solution.get(cell))))
            .map(|v| -v)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::Encoding;
    use crate::search::test_boards::with_givens;
    use varisat::ExtendFormula;

    /// Every assignment of n literals: the AMO formula is satisfiable (some assignment of its
    /// auxiliaries) exactly when at most one literal is true. Brute force over the auxiliaries.
    #[test]
    fn each_amo_encoding_means_at_most_one() {
        for amo in Amo::ALL {
            for n in 0..=9usize {
                let lits: Vec<i32> = (1..=n as i32).collect();
                let mut next = n as i32;
                let mut clauses: Vec<Vec<i32>> = Vec::new();
                amo.encode(&lits, &mut next, &mut |c| clauses.push(c.to_vec()));
                let aux = next as usize - n;
                assert_eq!(clauses.len(), amo.clauses(n), "{amo} n={n}");
                assert_eq!(aux, amo.aux(n), "{amo} n={n}");
                assert!(aux <= 12, "{amo} n={n}: {aux} auxiliaries");
                for x in 0u32..1 << n {
                    let sat = (0u32..1 << aux).any(|a| {
                        let truth = |l: i32| {
                            let v = l.unsigned_abs() as usize;
                            let t = if v <= n {
                                x >> (v - 1) & 1 == 1
                            } else {
                                a >> (v - n - 1) & 1 == 1
                            };
                            t == (l > 0)
                        };
                        clauses.iter().all(|c| c.iter().any(|&l| truth(l)))
                    });
                    assert_eq!(sat, x.count_ones() <= 1, "{amo} n={n} x={x:b}");
                }
            }
        }
    }

    /// The counts of each encoding at n = 9 and n = 64, worked out by hand from the formulas.
    #[test]
    fn amo_sizes_by_hand() {
        // n = 9. Pairwise: 36. Sequential: 3·9 − 4 = 23 clauses, 8 auxiliaries. Commander: 3
        // groups of 3 (3 pairs + 3 implications each = 18, 3 commanders), then 3 pairs: 21.
        // Bimander: m = 3 groups of 3 (9 pairs), 2 bits, 9·2 = 18: 27 clauses, 2 bits.
        // Product: 3 x 3, 2·9 = 18, rows and columns pairwise 3 + 3: 24 clauses, 6 auxiliaries.
        let at9: Vec<(usize, usize)> = Amo::ALL.iter().map(|a| (a.clauses(9), a.aux(9))).collect();
        assert_eq!(at9, [(36, 0), (23, 8), (21, 3), (27, 2), (24, 6)]);
        // n = 64. Bimander: 8 groups of 8 (8·28 = 224 pairs), 3 bits, 64·3 = 192: 416.
        // Product: 8 x 8 (128), then 8 rows and 8 columns as 3 x 3 products of 16 + 3 + 3 = 22
        // clauses and 6 auxiliaries each: 172 clauses, 16 + 12 = 28 auxiliaries.
        assert_eq!(
            (Amo::Pairwise.clauses(64), Amo::Sequential.clauses(64)),
            (2016, 188)
        );
        assert_eq!((Amo::Bimander.clauses(64), Amo::Bimander.aux(64)), (416, 3));
        assert_eq!((Amo::Product.clauses(64), Amo::Product.aux(64)), (172, 28));
    }

    #[test]
    fn names_read_back() {
        for e in CnfEncoding::all() {
            assert_eq!(e.to_string().parse::<CnfEncoding>().unwrap(), e);
            let c = EncodingChoice::Fixed(e);
            assert_eq!(c.to_string().parse::<EncodingChoice>().unwrap(), c);
        }
        assert_eq!(
            "auto".parse::<EncodingChoice>().unwrap(),
            EncodingChoice::Auto
        );
        assert_eq!(
            "extended".parse::<CnfEncoding>().unwrap(),
            CnfEncoding::FULL_PAIRWISE
        );
        assert!("reduced-ladder".parse::<CnfEncoding>().is_err());
    }

    /// full-pairwise is the extended encoding plus the givens' unit clauses, clause for clause.
    #[test]
    fn full_pairwise_is_the_extended_encoding() {
        for shape in [
            Shape::CLASSIC,
            Shape::sudoku(2, 3).unwrap(),
            Shape::latin(5).unwrap(),
        ] {
            let puzzle = with_givens(shape, &[(0, 1), (shape.side() + 2, 2)]);
            let mut old = Vec::new();
            Encoding::Extended.for_each_clause_of(shape, |c| old.push(c.to_vec()));
            for cell in [0, shape.side() + 2] {
                old.push(vec![super::super::var_of(
                    shape,
                    cell,
                    usize::from(puzzle.get(cell)),
                )]);
            }
            let f = Formula::new(CnfEncoding::FULL_PAIRWISE, &puzzle);
            let mut new = Vec::new();
            f.for_each_clause(|c| new.push(c.to_vec()));
            assert!(old == new, "{shape}");
            assert_eq!(
                (f.variables(), f.clauses()),
                (shape.cells() * shape.side(), old.len())
            );
        }
    }

    /// A 4x4 puzzle by hand. Givens r1c1 = 1, r1c2 = 2, r2c1 = 3:
    ///
    /// ```text
    /// 1 2 . .      r1c3, r1c4: {3,4}      r2c2: {4}      r2c3, r2c4: {1,2,4} minus box/row:
    /// 3 . . .      row 2 holds 3 -> r2c3 {1,2,4}, r2c4 {1,2,4}
    /// . . . .      column 1 holds 1, 3 -> r3c1, r4c1 {2,4}; column 2 holds 2 -> r3c2, r4c2 {1,3,4}
    /// . . . .      the rest {1,2,3,4}
    /// ```
    #[test]
    fn reduced_encoding_by_hand() {
        let p = with_givens(Shape::of_order(2).unwrap(), &[(0, 1), (1, 2), (4, 3)]);
        let f = Formula::new(CnfEncoding::reduced(Amo::Pairwise), &p);
        // Candidates: r1c3 {3,4}, r1c4 {3,4}, r2c2 {4}, r2c3 {1,2,4}, r2c4 {1,2,4},
        // r3c1 {2,4}, r3c2 {1,3,4}, r3c3 {1..4}, r3c4 {1..4}, r4c1 {2,4}, r4c2 {1,3,4},
        // r4c3 {1..4}, r4c4 {1..4}: 2+2+1+3+3+2+3+4+4+2+3+4+4 = 37 variables.
        assert_eq!(f.cell_variables(), 37);
        assert_eq!(f.variables(), 37);
        // Clauses. Cells: 13 at-least-one; at-most-one pairs: 1+1+0+3+3+1+3+6+6+1+3+6+6 = 40.
        // Units (rows, columns, boxes) x missing symbols: row 1 lacks 3,4; row 2 lacks 1,2,4;
        // rows 3, 4 lack all 4; column 1 lacks 2,4; column 2 lacks 1,3,4; columns 3, 4 all 4;
        // box 1 lacks 4; boxes 2, 3, 4 all 4: 2+3+4+4+2+3+4+4+1+4+4+4 = 39 at-least-once.
        // Their at-most-once pairs, group by group (places of the symbol in the unit):
        // row 1: 3 {c3,c4}, 4 {c3,c4}: 2. row 2: 1 {c3,c4}, 2 {c3,c4}, 4 {c2,c3,c4}: 1+1+3 = 5.
        // row 3: 1 {c2,c3,c4} 3, 2 {c1,c3,c4} 3, 3 {c2,c3,c4} 3, 4 {all} 6: 15; row 4 the same: 15.
        // column 1: 2 {r3,r4}, 4 {r3,r4}: 2. column 2: 1 {r3,r4}, 3 {r3,r4}, 4 {r2,r3,r4}: 5.
        // column 3: 1 {r2,r3,r4} 3, 2 {r2,r3,r4} 3, 3 {r1,r3,r4} 3, 4 {all} 6: 15; column 4: 15.
        // box 1: 4 {r2c2} 0. box 2 (r1-2 c3-4): 1 {r2c3,r2c4} 1, 2 the same 1, 3 {r1c3,r1c4} 1,
        // 4 {all 4} 6: 9. box 3 (r3-4 c1-2): 1 {r3c2,r4c2} 1, 2 {r3c1,r4c1} 1, 3 {r3c2,r4c2} 1,
        // 4 {all} 6: 9. box 4: each symbol in all 4 cells: 24.
        // 2+5+15+15+2+5+15+15+0+9+9+24 = 116.
        assert_eq!(f.clauses(), 13 + 40 + 39 + 116);
        assert_eq!(f.var(0, 1), None);
        assert_eq!(f.var(2, 3), Some(1));
        assert_eq!(f.var(5, 4), Some(5));
        assert_eq!(f.var(5, 1), None);
    }

    /// `clause` in varisat's literals.
    fn lits(clause: &[i32]) -> Vec<varisat::Lit> {
        clause
            .iter()
            .map(|&l| varisat::Lit::from_dimacs(l as isize))
            .collect()
    }

    /// A varisat solver holding the clauses of `f`.
    fn solver_of(f: &Formula) -> varisat::Solver<'static> {
        let mut s = varisat::Solver::new();
        f.for_each_clause(|c| s.add_clause(&lits(c)));
        s
    }

    /// Every model of small formulas decodes to a valid grid, in every encoding: the models are
    /// enumerated by varisat with blocking clauses and compared with the known counts.
    #[test]
    fn every_model_decodes_to_a_solution() {
        let shape = Shape::of_order(2).unwrap();
        let p = with_givens(shape, &[(0, 1), (5, 3)]);
        for e in CnfEncoding::all() {
            for (puzzle, expect) in [(Board::empty(shape), 288), (p.clone(), 288 / 12)] {
                let f = Formula::new(e, &puzzle);
                let mut s = solver_of(&f);
                let mut found = std::collections::HashSet::new();
                while s.solve().unwrap() {
                    let model: Vec<i32> = s
                        .model()
                        .unwrap()
                        .iter()
                        .map(|l| l.to_dimacs() as i32)
                        .collect();
                    let b = f.decode(&model).unwrap();
                    assert!(b.is_full() && b.first_conflict().is_none(), "{e}");
                    for cell in 0..16 {
                        if puzzle.get(cell) != 0 {
                            assert_eq!(b.get(cell), puzzle.get(cell), "{e}");
                        }
                    }
                    assert!(found.insert(b.clone()), "{e}: a model repeated");
                    let block = lits(&f.blocking_clause(&b));
                    if block.is_empty() {
                        break;
                    }
                    s.add_clause(&block);
                }
                assert_eq!(found.len(), expect, "{e} {}", puzzle.givens());
            }
        }
    }

    #[test]
    fn clashing_givens_and_dead_cells_are_unsatisfiable() {
        let shape = Shape::of_order(2).unwrap();
        let clash = with_givens(shape, &[(0, 1), (3, 1)]);
        // r1c1 sees 1, 2 in its row, 3 in its column, 4 in its box.
        let dead = with_givens(shape, &[(1, 1), (2, 2), (8, 3), (5, 4)]);
        for e in CnfEncoding::all() {
            for p in [&clash, &dead] {
                let f = Formula::new(e, p);
                let mut s = solver_of(&f);
                assert!(!s.solve().unwrap(), "{e}");
            }
        }
    }
}
