//! The scaling study of `harness scale` (docs/scaling.md): what to generate, the instances, and
//! what the run's rows say about how cost grows.
//!
//! | file | concern |
//! |---|---|
//! | this file | [`Plan`] and [`Point`]: the shapes and hole fractions of a study, parsed from the command line; dataset names that say what each point is |
//! | [`instances`] | the instance files of every point, reproducible per seed |
//! | [`analysis`] | per point and solver: median and p90 cost with bootstrap intervals, PAR-2 for the censored; power-law and exponential fits; the hardness peak over hole fractions |
//! | [`backbone`] | the backbone of an instance by forward checking; the isomorphs of one instance |
//! | [`plot`] | cost against order (log-log), cost against holes / N² with the backbone |
//! | [`figures`] | the collapse of the peaks on holes / N^1.55 (and N²); run-time distributions |
//! | [`page`] | scale.md and scale.csv |

pub mod analysis;
pub mod backbone;
pub mod figures;
pub mod instances;
pub mod page;
pub mod plot;

use solvers::Shape;

/// Which family a point belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Sudoku of any box shape: puzzles with exactly one solution, or with punched holes.
    Sudoku,
    /// Quasigroups with holes: a random Latin square with some cells emptied.
    Qwh,
}

impl Family {
    /// `sudoku` or `qwh`: the dataset name's prefix.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Sudoku => "sudoku",
            Family::Qwh => "qwh",
        }
    }
}

/// The exponent of the order in the quasigroups' hole counts: the hardness peaks of different
/// orders line up when the holes are counted in units of N^1.55 (Achlioptas, Gomes, Kautz and
/// Selman, AAAI 2000).
pub const PEAK_EXPONENT: f64 = 1.55;

/// How many holes, as given on the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Amount {
    /// This fraction of the N² cells (0..=1): `round(f·N²)` holes.
    Fraction(f64),
    /// This multiple of N^1.55: `round(m·N^1.55)` holes (at most N²).
    PerN155(f64),
    /// Exactly this many holes (at most N²).
    Count(usize),
}

impl Amount {
    /// The number of random holes it gives a grid of side `side`: `round(f·N²)`,
    /// `round(m·N^1.55)` or the count, at most N².
    pub fn count(self, side: usize) -> usize {
        let cells = side * side;
        let k = match self {
            Amount::Fraction(f) => (f.clamp(0.0, 1.0) * cells as f64).round() as usize,
            Amount::PerN155(m) => (m.max(0.0) * (side as f64).powf(PEAK_EXPONENT)).round() as usize,
            Amount::Count(k) => k,
        };
        k.min(cells)
    }

    /// `0.42`, `1.60n155`, `316`: the dataset name's part after `h` or `p`.
    fn label(self) -> String {
        match self {
            Amount::Fraction(f) => short(f),
            Amount::PerN155(m) => format!("{}n155", short(m)),
            Amount::Count(k) => k.to_string(),
        }
    }

    /// The amount a [`Amount::label`] stands for.
    fn parse(s: &str) -> Option<Amount> {
        if let Some(m) = s.strip_suffix("n155") {
            return Some(Amount::PerN155(m.parse().ok()?));
        }
        if s.contains('.') {
            return Some(Amount::Fraction(s.parse().ok()?));
        }
        Some(Amount::Count(s.parse().ok()?))
    }
}

/// A number in two decimals, or three when the third is not 0: `0.42`, `0.425`, `1.60`.
fn short(f: f64) -> String {
    let mut s = format!("{f:.3}");
    if s.ends_with('0') {
        s.pop();
    }
    s
}

/// How many cells a point's instances have emptied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Holes {
    /// Quasigroups: this many holes punched in a random Latin square. Sudoku: givens removed
    /// while the solution stays unique, down to this many holes (a fraction only).
    Amount(Amount),
    /// Sudoku: givens removed until none can go (the puzzle is minimal).
    Minimal,
    /// Sudoku: this many holes punched at random in a solved grid, whatever the number of
    /// solutions left.
    Punched(Amount),
}

