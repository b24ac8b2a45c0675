//! Human solving techniques: find the next step a person would take, rate a puzzle the way
//! HoDoKu does, and the `logic` solver built on them.
//!
//! A [`Board`] holds the pencil marks (every empty cell's candidates). Each technique, in its
//! family's file, looks at a board and reports [`Step`]s: the technique, the digits, units, cells
//! and candidates that prove it, and what it changes (digits placed or candidates eliminated).
//! [`Technique`] lists the techniques in HoDoKu's default solving order, each with HoDoKu's
//! name, its code in HoDoKu's regression library, its step cost (score) and its level.
//!
//! | file | techniques |
//! |---|---|
//! | [`singles`] | full house, naked single, hidden single |
//! | [`intersections`] | locked candidates type 1 (pointing) and type 2 (claiming) |
//! | [`subsets`] | locked pair/triple, naked and hidden pairs, triples, quadruples |
//! | [`fish`] | X-wing, swordfish, jellyfish; finned and sashimi variants; franken and mutant fish |
//! | [`single_digit`] | skyscraper, 2-string kite, empty rectangle |
//! | [`wings`] | XY-wing, XYZ-wing, W-wing |
//! | [`uniqueness`] | uniqueness tests 1 to 6, hidden rectangle, avoidable rectangles, BUG+1 |
//! | [`sue_de_coq`] | Sue de Coq |
//! | [`colouring`] | simple colours (trap, wrap), multi-colours (types 1 and 2) |
//! | [`chains`] | turbot fish, remote pair, X-chain, XY-chain, grouped AIC (grouped nice loops) |
//! | [`tabling`] | AIC (nice loops and AICs) |
//! | [`als`] | ALS-XZ, ALS-XY-wing, ALS-XY-chain, death blossom |
//! | [`forcing`] | forcing chains and forcing nets (contradiction, verity) |
//! | [`templates`] | template set, template delete |
//!
//! Rating ([`rate`]): always the first technique of [`Technique::ALL`] that makes progress,
//! applied once, until the grid is full; the score is the sum of the step costs; the level is the
//! hardest technique's level, raised while the score exceeds the level's maximum (HoDoKu:
//! Easy up to 800, Medium 1000, Hard 1600, Unfair 1800). When no technique applies, the middle
//! one of the empty cells gets its solution digit ([`Technique::BruteForce`], HoDoKu's last
//! resort, cost 10,000) and the puzzle is rated [`Level::Beyond`]. Every step is checked against the
//! puzzle's solution: a wrong placement or elimination is reported as
//! [`RateError::WrongStep`], a bug in a technique.
//!
//! Sources: HoDoKu 2.2 (Bernhard Hobiger) for the technique definitions, names, scores and
//! levels (its `Options` defaults, as documented by the `hodoku-py` port); Andrew Stuart's
//! sudokuwiki.org for the patterns' explanations. The code is our own.

// Cell and unit indices index several parallel tables at once (masks, cells, units): index loops
// read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

pub mod als;
pub mod board;
pub mod chains;
pub mod colouring;
pub mod fish;
pub mod forcing;
pub mod intersections;
mod queues;
mod rating;
mod shaped;
pub mod single_digit;
pub mod singles;
mod solver;
pub mod subsets;
pub mod sue_de_coq;
pub mod tabling;
pub mod templates;
pub mod uniqueness;
pub mod wings;

pub use board::{Board, Cells};
pub use rating::{hint, rate, rate_traced, RateError, Rating};
pub use solver::Logic;

use crate::{cell_name, Unit};
use std::fmt;

