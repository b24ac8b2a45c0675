//! `harness serve`: the board page and the JSON API, on 127.0.0.1 only.
//!
//! The page's three files live in `src/web/assets/` and are compiled into the binary with
//! `include_str!`; the page loads nothing else (no CDN, no font, no image).
//!
//! [`serve_with`] runs its own accept loop on hyper's HTTP/1 connection builder, to bound what
//! clients can hold: at most [`Limits::max_connections`] connections (one more is answered 503
//! and closed), [`Limits::header_timeout`] to send a request's headers (or the next request on
//! an idle connection), bodies of at most [`Limits::body_limit`] bytes arriving within
//! [`Limits::body_timeout`] (so every limit is a time limit too); solve work passes the
//! [`Gate`]. On shutdown the listener closes, every solve in flight is cancelled (its client gets
//! a 503), and the connections are closed gracefully, within [`SHUTDOWN_GRACE`].

use super::api;
use super::error::ApiError;
pub use super::gate::{Gate, Limits};
use crate::input::format::{board_line, symbol_char};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, StatusCode};
use axum::response::Html;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use solvers::{Board, Shape};
use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The board page.
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's script.
pub const APP_JS: &str = include_str!("assets/app.js");
/// The page's style sheet.
pub const STYLE_CSS: &str = include_str!("assets/style.css");

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// Givens of the puzzle shown when the page is opened without `?puzzle=`.
pub const START_GIVENS: usize = 30;

/// The shapes of the board's shape picker, in its order (9x9 is the default).
pub const PICKER_SHAPES: &[&str] = &[
    "4x4",
    "6x6/2x3",
    "9x9",
    "12x12/3x4",
    "16x16",
    "25x25",
    "4x4/latin",
    "6x6/latin",
    "9x9/latin",
    "12x12/latin",
    "16x16/latin",
    "25x25/latin",
];

/// The largest side the board draws (larger grids are solved through the API).
pub const MAX_BOARD_SIDE: usize = 25;

/// The width of a cell in pixels: 44 up to 12x12, smaller above so that the board stays about
/// 650 pixels wide.
fn cell_px(side: usize) -> usize {
    (660 / side.max(1)).clamp(24, 44)
}

