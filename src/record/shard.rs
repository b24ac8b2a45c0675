//! What run.json records of a shard: its slice of the puzzles ([`Shard`], `--shard K/N`) and,
//! in a merged run, each shard's machine and timing ([`ShardRecord`]). The slice rule is in
//! [`crate::record::merge`].

use crate::input::dataset::Dataset;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (1-based: `1/3`, `2/3`, `3/3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, 1..=count.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

/// Why a `--shard` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad shard '{0}': expected K/N with 1 <= K <= N, e.g. 2/3")]
pub struct ShardParseError(String);

impl FromStr for Shard {
    type Err = ShardParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ShardParseError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// True when the puzzle numbered `global` (0-based, over the concatenated datasets) is in
    /// this shard.
    pub fn takes(&self, global: usize) -> bool {
        global % self.count == self.index - 1
    }

    /// Keeps only this shard's puzzles in `datasets` (datasets left empty stay, with no entry);
    /// returns how many puzzles were kept. O(total puzzles).
    pub fn select(&self, datasets: &mut [Dataset]) -> usize {
        let mut global = 0;
        let mut kept = 0;
        for ds in datasets.iter_mut() {
            ds.entries.retain(|_| {
                let keep = self.takes(global);
                global += 1;
                keep
            });
            kept += ds.entries.len();
        }
        kept
    }
}

/// One shard's machine and timing, as listed in a merged `run.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// `K/N`.
    pub shard: String,
    /// The shard's run folder as given to `merge`.
    pub dir: String,
    /// Host name.
    pub host: String,
    /// CPU model.
    pub cpu: String,
    /// Logical cores.
    pub cores: usize,
    /// Worker threads.
    pub threads: usize,
    /// Git commit of the binary.
    pub git_commit: String,
    /// When the shard started, RFC 3339 UTC.
    pub date: String,
    /// Wall time of the shard, s.
    pub elapsed_seconds: f64,
    /// True when the shard was stopped early.
    pub interrupted: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_deals_round_robin() {
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s, Shard { index: 2, count: 3 });
        assert_eq!(s.to_string(), "2/3");
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let taken: Vec<usize> = (0..9).filter(|&g| s.takes(g)).collect();
        assert_eq!(taken, vec![1, 4, 7]);
        // Every puzzle lands in exactly one shard.
        for g in 0..30 {
            let n = (1..=3)
                .filter(|&k| Shard { index: k, count: 3 }.takes(g))
                .count();
            assert_eq!(n, 1);
        }
    }
}
