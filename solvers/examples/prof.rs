use solvers::{Budget, Grid, Solver};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for l in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
    {
        let g = Grid::parse_line(&l[..81]).unwrap();
        solvers::bitboard_bands::BitboardBands.solve(&g, &Budget::unlimited());
        n += 1;
    }
    let names = [
        "band words processed",
        "places",
        "stack passes",
        "cell passes",
        "dirty pops",
        "nodes",
    ];
    for i in 0..6 {
        println!(
            "{:>22}: {:.1}",
            names[i],
            solvers::bitboard_bands::PROF[i].load(std::sync::atomic::Ordering::Relaxed) as f64
                / n as f64
        );
    }
}