impl Holes {
    /// `h0.42`, `h0.425`, `h1.60n155` (1.60·N^1.55 holes), `h316` (316 holes), `minimal`,
    /// `p0.50`, `p1.60n155`, `p316` (punched): the dataset name's suffix.
    pub fn label(self) -> String {
        match self {
            Holes::Amount(a) => format!("h{}", a.label()),
            Holes::Punched(a) => format!("p{}", a.label()),
            Holes::Minimal => "minimal".into(),
        }
    }

    /// The amount, if the point has one.
    pub fn amount(self) -> Option<Amount> {
        match self {
            Holes::Amount(a) | Holes::Punched(a) => Some(a),
            Holes::Minimal => None,
        }
    }
}

/// One point of a study: a family, a shape, how many holes and how they are placed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// The family.
    pub family: Family,
    /// The grid's shape.
    pub shape: Shape,
    /// How many cells are empty.
    pub holes: Holes,
    /// The same number of holes in every row and column (quasigroups, punched Sudoku).
    pub balanced: bool,
    /// Every instance is a random isomorph of one instance (rows, columns and symbols
    /// permuted): repeated randomised runs of that instance.
    pub isomorphs: bool,
}

impl Point {
    /// The dataset's name (its file name): `sudoku-16x16-h0.50.txt`, `sudoku-12x12-3x4-h0.50.txt`,
    /// `sudoku-9x9-minimal.txt`, `sudoku-100x100-p0.50.txt` (punched), `qwh-20-h0.42.txt`,
    /// `qwh-30-h1.60n155.txt`, `qwh-30-h316.txt`; then `-balanced` for balanced holes and
    /// `-iso` for the isomorphs of one instance.
    pub fn name(&self) -> String {
        let shape = match self.family {
            Family::Sudoku => self.shape.to_string().replace('/', "-"),
            Family::Qwh => self.shape.side().to_string(),
        };
        format!(
            "{}-{shape}-{}{}{}.txt",
            self.family.as_str(),
            self.holes.label(),
            if self.balanced { "-balanced" } else { "" },
            if self.isomorphs { "-iso" } else { "" }
        )
    }

    /// The point a dataset name of [`Point::name`] stands for, given the shape run.json records
    /// for it; `None` for a name of another form.
    pub fn from_name(name: &str, shape: Shape) -> Option<Point> {
        let stem = name.strip_suffix(".txt")?;
        let (stem, isomorphs) = match stem.strip_suffix("-iso") {
            Some(s) => (s, true),
            None => (stem, false),
        };
        let (stem, balanced) = match stem.strip_suffix("-balanced") {
            Some(s) => (s, true),
            None => (stem, false),
        };
        let (family, rest) = stem.split_once('-')?;
        let family = match family {
            "sudoku" => Family::Sudoku,
            "qwh" => Family::Qwh,
            _ => return None,
        };
        let (_, holes) = rest.rsplit_once('-')?;
        let holes = match holes {
            "minimal" => Holes::Minimal,
            h => match h.split_at_checked(1)? {
                ("h", a) => Holes::Amount(Amount::parse(a)?),
                ("p", a) => Holes::Punched(Amount::parse(a)?),
                _ => return None,
            },
        };
        let point = Point {
            family,
            shape,
            holes,
            balanced,
            isomorphs,
        };
        (point.name() == name).then_some(point)
    }

    /// The side N of the grid: the x axis of the order plots.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// The number of holes of every instance (`None` for minimal Sudoku puzzles): `round(f·N²)`,
    /// `round(m·N^1.55)` or the count given; balanced, `N · round(that / N)` (the same number
    /// in every row), except that a fraction gives `N · round(f·N)` (as `harness generate qwh
    /// --balanced` does).
    pub fn hole_count(&self) -> Option<usize> {
        let amount = self.holes.amount()?;
        let n = self.side();
        Some(match (self.balanced, amount) {
            (false, a) => a.count(n),
            (true, Amount::Fraction(f)) => {
                crate::generate::qwh::hole_count(n, f, crate::generate::qwh::Holes::Balanced)
            }
            (true, a) => n * ((a.count(n) as f64 / n.max(1) as f64).round() as usize),
        })
    }

