//! API errors: a status and the contract's body `{"error": category, "message": sentence}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bao_rules::MoveError;

/// An error answered to a client. `category` is one of the contract's categories (docs/api.md).
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// `bad_request`, `illegal_move`, ... (docs/api.md).
    pub category: &'static str,
    /// A sentence for people.
    pub message: String,
}

impl ApiError {
    /// Any error.
    pub fn new(status: StatusCode, category: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            category,
            message: message.into(),
        }
    }
    /// 400 `bad_request`.
    pub fn bad_request(m: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", m)
    }
    /// 404 `not_found`.
    pub fn not_found(m: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", m)
    }
    /// 403 `forbidden`.
    pub fn forbidden(m: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", m)
    }
    /// 409 `conflict`.
    pub fn conflict(m: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "conflict", m)
    }
    /// 409 `game_over`.
    pub fn game_over(m: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "game_over", m)
    }
    /// 409 `not_your_turn`.
    pub fn not_your_turn(m: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "not_your_turn", m)
    }
    /// 413 `too_large`.
    pub fn too_large(m: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", m)
    }
    /// 500 `internal`. The detail goes to the log, not to the client.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!("internal error: {detail}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the server failed; the game is unchanged, please try again",
        )
    }

    /// The body, as JSON.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({"error": self.category, "message": self.message})
    }
}

impl From<MoveError> for ApiError {
    fn from(e: MoveError) -> Self {
        let status = match e {
            MoveError::Malformed { .. } => StatusCode::BAD_REQUEST,
            MoveError::Illegal { .. } | MoveError::Ambiguous { .. } => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            MoveError::GameOver { .. } => StatusCode::CONFLICT,
        };
        ApiError::new(status, e.category(), e.to_string())
    }
}

impl From<crate::store::StoreError> for ApiError {
    /// A conflict is the player's 409 (another change came first); anything else is the
    /// server's failure, logged.
    fn from(e: crate::store::StoreError) -> Self {
        match e {
            crate::store::StoreError::Conflict(m) => ApiError::conflict(m),
            e => ApiError::internal(e),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body())).into_response()
    }
}

/// Result of an API operation.
pub type ApiResult<T> = Result<T, ApiError>;