/// A difficulty level, HoDoKu's scale plus one for puzzles our techniques cannot finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles only (score up to 800).
    Easy,
    /// Intersections, pairs and triples (score up to 1,000).
    Medium,
    /// Quadruples, basic fish, single-digit patterns, wings, uniqueness, colouring (up to 1,600).
    Hard,
    /// Finned swordfish and jellyfish, chains (up to 1,800).
    Unfair,
    /// A score above 1,800, or HoDoKu's last-resort techniques.
    Extreme,
    /// Our techniques did not finish: a guess ([`Technique::BruteForce`]) was needed.
    Beyond,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 6] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
        Level::Beyond,
    ];

    /// The name: `Easy`, `Medium`, `Hard`, `Unfair`, `Extreme`, `Beyond`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "Easy",
            Level::Medium => "Medium",
            Level::Hard => "Hard",
            Level::Unfair => "Unfair",
            Level::Extreme => "Extreme",
            Level::Beyond => "Beyond",
        }
    }

    /// HoDoKu's highest score for the level (its default difficulty levels); `u32::MAX` for
    /// Extreme and Beyond.
    pub fn max_score(self) -> u32 {
        match self {
            Level::Easy => 800,
            Level::Medium => 1000,
            Level::Hard => 1600,
            Level::Unfair => 1800,
            Level::Extreme | Level::Beyond => u32::MAX,
        }
    }

    /// The level a name gives, case-insensitive.
    pub fn from_name(s: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
    }
}

crate::text_by_name!(Level);

macro_rules! techniques {
    ($($variant:ident = $name:literal, $code:literal, $score:literal, $level:ident;)*) => {
        /// A solving technique. The order of the variants is HoDoKu's default solving order
        /// (its step index), which is the order the rater and the `logic` solver try them in.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Technique {
            $(
                #[doc = concat!($name, " (HoDoKu library code `", $code, "`, cost ", $score, ", ", stringify!($level), ").")]
                $variant,
            )*
        }

        impl Technique {
            /// Every technique, in solving order.
            pub const ALL: &'static [Technique] = &[$(Technique::$variant),*];

            /// HoDoKu's name, e.g. `Locked Candidates Type 1 (Pointing)`.
            pub fn name(self) -> &'static str {
                match self { $(Technique::$variant => $name),* }
            }

            /// The technique's code in HoDoKu's regression library (`0000` full house, `0300`
            /// X-wing, ...); empty for [`Technique::BruteForce`].
            pub fn code(self) -> &'static str {
                match self { $(Technique::$variant => $code),* }
            }

            /// The cost of one step (HoDoKu's base score).
            pub fn score(self) -> u32 {
                match self { $(Technique::$variant => $score),* }
            }

            /// The level the technique belongs to.
            pub fn level(self) -> Level {
                match self { $(Technique::$variant => Level::$level),* }
            }
        }
    };
}