    /// Holes / N²: the hole fraction's axis.
    pub fn per_n2(&self) -> Option<f64> {
        let n = self.side() as f64;
        Some(self.hole_count()? as f64 / (n * n))
    }

    /// Holes / N^1.55: the axis on which the peaks of different orders line up.
    pub fn per_n155(&self) -> Option<f64> {
        Some(self.hole_count()? as f64 / (self.side() as f64).powf(PEAK_EXPONENT))
    }

    /// The same point with random holes and its own instances (not isomorphs).
    pub fn plain(&self) -> Point {
        Point {
            balanced: false,
            isomorphs: false,
            ..*self
        }
    }
}

/// What a study generates: its points, instances per point, seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Every point, Sudoku first (by side), then the quasigroups (by order, then hole fraction).
    pub points: Vec<Point>,
    /// Instances per point.
    pub instances: u64,
    /// The seed every point's seed is drawn from.
    pub seed: u64,
    /// Balanced holes for the quasigroups and the punched Sudoku.
    pub balanced: bool,
    /// Node budget of each uniqueness count of the Sudoku generator (`None`: none).
    pub count_nodes: Option<u64>,
}

/// Parses `--sudoku-orders`: orders `N` (the side; square boxes, so N is a square), ranges
/// `a..b` (every square side from a to b: `4..25` is 4x4, 9x9, 16x16 and 25x25), boxes `RxC`
/// (side R·C); sorted, duplicates dropped.
///
/// # Errors
/// An item of another form, a side that is not a square, a range without a square side, or a
/// shape that is not a Sudoku shape (side over 128).
pub fn parse_sudoku_orders(items: &[String]) -> anyhow::Result<Vec<Shape>> {
    let mut shapes: Vec<Shape> = Vec::new();
    for item in items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let bad = |why: String| anyhow::anyhow!("--sudoku-orders {item:?}: {why}");
        let found: Vec<Shape> = if item.contains(['x', 'X']) {
            let (r, c) = crate::cli::parse_box(item).map_err(bad)?;
            vec![Shape::sudoku(r, c).map_err(|e| bad(e.to_string()))?]
        } else {
            let (a, b, step) = parse_range(item).map_err(bad)?;
            if step != 1 {
                return Err(bad(
                    "a range of sides takes no step: a..b is every square side \
                                from a to b"
                        .into(),
                ));
            }
            if b > 128 {
                return Err(bad("sides run up to 128".into()));
            }
            let found: Vec<Shape> = (a..=b).filter_map(Shape::square_for_side).collect();
            if found.is_empty() && a == b {
                return Err(bad(format!(
                    "side {a} has no square boxes: give them as RxC with R·C = {a}"
                )));
            }
            if found.is_empty() {
                return Err(bad(format!("no side from {a} to {b} is a square")));
            }
            found
        };
        for s in found {
            if !shapes.contains(&s) {
                shapes.push(s);
            }
        }
    }
    shapes.sort_by_key(|s| (s.side(), s.boxes()));
    Ok(shapes)
}

/// The error for the retired `--orders` (box orders n, side n²), naming its new spelling:
/// `--orders 2..5,2x3` is `--sudoku-orders 4..25,2x3`.
fn retired_orders(items: &[String]) -> anyhow::Error {
    let new: Vec<String> = items
        .iter()
        .map(|item| {
            let item = item.trim();
            let square = |t: &str| t.trim().parse::<usize>().map(|n| (n * n).to_string());
            match item.split_once("..") {
                _ if item.contains(['x', 'X']) => item.to_string(),
                Some((a, b)) => match (square(a), square(b)) {
                    (Ok(a), Ok(b)) => format!("{a}..{b}"),
                    _ => item.to_string(),
                },
                None => square(item).unwrap_or_else(|_| item.to_string()),
            }
        })
        .collect();
    anyhow::anyhow!(
        "--orders (box orders: side n²) is retired: a Sudoku is given by its order N, the side, \
         with --sudoku-orders, as the quasigroups are with --qwh-orders: --orders {} is \
         --sudoku-orders {}",
        items.join(","),
        new.join(",")
    )
}

