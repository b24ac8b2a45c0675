//! `harness serve`: the board page and the JSON API, on 127.0.0.1 only.
//!
//! The page's three files live in `src/web/assets/` and are compiled into the binary with
//! `include_str!`; the page loads nothing else (no CDN, no font, no image).

use super::api;
use axum::extract::Query;
use axum::http::{header, StatusCode};
use axum::response::Html;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use solvers::Grid;
use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};

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

/// The board as HTML: `<table id="board">` of 9 rows of 9 `<td>`, each holding a `<div
/// class="marks">` (pencil marks) and an `<input class="cell">`, in row-major order; givens are
/// `readonly` with class `given`. `data-puzzle` holds the puzzle's line form.
pub fn board_html(puzzle: &Grid) -> String {
    let mut out = format!(
        "<table id=\"board\" data-puzzle=\"{}\" aria-label=\"Sudoku board\">\n",
        puzzle.to_line()
    );
    for r in 0..9 {
        out.push_str("<tr>");
        for c in 0..9 {
            let i = r * 9 + c;
            let v = puzzle.get(i);
            let name = format!("r{}c{}", r + 1, c + 1);
            out.push_str(&format!(
                "<td><div class=\"marks\"></div><input class=\"cell{}\" id=\"{name}\" \
                 aria-label=\"{name}\" maxlength=\"1\" inputmode=\"numeric\" autocomplete=\"off\" \
                 value=\"{}\"{}></td>",
                if v != 0 { " given" } else { "" },
                if v != 0 { v.to_string() } else { String::new() },
                if v != 0 { " readonly" } else { "" },
            ));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>");
    out
}

/// `<option>`s of every solver of the registry (`title` = its description), the default one
/// selected.
fn solver_options() -> String {
    solvers::SolverKind::ALL
        .iter()
        .map(|k| {
            format!(
                "<option value=\"{0}\" title=\"{1}\"{2}>{0}</option>",
                k.name(),
                html_escape(k.description()),
                if *k == api::DEFAULT_SOLVER {
                    " selected"
                } else {
                    ""
                }
            )
        })
        .collect()
}

/// `<option>`s of the shipped datasets.
fn dataset_options() -> String {
    crate::dataset::SHIPPED
        .iter()
        .map(|s| format!("<option value=\"{0}\">{0}</option>", s.name))
        .collect()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page with a board: the puzzle of `?puzzle=` (81-character line form), else a fresh
/// generated one. A bad `?puzzle=` gives a 400 page naming the cell.
async fn index(Query(q): Query<HashMap<String, String>>) -> Result<Html<String>, api::ApiError> {
    let (puzzle, origin) = match q.get("puzzle") {
        Some(text) => (api::parse_puzzle(text)?, "given in the address".to_string()),
        None => {
            let g = tokio::task::spawn_blocking(|| {
                super::engine::generate(
                    &super::engine::Source::Generator {
                        givens: Some(START_GIVENS),
                    },
                    rand::random(),
                )
            })
            .await
            .map_err(|e| api::ApiError {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                message: format!("worker failed: {e}"),
            })?
            .map_err(|e| api::ApiError::bad_request(e.to_string()))?;
            (g.puzzle, g.origin)
        }
    };
    let status = format!("{origin}: {} givens.", puzzle.givens());
    Ok(Html(
        INDEX_HTML
            .replace("<!--BOARD-->", &board_html(&puzzle))
            .replace("<!--STATUS-->", &html_escape(&status))
            .replace("<!--SOLVERS-->", &solver_options())
            .replace("<!--DATASETS-->", &dataset_options()),
    ))
}

/// The whole app: `/`, `/app.js`, `/style.css` and the routes of [`api`]. Anything else is a 404
/// with a JSON `{"error"}` body.
pub fn router() -> Router {
    Router::new()
        .route("/", get(index))
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
}

/// Binds 127.0.0.1:`port` (0 = a free port chosen by the system).
///
/// # Errors
/// When the port cannot be bound (in use, or privileged).
pub async fn bind(port: u16) -> std::io::Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await
}

/// Serves [`router`] on `listener` until `shutdown` completes.
///
/// # Errors
/// On an I/O error of the listener.
pub async fn serve(
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router())
        .with_graceful_shutdown(shutdown)
        .await
}