techniques! {
    FullHouse = "Full House", "0000", 4, Easy;
    NakedSingle = "Naked Single", "0003", 4, Easy;
    HiddenSingle = "Hidden Single", "0002", 14, Easy;
    LockedPair = "Locked Pair", "0110", 40, Medium;
    LockedTriple = "Locked Triple", "0111", 60, Medium;
    LockedCandidates1 = "Locked Candidates Type 1 (Pointing)", "0100", 50, Medium;
    LockedCandidates2 = "Locked Candidates Type 2 (Claiming)", "0101", 50, Medium;
    NakedPair = "Naked Pair", "0200", 60, Medium;
    NakedTriple = "Naked Triple", "0201", 80, Medium;
    HiddenPair = "Hidden Pair", "0210", 70, Medium;
    HiddenTriple = "Hidden Triple", "0211", 100, Medium;
    NakedQuadruple = "Naked Quadruple", "0202", 120, Hard;
    HiddenQuadruple = "Hidden Quadruple", "0212", 150, Hard;
    XWing = "X-Wing", "0300", 140, Hard;
    Swordfish = "Swordfish", "0301", 150, Hard;
    Jellyfish = "Jellyfish", "0302", 160, Hard;
    RemotePair = "Remote Pair", "0703", 110, Hard;
    BugPlus1 = "Bivalue Universal Grave + 1", "0610", 100, Hard;
    Skyscraper = "Skyscraper", "0400", 130, Hard;
    TwoStringKite = "2-String Kite", "0401", 150, Hard;
    TurbotFish = "Turbot Fish", "0403", 120, Hard;
    EmptyRectangle = "Empty Rectangle", "0402", 120, Hard;
    WWing = "W-Wing", "0803", 150, Hard;
    XyWing = "XY-Wing", "0800", 160, Hard;
    XyzWing = "XYZ-Wing", "0801", 180, Hard;
    UniquenessTest1 = "Uniqueness Test 1", "0600", 100, Hard;
    UniquenessTest2 = "Uniqueness Test 2", "0601", 100, Hard;
    UniquenessTest3 = "Uniqueness Test 3", "0602", 100, Hard;
    UniquenessTest4 = "Uniqueness Test 4", "0603", 100, Hard;
    UniquenessTest5 = "Uniqueness Test 5", "0604", 100, Hard;
    UniquenessTest6 = "Uniqueness Test 6", "0605", 100, Hard;
    HiddenRectangle = "Hidden Rectangle", "0606", 100, Hard;
    AvoidableRectangle1 = "Avoidable Rectangle Type 1", "0607", 100, Hard;
    AvoidableRectangle2 = "Avoidable Rectangle Type 2", "0608", 100, Hard;
    FinnedXWing = "Finned X-Wing", "0310", 130, Hard;
    SashimiXWing = "Sashimi X-Wing", "0320", 150, Hard;
    FinnedSwordfish = "Finned Swordfish", "0311", 200, Unfair;
    SashimiSwordfish = "Sashimi Swordfish", "0321", 240, Unfair;
    FinnedJellyfish = "Finned Jellyfish", "0312", 250, Unfair;
    SashimiJellyfish = "Sashimi Jellyfish", "0322", 260, Unfair;
    SueDeCoq = "Sue de Coq", "1101", 250, Unfair;
    SimpleColorsWrap = "Simple Colors Wrap", "0501", 150, Hard;
    SimpleColorsTrap = "Simple Colors Trap", "0500", 150, Hard;
    MultiColors2 = "Multi-Colors 2", "0503", 200, Hard;
    MultiColors1 = "Multi-Colors 1", "0502", 200, Hard;
    XChain = "X-Chain", "0701", 260, Unfair;
    XyChain = "XY-Chain", "0702", 260, Unfair;
    Aic = "AIC", "0708", 280, Unfair;
    GroupedAic = "Grouped AIC", "0711", 300, Unfair;
    AlsXz = "ALS-XZ", "0901", 300, Unfair;
    AlsXyWing = "ALS-XY-Wing", "0902", 320, Unfair;
    AlsXyChain = "ALS-XY-Chain", "0903", 340, Unfair;
    DeathBlossom = "Death Blossom", "0904", 360, Unfair;
    FrankenXWing = "Franken X-Wing", "0330", 300, Unfair;
    FrankenSwordfish = "Franken Swordfish", "0331", 350, Unfair;
    FrankenJellyfish = "Franken Jellyfish", "0332", 370, Unfair;
    FinnedFrankenXWing = "Finned Franken X-Wing", "0340", 390, Unfair;
    FinnedFrankenSwordfish = "Finned Franken Swordfish", "0341", 410, Unfair;
    FinnedFrankenJellyfish = "Finned Franken Jellyfish", "0342", 430, Unfair;
    MutantXWing = "Mutant X-Wing", "0350", 450, Extreme;
    MutantSwordfish = "Mutant Swordfish", "0351", 450, Extreme;
    MutantJellyfish = "Mutant Jellyfish", "0352", 450, Extreme;
    FinnedMutantXWing = "Finned Mutant X-Wing", "0360", 470, Extreme;
    FinnedMutantSwordfish = "Finned Mutant Swordfish", "0361", 470, Extreme;
    FinnedMutantJellyfish = "Finned Mutant Jellyfish", "0362", 470, Extreme;
    FinnedMutantSquirmbag = "Finned Mutant Squirmbag", "0363", 470, Extreme;
    FinnedMutantWhale = "Finned Mutant Whale", "0364", 470, Extreme;
    ForcingChainContradiction = "Forcing Chain Contradiction", "1301", 500, Extreme;
    ForcingChainVerity = "Forcing Chain Verity", "1302", 500, Extreme;
    ForcingNetContradiction = "Forcing Net Contradiction", "1303", 700, Extreme;
    ForcingNetVerity = "Forcing Net Verity", "1304", 700, Extreme;
    TemplateSet = "Template Set", "1201", 10000, Extreme;
    TemplateDelete = "Template Delete", "1202", 10000, Extreme;
    BruteForce = "Brute Force", "", 10000, Extreme;
}