/// Parses `--qwh-orders`: `N`, `a..b`, `a..b/s`; sorted, duplicates dropped.
///
/// # Errors
/// An item of another form, or an order outside 1..=128.
pub fn parse_qwh_orders(items: &[String]) -> anyhow::Result<Vec<usize>> {
    let mut orders = Vec::new();
    for item in items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let (a, b, step) =
            parse_range(item).map_err(|why| anyhow::anyhow!("--qwh-orders {item:?}: {why}"))?;
        if a == 0 || b > 128 {
            anyhow::bail!("--qwh-orders {item:?}: orders run from 1 to 128");
        }
        orders.extend((a..=b).step_by(step));
    }
    orders.sort_unstable();
    orders.dedup();
    Ok(orders)
}

/// `n`, `a..b` or `a..b/s` (whole numbers, a <= b, s >= 1).
fn parse_range(item: &str) -> Result<(usize, usize, usize), String> {
    let whole = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("{s:?} is not a whole number (give N, A..B or A..B/STEP)"))
    };
    let (range, step) = match item.split_once('/') {
        Some((r, s)) => (r, whole(s)?),
        None => (item, 1),
    };
    if step == 0 {
        return Err("a step of 0".into());
    }
    let (a, b) = match range.split_once("..") {
        Some((a, b)) => (whole(a)?, whole(b.trim_start_matches('='))?),
        None => {
            let n = whole(range)?;
            (n, n)
        }
    };
    if a > b {
        return Err(format!("{a} is above {b}"));
    }
    Ok((a, b, step))
}

/// Parses `--holes`: fractions `F` and ranges `LO..HI/STEP` (both ends included, each value
/// rounded to 1e-9 so that `0.30..0.60/0.02` ends at 0.60); sorted, duplicates dropped.
///
/// # Errors
/// A value outside 0..=1, a step of 0 or below, more than 1,000 values in a range.
pub fn parse_holes(items: &[String]) -> anyhow::Result<Vec<f64>> {
    parse_values(items, "--holes", crate::cli::parse_fraction)
}

/// Parses `--holes-per-n155`: multiples `M` of N^1.55 and ranges `LO..HI/STEP` (both ends
/// included), as [`parse_holes`]: `1.2..2.8/0.1`.
///
/// # Errors
/// A value that is not a number from 0 to 1,000, a step of 0 or below, more than 1,000 values.
pub fn parse_per_n155(items: &[String]) -> anyhow::Result<Vec<f64>> {
    parse_values(items, "--holes-per-n155", |s| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|m| (0.0..=1000.0).contains(m))
            .ok_or_else(|| format!("{s:?} is not a number from 0 to 1000"))
    })
}