/// The board as HTML: `<table id="board">` of N rows of N `<td>`, each holding a `<div
/// class="marks">` (pencil marks) and an `<input class="cell">`, in row-major order; givens are
/// `readonly` with class `given`. `data-puzzle` holds the puzzle's line form, `data-shape` its
/// shape, `data-side`, `data-box-rows` and `data-box-cols` its geometry (boxes 0 for a Latin
/// square), `data-givens-min` and `data-givens-max` the generator's range of givens at that
/// shape ([`crate::generate::clue_range`]), which the page's givens input takes. A cell ending a
/// box on the right has class `box-r`, at the bottom `box-b`.
pub fn board_html(puzzle: &Board) -> String {
    let shape = puzzle.shape();
    let n = shape.side();
    let (br, bc) = shape.boxes().unwrap_or((0, 0));
    let px = cell_px(n);
    let givens = crate::generate::clue_range(shape);
    let mut out = format!(
        "<table id=\"board\" data-puzzle=\"{}\" data-shape=\"{shape}\" data-side=\"{n}\" \
         data-box-rows=\"{br}\" data-box-cols=\"{bc}\" data-givens-min=\"{}\" \
         data-givens-max=\"{}\" style=\"--cell: {px}px; --marks: {marks}\" \
         aria-label=\"{shape} {kind} board\">\n",
        board_line(puzzle),
        givens.start(),
        givens.end(),
        kind = if shape.is_latin() {
            "Latin square"
        } else {
            "Sudoku"
        },
        marks = (1..=n).find(|k| k * k >= n).unwrap_or(1),
    );
    let ends = |k: usize, size: usize| size != 0 && (k + 1) % size == 0 && k + 1 < n;
    let mode = if n <= 9 { "numeric" } else { "text" };
    for r in 0..n {
        out.push_str("<tr>");
        for c in 0..n {
            let v = puzzle.get(r * n + c);
            let name = format!("r{}c{}", r + 1, c + 1);
            let class = match (ends(c, bc), ends(r, br)) {
                (true, true) => " class=\"box-r box-b\"",
                (true, false) => " class=\"box-r\"",
                (false, true) => " class=\"box-b\"",
                (false, false) => "",
            };
            out.push_str(&format!(
                "<td{class}><div class=\"marks\"></div><input class=\"cell{}\" id=\"{name}\" \
                 aria-label=\"{name}\" maxlength=\"1\" inputmode=\"{mode}\" autocomplete=\"off\" \
                 value=\"{}\"{}></td>",
                if v != 0 { " given" } else { "" },
                if v != 0 {
                    symbol_char(v).map(String::from).unwrap_or_default()
                } else {
                    String::new()
                },
                if v != 0 { " readonly" } else { "" },
            ));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>");
    out
}

/// A board of `shape` from the query's `puzzle` and `shape` (either may be absent: an empty
/// board of the shape, or the shape the puzzle's size implies).
///
/// # Errors
/// A 400 [`ApiError`] as [`api::parse_board`] gives, or a side above [`MAX_BOARD_SIDE`].
fn query_board(q: &HashMap<String, String>) -> Result<Option<Board>, ApiError> {
    let shape = q.get("shape").map(String::as_str);
    let board = match q.get("puzzle") {
        Some(text) => api::parse_board(text, shape)?,
        None => match api::parse_shape(shape)? {
            Some(s) => Board::empty(s),
            None => return Ok(None),
        },
    };
    let side = board.shape().side();
    if side > MAX_BOARD_SIDE {
        return Err(ApiError::bad_request(format!(
            "the board draws grids up to {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE}; solve a \
             {side}x{side} puzzle through POST /api/solve"
        )));
    }
    Ok(Some(board))
}

/// `GET /board?shape=S&puzzle=P`: the board's table alone ([`board_html`]), for the page to
/// draw another puzzle or shape.
async fn board_fragment(
    Query(q): Query<HashMap<String, String>>,
) -> Result<Html<String>, ApiError> {
    let board = query_board(&q)?.unwrap_or_else(|| Board::empty(Shape::CLASSIC));
    Ok(Html(board_html(&board)))
}

/// `<option>`s of the shape picker, `selected` the one of `shape`.
fn shape_options(shape: Shape) -> String {
    PICKER_SHAPES
        .iter()
        .map(|s| {
            let selected = s.parse::<Shape>().is_ok_and(|p| p == shape);
            format!(
                "<option value=\"{s}\"{}>{s}</option>",
                if selected { " selected" } else { "" }
            )
        })
        .collect()
}

/// `<option>`s of every solver of the registry (`title` = its description, `data-shapes` the
/// shapes it takes: `9x9` or `any`), the default one selected.
fn solver_options() -> String {
    solvers::SolverKind::ALL
        .iter()
        .map(|k| {
            format!(
                "<option value=\"{0}\" title=\"{1}\" data-shapes=\"{3}\"{2}>{0}</option>",
                k.name(),
                html_escape(k.description()),
                if *k == api::default_solver() {
                    " selected"
                } else {
                    ""
                },
                k.caps().shapes.as_str(),
            )
        })
        .collect()
}

/// `<option>`s of the shipped datasets, of every shape.
fn dataset_options() -> String {
    crate::input::dataset::all_shipped()
        .map(|s| format!("<option value=\"{0}\">{0}</option>", s.name))
        .collect()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page with a board: the puzzle of `?puzzle=` (the line form; `?shape=` its shape, as in
/// the API), an empty board of `?shape=` alone, else a fresh generated 9x9 puzzle; its givens
/// input bounded by [`crate::generate::clue_range`] of the board's shape, as the API checks it.
/// A bad `?puzzle=` or `?shape=` gives a 400 naming the cell or the shape.
async fn index(
    State(gate): State<Arc<Gate>>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Html<String>, ApiError> {
    let (puzzle, origin) = match query_board(&q)? {
        Some(b) if q.contains_key("puzzle") => (b, "given in the address".to_string()),
        Some(b) => (b, format!("empty {} board", q["shape"].trim())),
        None => {
            // Generating is solve work: it passes the gate like the API's.
            let g = api::blocking(Some(&gate), 0, (), |(), cancel| {
                super::engine::generate(
                    &super::engine::Source::Generator {
                        givens: Some(START_GIVENS),
                    },
                    Shape::CLASSIC,
                    rand::random(),
                    &api::budget(None, cancel)?,
                )
                .map_err(|e| ApiError::bad_request(e.to_string()))
            })
            .await?
            .0;
            (g.puzzle, g.origin)
        }
    };
    let status = format!("{origin}: {} givens.", puzzle.givens());
    let givens = crate::generate::clue_range(puzzle.shape());
    Ok(Html(
        INDEX_HTML
            .replace("<!--BOARD-->", &board_html(&puzzle))
            .replace("<!--GIVENS-MIN-->", &givens.start().to_string())
            .replace("<!--GIVENS-MAX-->", &givens.end().to_string())
            .replace("<!--START-GIVENS-->", &START_GIVENS.to_string())
            .replace("<!--STATUS-->", &html_escape(&status))
            .replace("<!--SHAPES-->", &shape_options(puzzle.shape()))
            .replace(
                "<!--SHAPED-SOLVER-->",
                crate::generate::SHAPED_COUNTING_SOLVER.name(),
            )
            .replace("<!--SOLVERS-->", &solver_options())
            .replace("<!--DATASETS-->", &dataset_options()),
    ))
}

/// [`router_with`] a gate of [`Limits::default`].
pub fn router() -> Router {
    router_with(Arc::new(Gate::new(Limits::default())))
}

/// The whole app: `/`, `/board`, `/app.js`, `/style.css` and the routes of [`api`], solve work passing
/// `gate`. Anything else is a 404, a method a route does not take a 405 (with `Allow`), a body
/// over the gate's limit a 413; each with a JSON `{"error"}` body.
pub fn router_with(gate: Arc<Gate>) -> Router {
    let body_limit = gate.limits().body_limit;
    Router::new()
        .route("/", get(index))
        .route("/board", get(board_fragment))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/api/info", get(api::info_handler))
        .route("/api/solve", post(api::solve_handler))
        .route("/api/count", post(api::count_handler))
        .route("/api/candidates", post(api::candidates_handler))
        .route("/api/generate", post(api::generate_handler))
        .route("/api/hint", post(api::hint_handler))
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                axum::Json(serde_json::json!({ "error": "no such page" })),
            )
        })
        // axum adds the `Allow` header to this answer.
        .method_not_allowed_fallback(|method: axum::http::Method| async move {
            (
                StatusCode::METHOD_NOT_ALLOWED,
                axum::Json(serde_json::json!({
                    "error": format!("method {method} is not allowed here (see the Allow header)")
                })),
            )
        })
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn_with_state(
            gate.clone(),
            whole_body,
        ))
        .with_state(gate)
}

/// Reads a request's whole body before any handler sees it, within the gate's limits: a
/// `Content-Length` over [`Limits::body_limit`] gets 413 at once (no byte of the body read), a
/// body that does not arrive within [`Limits::body_timeout`] gets 408, and a shutdown ends the
/// wait with a 503. Each of these answers closes the connection, so a slow client holds its slot
/// for the timeout at most.
async fn whole_body(
    State(gate): State<Arc<Gate>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let limits = gate.limits();
    let (parts, body) = req.into_parts();
    let too_large = || ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        message: format!(
            "bad request body: longer than the limit of {} bytes",
            limits.body_limit
        ),
    };
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits.body_limit as u64) {
        return closing(too_large());
    }
    let read = tokio::time::timeout(limits.body_timeout, body_bytes(body, limits.body_limit));
    let bytes = tokio::select! {
        r = read => match r {
            Ok(Some(bytes)) => bytes,
            // Over the limit (or the client went away: then nobody reads the answer).
            Ok(None) => return closing(too_large()),
            Err(_) => {
                return closing(ApiError {
                    status: StatusCode::REQUEST_TIMEOUT,
                    message: format!(
                        "the request body did not arrive within {} s",
                        limits.body_timeout.as_secs_f64()
                    ),
                })
            }
        },
        () = gate.stopping() => return closing(ApiError::shutting_down()),
    };
    let req = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
    next.run(req).await
}

