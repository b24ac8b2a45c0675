//! One table model and its three renderings: the terminal (padded columns), Markdown (GitHub's
//! pipe tables) and HTML (a table in a box that scrolls sideways, numbers right-aligned with the
//! value they sort by).
//!
//! A [`Table`] is columns (a title, an alignment, the space before it on the terminal), rows of
//! [`Cell`]s and footnotes. A cell is its text; HTML may show it otherwise (a colour swatch
//! before a solver's name) and sort it by a number. The summary table of a run, the report's
//! sections and the tables of the Markdown and HTML pages are all built this way.

use std::fmt::Write;

/// How a column's cells sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Align {
    /// Text: flush left.
    #[default]
    Left,
    /// Figures: flush right (HTML class `n`, Markdown `--:`).
    Right,
}

/// A column: its title, alignment and, on the terminal, the spaces before it.
#[derive(Debug, Clone, Default)]
pub struct Column {
    /// The title (the header cell's text).
    pub title: String,
    /// The header cell as HTML, when not the escaped title (a swatch before a solver's name).
    pub html: Option<String>,
    /// How its cells sit.
    pub align: Align,
    /// Spaces before it on the terminal (0 for the first column).
    pub gap: usize,
}

impl Column {
    /// A left-aligned column.
    pub fn left(title: &str) -> Column {
        Column {
            title: title.to_string(),
            gap: 1,
            ..Column::default()
        }
    }

    /// A right-aligned column (figures).
    pub fn right(title: &str) -> Column {
        Column {
            align: Align::Right,
            ..Column::left(title)
        }
    }

    /// The same column, `gap` spaces after the previous one on the terminal.
    pub fn gap(self, gap: usize) -> Column {
        Column { gap, ..self }
    }

    /// The same column, its header shown as `html` in HTML.
    pub fn html(self, html: String) -> Column {
        Column {
            html: Some(html),
            ..self
        }
    }
}

/// One cell: its text, and how HTML shows and sorts it.
#[derive(Debug, Clone, Default)]
pub struct Cell {
    /// The text (terminal, Markdown; HTML escapes it unless [`Cell::html`] is set).
    pub text: String,
    /// The value HTML sorts the cell by (`data-v`).
    pub sort: Option<f64>,
    /// The cell's content as HTML, when not the escaped text.
    pub html: Option<String>,
    /// Code (a grid): Markdown in backticks, HTML in `<code>`.
    pub code: bool,
    /// Its alignment, when not its column's.
    pub align: Option<Align>,
}

impl Cell {
    /// A cell of `text`.
    pub fn new(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            ..Cell::default()
        }
    }

    /// A cell of `text` that sorts by `v`.
    pub fn num(text: impl Into<String>, v: f64) -> Cell {
        Cell::new(text).sort(v)
    }

    /// A grid or other code.
    pub fn code(text: impl Into<String>) -> Cell {
        Cell {
            code: true,
            ..Cell::new(text)
        }
    }

    /// The same cell, sorted by `v`.
    pub fn sort(self, v: f64) -> Cell {
        Cell {
            sort: Some(v),
            ..self
        }
    }

    /// The same cell, shown as `html` in HTML.
    pub fn html(self, html: String) -> Cell {
        Cell {
            html: Some(html),
            ..self
        }
    }

    /// The same cell, aligned as `align` whatever its column.
    pub fn align(self, align: Align) -> Cell {
        Cell {
            align: Some(align),
            ..self
        }
    }
}

/// A row: its cells (fewer than the columns: the last one spans the rest on the terminal) and
/// an HTML class (`best`, `na`).
#[derive(Debug, Clone, Default)]
pub struct Row {
    /// The cells, left to right.
    pub cells: Vec<Cell>,
    /// The row's HTML class.
    pub class: Option<&'static str>,
}

impl From<Vec<Cell>> for Row {
    fn from(cells: Vec<Cell>) -> Row {
        Row { cells, class: None }
    }
}

