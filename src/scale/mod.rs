//! The scaling study of `harness scale` (docs/scaling.md): what to generate, the instances, and
//! what the run's rows say about how cost grows.
//!
//! | file | concern |
//! |---|---|
//! | this file | [`Plan`] and [`Point`]: the shapes and hole fractions of a study, parsed from the command line; dataset names that say what each point is |
//! | [`instances`] | the instance files of every point, reproducible per seed |
//! | [`analysis`] | per point and solver: median and p90 cost with bootstrap intervals, PAR-2 for the censored; power-law and exponential fits; the hardness peak over hole fractions |
//! | [`plot`] | cost against order (log-log), cost against hole fraction |
//! | [`page`] | scale.md and scale.csv |

pub mod analysis;
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

/// How many cells a point's instances have emptied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Holes {
    /// This fraction of the cells (0..=1).
    Fraction(f64),
    /// Sudoku: givens removed until none can go (the puzzle is minimal).
    Minimal,
    /// Sudoku: this fraction of the cells (0..=1) punched at random in a solved grid, whatever
    /// the number of solutions left.
    Punched(f64),
}

impl Holes {
    /// `h0.42`, `h0.425`, `h0.50`, `minimal`, `p0.50` (punched): the dataset name's suffix.
    pub fn label(self) -> String {
        let short = |f: f64| {
            let mut s = format!("{f:.3}");
            if s.ends_with('0') {
                s.pop();
            }
            s
        };
        match self {
            Holes::Fraction(f) => format!("h{}", short(f)),
            Holes::Punched(f) => format!("p{}", short(f)),
            Holes::Minimal => "minimal".into(),
        }
    }

    /// The fraction, if the point has one.
    pub fn fraction(self) -> Option<f64> {
        match self {
            Holes::Fraction(f) | Holes::Punched(f) => Some(f),
            Holes::Minimal => None,
        }
    }
}

/// One point of a study: a family, a shape, a hole fraction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// The family.
    pub family: Family,
    /// The grid's shape.
    pub shape: Shape,
    /// How many cells are empty.
    pub holes: Holes,
}

impl Point {
    /// The dataset's name (its file name): `sudoku-16x16-h0.50.txt`, `sudoku-12x12-3x4-h0.50.txt`,
    /// `sudoku-9x9-minimal.txt`, `sudoku-100x100-p0.50.txt` (punched), `qwh-20-h0.42.txt`.
    pub fn name(&self) -> String {
        let shape = match self.family {
            Family::Sudoku => self.shape.to_string().replace('/', "-"),
            Family::Qwh => self.shape.side().to_string(),
        };
        format!(
            "{}-{shape}-{}.txt",
            self.family.as_str(),
            self.holes.label()
        )
    }

    /// The point a dataset name of [`Point::name`] stands for, given the shape run.json records
    /// for it; `None` for a name of another form.
    pub fn from_name(name: &str, shape: Shape) -> Option<Point> {
        let stem = name.strip_suffix(".txt")?;
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
                ("h", f) => Holes::Fraction(f.parse().ok()?),
                ("p", f) => Holes::Punched(f.parse().ok()?),
                _ => return None,
            },
        };
        let point = Point {
            family,
            shape,
            holes,
        };
        (point.name() == name).then_some(point)
    }

    /// The side N of the grid: the x axis of the order plots.
    pub fn side(&self) -> usize {
        self.shape.side()
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
    let mut out: Vec<f64> = Vec::new();
    for item in items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let bad = |why: &str| anyhow::anyhow!("--holes {item:?}: {why}");
        let frac = |s: &str| crate::cli::parse_fraction(s).map_err(|e| bad(&e));
        match item.split_once("..") {
            None => out.push(frac(item)?),
            Some((lo, rest)) => {
                let (hi, step) = rest
                    .split_once('/')
                    .ok_or_else(|| bad("a range needs a step: LO..HI/STEP (0.30..0.60/0.02)"))?;
                let (lo, hi) = (frac(lo)?, frac(hi)?);
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
        Holes::Punched(f)
    } else {
        Holes::Fraction(f)
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
        let sudoku_holes = parse_sudoku_holes(&args.sudoku_holes, args.punched)?;
        let holes = parse_holes(&args.holes)?;
        if !qwh.is_empty() && holes.is_empty() {
            anyhow::bail!("--holes: give at least one fraction (0.42)");
        }
        let mut points: Vec<Point> = sudoku
            .into_iter()
            .map(|shape| Point {
                family: Family::Sudoku,
                shape,
                holes: sudoku_holes,
            })
            .collect();
        for n in qwh {
            let shape = Shape::latin(n)?;
            for &f in &holes {
                points.push(Point {
                    family: Family::Qwh,
                    shape,
                    holes: Holes::Fraction(f),
                });
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
        for (shape, family, holes) in [
            ("16x16", Family::Sudoku, Holes::Fraction(0.5)),
            ("12x12/3x4", Family::Sudoku, Holes::Minimal),
            ("20x20/latin", Family::Qwh, Holes::Fraction(0.425)),
            ("100x100", Family::Sudoku, Holes::Punched(0.5)),
        ] {
            let p = Point {
                family,
                shape: shape.parse().unwrap(),
                holes,
            };
            assert_eq!(Point::from_name(&p.name(), p.shape), Some(p));
        }
        assert_eq!(
            Point {
                family: Family::Qwh,
                shape: Shape::latin(20).unwrap(),
                holes: Holes::Fraction(0.42)
            }
            .name(),
            "qwh-20-h0.42.txt"
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
}