/// Parses `--hole-counts`: counts `K`, ranges `a..b` and `a..b/s`; sorted, duplicates dropped.
///
/// # Errors
/// An item of another form, or more than 1,000 counts.
pub fn parse_hole_counts(items: &[String]) -> anyhow::Result<Vec<usize>> {
    let mut out = Vec::new();
    for item in items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let (a, b, step) =
            parse_range(item).map_err(|why| anyhow::anyhow!("--hole-counts {item:?}: {why}"))?;
        if (b - a) / step >= 1000 {
            anyhow::bail!("--hole-counts {item:?}: more than 1,000 values");
        }
        out.extend((a..=b).step_by(step));
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Values and ranges `LO..HI/STEP` of `flag`, each value read by `value`.
fn parse_values(
    items: &[String],
    flag: &str,
    value: impl Fn(&str) -> Result<f64, String>,
) -> anyhow::Result<Vec<f64>> {
    let mut out: Vec<f64> = Vec::new();
    for item in items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let bad = |why: &str| anyhow::anyhow!("{flag} {item:?}: {why}");
        let one = |s: &str| value(s).map_err(|e| bad(&e));
        match item.split_once("..") {
            None => out.push(one(item)?),
            Some((lo, rest)) => {
                let (hi, step) = rest
                    .split_once('/')
                    .ok_or_else(|| bad("a range needs a step: LO..HI/STEP (0.30..0.60/0.02)"))?;
                let (lo, hi) = (one(lo)?, one(hi)?);
                let step: f64 = step
                    .trim()
                    .parse()
                    .ok()
                    .filter(|s: &f64| *s > 0.0)
                    .ok_or_else(|| bad("the step is not a number above 0"))?;
                if lo > hi {
                    return Err(bad("LO is above HI"));
                }
                let n = ((hi - lo) / step + 1e-9).floor() as usize;
                if n > 1000 {
                    return Err(bad("more than 1,000 values"));
                }
                out.extend((0..=n).map(|k| ((lo + k as f64 * step) * 1e9).round() / 1e9));
            }
        }
    }
    out.sort_by(f64::total_cmp);
    out.dedup();
    Ok(out)
}

/// Parses `--sudoku-holes`: a fraction or `minimal`; with `punched`, a fraction only.
///
/// # Errors
/// Anything else.
pub fn parse_sudoku_holes(s: &str, punched: bool) -> anyhow::Result<Holes> {
    if s.trim() == "minimal" {
        if punched {
            anyhow::bail!("--sudoku-holes minimal: punched holes need a fraction (0.5)");
        }
        return Ok(Holes::Minimal);
    }
    let f = crate::cli::parse_fraction(s)
        .map_err(|e| anyhow::anyhow!("--sudoku-holes: {e}, or `minimal`"))?;
    Ok(if punched {
        Holes::Punched(Amount::Fraction(f))
    } else {
        Holes::Amount(Amount::Fraction(f))
    })
}

impl Plan {
    /// The plan of `harness scale`'s arguments.
    ///
    /// # Errors
    /// A bad `--orders`, `--qwh-orders`, `--holes` or `--sudoku-holes`, or neither family asked
    /// for.
    pub fn from_args(args: &crate::cli::ScaleArgs) -> anyhow::Result<Plan> {
        if !args.orders.is_empty() {
            return Err(retired_orders(&args.orders));
        }
        let sudoku = parse_sudoku_orders(&args.sudoku_orders)?;
        let qwh = parse_qwh_orders(&args.qwh_orders)?;

        if sudoku.is_empty() && qwh.is_empty() {
            anyhow::bail!(
                "nothing to study: give Sudoku shapes (--sudoku-orders 4..25,2x3,3x4) \
                 and/or quasigroup orders (--qwh-orders 10..20/5)"
            );
        }
        let per_n155 = parse_per_n155(&args.holes_per_n155)?;
        let counts = parse_hole_counts(&args.hole_counts)?;
        let mut scaled: Vec<Amount> = per_n155.iter().map(|&m| Amount::PerN155(m)).collect();
        scaled.extend(counts.iter().map(|&k| Amount::Count(k)));
        let sudoku_amounts: Vec<Holes> = match (&args.sudoku_holes, scaled.is_empty()) {
            (Some(h), _) => vec![parse_sudoku_holes(h, args.punched)?],
            (None, true) => vec![parse_sudoku_holes("0.5", args.punched)?],
            (None, false) if args.punched => Vec::new(),
            (None, false) => vec![parse_sudoku_holes("0.5", false)?],
        };
        let mut sudoku_holes = sudoku_amounts;
        if args.punched {
            sudoku_holes.extend(scaled.iter().map(|&a| Holes::Punched(a)));
        }
        let mut qwh_holes: Vec<Holes> = match (args.holes.is_empty(), scaled.is_empty()) {
            (true, true) => vec![0.42],
            _ => parse_holes(&args.holes)?,
        }
        .into_iter()
        .map(|f| Holes::Amount(Amount::Fraction(f)))
        .collect();
        qwh_holes.extend(scaled.iter().map(|&a| Holes::Amount(a)));
        let placements: &[bool] = match (args.balanced, args.placement) {
            (true, _) | (false, crate::cli::Placement::Balanced) => &[true],
            (false, crate::cli::Placement::Random) => &[false],
            (false, crate::cli::Placement::Both) => &[false, true],
        };
        let mut points: Vec<Point> = Vec::new();
        let mut push = |family, shape, holes| {
            let punched = !matches!(
                (family, holes),
                (Family::Sudoku, Holes::Amount(_)) | (_, Holes::Minimal)
            );
            for &balanced in if punched { placements } else { &[false] } {
                points.push(Point {
                    family,
                    shape,
                    holes,
                    balanced,
                    isomorphs: args.isomorphs_of_first,
                });
            }
        };
        for shape in sudoku {
            for &h in &sudoku_holes {
                push(Family::Sudoku, shape, h);
            }
        }
        for n in qwh {
            let shape = Shape::latin(n)?;
            let mut holes = qwh_holes.clone();
            // By hole count, so that the three ways of giving it interleave.
            holes.sort_by_key(|h| {
                Point {
                    family: Family::Qwh,
                    shape,
                    holes: *h,
                    balanced: false,
                    isomorphs: false,
                }
                .hole_count()
            });
            for h in holes {
                push(Family::Qwh, shape, h);
            }
        }
        Ok(Plan {
            points,
            instances: args.instances,
            seed: args.seed,
            balanced: args.balanced,
            count_nodes: (args.count_nodes > 0).then_some(args.count_nodes),
        })
    }

