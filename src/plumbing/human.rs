//! Numbers for people, the one place tables, plots and messages format them: counts with
//! thousands separators, figures in one unit, rates, ratios and durations.

/// Formats µs for people: `850 µs`, `12.3 ms`, `4.56 s`.
pub fn micros(us: f64) -> String {
    if us < 1_000.0 {
        format!("{us:.1} µs")
    } else if us < 1_000_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// `n` with a comma every three digits: `3,685,419`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and its noun, the noun in the plural unless the count is 1: `1 verdict`,
/// `2 verdicts`, `0 puzzles`, `3,685,419 solves` (thousands separated). Every message that
/// counts something with a noun says it this way (nouns that take `-s`).
pub fn plural(n: impl TryInto<u64>, noun: &str) -> String {
    let n = n.try_into().unwrap_or(u64::MAX);
    format!("{} {}", thousands(n), noun_for(n, noun))
}

/// `noun` as [`plural`] puts it after `n`, without the number: `puzzle` for 1, else `puzzles`.
pub fn noun_for(n: impl TryInto<u64>, noun: &str) -> String {
    if n.try_into().is_ok_and(|n| n == 1) {
        noun.to_string()
    } else {
        format!("{noun}s")
    }
}

/// A count with thousands separators (for the tables of people): `3,685,419`.
pub fn count(n: usize) -> String {
    thousands(n as u64)
}

/// A non-negative figure for a table column in one unit: one decimal below 1,000 (`5.8`,
/// `412.3`), whole with thousands separators from 1,000 (`1,017`, `210,300`); negative or
/// non-finite values are `-`.
pub fn figure(x: f64) -> String {
    if !x.is_finite() || x < 0.0 {
        "-".into()
    } else {
        decimals_then_whole(x, 1, 999.95)
    }
}

/// `x` with `decimals` decimals below `whole_from`, whole with thousands separators from there.
fn decimals_then_whole(x: f64, decimals: usize, whole_from: f64) -> String {
    if x < whole_from {
        format!("{x:.decimals$}")
    } else {
        thousands(x.round() as u64)
    }
}

/// Mean nodes for a table column: whole, with thousands separators; `-` for 0, the figure of a
/// solver that reports no nodes (an external one: every search counts its root).
pub fn nodes(x: f64) -> String {
    if x > 0.0 && x.is_finite() {
        thousands(x.round() as u64)
    } else {
        "-".into()
    }
}

/// A rate for a table column: two decimals below 10 (`0.99`, `4.75`), whole with thousands
/// separators from 10 (`171,939`); `-` for 0 or less (nothing solved).
pub fn rate(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        "-".into()
    } else {
        decimals_then_whole(x, 2, 9.995)
    }
}

/// A ratio for people: `1.00`, `3.14`, `31.4`, `314`, `3,142`.
pub fn ratio(r: f64) -> String {
    if !r.is_finite() {
        "-".into()
    } else if r < 10.0 {
        format!("{r:.2}")
    } else {
        decimals_then_whole(r, 1, 100.0)
    }
}

/// A value with its 95% interval, each of the three in `digits` ([`ratio`], [`figure`],
/// [`micros`]): `1.43 [1.08, 1.53]`. Every command and page writes an interval this way.
pub fn interval(value: f64, lo: f64, hi: f64, digits: fn(f64) -> String) -> String {
    format!("{} [{}, {}]", digits(value), digits(lo), digits(hi))
}

/// The width terminal tables are fitted to: `COLUMNS` when set (at least 60), else 100.
pub fn table_width() -> u16 {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<u16>().ok())
        .map_or(100, |c| c.max(60))
}

/// A terminal table under `header`, condensed, fitted to [`table_width`]: cells wrap rather
/// than widen the table.
pub fn table(header: Vec<&str>) -> comfy_table::Table {
    let mut t = comfy_table::Table::new();
    t.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
    t.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    t.set_width(table_width());
    t.set_header(header);
    t
}

/// Wraps `text` at spaces into lines of at most [`table_width`] characters (a word longer than
/// that stays whole on its own line), the width the terminal tables are fitted to.
pub fn wrap(text: &str) -> String {
    wrap_at(text, usize::from(table_width()))
}

/// `head` followed by `text` wrapped to [`table_width`], its later lines indented to line up under
/// the first (a hanging indent: `head`'s width in characters). For lists of a name and a
/// description.
pub fn hanging(head: &str, text: &str) -> String {
    hanging_at(head, text, usize::from(table_width()))
}

