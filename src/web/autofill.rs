//! `harness autofill`: read a Sudoku board off a web page in a real browser, solve it, type the
//! missing digits in, and check that the page then holds the solution.
//!
//! The browser is driven over the W3C WebDriver protocol with the `fantoccini` client, normally
//! through `chromedriver` and headless Chromium ([`Browser::open`] starts both when no WebDriver
//! URL is given, and stops them when done).
//!
//! ## How the board is read
//! Every element matching the table selector is tried in document order; the first one holding
//! exactly 81 elements matching the cell selector is the board. A cell's digit is its `value`
//! (empty = empty cell); `readonly` or `disabled` cells are never typed into. Cells are put in
//! row-major order by their position on screen (sorted by top edge, then each run of nine by left
//! edge), so a board whose markup lists cells box by box reads the same as a row-major one.

use crate::verify;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use solvers::{Budget, Grid, SolverKind, Status};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub use crate::cli::{DEFAULT_CELL, DEFAULT_TABLE};
/// What to install when the browser is missing.
pub const INSTALL_HINT: &str =
    "install Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)";

/// Why an autofill failed.
#[derive(Debug, thiserror::Error)]
pub enum AutofillError {
    /// The page holds no element matching the table selector with 81 matching cells.
    #[error("no board on the page: {0}")]
    NoBoard(String),
    /// A cell holds something other than empty or 1-9, or the cells are not laid out as 9 rows.
    #[error("the board cannot be read: {0}")]
    BadBoard(String),
    /// The board's digits repeat in a unit, or the board has no solution.
    #[error("the board has no solution: {0}")]
    Unsolvable(String),
    /// After typing, the page does not hold the solution.
    #[error("the page does not hold the solution after filling: {0}")]
    Mismatch(String),
    /// The browser or driver could not be started or reached.
    #[error("{0}")]
    Browser(String),
    /// A WebDriver command failed.
    #[error("WebDriver command failed while {doing}: {source}")]
    WebDriver {
        /// What was being done.
        doing: String,
        /// The client's error.
        #[source]
        source: fantoccini::error::CmdError,
    },
}

impl AutofillError {
    /// True for a problem with the page or its board (exit status 2), false for a failed final
    /// check (exit status 1) or a browser failure.
    pub fn is_mismatch(&self) -> bool {
        matches!(self, AutofillError::Mismatch(_))
    }
}

fn wd(doing: impl Into<String>) -> impl FnOnce(fantoccini::error::CmdError) -> AutofillError {
    let doing = doing.into();
    move |source| AutofillError::WebDriver { doing, source }
}