impl Technique {
    /// True for the techniques that assume the puzzle has exactly one solution (uniqueness tests,
    /// hidden and avoidable rectangles, BUG+1): the `logic` solver, which also counts solutions,
    /// never uses them; the rater uses them only on puzzles with one solution.
    pub fn assumes_uniqueness(self) -> bool {
        matches!(
            self,
            Technique::BugPlus1
                | Technique::UniquenessTest1
                | Technique::UniquenessTest2
                | Technique::UniquenessTest3
                | Technique::UniquenessTest4
                | Technique::UniquenessTest5
                | Technique::UniquenessTest6
                | Technique::HiddenRectangle
                | Technique::AvoidableRectangle1
                | Technique::AvoidableRectangle2
        )
    }

    /// True when HoDoKu's default solver configuration uses the technique, so the rater and
    /// hints try it (in [`Technique::ALL`] order). The others (death blossom, franken jellyfish,
    /// mutant fish, templates) are found by [`find`] and [`find_all`] only;
    /// [`Technique::BruteForce`] is the rater's last resort, never searched.
    pub fn in_rating_path(self) -> bool {
        !matches!(
            self,
            Technique::DeathBlossom
                | Technique::FrankenJellyfish
                | Technique::FinnedFrankenJellyfish
                | Technique::MutantXWing
                | Technique::MutantSwordfish
                | Technique::MutantJellyfish
                | Technique::FinnedMutantXWing
                | Technique::FinnedMutantSwordfish
                | Technique::FinnedMutantJellyfish
                | Technique::FinnedMutantSquirmbag
                | Technique::FinnedMutantWhale
                | Technique::TemplateSet
                | Technique::TemplateDelete
                | Technique::BruteForce
        )
    }

    /// HoDoKu's own name where ours is shorter (`Almost Locked Set XZ-Rule` for `ALS-XZ`); the
    /// name otherwise.
    pub fn hodoku_name(self) -> &'static str {
        match self {
            Technique::AlsXz => "Almost Locked Set XZ-Rule",
            Technique::AlsXyWing => "Almost Locked Set XY-Wing",
            Technique::AlsXyChain => "Almost Locked Set XY-Chain",
            t => t.name(),
        }
    }

    /// The technique whose HoDoKu library code is `code` (`0300`), if we implement it.
    pub fn from_code(code: &str) -> Option<Technique> {
        Technique::ALL
            .iter()
            .copied()
            .find(|t| !t.code().is_empty() && t.code() == code)
    }

    /// The technique named `name` (HoDoKu's name, case-insensitive).
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL
            .iter()
            .copied()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }
}

crate::text_by_name!(Technique);

/// A candidate: digit `digit` (1..=9) in cell `cell` (0..81).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate {
    /// The cell, 0..81 row-major.
    pub cell: u8,
    /// The digit, 1..=9.
    pub digit: u8,
}

impl Candidate {
    /// Digit `digit` in cell `cell`.
    pub fn new(cell: usize, digit: u8) -> Candidate {
        Candidate {
            cell: cell as u8,
            digit,
        }
    }
}

