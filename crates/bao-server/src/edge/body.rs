//! Request bodies and JSON answers in the contract's form (docs/api.md, "Errors", "Limits").

use crate::error::{ApiError, ApiResult};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// Largest JSON body accepted.
pub const MAX_JSON: usize = 64 * 1024;
/// Largest record file accepted.
pub const MAX_RECORD: usize = 1024 * 1024;

/// The body as JSON of type T; refusals in the contract's form.
pub fn json_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<T> {
    let bytes = body_bytes(body, MAX_JSON)?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::bad_request(format!(
            "the request body is not valid JSON for this call: {e}"
        ))
    })
}

/// The body's bytes, or the contract's refusal (413 past `max`).
pub fn body_bytes(body: Result<Bytes, BytesRejection>, max: usize) -> ApiResult<Bytes> {
    match body {
        Ok(b) => Ok(b),
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::too_large(format!(
            "the request body is larger than {} KiB",
            max / 1024
        ))),
        Err(e) => Err(ApiError::bad_request(format!(
            "the request body could not be read: {e}"
        ))),
    }
}

/// A JSON answer from text already serialised.
pub fn json_text(status: StatusCode, text: String) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        text,
    )
        .into_response()
}

/// A JSON answer of a serialisable value.
pub fn json<T: serde::Serialize>(status: StatusCode, value: &T) -> ApiResult<Response> {
    let text = serde_json::to_string(value).map_err(ApiError::internal)?;
    Ok(json_text(status, text))
}
