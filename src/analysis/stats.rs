//! The statistics every speed claim goes through (report verdicts, `compare`, `bench`): medians
//! with bootstrap 95% confidence intervals, ratios with their intervals, and the one rule for a
//! verdict: "faster" or "slower" only when the interval excludes 1, else "not distinguishable";
//! no ranking at all on fewer than [`MIN_RANKED`] puzzles.
//!
//! The bootstrap is the percentile bootstrap (Efron and Tibshirani, "An Introduction to the
//! Bootstrap", 1993, ch. 13): [`RESAMPLES`] resamples with replacement of the puzzles, the
//! statistic recomputed on each, the 2.5th and 97.5th percentiles of those values as the
//! interval. Resamples are drawn from ChaCha8 seeded by [`SEED`] (and the caller's salt), so the
//! same data give the same interval on every machine.
//!
//! Every median, quartile and percentile the harness shows (summary.csv, the terminal table, the
//! report's plots, `bench`, `compare`, the bootstrap, the runner's `--repeat`) is [`quantile`]:
//! one convention, Hyndman and Fan's type 7 (linear interpolation between closest ranks).

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// Bootstrap resamples per interval.
pub const RESAMPLES: usize = 2000;

/// The fixed seed of the resampling (mixed with the caller's salt).
pub const SEED: u64 = 0x005e_ed0f_b007;

/// The noise threshold of a verdict, as criterion has one: a ratio within 5% of 1 is "not
/// distinguishable" even when its interval excludes 1. Resampling the puzzles measures how the
/// choice of puzzles moves a median, not how two runs on a loaded machine drift apart, which two
/// runs of one command on a shared machine show at 1-4%.
pub const NOISE: f64 = 0.05;

/// Fewest readable puzzles on which a dataset's solvers are ranked.
pub const MIN_RANKED: usize = 30;

/// A point estimate with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The statistic on the data.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
}

impl Estimate {
    /// `1.93 [1.71, 2.20]`, in [`crate::plumbing::human::ratio`]'s digits ([`crate::plumbing::human::interval`]).
    pub fn text(&self) -> String {
        crate::plumbing::human::interval(
            self.value,
            self.lo,
            self.hi,
            crate::plumbing::human::ratio,
        )
    }
}

/// Values in ascending order, read by rank: what [`quantile`] takes.
pub trait Sorted {
    /// How many values.
    fn count(&self) -> usize;
    /// The `k`-th smallest value (0-based, `k < count()`).
    fn nth(&self, k: usize) -> f64;
}

impl Sorted for [f64] {
    fn count(&self) -> usize {
        self.len()
    }
    fn nth(&self, k: usize) -> f64 {
        self[k]
    }
}

impl Sorted for Vec<f64> {
    fn count(&self) -> usize {
        self.len()
    }
    fn nth(&self, k: usize) -> f64 {
        self[k]
    }
}

/// `count` sorted values given by rank: `Ranked(n, |k| value_k)`.
pub struct Ranked<F: Fn(usize) -> f64>(pub usize, pub F);

impl<F: Fn(usize) -> f64> Sorted for Ranked<F> {
    fn count(&self) -> usize {
        self.0
    }
    fn nth(&self, k: usize) -> f64 {
        (self.1)(k)
    }
}

/// The sample quantile `q` (0..=1, clamped) of sorted values, by Hyndman and Fan's type 7
/// ("Sample Quantiles in Statistical Packages", The American Statistician 50(4), 1996; the
/// default of R and NumPy): with `n` values `x[0] <= ... <= x[n-1]`, the point `h = (n - 1) q`
/// lies between ranks `floor(h)` and `floor(h) + 1`, and the quantile is
/// `x[floor(h)] + (h - floor(h)) (x[floor(h) + 1] - x[floor(h)])`. So `q = 0.5` is the median
/// (the middle value, or the mean of the middle two), `q = 0` the smallest and `q = 1` the
/// largest value. 0 for no values.
pub fn quantile<S: Sorted + ?Sized>(sorted: &S, q: f64) -> f64 {
    let n = sorted.count();
    if n == 0 {
        return 0.0;
    }
    let h = q.clamp(0.0, 1.0) * (n - 1) as f64;
    let i = (h.floor() as usize).min(n - 1);
    let f = h - i as f64;
    if i + 1 < n && f > 0.0 {
        let (lo, hi) = (sorted.nth(i), sorted.nth(i + 1));
        lo + f * (hi - lo)
    } else {
        sorted.nth(i)
    }
}

/// Sorts `values` (NaN last) and returns their [`quantile`] `q`.
pub fn sort_and_quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    quantile(values, q)
}