/// A table: columns, rows, footnotes.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows.
    pub rows: Vec<Row>,
    /// Notes under the table, one paragraph each.
    pub footnotes: Vec<String>,
    /// Attributes of the HTML `<table>` element (` class="sortable" id="..."`).
    pub html_attrs: String,
}

impl Table {
    /// A table of `columns` and no rows.
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            ..Table::default()
        }
    }

    /// A table of text: left-aligned columns titled `header`, `rows` of plain cells.
    pub fn plain(header: &[String], rows: &[Vec<String>]) -> Table {
        let mut t = Table::new(header.iter().map(|h| Column::left(h)).collect());
        for r in rows {
            t.push(r.iter().map(Cell::new).collect::<Vec<_>>());
        }
        t
    }

    /// Appends a row.
    pub fn push(&mut self, row: impl Into<Row>) {
        self.rows.push(row.into());
    }

    /// The table on the terminal: the header, then a line per row, each column padded to its
    /// widest cell (counted in characters) after its gap, trailing spaces trimmed. A row's last
    /// cell, when the row is short, spans the rest and does not widen its column. Footnotes
    /// follow, one a line.
    pub fn terminal(&self) -> String {
        let n = self.columns.len();
        let mut widths: Vec<usize> = self.columns.iter().map(|c| chars(&c.title)).collect();
        for r in &self.rows {
            let full = r.cells.len() >= n;
            for (i, c) in r.cells.iter().enumerate().take(n) {
                if full || i + 1 < r.cells.len() {
                    widths[i] = widths[i].max(chars(&c.text));
                }
            }
        }
        let head: Vec<Cell> = self.columns.iter().map(|c| Cell::new(&c.title)).collect();
        let mut out = String::new();
        for cells in std::iter::once(&head).chain(self.rows.iter().map(|r| &r.cells)) {
            out.push_str(&self.terminal_line(cells, &widths));
            out.push('\n');
        }
        for f in &self.footnotes {
            out.push_str(f);
            out.push('\n');
        }
        out
    }

    fn terminal_line(&self, cells: &[Cell], widths: &[usize]) -> String {
        let n = self.columns.len();
        let mut l = String::new();
        for (i, (cell, col)) in cells.iter().zip(&self.columns).enumerate() {
            l.push_str(&" ".repeat(if i == 0 { 0 } else { col.gap }));
            let spans = cells.len() < n && i + 1 == cells.len();
            let pad = if spans {
                0
            } else {
                widths[i].saturating_sub(chars(&cell.text))
            };
            match cell.align.unwrap_or(col.align) {
                Align::Left => {
                    l.push_str(&cell.text);
                    l.push_str(&" ".repeat(pad));
                }
                Align::Right => {
                    l.push_str(&" ".repeat(pad));
                    l.push_str(&cell.text);
                }
            }
        }
        l.trim_end().to_string()
    }

    /// The table in Markdown: header, alignment rule (`---` or `--:`), rows (`|` escaped, line
    /// breaks made spaces, code in backticks), then each footnote after a blank line.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let head: Vec<Cell> = self.columns.iter().map(|c| Cell::new(&c.title)).collect();
        s.push_str(&markdown_line(&head));
        s.push('|');
        for c in &self.columns {
            s.push_str(match c.align {
                Align::Left => "---|",
                Align::Right => "--:|",
            });
        }
        s.push('\n');
        for r in &self.rows {
            s.push_str(&markdown_line(&r.cells));
        }
        for f in &self.footnotes {
            let _ = write!(s, "\n{}\n", markdown_text(f));
        }
        s
    }

    /// The table in HTML, in a `<div class="scroll">`: a `<thead>` of the titles, a `<tbody>` of
    /// the rows (`class=n` on right-aligned cells, `data-v` on cells that sort by a number), then
    /// each footnote as a `<p class="sub">`.
    pub fn html(&self) -> String {
        let mut s = format!(
            "<div class=\"scroll\"><table{}>\n<thead><tr>",
            self.html_attrs
        );
        for c in &self.columns {
            let class = if c.align == Align::Right {
                " class=n"
            } else {
                ""
            };
            let text = c.html.clone().unwrap_or_else(|| esc(&c.title));
            let _ = write!(s, "<th{class}>{text}</th>");
        }
        s.push_str("</tr></thead>\n<tbody>\n");
        for r in &self.rows {
            s.push_str(&self.html_row(r));
        }
        s.push_str("</tbody></table></div>\n");
        for f in &self.footnotes {
            let _ = writeln!(s, "<p class=\"sub\">{}</p>", esc(f));
        }
        s
    }

    fn html_row(&self, r: &Row) -> String {
        let mut s = match r.class {
            Some(c) => format!("<tr class=\"{c}\">"),
            None => "<tr>".to_string(),
        };
        for (cell, col) in r.cells.iter().zip(&self.columns) {
            s.push_str("<td");
            if cell.align.unwrap_or(col.align) == Align::Right {
                s.push_str(" class=n");
            }
            if let Some(v) = cell.sort {
                let _ = write!(s, " data-v=\"{v}\"");
            }
            let text = match (&cell.html, cell.code) {
                (Some(h), _) => h.clone(),
                (None, true) => format!("<code>{}</code>", esc(&cell.text)),
                (None, false) => esc(&cell.text),
            };
            let _ = write!(s, ">{text}</td>");
        }
        s.push_str("</tr>\n");
        s
    }
}