/// A `chromedriver` process started on a free loopback port; killed when dropped.
#[derive(Debug)]
pub struct Chromedriver {
    child: Child,
    /// Its WebDriver URL, `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Chromedriver {
    /// Starts `chromedriver` (from `PATH`) on a free port of 127.0.0.1 and waits (up to 20 s)
    /// until it accepts connections.
    ///
    /// # Errors
    /// [`AutofillError::Browser`] when it is not installed, exits, or does not come up.
    pub fn start() -> Result<Chromedriver, AutofillError> {
        let port = free_port().map_err(|e| AutofillError::Browser(format!("no free port: {e}")))?;
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                AutofillError::Browser(format!(
                    "cannot start chromedriver ({e}): {INSTALL_HINT}, or pass --webdriver URL"
                ))
            })?;
        let mut driver = Chromedriver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let t0 = Instant::now();
        loop {
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                return Ok(driver);
            }
            if let Ok(Some(status)) = driver.child.try_wait() {
                return Err(AutofillError::Browser(format!(
                    "chromedriver exited at start ({status})"
                )));
            }
            if t0.elapsed() > Duration::from_secs(20) {
                return Err(AutofillError::Browser(
                    "chromedriver did not listen within 20 s".into(),
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Chromedriver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free TCP port on 127.0.0.1 (bound, read, released; a race with another process is possible
/// but unlikely).
pub fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// The Chromium binary to use, if one of the usual paths exists (else chromedriver's default).
fn chromium_binary() -> Option<&'static str> {
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .into_iter()
    .find(|p| Path::new(p).exists())
}

/// WebDriver capabilities for headless Chromium with a fresh profile in `profile_dir`: no
/// sandbox (we may run as root), no GPU, no QUIC, no background networking, component updates or
/// sync (without those, Chromium opens connections that are refused on a machine without
/// network), a 1100x900 window.
pub fn chrome_capabilities(profile_dir: &Path) -> fantoccini::wd::Capabilities {
    let mut opts = json!({
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1100,900",
            format!("--user-data-dir={}", profile_dir.display()),
        ]
    });
    if let Some(bin) = chromium_binary() {
        opts["binary"] = json!(bin);
    }
    let mut caps = fantoccini::wd::Capabilities::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert("goog:chromeOptions".into(), opts);
    caps
}

/// A browser session: the WebDriver client, plus the chromedriver and profile folder we started
/// (if any), released by [`Browser::close`] (or on drop).
pub struct Browser {
    /// The WebDriver client.
    pub client: Client,
    driver: Option<Chromedriver>,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Opens a headless Chromium session through the WebDriver server at `webdriver`, or through
    /// a `chromedriver` started here when `webdriver` is `None`.
    ///
    /// # Errors
    /// [`AutofillError::Browser`] when chromedriver cannot be started or the session not created.
    pub async fn open(webdriver: Option<&str>) -> Result<Browser, AutofillError> {
        let profile = tempfile::Builder::new()
            .prefix("harness-chromium-")
            .tempdir()
            .map_err(|e| AutofillError::Browser(format!("no temp folder for the profile: {e}")))?;
        let driver = match webdriver {
            Some(_) => None,
            None => Some(
                tokio::task::spawn_blocking(Chromedriver::start)
                    .await
                    .map_err(|e| AutofillError::Browser(format!("starting chromedriver: {e}")))??,
            ),
        };
        let url = webdriver
            .map(str::to_string)
            .or_else(|| driver.as_ref().map(|d| d.url.clone()))
            .unwrap_or_default();
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(chrome_capabilities(profile.path()))
            .connect(&url)
            .await
            .map_err(|e| {
                AutofillError::Browser(format!(
                    "no browser session from the WebDriver server at {url}: {e} ({INSTALL_HINT})"
                ))
            })?;
        Ok(Browser {
            client,
            driver,
            _profile: profile,
        })
    }

    /// Ends the session and stops the chromedriver started by [`Browser::open`].
    pub async fn close(self) {
        let _ = self.client.close().await;
        drop(self.driver);
    }
}

/// The selectors that find the board on a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selectors {
    /// CSS selector of the board's container (default `table`).
    pub table: String,
    /// CSS selector of a cell, inside the container (default `input`).
    pub cell: String,
}

impl Default for Selectors {
    fn default() -> Self {
        Selectors {
            table: DEFAULT_TABLE.into(),
            cell: DEFAULT_CELL.into(),
        }
    }
}

/// A board as read from a page: 81 cell elements in row-major order with their state.
pub struct PageBoard {
    /// The cell elements, row-major.
    pub cells: Vec<fantoccini::elements::Element>,
    /// The digits read (0 = empty), row-major.
    pub grid: Grid,
    /// Which cells are read-only (or disabled).
    pub readonly: [bool; 81],
}

fn cell_value(i: usize, v: &str) -> Result<u8, AutofillError> {
    match v.trim() {
        "" => Ok(0),
        t if t.len() == 1 && ('1'..='9').contains(&t.chars().next().unwrap_or('0')) => {
            Ok(t.as_bytes()[0] - b'0')
        }
        t => Err(AutofillError::BadBoard(format!(
            "{} holds {t:?}, not a digit 1-9 or empty",
            solvers::cell_name(i)
        ))),
    }
}

/// Finds the board (waiting up to `wait` for it to appear) and reads it.
///
/// # Errors
/// [`AutofillError::NoBoard`] naming the selectors and what was found instead,
/// [`AutofillError::BadBoard`] for a cell that is not empty or 1-9 or cells not in 9 rows, or a
/// WebDriver failure.
pub async fn read_board(
    client: &Client,
    sel: &Selectors,
    wait: Duration,
) -> Result<PageBoard, AutofillError> {
    let t0 = Instant::now();
    let (cells, found) = loop {
        let tables = client
            .find_all(Locator::Css(&sel.table))
            .await
            .map_err(wd(format!("looking for {:?}", sel.table)))?;
        let mut found = Vec::new();
        let mut board = None;
        for t in &tables {
            let cs = t
                .find_all(Locator::Css(&sel.cell))
                .await
                .map_err(wd(format!("looking for {:?} cells", sel.cell)))?;
            found.push(cs.len());
            if cs.len() == 81 {
                board = Some(cs);
                break;
            }
        }
        if let Some(b) = board {
            break (b, found);
        }
        if t0.elapsed() >= wait {
            return Err(AutofillError::NoBoard(format!(
                "no element matching {:?} holds 81 cells matching {:?} (found {}{})",
                sel.table,
                sel.cell,
                crate::plumbing::human::plural(tables.len(), "such element"),
                if found.is_empty() {
                    String::new()
                } else {
                    format!(
                        ", holding {} cells",
                        found
                            .iter()
                            .map(|n| n.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            )));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let _ = found;
    // Screen positions, to put the cells in row-major order whatever the markup's order.
    let mut placed = Vec::with_capacity(81);
    for (k, el) in cells.into_iter().enumerate() {
        let (x, y, w, h) = el
            .rectangle()
            .await
            .map_err(wd(format!("reading the position of cell {}", k + 1)))?;
        placed.push((y + h / 2.0, x + w / 2.0, h, el));
    }
    placed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for row in placed.chunks_mut(9) {
        let (lo, hi) = (row[0].0, row[8].0);
        if hi - lo > row[0].2 / 2.0 {
            return Err(AutofillError::BadBoard(format!(
                "the 81 cells are not laid out as 9 rows of 9 (a row spans {lo:.0} to {hi:.0} px)"
            )));
        }
        row.sort_by(|a, b| a.1.total_cmp(&b.1));
    }
    let cells: Vec<_> = placed.into_iter().map(|p| p.3).collect();
    let mut grid = Grid::EMPTY;
    let mut readonly = [false; 81];
    for (i, el) in cells.iter().enumerate() {
        let name = solvers::cell_name(i);
        let v = el
            .prop("value")
            .await
            .map_err(wd(format!("reading {name}")))?
            .unwrap_or_default();
        grid.set(i, cell_value(i, &v)?);
        readonly[i] = el
            .attr("readonly")
            .await
            .map_err(wd(format!("reading {name}")))?
            .is_some()
            || el
                .attr("disabled")
                .await
                .map_err(wd(format!("reading {name}")))?
                .is_some();
    }
    Ok(PageBoard {
        cells,
        grid,
        readonly,
    })
}

/// What [`fill_page`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FillReport {
    /// The board as read (81 cells, row-major, 0 = empty).
    pub puzzle: Grid,
    /// The solution typed in, as read back from the page and checked.
    pub solution: Grid,
    /// Digits typed.
    pub typed: usize,
    /// Read-only cells skipped.
    pub readonly: usize,
    /// Whether the board has exactly one solution (counted up to 2), if counted in budget.
    pub unique: Option<bool>,
}

/// The solver that autofill uses: the default of `harness solve`, `count` and the web API,
/// [`crate::generate::counting_solver`].
pub fn solver() -> SolverKind {
    crate::generate::counting_solver()
}

/// Solves `puzzle` with [`solver`] (30 s budget) and counts its solutions up to 2.
///
/// # Errors
/// [`AutofillError::Unsolvable`] for repeated digits, no solution, or a solver out of time.
pub fn solve_board(puzzle: &Grid) -> Result<(Grid, Option<bool>), AutofillError> {
    if let Some(c) = puzzle.first_conflict() {
        return Err(AutofillError::Unsolvable(c.to_string()));
    }
    let kind = solver();
    let mut session = kind.session();
    let board = solvers::Board::from(puzzle);
    let out = session
        .solve(&board, &Budget::with_timeout(Duration::from_secs(30)))
        .map_err(|e| AutofillError::Unsolvable(format!("{kind}: {e}")))?;
    let solution = match (out.status, out.grid()) {
        (Status::Solved, Some(s)) => s,
        (Status::Timeout, _) => {
            return Err(AutofillError::Unsolvable(format!(
                "{} ran out of its 30 s budget",
                kind.name()
            )))
        }
        _ => {
            return Err(AutofillError::Unsolvable(format!(
                "{} searched it all and found no solution",
                kind.name()
            )))
        }
    };
    if let Err(w) = verify::check(puzzle.cells(), solution.cells(), None) {
        return Err(AutofillError::Unsolvable(format!(
            "the solver's answer failed the checker: {w}"
        )));
    }
    let unique = session
        .count(&board, 2, &Budget::with_timeout(Duration::from_secs(10)))
        .ok()
        .filter(|c| c.complete)
        .map(|c| c.solutions == 1);
    Ok((solution, unique))
}

/// On the page the browser shows: reads the board, solves it, types each missing digit (click,
/// clear, send keys; read-only cells skipped), reads the board back and checks it with
/// [`verify::check`] against the board read and the solution.
///
/// # Errors
/// [`AutofillError`]: no board, a bad or unsolvable board, an empty read-only cell, a WebDriver
/// failure, or ([`AutofillError::Mismatch`]) a page that does not hold the solution afterwards.
pub async fn fill_page(client: &Client, sel: &Selectors) -> Result<FillReport, AutofillError> {
    let board = read_board(client, sel, Duration::from_secs(5)).await?;
    let puzzle = board.grid;
    let (solution, unique) = solve_board(&puzzle)?;
    let mut typed = 0;
    for i in 0..81 {
        if puzzle.get(i) != 0 {
            continue;
        }
        let name = solvers::cell_name(i);
        if board.readonly[i] {
            return Err(AutofillError::BadBoard(format!(
                "{name} is empty but read-only: it cannot be filled"
            )));
        }
        let el = &board.cells[i];
        el.click().await.map_err(wd(format!("clicking {name}")))?;
        el.clear().await.map_err(wd(format!("clearing {name}")))?;
        el.send_keys(&solution.get(i).to_string())
            .await
            .map_err(wd(format!("typing into {name}")))?;
        typed += 1;
    }
    let mut back = [0u8; 81];
    for (i, el) in board.cells.iter().enumerate() {
        let v = el
            .prop("value")
            .await
            .map_err(wd(format!("reading back {}", solvers::cell_name(i))))?
            .unwrap_or_default();
        back[i] = cell_value(i, &v).map_err(|e| AutofillError::Mismatch(e.to_string()))?;
    }
    verify::check(puzzle.cells(), &back, Some(solution.cells()))
        .map_err(|w| AutofillError::Mismatch(w.to_string()))?;
    Ok(FillReport {
        puzzle,
        solution: Grid::from_cells(back).unwrap_or(solution),
        typed,
        readonly: board.readonly.iter().filter(|&&r| r).count(),
        unique,
    })
}

/// Everything `harness autofill` does: open the browser, load `url`, [`fill_page`], optionally
/// save a PNG screenshot, close the browser.
///
/// # Errors
/// As [`fill_page`], plus browser start and navigation failures and an unwritable screenshot.
pub async fn autofill(
    url: &str,
    webdriver: Option<&str>,
    sel: &Selectors,
    screenshot: Option<&PathBuf>,
) -> Result<FillReport, AutofillError> {
    let browser = Browser::open(webdriver).await?;
    let result = async {
        browser
            .client
            .goto(url)
            .await
            .map_err(wd(format!("opening {url}")))?;
        let report = fill_page(&browser.client, sel).await.map_err(|e| match e {
            AutofillError::NoBoard(m) => AutofillError::NoBoard(format!("{url}: {m}")),
            e => e,
        });
        if let Some(path) = screenshot {
            let png = browser
                .client
                .screenshot()
                .await
                .map_err(wd("taking a screenshot"))?;
            crate::plumbing::output::write_atomic(path, |w| Ok(w.write_all(&png)?)).map_err(
                |e| AutofillError::Browser(format!("writing {}: {e:#}", path.display())),
            )?;
        }
        report
    }
    .await;
    browser.close().await;
    result
}
