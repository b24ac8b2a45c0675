//! The error every part of the web server answers with: an HTTP status and a message, sent as
//! `{"error": message}` (the API, the gate, the accept loop).

use axum::extract::rejection::JsonRejection;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An API error: an HTTP status and a message, sent as `{"error": message}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// 400 for bad input, 413 for a body over the limit, 503 when the server is busy or shutting
    /// down; 500 only if a worker thread died or a solver's session failed.
    pub status: StatusCode,
    /// What was wrong, naming the cell where there is one.
    pub message: String,
}

impl ApiError {
    /// A 400 Bad Request with `message`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// A 503 Service Unavailable (sent with `Retry-After: 1`) with `message`.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }

    /// A 500 Internal Server Error with `message`.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }

    /// The 503 of a request cut short by the server's shutdown.
    pub fn shutting_down() -> ApiError {
        ApiError::busy("the server is shutting down")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            res.headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        }
        res
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let status = match r.status() {
            StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError {
            status,
            message: format!("bad request body: {}", r.body_text()),
        }
    }
}