/// A Markdown table line: `| a | b |`, an empty cell as `| |`.
fn markdown_line(cells: &[Cell]) -> String {
    let mut s = "|".to_string();
    for c in cells {
        let text = markdown_text(&c.text);
        if text.is_empty() {
            s.push_str(" |");
        } else if c.code {
            let _ = write!(s, " `{text}` |");
        } else {
            let _ = write!(s, " {text} |");
        }
    }
    s.push('\n');
    s
}

/// Text safe in a Markdown table cell: `|` escaped, line breaks made spaces.
pub fn markdown_text(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Escapes text for HTML (`& < > " '`).
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(vec![Column::left("solver"), Column::right("µs").gap(2)]);
        t.push(vec![Cell::new("dlx"), Cell::num("1,234", 1234.0)]);
        t.push(vec![Cell::new("a|b"), Cell::num("5", 5.0)]);
        t.footnotes.push("µs: per puzzle.".into());
        t
    }

    #[test]
    fn one_table_three_renderings() {
        let t = sample();
        assert_eq!(
            t.terminal(),
            "solver     µs\ndlx     1,234\na|b         5\nµs: per puzzle.\n"
        );
        assert_eq!(
            t.markdown(),
            "| solver | µs |\n|---|--:|\n| dlx | 1,234 |\n| a\\|b | 5 |\n\nµs: per puzzle.\n"
        );
        let h = t.html();
        assert!(h.starts_with("<div class=\"scroll\"><table>\n<thead><tr><th>solver</th><th class=n>µs</th></tr></thead>\n<tbody>\n"), "{h}");
        assert!(h.contains("<tr><td>dlx</td><td class=n data-v=\"1234\">1,234</td></tr>\n"));
        assert!(h.ends_with("</tbody></table></div>\n<p class=\"sub\">µs: per puzzle.</p>\n"));
    }

    #[test]
    fn a_short_row_spans_the_rest_on_the_terminal() {
        let mut t = sample();
        t.footnotes.clear();
        t.push(vec![Cell::new("logic"), Cell::new("n/a: 9x9 only")]);
        t.rows.last_mut().unwrap().cells.truncate(2);
        let mut u = Table::new(t.columns.clone());
        u.columns.push(Column::right("nodes"));
        u.rows = t.rows.clone();
        assert!(
            u.terminal().ends_with("logic   n/a: 9x9 only\n"),
            "{}",
            u.terminal()
        );
    }
}