impl fmt::Display for Candidate {
    /// `5r1c2`: digit then cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.digit, cell_name(self.cell as usize))
    }
}

/// One step of a solve: a technique found on a board, what proves it and what it changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// The digits of the pattern (bit `d - 1` for digit `d`).
    pub digits: u16,
    /// The units the pattern lives in: for fish the base units then the cover units; for
    /// locked candidates and subsets the unit(s) searched.
    pub units: Vec<Unit>,
    /// The pattern's cells (0..81), in the technique's order (e.g. a wing's pivot first).
    pub cells: Vec<u8>,
    /// Candidates that prove the step: a chain's nodes in order (strong link first, then
    /// alternating weak and strong), or the two colours of a colouring (first colour, then the
    /// second; see `split`); empty when the cells and digits say it all.
    pub candidates: Vec<Candidate>,
    /// Where `candidates` splits into its two colours, for colouring steps (0 otherwise).
    pub split: usize,
    /// Fins of a finned fish; for other techniques the candidates the step goes through (a
    /// wing's `z` candidates, the links of a kite or W-wing, the box of an empty rectangle, the
    /// cells of a grouped chain's group nodes, each shown in `candidates` by its first cell).
    pub fins: Vec<Candidate>,
    /// Digits placed.
    pub placements: Vec<Candidate>,
    /// Candidates eliminated.
    pub eliminations: Vec<Candidate>,
}

impl Step {
    /// An empty step of `technique`.
    pub fn new(technique: Technique) -> Step {
        Step {
            technique,
            digits: 0,
            units: Vec::new(),
            cells: Vec::new(),
            candidates: Vec::new(),
            split: 0,
            fins: Vec::new(),
            placements: Vec::new(),
            eliminations: Vec::new(),
        }
    }

    /// A placement step: `digit` goes into `cell`.
    pub fn placing(technique: Technique, cell: usize, digit: u8) -> Step {
        let mut s = Step::new(technique);
        s.digits = board::bit(digit);
        s.cells.push(cell as u8);
        s.placements.push(Candidate::new(cell, digit));
        s
    }

    /// Adds the eliminations of digit `d` from every cell of `set`.
    pub fn eliminate_all(&mut self, set: Cells, d: u8) {
        for c in board::cells(set) {
            self.eliminations.push(Candidate::new(c, d));
        }
    }

    /// True when the step changes nothing.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty() && self.eliminations.is_empty()
    }

    /// Applies the step to `board`.
    pub fn apply(&self, board: &mut Board) {
        for p in &self.placements {
            if board.value(p.cell as usize) == 0 {
                board.place(p.cell as usize, p.digit);
            }
        }
        for e in &self.eliminations {
            board.eliminate(e.cell as usize, e.digit);
        }
    }

    /// The eliminations and placements as text: `r1c2=5` for a placement, `r2c3<>4` for an
    /// elimination, comma-separated.
    pub fn effects(&self) -> String {
        let mut parts: Vec<String> = self
            .placements
            .iter()
            .map(|p| format!("{}={}", cell_name(p.cell as usize), p.digit))
            .collect();
        parts.extend(
            self.eliminations
                .iter()
                .map(|e| format!("{}<>{}", cell_name(e.cell as usize), e.digit)),
        );
        parts.join(", ")
    }
}

fn digit_list(mask: u16) -> String {
    board::digits(mask)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("")
}

