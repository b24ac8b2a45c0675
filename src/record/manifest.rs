//! A dataset's manifest as run.json records it (`manifests`): what a file holds, so two runs can
//! be known to be on the same puzzles. [`crate::execution::manifest`] computes it.

use super::SolutionClass;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The classes of a dataset's readable puzzles by solution count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Classes {
    /// Puzzles with no solution.
    pub none: usize,
    /// Puzzles with exactly one solution.
    pub one: usize,
    /// Puzzles with two or more solutions.
    pub several: usize,
    /// Puzzles whose count ran out of budget.
    pub unknown: usize,
}

impl Classes {
    /// Counts one puzzle of class `c` (`None` for unknown; see
    /// [`crate::record::Row::solutions`]).
    pub fn add(&mut self, c: Option<SolutionClass>) {
        match c {
            Some(SolutionClass::None) => self.none += 1,
            Some(SolutionClass::One) => self.one += 1,
            Some(SolutionClass::Several) => self.several += 1,
            None => self.unknown += 1,
        }
    }
}

/// What a dataset holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Dataset name.
    pub name: String,
    /// Where it came from (`shipped:NAME` or the path).
    pub source: String,
    /// sha256 of the file ([`crate::input::dataset::Source::sha256`]), lowercase hex.
    pub sha256: String,
    /// Puzzles, unreadable ones included.
    pub puzzles: usize,
    /// Puzzles that could not be read.
    pub invalid: usize,
    /// Number of givens -> readable puzzles with that many.
    pub clues: BTreeMap<usize, usize>,
    /// Solution counts of the readable puzzles; absent when not counted.
    #[serde(default)]
    pub classes: Option<Classes>,
    /// Readable puzzles equal (cell for cell) to an earlier one of the file.
    pub duplicates: usize,
    /// Readable puzzles isomorphic to an earlier one (exact duplicates included); absent when
    /// not looked for.
    #[serde(default)]
    pub isomorphic_duplicates: Option<usize>,
    /// The first duplicate pairs, as (line, line of the earlier puzzle).
    pub duplicate_lines: Vec<(usize, usize)>,
    /// The first isomorphic pairs that are not exact duplicates, as (line, line of the earlier).
    #[serde(default)]
    pub isomorphic_lines: Vec<(usize, usize)>,
    /// The readable puzzles of each shape, smallest shape first; empty in manifests written
    /// before shapes were read.
    #[serde(default)]
    pub shapes: Vec<ShapeCount>,
}

/// The readable puzzles of one shape in a dataset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeCount {
    /// The shape, as [`solvers::Shape`] writes it: `9x9`, `16x16`, `12x12/3x4`, `10x10/latin`.
    pub shape: String,
    /// Readable puzzles of this shape.
    pub puzzles: usize,
    /// Number of givens -> puzzles of this shape with that many.
    pub clues: BTreeMap<usize, usize>,
}

impl Manifest {
    /// True when every readable puzzle is 9x9 (or there is none).
    pub fn classic_only(&self) -> bool {
        self.shapes
            .iter()
            .all(|s| s.shape == solvers::Shape::CLASSIC.to_string())
    }
}