/// The bytes of `body`, copied frame by frame into one buffer of at most `limit` bytes; `None`
/// when it is longer or the client went away. A frame shares the connection's read buffer
/// (8 KiB), so keeping the frames until the body is whole, as collecting them would, lets a
/// client that sends one byte at a time hold 8 KiB of memory per byte.
async fn body_bytes(mut body: axum::body::Body, limit: usize) -> Option<axum::body::Bytes> {
    use axum::body::HttpBody;
    let mut buf = Vec::new();
    while let Some(frame) =
        std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await
    {
        if let Ok(data) = frame.ok()?.into_data() {
            if buf.len() + data.len() > limit {
                return None;
            }
            buf.extend_from_slice(&data);
        }
    }
    Some(buf.into())
}

/// `e` as an answer that closes the connection (the rest of its request is never read).
fn closing(e: ApiError) -> axum::response::Response {
    let mut res = e.into_response();
    res.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    res
}

/// Binds 127.0.0.1:`port` (0 = a free port chosen by the system).
///
/// # Errors
/// When the port cannot be bound (in use, or privileged).
pub async fn bind(port: u16) -> std::io::Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await
}

/// How long a shutdown waits for connections to finish once their solves are cancelled.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// How long one connection may take to finish its answer once the shutdown has started (a
/// client that reads its answer slowly is then dropped).
pub const CONNECTION_DRAIN: Duration = Duration::from_secs(1);