impl fmt::Display for Step {
    /// One line, e.g. `X-Wing: 4 in row 1, row 5 / column 3, column 9 => r2c3<>4, r7c9<>4`,
    /// chains as `5r1c2 = 5r1c7 - 5r4c7 = 5r4c2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.technique.name())?;
        if self.digits != 0 {
            write!(f, " {}", digit_list(self.digits))?;
        }
        if !self.candidates.is_empty() && self.split == 0 {
            f.write_str(" ")?;
            for (i, c) in self.candidates.iter().enumerate() {
                if i > 0 {
                    f.write_str(if i % 2 == 1 { " = " } else { " - " })?;
                }
                write!(f, "{c}")?;
            }
        } else if !self.candidates.is_empty() {
            let (a, b) = self.candidates.split_at(self.split);
            let list = |v: &[Candidate]| {
                v.iter()
                    .map(|c| cell_name(c.cell as usize))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            write!(f, " colours ({}) / ({})", list(a), list(b))?;
        } else {
            if !self.units.is_empty() {
                let units: Vec<String> = self.units.iter().map(|u| u.to_string()).collect();
                write!(f, " in {}", units.join(", "))?;
            }
            if !self.cells.is_empty() && self.placements.is_empty() {
                let cells: Vec<String> =
                    self.cells.iter().map(|&c| cell_name(c as usize)).collect();
                write!(f, " ({})", cells.join(" "))?;
            }
        }
        if !self.fins.is_empty() {
            let fins: Vec<String> = self.fins.iter().map(|c| c.to_string()).collect();
            let label = if self.technique.code().starts_with("03") {
                "fins"
            } else {
                "via"
            };
            write!(f, " {label} {}", fins.join(" "))?;
        }
        write!(f, " => {}", self.effects())
    }
}

/// Where a technique's search puts its steps: all of them, or the first one only.
pub(crate) struct Finds {
    pub(crate) steps: Vec<Step>,
    first_only: bool,
}

impl Finds {
    pub(crate) fn new(first_only: bool) -> Finds {
        Finds {
            steps: Vec::new(),
            first_only,
        }
    }

    /// True when only the first step is asked for.
    #[inline]
    pub(crate) fn first_only(&self) -> bool {
        self.first_only
    }

    /// True when the search can stop (the first step is in and only one was asked for).
    #[inline]
    pub(crate) fn done(&self) -> bool {
        self.first_only && !self.steps.is_empty()
    }

    /// Keeps `step` unless it changes nothing; true when the search can stop.
    pub(crate) fn push(&mut self, step: Step) -> bool {
        if !step.is_empty() {
            self.steps.push(step);
        }
        self.done()
    }
}

/// Puts a chain's eliminations in the order HoDoKu applies them: by digit, then cell (the order
/// matters to the singles they leave, [`queues`]).
pub(crate) fn in_hodoku_order(eliminations: &mut [Candidate]) {
    eliminations.sort_unstable_by_key(|c| (c.digit, c.cell));
}

/// HoDoKu's tie break between steps with as many eliminations (the smaller first): the
/// eliminations sorted by digit then cell, summed as `cell * weight + digit` with weights 1, 81,
/// 161, ...
pub(crate) fn index_sum(eliminations: &[Candidate]) -> u64 {
    let mut e: Vec<(u8, u8)> = eliminations.iter().map(|c| (c.digit, c.cell)).collect();
    e.sort_unstable();
    e.iter()
        .enumerate()
        .map(|(i, &(d, c))| c as u64 * (1 + 80 * i as u64) + d as u64)
        .sum()
}