fn rng(salt: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(SEED ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

fn interval_ends(mut stats: Vec<f64>) -> (f64, f64) {
    stats.retain(|x| x.is_finite());
    stats.sort_by(f64::total_cmp);
    if stats.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    (quantile(&stats, 0.025), quantile(&stats, 0.975))
}

/// The median of `values` with its bootstrap 95% interval; `None` for no values.
pub fn median_ci(values: &[f64], salt: u64) -> Option<Estimate> {
    quantile_ci(values, 0.5, salt)
}

/// The [`quantile`] `q` of `values` (0.5 the median, 0.9 the 90th percentile) with its
/// bootstrap 95% interval; `None` for no values.
pub fn quantile_ci(values: &[f64], q: f64, salt: u64) -> Option<Estimate> {
    if values.is_empty() {
        return None;
    }
    let value = sort_and_quantile(&mut values.to_vec(), q);
    let mut r = rng(salt);
    let n = values.len();
    let mut buf = vec![0.0; n];
    let stats: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            for x in buf.iter_mut() {
                *x = values[r.random_range(0..n)];
            }
            sort_and_quantile(&mut buf, q)
        })
        .collect();
    let (lo, hi) = interval_ends(stats);
    Some(Estimate { value, lo, hi })
}

/// The ratio of medians `median(b) / median(a)` over paired values (`a[i]` and `b[i]` measured
/// on the same puzzle), with its bootstrap 95% interval: each resample draws puzzles, keeping
/// the pairs. `None` when there are no pairs or a median is 0.
pub fn ratio_ci(a: &[f64], b: &[f64], salt: u64) -> Option<Estimate> {
    block_ratio_ci(a, b, 1, salt)
}

/// As [`ratio_ci`], but each resample draws whole blocks of `block` consecutive pairs, the
/// blocks the run timed together (a block bootstrap; the moving-block variant is Künsch's, "The jackknife and the bootstrap for general stationary
/// observations", Annals of Statistics 17(3), 1989), so that noise shared by the puzzles timed
/// together (a burst of load, a frequency step while one block ran) widens the interval as it
/// moves the ratio: the run-to-run noise two runs of one command show. `block` 1 is
/// [`ratio_ci`]'s puzzle bootstrap.
pub fn block_ratio_ci(a: &[f64], b: &[f64], block: usize, salt: u64) -> Option<Estimate> {
    let n = a.len().min(b.len());
    if n == 0 {
        return None;
    }
    let block = block.clamp(1, n);
    let starts: Vec<usize> = (0..n).step_by(block).collect();
    let (a, b) = (&a[..n], &b[..n]);
    median_ratio_ci(a, b, salt, |r, xa, xb| {
        xa.clear();
        xb.clear();
        for _ in 0..starts.len() {
            let s = starts[r.random_range(0..starts.len())];
            xa.extend_from_slice(&a[s..(s + block).min(n)]);
            xb.extend_from_slice(&b[s..(s + block).min(n)]);
        }
    })
}

/// The ratio of medians `median(b) / median(a)` of two independent samples (measured on
/// different instances, so not paired as in [`ratio_ci`]), with its bootstrap 95% interval: each
/// resample draws each sample again with replacement, on its own. `None` when either is empty
/// or `a`'s median is 0.
pub fn independent_ratio_ci(a: &[f64], b: &[f64], salt: u64) -> Option<Estimate> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    median_ratio_ci(a, b, salt, |r, xa, xb| {
        xa.clear();
        xa.extend((0..a.len()).map(|_| a[r.random_range(0..a.len())]));
        xb.clear();
        xb.extend((0..b.len()).map(|_| b[r.random_range(0..b.len())]));
    })
}

/// `median(b) / median(a)` (`None` when `a`'s is 0) with the 95% interval of [`RESAMPLES`]
/// bootstrap resamples, each drawn into two buffers by `resample` with the generator of `salt`.
fn median_ratio_ci(
    a: &[f64],
    b: &[f64],
    salt: u64,
    mut resample: impl FnMut(&mut ChaCha8Rng, &mut Vec<f64>, &mut Vec<f64>),
) -> Option<Estimate> {
    let ma = sort_and_quantile(&mut a.to_vec(), 0.5);
    let mb = sort_and_quantile(&mut b.to_vec(), 0.5);
    if ma <= 0.0 {
        return None;
    }
    let mut r = rng(salt);
    let (mut xa, mut xb) = (Vec::with_capacity(a.len()), Vec::with_capacity(b.len()));
    let stats: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            resample(&mut r, &mut xa, &mut xb);
            let da = sort_and_quantile(&mut xa, 0.5);
            if da > 0.0 {
                sort_and_quantile(&mut xb, 0.5) / da
            } else {
                f64::NAN
            }
        })
        .collect();
    let (lo, hi) = interval_ends(stats);
    Some(Estimate {
        value: mb / ma,
        lo,
        hi,
    })
}