/// The answer to a connection over [`Limits::max_connections`], written before it is closed.
fn too_many_connections() -> Vec<u8> {
    let body = r#"{"error": "too many connections; retry in a second"}"#;
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Serves [`router`] on `listener` with [`Limits::default`] until `shutdown` completes.
///
/// # Errors
/// On an I/O error of the listener.
pub async fn serve(
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, Arc::new(Gate::new(Limits::default())), shutdown).await
}

/// Serves [`router_with`] `gate` on `listener` until `shutdown` completes (see the module docs),
/// then cancels the solves in flight and returns once every connection is closed, or after
/// [`SHUTDOWN_GRACE`].
///
/// # Errors
/// Never in practice: failed accepts (out of file descriptors, say) are waited out and retried.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    gate: Arc<Gate>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = router_with(gate.clone());
    let limits = gate.limits().clone();
    let connections = Arc::new(Semaphore::new(limits.max_connections));
    let mut tasks = tokio::task::JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                // EMFILE, ECONNABORTED...: the connection waits in the backlog; try again soon.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        while tasks.try_join_next().is_some() {}
        let Ok(permit) = connections.clone().try_acquire_owned() else {
            // A fresh connection's send buffer is empty: this write does not block.
            let _ = stream.try_write(&too_many_connections());
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let gate = gate.clone();
        let header_timeout = limits.header_timeout;
        tasks.spawn(async move {
            let _permit = permit;
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                () = gate.stopping() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(CONNECTION_DRAIN, conn).await;
                }
            }
        });
    }
    drop(listener);
    gate.shut_down();
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    Ok(())
}
