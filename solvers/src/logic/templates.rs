//! Templates: the places of one digit in a solved grid, one cell in every row, column and box
//! (46,656 of them on an empty grid).
//!
//! A digit's *possible* templates hold every cell where it is placed and no cell where it is
//! neither placed nor a candidate. Then, as HoDoKu does, a template of a digit is dropped when it
//! takes a cell that every possible template of another digit takes, until no more are dropped.
//!
//! - **Template set**: a cell in every possible template of a digit gets that digit.
//! - **Template delete**: a candidate in no possible template of its digit goes.
//!
//! One step per digit, digits in increasing order. Cost: the templates of each digit are
//! enumerated row by row through its allowed cells (at most 46,656 each), then each is compared
//! with the other digits' common cells until nothing changes. Source: HoDoKu's technique page
//! "Templates" (Bernhard Hobiger). The code is our own.

use super::board::{cells, Board, Cells, ALL_CELLS, UNIT_MASK};
use super::{Candidate, Finds, Step, Technique};

pub(crate) fn find(b: &Board, t: Technique, out: &mut Finds) {
    let lists = refined(b);
    for d in 1..=9u8 {
        let list = &lists[d as usize - 1];
        let mut s = Step::new(t);
        s.digits = super::board::bit(d);
        match t {
            Technique::TemplateSet => {
                if list.is_empty() {
                    continue;
                }
                let set = and_all(list) & !placed_cells(b, d);
                for c in cells(set) {
                    s.cells.push(c as u8);
                    s.placements.push(Candidate::new(c, d));
                }
            }
            Technique::TemplateDelete => {
                let any = list.iter().fold(0, |m, &p| m | p);
                s.eliminate_all(b.digit_cells(d) & !any, d);
            }
            _ => return,
        }
        if out.push(s) {
            return;
        }
    }
}

/// The cells where digit `d` is placed.
fn placed_cells(b: &Board, d: u8) -> Cells {
    cells(ALL_CELLS & !b.empty())
        .filter(|&c| b.value(c) == d)
        .fold(0, |m, c| m | 1u128 << c)
}

/// Every possible template of each digit (index `d - 1`), after HoDoKu's refinement.
fn refined(b: &Board) -> [Vec<Cells>; 9] {
    let mut lists: [Vec<Cells>; 9] = std::array::from_fn(|k| templates(b, k as u8 + 1));
    let mut common: [Cells; 9] = std::array::from_fn(|k| and_all(&lists[k]));
    loop {
        let mut dropped = false;
        for j in 0..9 {
            let before = lists[j].len();
            lists[j].retain(|&p| (0..9).all(|k| k == j || p & common[k] == 0));
            dropped |= lists[j].len() != before;
            common[j] = and_all(&lists[j]);
        }
        if !dropped {
            return lists;
        }
    }
}

fn and_all(list: &[Cells]) -> Cells {
    list.iter().fold(ALL_CELLS, |m, &p| m & p)
}

/// The templates of digit `d` that hold its placed cells and avoid the cells it cannot take.
fn templates(b: &Board, d: u8) -> Vec<Cells> {
    let placed = placed_cells(b, d);
    let allowed = placed | b.digit_cells(d);
    let mut out = Vec::new();
    // Row by row: the row's placed cell if it has one, else each allowed cell of a free column
    // and box.
    fn go(
        row: usize,
        allowed: Cells,
        placed: Cells,
        used: Cells,
        set: Cells,
        out: &mut Vec<Cells>,
    ) {
        if row == 9 {
            out.push(set);
            return;
        }
        let line = UNIT_MASK[row];
        let options = if placed & line != 0 {
            placed & line
        } else {
            allowed & line & !used
        };
        for c in cells(options) {
            let taken = UNIT_MASK[9 + c % 9] | UNIT_MASK[18 + (c / 27) * 3 + (c % 9) / 3];
            if used & 1u128 << c != 0 {
                continue;
            }
            go(
                row + 1,
                allowed,
                placed,
                used | taken,
                set | 1u128 << c,
                out,
            );
        }
    }
    go(0, allowed, placed, 0, 0, &mut out);
    out
}