fn hanging_at(head: &str, text: &str, width: usize) -> String {
    let indent = head.chars().count();
    let body = wrap_at(text, width.saturating_sub(indent).max(20));
    let pad = " ".repeat(indent);
    let mut out = String::from(head);
    for (i, line) in body.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    out
}

fn wrap_at(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if line > 0 && line + 1 + n > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
}

/// The name among `known` nearest to `given` by edit distance (optimal string alignment,
/// ignoring case), if it is near enough to be a slip: at most 1 edit for names of up to 4
/// characters, 2 up to 8, 3 beyond. `gecode16` gives `gecode-16`, `bitbord-bands` gives
/// `bitboard-bands`. O(|known| × the names' lengths²).
pub fn nearest<'a>(given: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let given = given.to_lowercase();
    let allowed = match given.chars().count() {
        0..=4 => 1,
        5..=8 => 2,
        _ => 3,
    };
    known
        .into_iter()
        .map(|k| (strsim::osa_distance(&given, &k.to_lowercase()), k))
        .filter(|&(d, _)| d <= allowed)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// `"; did you mean NAME?"` for the [`nearest`] known name, or nothing.
pub fn did_you_mean<'a>(given: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    nearest(given, known).map_or_else(String::new, |k| format!("; did you mean {k:?}?"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn near_misses_are_named_and_far_ones_are_not() {
        use super::nearest;
        let solvers = ["bitboard-bands", "dlx", "hybrid", "sat", "triads"];
        assert_eq!(nearest("bitbord-bands", solvers), Some("bitboard-bands"));
        assert_eq!(nearest("DLX", solvers), Some("dlx"));
        assert_eq!(nearest("hybird", solvers), Some("hybrid"));
        assert_eq!(nearest("tdoku", solvers), None);
        assert_eq!(nearest("x", ["dlx"]), None);
        let sets = ["gecode-16", "gecode-25", "seed"];
        assert_eq!(nearest("gecode16", sets), Some("gecode-16"));
        assert_eq!(nearest("my-puzzles.txt", sets), None);
    }

    use super::*;

    #[test]
    fn an_interval_is_its_value_then_both_ends_in_brackets() {
        assert_eq!(interval(1.434, 1.08, 1.531, ratio), "1.43 [1.08, 1.53]");
        assert_eq!(
            interval(1234.0, 999.0, 1500.0, figure),
            "1,234 [999.0, 1,500]"
        );
    }

    #[test]
    fn hanging_lines_up_later_lines_under_the_first() {
        let head = "  name  ";
        let text = "one two three four five six seven eight nine ten eleven twelve";
        let out = hanging_at(head, text, 30);
        assert_eq!(
            out,
            "  name  one two three four\n        five six seven eight\n        nine ten eleven twelve"
        );
        assert!(out.lines().all(|l| l.chars().count() <= 30));
    }

    #[test]
    fn wrap_keeps_lines_within_the_width() {
        assert_eq!(wrap_at("aa bb cc dd", 5), "aa bb\ncc dd");
        assert_eq!(wrap_at("aa bbbbbbb c", 5), "aa\nbbbbbbb\nc");
        assert_eq!(wrap_at("  one   two ", 80), "one two");
    }

    #[test]
    fn plural_says_one_noun_for_one_only() {
        assert_eq!(plural(1u64, "verdict"), "1 verdict");
        assert_eq!(plural(0u64, "verdict"), "0 verdicts");
        assert_eq!(plural(2u32, "solve"), "2 solves");
        assert_eq!(plural(1_234_567usize, "puzzle"), "1,234,567 puzzles");
        assert_eq!(noun_for(1u8, "thread"), "thread");
        assert_eq!(noun_for(3u8, "thread"), "threads");
    }

    #[test]
    fn thousands_figures_rates_ratios() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(3_685_419), "3,685,419");
        assert_eq!(thousands(49_158), "49,158");
        assert_eq!(figure(5.84), "5.8");
        assert_eq!(figure(999.94), "999.9");
        assert_eq!(figure(999.96), "1,000");
        assert_eq!(figure(210_300.2), "210,300");
        assert_eq!(figure(f64::NAN), "-");
        assert_eq!(rate(0.704), "0.70");
        assert_eq!(rate(9.996), "10");
        assert_eq!(rate(171_938.6), "171,939");
        assert_eq!(rate(0.0), "-");
        assert_eq!(ratio(1.234), "1.23");
        assert_eq!(ratio(12.34), "12.3");
        assert_eq!(ratio(3141.6), "3,142");
        assert_eq!(ratio(f64::INFINITY), "-");
        assert_eq!(micros(850.0), "850.0 µs");
        assert_eq!(micros(12_300.0), "12.30 ms");
    }
}
