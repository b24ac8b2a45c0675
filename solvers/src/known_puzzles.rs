//! Well-known 9x9 puzzles with their solutions, for examples and for the tests of every crate
//! of the workspace (each solution checked by the independent checker and by two solvers).

/// The source write-up's first puzzle (22 givens; `seed-example` of the shipped `seed` set).
pub const SEED: &str =
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
/// The solution of [`SEED`].
pub const SEED_SOLUTION: &str =
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346";

/// The first puzzle of Norvig's `top95` collection (17 givens).
pub const TOP95_FIRST: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// The solution of [`TOP95_FIRST`].
pub const TOP95_FIRST_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