    /// The seed of `point`'s instances: the study's seed mixed with the point's name (FNV-1a,
    /// then SplitMix64's finaliser), so every point draws independent instances and adding a
    /// point changes no other.
    pub fn point_seed(&self, point: &Point) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in point.name().bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let mut z = self.seed ^ h;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn orders_ranges_and_boxes() {
        let shapes = parse_sudoku_orders(&strings(&["4..16", "2x3", "3x4", "9"])).unwrap();
        let names: Vec<String> = shapes.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["4x4", "6x6/2x3", "9x9", "12x12/3x4", "16x16"]);
        for bad in ["12", "5..8", "4..16/2", "4..169"] {
            assert!(parse_sudoku_orders(&strings(&[bad])).is_err(), "{bad}");
        }
        let old = retired_orders(&strings(&["2..5", "2x3", "3"])).to_string();
        assert!(
            old.ends_with("--orders 2..5,2x3,3 is --sudoku-orders 4..25,2x3,9"),
            "{old}"
        );
        assert_eq!(
            parse_qwh_orders(&strings(&["10..20/5", "12"])).unwrap(),
            [10, 12, 15, 20]
        );
        assert!(parse_qwh_orders(&strings(&["5..x"])).is_err());
        assert!(parse_sudoku_orders(&strings(&["0"])).is_err());
    }

    #[test]
    fn hole_ranges_end_where_they_say() {
        let h = parse_holes(&strings(&["0.30..0.60/0.02"])).unwrap();
        assert_eq!(h.len(), 16);
        assert_eq!(h[0], 0.3);
        assert_eq!(*h.last().unwrap(), 0.6);
        assert!(parse_holes(&strings(&["0.3..0.6"])).is_err());
        assert!(parse_holes(&strings(&["1.5"])).is_err());
    }

    #[test]
    fn names_round_trip() {
        for (shape, family, holes, balanced, isomorphs) in [
            (
                "16x16",
                Family::Sudoku,
                Holes::Amount(Amount::Fraction(0.5)),
                false,
                false,
            ),
            ("12x12/3x4", Family::Sudoku, Holes::Minimal, false, false),
            (
                "20x20/latin",
                Family::Qwh,
                Holes::Amount(Amount::Fraction(0.425)),
                false,
                false,
            ),
            (
                "100x100",
                Family::Sudoku,
                Holes::Punched(Amount::Fraction(0.5)),
                true,
                false,
            ),
            (
                "30x30/latin",
                Family::Qwh,
                Holes::Amount(Amount::PerN155(1.6)),
                false,
                true,
            ),
            (
                "30x30/latin",
                Family::Qwh,
                Holes::Amount(Amount::Count(316)),
                true,
                true,
            ),
            (
                "36x36",
                Family::Sudoku,
                Holes::Punched(Amount::PerN155(2.0)),
                false,
                false,
            ),
            (
                "36x36",
                Family::Sudoku,
                Holes::Punched(Amount::Count(500)),
                false,
                false,
            ),
        ] {
            let p = Point {
                family,
                shape: shape.parse().unwrap(),
                holes,
                balanced,
                isomorphs,
            };
            assert_eq!(
                Point::from_name(&p.name(), p.shape),
                Some(p),
                "{}",
                p.name()
            );
        }
        let qwh = |holes, balanced, isomorphs| Point {
            family: Family::Qwh,
            shape: Shape::latin(30).unwrap(),
            holes,
            balanced,
            isomorphs,
        };
        assert_eq!(
            qwh(Holes::Amount(Amount::Fraction(0.42)), false, false).name(),
            "qwh-30-h0.42.txt"
        );
        assert_eq!(
            qwh(Holes::Amount(Amount::PerN155(1.6)), true, false).name(),
            "qwh-30-h1.60n155-balanced.txt"
        );
        assert_eq!(
            qwh(Holes::Amount(Amount::Count(316)), false, true).name(),
            "qwh-30-h316-iso.txt"
        );
        assert!(Point::from_name("gecode-16", Shape::of_order(4).unwrap()).is_none());
        assert!(Point::from_name("sudoku-16x16-x0.5.txt", Shape::of_order(4).unwrap()).is_none());
        assert_eq!(
            parse_sudoku_holes("0.5", true).unwrap().label(),
            "p0.50",
            "punched holes name their files apart from unique puzzles"
        );
        assert!(parse_sudoku_holes("minimal", true).is_err());
    }

    #[test]
    fn hole_counts_by_hand() {
        // 30^1.55 = e^(1.55 ln 30) = e^(1.55 x 3.401197) = e^5.271856 = 194.78; x 1.6 = 311.6.
        assert_eq!(Amount::PerN155(1.6).count(30), 312);
        assert_eq!(Amount::PerN155(1.0).count(30), 195);
        // 50^1.55 = e^(1.55 x 3.912023) = e^6.063636 = 429.9; x 2 = 859.8.
        assert_eq!(Amount::PerN155(2.0).count(50), 860);
        assert_eq!(Amount::Fraction(0.42).count(20), 168);
        assert_eq!(Amount::Count(316).count(30), 316);
        assert_eq!(Amount::Count(5000).count(30), 900, "at most N² holes");
        let p = |holes, balanced| Point {
            family: Family::Qwh,
            shape: Shape::latin(30).unwrap(),
            holes,
            balanced,
            isomorphs: false,
        };
        // Balanced: a whole number a row, 312 / 30 = 10.4 -> 10 a row, 300 in all.
        assert_eq!(
            p(Holes::Amount(Amount::PerN155(1.6)), true).hole_count(),
            Some(300)
        );
        // A fraction keeps `harness generate qwh --balanced`'s count: 30 x round(0.42 x 30).
        assert_eq!(
            p(Holes::Amount(Amount::Fraction(0.42)), true).hole_count(),
            Some(390)
        );
        let x = p(Holes::Amount(Amount::Count(316)), false);
        assert!((x.per_n2().unwrap() - 316.0 / 900.0).abs() < 1e-12);
        assert!((x.per_n155().unwrap() - 316.0 / 194.78).abs() < 1e-3);
        assert_eq!(
            parse_per_n155(&strings(&["1.2..2.8/0.1"])).unwrap().len(),
            17
        );
        assert_eq!(
            parse_hole_counts(&strings(&["300..340/20", "316"])).unwrap(),
            [300, 316, 320, 340]
        );
        assert!(parse_per_n155(&strings(&["-1"])).is_err());
    }
}