fn search(board: &Board, t: Technique, out: &mut Finds) {
    use Technique::*;
    match t {
        FullHouse | NakedSingle | HiddenSingle => singles::find(board, t, out),
        LockedCandidates1 | LockedCandidates2 => intersections::find(board, t, out),
        LockedPair | LockedTriple | NakedPair | NakedTriple | NakedQuadruple | HiddenPair
        | HiddenTriple | HiddenQuadruple => subsets::find(board, t, out),
        XWing
        | Swordfish
        | Jellyfish
        | FinnedXWing
        | SashimiXWing
        | FinnedSwordfish
        | SashimiSwordfish
        | FinnedJellyfish
        | SashimiJellyfish
        | FrankenXWing
        | FrankenSwordfish
        | FrankenJellyfish
        | FinnedFrankenXWing
        | FinnedFrankenSwordfish
        | FinnedFrankenJellyfish
        | MutantXWing
        | MutantSwordfish
        | MutantJellyfish
        | FinnedMutantXWing
        | FinnedMutantSwordfish
        | FinnedMutantJellyfish
        | FinnedMutantSquirmbag
        | FinnedMutantWhale => fish::find(board, t, out),
        Skyscraper | TwoStringKite | EmptyRectangle => single_digit::find(board, t, out),
        WWing | XyWing | XyzWing => wings::find(board, t, out),
        BugPlus1 | UniquenessTest1 | UniquenessTest2 | UniquenessTest3 | UniquenessTest4
        | UniquenessTest5 | UniquenessTest6 | HiddenRectangle | AvoidableRectangle1
        | AvoidableRectangle2 => uniqueness::find(board, t, out),
        SueDeCoq => sue_de_coq::find(board, out),
        SimpleColorsWrap | SimpleColorsTrap | MultiColors1 | MultiColors2 => {
            colouring::find(board, t, out)
        }
        TurbotFish | RemotePair | XChain | XyChain | Aic | GroupedAic => {
            chains::find(board, t, out)
        }
        AlsXz | AlsXyWing | AlsXyChain | DeathBlossom => als::find(board, t, out),
        ForcingChainContradiction
        | ForcingChainVerity
        | ForcingNetContradiction
        | ForcingNetVerity => forcing::find(board, t, out),
        TemplateSet | TemplateDelete => templates::find(board, t, out),
        BruteForce => {}
    }
}

/// The first step of technique `t` on `board`, if the technique applies.
/// [`Technique::BruteForce`] is never found (it needs the solution; see [`rate`]).
pub fn find(board: &Board, t: Technique) -> Option<Step> {
    let mut out = Finds::new(true);
    search(board, t, &mut out);
    out.steps.into_iter().next()
}

/// Every step of technique `t` on `board` (the same eliminations may appear in several steps).
pub fn find_all(board: &Board, t: Technique) -> Vec<Step> {
    let mut out = Finds::new(false);
    search(board, t, &mut out);
    out.steps
}

/// The next step: the first technique of `techniques` (in that order) that applies on
/// `board`, and its first step.
pub fn next_step(board: &Board, techniques: &[Technique]) -> Option<Step> {
    techniques.iter().find_map(|&t| find(board, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        let mut codes = std::collections::HashSet::new();
        for &t in Technique::ALL {
            assert!(t.score() > 0, "{t}");
            if t != Technique::BruteForce {
                assert!(codes.insert(t.code()), "code {} twice", t.code());
                assert_eq!(Technique::from_code(t.code()), Some(t));
            }
            assert_eq!(Technique::from_name(t.name()), Some(t));
        }
        assert_eq!(Technique::XWing.score(), 140);
        assert_eq!(Technique::AlsXz.hodoku_name(), "Almost Locked Set XZ-Rule");
        assert_eq!(Technique::SueDeCoq.hodoku_name(), "Sue de Coq");
        assert_eq!(Technique::FinnedSwordfish.level(), Level::Unfair);
        assert_eq!(Level::from_name("hard"), Some(Level::Hard));
    }

    #[test]
    fn hodoku_tie_break_and_elimination_order() {
        // r2c5<>1, r2c5<>3: 13 * 1 + 1 + 13 * 81 + 3; r2c5<>3, r6c5<>5: 13 + 3 + 49 * 81 + 5
        let a = [Candidate::new(13, 3), Candidate::new(13, 1)];
        let b = [Candidate::new(49, 5), Candidate::new(13, 3)];
        assert_eq!(index_sum(&a), 1070);
        assert_eq!(index_sum(&b), 3990);
        let mut e = vec![
            Candidate::new(40, 2),
            Candidate::new(3, 7),
            Candidate::new(10, 2),
        ];
        in_hodoku_order(&mut e);
        assert_eq!(
            e,
            [
                Candidate::new(10, 2),
                Candidate::new(40, 2),
                Candidate::new(3, 7)
            ]
        );
    }
}
