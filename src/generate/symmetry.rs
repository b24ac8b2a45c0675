//! Symmetries for puzzles: the givens of a symmetric puzzle are a union of orbits of the cells
//! under a group of the square's symmetries, so givens are removed (and kept) orbit by orbit.

/// A map of the square: (row, column) -> (row, column), 0-based.
type CellMap = fn(usize, usize) -> (usize, usize);

/// A symmetry the givens of a generated puzzle keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symmetry {
    /// None: cells are removed one at a time.
    #[default]
    None,
    /// 180° rotation: r,c <-> 8-r,8-c (the newspaper symmetry). Orbits of 2 cells, the centre alone.
    Rotational,
    /// 90° rotation (all four quarter turns). Orbits of 4 cells, the centre alone.
    Quarter,
    /// Left-right mirror: r,c <-> r,8-c. Orbits of 2, the middle column alone.
    Mirror,
    /// Reflection in the main diagonal: r,c <-> c,r. Orbits of 2, the diagonal alone.
    Diagonal,
    /// All 8 symmetries of the square (rotations and reflections). Orbits of up to 8 cells.
    Full,
}

impl Symmetry {
    /// Every symmetry, in the order the CLI lists them.
    pub const ALL: [Symmetry; 6] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::Quarter,
        Symmetry::Mirror,
        Symmetry::Diagonal,
        Symmetry::Full,
    ];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Quarter => "quarter",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Full => "full",
        }
    }

    /// The maps (cell index -> cell index) generating the group.
    fn generators(self) -> Vec<CellMap> {
        fn rot180(r: usize, c: usize) -> (usize, usize) {
            (8 - r, 8 - c)
        }
        fn rot90(r: usize, c: usize) -> (usize, usize) {
            (c, 8 - r)
        }
        fn mirror(r: usize, c: usize) -> (usize, usize) {
            (r, 8 - c)
        }
        fn transpose(r: usize, c: usize) -> (usize, usize) {
            (c, r)
        }
        match self {
            Symmetry::None => vec![],
            Symmetry::Rotational => vec![rot180],
            Symmetry::Quarter => vec![rot90],
            Symmetry::Mirror => vec![mirror],
            Symmetry::Diagonal => vec![transpose],
            Symmetry::Full => vec![rot90, transpose],
        }
    }

    /// The orbits of the 81 cells (each sorted, in order of their smallest cell): the sets of
    /// cells that must be all givens or all empty.
    pub fn orbits(self) -> Vec<Vec<usize>> {
        let gens = self.generators();
        let mut orbit_of = [usize::MAX; 81];
        let mut orbits: Vec<Vec<usize>> = Vec::new();
        for start in 0..81 {
            if orbit_of[start] != usize::MAX {
                continue;
            }
            let id = orbits.len();
            let mut orbit = vec![start];
            orbit_of[start] = id;
            let mut k = 0;
            while k < orbit.len() {
                let cell = orbit[k];
                for g in &gens {
                    let (r, c) = g(cell / 9, cell % 9);
                    let next = r * 9 + c;
                    if orbit_of[next] == usize::MAX {
                        orbit_of[next] = id;
                        orbit.push(next);
                    }
                }
                k += 1;
            }
            orbit.sort_unstable();
            orbits.push(orbit);
        }
        orbits
    }
}

/// An unknown symmetry name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown symmetry {0:?}; known: none, rotational, quarter, mirror, diagonal, full")]
pub struct UnknownSymmetry(pub String);

solvers::text_by_name!(Symmetry, UnknownSymmetry);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbit_sizes() {
        let sizes = |s: Symmetry| {
            let mut v: Vec<usize> = s.orbits().iter().map(Vec::len).collect();
            v.sort_unstable();
            v
        };
        for s in Symmetry::ALL {
            assert_eq!(sizes(s).iter().sum::<usize>(), 81, "{s}");
        }
        assert_eq!(Symmetry::None.orbits().len(), 81);
        assert_eq!(Symmetry::Rotational.orbits().len(), 41);
        assert_eq!(Symmetry::Quarter.orbits().len(), 21);
        assert_eq!(Symmetry::Mirror.orbits().len(), 45);
        assert_eq!(Symmetry::Diagonal.orbits().len(), 45);
        // Burnside: (81 fixed by the identity + 1 + 1 + 1 by the turns + 4 x 9 by the
        // reflections) / 8 = 15.
        assert_eq!(Symmetry::Full.orbits().len(), 15);
    }
}