/// The verdict on a ratio `B / A` of times: `1.93× faster` (the whole interval is below 1 and
/// the ratio beyond the [`NOISE`] threshold), `1.20× slower` (likewise above 1), else `not
/// distinguishable` (`not distinguishable (within 5% noise)` when the interval excludes 1 but the
/// ratio is within the threshold).
pub fn verdict(e: &Estimate) -> String {
    let beyond = e.value < 1.0 / (1.0 + NOISE) || e.value > 1.0 + NOISE;
    if e.hi < 1.0 && beyond {
        format!("{}× faster", crate::plumbing::human::ratio(1.0 / e.value))
    } else if e.lo > 1.0 && beyond {
        format!("{}× slower", crate::plumbing::human::ratio(e.value))
    } else if e.hi < 1.0 || e.lo > 1.0 {
        format!("not distinguishable (within {:.0}% noise)", NOISE * 100.0)
    } else {
        "not distinguishable".into()
    }
}

/// A salt for [`median_ci`] and [`ratio_ci`] from names (dataset, solvers), so each interval
/// of a report has its own resamples, the same on every render (FNV-1a).
pub fn salt(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_difference_is_faster_and_noise_is_not() {
        // B takes half of A's time on each of 40 puzzles: the interval is 0.5 exactly.
        let a: Vec<f64> = (1..=40).map(|i| i as f64).collect();
        let b: Vec<f64> = a.iter().map(|x| x / 2.0).collect();
        let e = ratio_ci(&a, &b, 1).unwrap();
        assert_eq!((e.value, e.lo, e.hi), (0.5, 0.5, 0.5));
        assert_eq!(verdict(&e), "2.00× faster");
        // Two shuffles of the same times: the interval straddles 1.
        let c: Vec<f64> = a.iter().rev().copied().collect();
        let e = ratio_ci(&a, &c, 1).unwrap();
        assert_eq!(e.value, 1.0);
        assert!(e.lo < 1.0 && e.hi > 1.0, "{e:?}");
        assert_eq!(verdict(&e), "not distinguishable");
        // An interval that excludes 1 by less than the noise threshold.
        let near = Estimate {
            value: 1.03,
            lo: 1.02,
            hi: 1.04,
        };
        assert_eq!(verdict(&near), "not distinguishable (within 5% noise)");
        // The same seed, the same interval.
        assert_eq!(ratio_ci(&a, &c, 1), ratio_ci(&a, &c, 1));
    }

    #[test]
    fn blocks_that_drift_widen_the_interval() {
        // B is A with every other block of 16 puzzles 20% slower: one puzzle bootstrap sees
        // 64 puzzles on each side, the block bootstrap sees 4 blocks and a wider interval.
        let a: Vec<f64> = (0..64).map(|i| 10.0 + (i % 7) as f64).collect();
        let b: Vec<f64> = a
            .iter()
            .enumerate()
            .map(|(i, x)| if (i / 16) % 2 == 1 { x * 1.2 } else { *x })
            .collect();
        let puzzles = ratio_ci(&a, &b, 1).unwrap();
        let blocks = block_ratio_ci(&a, &b, 16, 1).unwrap();
        assert_eq!(puzzles.value, blocks.value);
        assert!(
            blocks.hi - blocks.lo > puzzles.hi - puzzles.lo,
            "{puzzles:?} {blocks:?}"
        );
        assert_eq!(block_ratio_ci(&a, &b, 1, 1), ratio_ci(&a, &b, 1));
    }

    #[test]
    fn independent_ratio_of_constant_samples_is_exact() {
        // Every value of b is 3 times every value of a: each resample's ratio is 3.
        let a = [2.0; 7];
        let b = [6.0; 11];
        let e = independent_ratio_ci(&a, &b, 5).unwrap();
        assert_eq!((e.value, e.lo, e.hi), (3.0, 3.0, 3.0));
        // Spread: the interval holds the ratio of the medians (20 / 10).
        let a: Vec<f64> = (1..=19).map(f64::from).collect();
        let b: Vec<f64> = (1..=39).map(f64::from).collect();
        let e = independent_ratio_ci(&a, &b, 5).unwrap();
        assert_eq!(e.value, 2.0);
        assert!(e.lo < 2.0 && e.hi > 2.0, "{e:?}");
        assert_eq!(independent_ratio_ci(&[], &b, 5), None);
        assert_eq!(independent_ratio_ci(&[0.0], &b, 5), None);
    }

    #[test]
    fn median_interval_holds_the_median() {
        let v: Vec<f64> = (1..=31).map(|i| i as f64).collect();
        let e = median_ci(&v, 3).unwrap();
        assert_eq!(e.value, 16.0);
        assert!(e.lo <= 16.0 && e.hi >= 16.0 && e.lo >= 1.0 && e.hi <= 31.0);
        assert_eq!(median_ci(&[], 0), None);
        let one = median_ci(&[4.0], 0).unwrap();
        assert_eq!((one.lo, one.hi), (4.0, 4.0));
    }
}
