//! A solution checker of the foreign crate's own, for answers the harness cannot take on trust
//! before it acts on them (a SAT solver's models while counting, where a bad model would be
//! counted as a new solution). It shares no code with the solvers: each row, column and box is
//! checked to hold the digits 1 to 9 once, and each given to be kept.

use solvers::{Board, Grid};

/// Why `solution` is not a solution of `puzzle`, naming the first cell or unit at fault
/// (rows, columns and cells counted from 1: `r3c4`).
pub(crate) fn check_solution(puzzle: &Grid, solution: &Grid) -> Result<(), String> {
    let (p, s) = (puzzle.cells(), solution.cells());
    for cell in 0..81 {
        let (given, got) = (p[cell], s[cell]);
        let name = format!("r{}c{}", cell / 9 + 1, cell % 9 + 1);
        if !(1..=9).contains(&got) {
            return Err(format!("{name} is empty"));
        }
        if given != 0 && given != got {
            return Err(format!("{name} holds {got}, but the puzzle gives {given}"));
        }
    }
    for unit in 0..27 {
        let cells: Vec<usize> = (0..9)
            .map(|k| match unit {
                0..=8 => unit * 9 + k,
                9..=17 => k * 9 + (unit - 9),
                _ => {
                    let b = unit - 18;
                    (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3
                }
            })
            .collect();
        let mut seen = [false; 10];
        for &c in &cells {
            if std::mem::replace(&mut seen[usize::from(s[c])], true) {
                let what = match unit {
                    0..=8 => format!("row {}", unit + 1),
                    9..=17 => format!("column {}", unit - 8),
                    _ => format!("box {}", unit - 17),
                };
                return Err(format!("{what} holds {} twice", s[c]));
            }
        }
    }
    Ok(())
}

/// [`check_solution`] for a board of any shape: every cell filled with 1..=N, each given kept,
/// each row, column and box (from the shape's side and box size alone) holding no symbol twice.
pub(crate) fn check_board_solution(puzzle: &Board, solution: &Board) -> Result<(), String> {
    let shape = puzzle.shape();
    if solution.shape() != shape {
        return Err(format!("the answer is {}, not {shape}", solution.shape()));
    }
    let n = shape.side();
    let (p, s) = (puzzle.cells(), solution.cells());
    for cell in 0..n * n {
        let (given, got) = (p[cell], s[cell]);
        let name = format!("r{}c{}", cell / n + 1, cell % n + 1);
        if got == 0 || usize::from(got) > n {
            return Err(format!("{name} is empty"));
        }
        if given != 0 && given != got {
            return Err(format!("{name} holds {got}, but the puzzle gives {given}"));
        }
    }
    // Unit of each cell by kind: row, column, box.
    let unit = |kind: usize, cell: usize| -> Option<usize> {
        let (row, col) = (cell / n, cell % n);
        match kind {
            0 => Some(row),
            1 => Some(col),
            _ => shape.boxes().map(|(r, c)| (row / r) * (n / c) + col / c),
        }
    };
    let names = ["row", "column", "box"];
    for (kind, name) in names.iter().enumerate() {
        let mut seen = vec![false; n * (n + 1)];
        for (cell, &v) in s.iter().enumerate() {
            let Some(u) = unit(kind, cell) else { break };
            let v = usize::from(v);
            if std::mem::replace(&mut seen[u * (n + 1) + v], true) {
                return Err(format!("{name} {} holds {v} twice", u + 1));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use solvers::known_puzzles::{SEED as PUZZLE, SEED_SOLUTION as SOLUTION};

    #[test]
    fn a_solution_passes_and_each_fault_is_named() {
        let p: Grid = PUZZLE.parse().unwrap();
        let s: Grid = SOLUTION.parse().unwrap();
        assert_eq!(check_solution(&p, &s), Ok(()));
        // Swap two cells of row 1: the givens 7 (r1c1) is moved.
        let mut swapped = SOLUTION.as_bytes().to_vec();
        swapped.swap(0, 1);
        let swapped: Grid = std::str::from_utf8(&swapped).unwrap().parse().unwrap();
        assert_eq!(
            check_solution(&p, &swapped),
            Err("r1c1 holds 2, but the puzzle gives 7".into())
        );
        // On the empty grid the swap keeps every row whole but breaks columns 1 and 2.
        let empty = Grid::from_cells([0; 81]).unwrap();
        assert_eq!(
            check_solution(&empty, &swapped),
            Err("column 1 holds 2 twice".into())
        );
        let mut doubled = SOLUTION.as_bytes().to_vec();
        doubled[80] = b'5';
        let doubled: Grid = std::str::from_utf8(&doubled).unwrap().parse().unwrap();
        assert_eq!(
            check_solution(&empty, &doubled),
            Err("row 9 holds 5 twice".into())
        );
    }

    #[test]
    fn boards_of_other_shapes_are_checked_by_their_units() {
        let shape = solvers::Shape::sudoku(2, 3).unwrap();
        // The pattern grid of 2x3 boxes: (3·(row mod 2) + row div 2 + col) mod 6 + 1.
        let cells: Vec<u16> = (0..36)
            .map(|i| ((3 * ((i / 6) % 2) + (i / 6) / 2 + i % 6) % 6 + 1) as u16)
            .collect();
        let full = Board::new(shape, cells.clone()).unwrap();
        let empty = Board::empty(shape);
        assert_eq!(check_board_solution(&empty, &full), Ok(()));
        // Rows 1 and 3 swapped: rows and columns stay whole; box 1 is now 234 / 456.
        let mut swapped = cells.clone();
        for c in 0..6 {
            swapped.swap(c, 12 + c);
        }
        let swapped = Board::new(shape, swapped).unwrap();
        assert_eq!(
            check_board_solution(&empty, &swapped),
            Err("box 1 holds 4 twice".into())
        );
        let mut given = Board::empty(shape);
        given.set(0, 2);
        assert_eq!(
            check_board_solution(&given, &full),
            Err("r1c1 holds 1, but the puzzle gives 2".into())
        );
    }
}
