//! Singles in the order HoDoKu finds them: from two queues filled as candidates disappear.
//!
//! HoDoKu does not scan the grid for singles. Every time a candidate goes, it notes a cell left
//! with one candidate (the naked-single queue) and a unit left with one place for the digit
//! (the hidden-single queue, holding that place), in the order they arise. A placement removes
//! the digit from the cell's peers in cell order, then the cell's own candidates in digit order;
//! a step's eliminations go in the step's order. The rater takes its singles from these queues
//! ([`SingleQueues`]), so that it places the same single HoDoKu places:
//!
//! - **full house**: the first naked-single entry (queue order) whose cell is the last empty cell
//!   of one of its units; the queue is only read;
//! - **naked single**: entries are taken off the queue until one's cell is still empty;
//! - **hidden single**: entries are taken off the queue until one's cell is still empty; if none
//!   of that cell's units has the digit in one place only, the entry is stale and the search ends
//!   there without a step (HoDoKu's rule: the next technique in order is tried, and the rest of
//!   the queue waits for the next step).
//!
//! A puzzle is loaded as HoDoKu loads it: from a board with every candidate, each given placed in
//! cell order, so the queues start with the singles the givens leave.

use super::board::{cells, digits, unit, Board, Cells, CELL_UNITS, PEERS};
use super::{Step, Technique};
use crate::Grid;
use std::collections::VecDeque;

/// HoDoKu's naked- and hidden-single queues, kept in step with a [`Board`] by placing digits and
/// eliminating candidates through [`SingleQueues::apply`].
#[derive(Debug, Clone, Default)]
pub(crate) struct SingleQueues {
    /// (cell, digit): the cell was left with this one candidate.
    naked: VecDeque<(u8, u8)>,
    /// (cell, digit): a unit of the cell was left with this one place for the digit.
    hidden: VecDeque<(u8, u8)>,
}

impl SingleQueues {
    /// The board of `puzzle` and its queues, the givens placed one by one in cell order.
    pub(crate) fn load(puzzle: &Grid) -> (Board, SingleQueues) {
        let givens: Cells = (0..81)
            .filter(|&c| puzzle.get(c) != 0)
            .fold(0, |m, c| m | 1u128 << c);
        let mut board = Board::from_marks(&[0; 81], givens, &[0x1ff; 81]);
        let mut q = SingleQueues::default();
        for cell in 0..81 {
            let v = puzzle.get(cell);
            if v != 0 && board.value(cell) == 0 {
                q.place(&mut board, cell, v);
            }
        }
        (board, q)
    }

    /// Applies `step` to `board` (placements, then eliminations, each in the step's order),
    /// noting the singles it leaves.
    pub(crate) fn apply(&mut self, step: &Step, board: &mut Board) {
        for p in &step.placements {
            if board.value(p.cell as usize) == 0 {
                self.place(board, p.cell as usize, p.digit);
            }
        }
        for e in &step.eliminations {
            self.eliminate(board, e.cell as usize, e.digit);
        }
    }

    /// Places `d` in `cell`: `d` leaves the peers (in cell order), then the cell's candidates go.
    fn place(&mut self, board: &mut Board, cell: usize, d: u8) {
        for p in cells(PEERS[cell] & board.digit_cells(d)) {
            self.eliminate(board, p, d);
        }
        for e in digits(board.cands(cell)) {
            board.eliminate(cell, e);
            if e != d {
                self.note_units(board, cell, e);
            }
        }
        board.place(cell, d);
    }

    /// Removes candidate `d` from `cell`, noting a unit left with one place for `d` and a cell
    /// left with one candidate.
    fn eliminate(&mut self, board: &mut Board, cell: usize, d: u8) {
        if !board.eliminate(cell, d) {
            return;
        }
        self.note_units(board, cell, d);
        let left = board.cands(cell);
        if left.count_ones() == 1 {
            self.naked
                .push_back((cell as u8, left.trailing_zeros() as u8 + 1));
        }
    }

    /// Notes every unit of `cell` where `d` has one place left.
    fn note_units(&mut self, board: &Board, cell: usize, d: u8) {
        for u in CELL_UNITS[cell] {
            let places = board.in_unit(u, d);
            if places.count_ones() == 1 {
                self.hidden.push_back((places.trailing_zeros() as u8, d));
            }
        }
    }

    /// The first full house of the naked-single queue (the queue stays as it is).
    pub(crate) fn full_house(&self, board: &Board) -> Option<Step> {
        self.naked.iter().find_map(|&(cell, d)| {
            let cell = cell as usize;
            if board.value(cell) != 0 {
                return None;
            }
            let u = CELL_UNITS[cell]
                .into_iter()
                .find(|&u| (1..=9u8).all(|e| e == d || board.in_unit(u, e) == 0))?;
            let mut s = Step::placing(Technique::FullHouse, cell, d);
            s.units.push(unit(u));
            Some(s)
        })
    }

    /// The next naked single of the queue, taking it and the filled cells' entries before it off.
    pub(crate) fn naked_single(&mut self, board: &Board) -> Option<Step> {
        while let Some((cell, d)) = self.naked.pop_front() {
            if board.value(cell as usize) == 0 {
                return Some(Step::placing(Technique::NakedSingle, cell as usize, d));
            }
        }
        None
    }

    /// The next hidden single of the queue, taking it and the filled cells' entries before it
    /// off; `None` at the first stale entry of an empty cell.
    pub(crate) fn hidden_single(&mut self, board: &Board) -> Option<Step> {
        while let Some((cell, d)) = self.hidden.pop_front() {
            let cell = cell as usize;
            if board.value(cell) != 0 {
                continue;
            }
            let u = CELL_UNITS[cell]
                .into_iter()
                .find(|&u| board.in_unit(u, d) == 1u128 << cell)?;
            let mut s = Step::placing(Technique::HiddenSingle, cell, d);
            s.units.push(unit(u));
            return Some(s);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loading_gives_the_board_of_the_puzzle() {
        let p = Grid::parse_line(crate::known_puzzles::TOP95_FIRST).unwrap();
        let (b, _) = SingleQueues::load(&p);
        assert!(b == Board::new(&p));
    }

    #[test]
    fn singles_come_in_the_order_candidates_go() {
        // Row 1 holds 1..7 in c1..c7: r1c8 and r1c9 keep 8 and 9. Placing 8 in r1c8 leaves r1c9
        // with 9 (a naked single and a full house) and 9 with one place in row 1.
        let mut p = [0u8; 81];
        for c in 0..7 {
            p[c] = c as u8 + 1;
        }
        let (mut b, mut q) = SingleQueues::load(&Grid::from_cells(p).unwrap());
        assert!(q.full_house(&b).is_none());
        q.apply(&Step::placing(Technique::NakedSingle, 7, 8), &mut b);
        let fh = q.full_house(&b).expect("a full house");
        assert_eq!((fh.placements[0].cell, fh.placements[0].digit), (8, 9));
        let ns = q.naked_single(&b).expect("a naked single");
        assert_eq!((ns.placements[0].cell, ns.placements[0].digit), (8, 9));
        let hs = q.hidden_single(&b).expect("a hidden single");
        assert_eq!(hs.placements[0].cell, 8);
    }
}
