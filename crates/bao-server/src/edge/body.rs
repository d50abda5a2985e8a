//! Request bodies and JSON answers in the contract's form (docs/api.md, "Errors", "Limits").
//!
//! Every JSON body is read by one extractor, [`Json`] (or [`JsonOrEmpty`] where a call
//! takes an empty body as `{}`), with one limit, [`MAX_JSON`], whatever layers the route
//! has: 415 `unsupported_media_type` without `Content-Type: application/json`, 413
//! `too_large` past the limit (before reading it when the length is announced, as soon as
//! it is passed otherwise), 400 `bad_request` for a body that is not this call's JSON.

use crate::error::{ApiError, ApiResult, Category};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;

/// Largest JSON body accepted.
pub const MAX_JSON: usize = 64 * 1024;
/// Largest record file accepted.
pub const MAX_RECORD: usize = 1024 * 1024;

/// A JSON request body of type T.
#[derive(Debug, Clone)]
pub struct Json<T>(pub T);

/// A JSON request body of type T, where an empty (or blank) body is `T::default()`.
#[derive(Debug, Clone)]
pub struct JsonOrEmpty<T>(pub T);

/// Whether `headers` say the body is JSON (`application/json`, parameters allowed).
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
}

/// The length a request announces, if it does.
pub fn announced_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

/// 413 `too_large` for a JSON body over [`MAX_JSON`].
pub fn json_too_large() -> ApiError {
    ApiError::too_large(format!(
        "the request body is larger than {} KiB",
        MAX_JSON / 1024
    ))
}

/// 415 `unsupported_media_type`.
pub fn not_json() -> ApiError {
    ApiError::of(
        Category::UnsupportedMediaType,
        "send the request body as JSON with Content-Type: application/json",
    )
}

/// The body's bytes, at most [`MAX_JSON`] of them, or the contract's refusal.
async fn read_json_bytes(req: Request) -> ApiResult<Bytes> {
    if !is_json(req.headers()) {
        return Err(not_json());
    }
    if announced_length(req.headers()).is_some_and(|n| n > MAX_JSON as u64) {
        return Err(json_too_large());
    }
    let mut body = req.into_body().into_data_stream();
    let mut out = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::bad_request(format!("the request body could not be read: {e}"))
        })?;
        if out.len() + chunk.len() > MAX_JSON {
            return Err(json_too_large());
        }
        out.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(out))
}

/// `bytes` as JSON of type T, or 400 `bad_request`.
fn parse<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> ApiResult<T> {
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError::bad_request(format!(
            "the request body is not valid JSON for this call: {e}"
        ))
    })
}

impl<S, T> FromRequest<S> for Json<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, _: &S) -> Result<Self, ApiError> {
        Ok(Json(parse(&read_json_bytes(req).await?)?))
    }
}

impl<S, T> FromRequest<S> for JsonOrEmpty<T>
where
    T: serde::de::DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, _: &S) -> Result<Self, ApiError> {
        let bytes = read_json_bytes(req).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(JsonOrEmpty(T::default()));
        }
        Ok(JsonOrEmpty(parse(&bytes)?))
    }
}

/// The body's bytes of a call that is not JSON (a record file), or the contract's refusal
/// (413 past `max`, the route's own limit).
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

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    #[derive(serde::Deserialize, Default, Debug, PartialEq)]
    struct Ask {
        #[serde(default)]
        n: u32,
    }

    fn req(ct: Option<&str>, body: Body) -> Request {
        let mut b = Request::builder().method("POST").uri("/api/x");
        if let Some(ct) = ct {
            b = b.header("content-type", ct);
        }
        b.body(body).unwrap()
    }

    async fn read<T: serde::de::DeserializeOwned>(r: Request) -> ApiResult<T> {
        Json::<T>::from_request(r, &()).await.map(|j| j.0)
    }

    #[tokio::test]
    async fn the_contracts_answers() {
        let ok: Ask = read(req(
            Some("application/json; charset=utf-8"),
            Body::from("{\"n\":3}"),
        ))
        .await
        .unwrap();
        assert_eq!(ok, Ask { n: 3 });
        let e = read::<Ask>(req(Some("text/plain"), Body::from("{}")))
            .await
            .unwrap_err();
        assert_eq!(
            (e.status.as_u16(), e.category),
            (415, Category::UnsupportedMediaType)
        );
        let e = read::<Ask>(req(Some("application/json"), Body::from("{\"n\":")))
            .await
            .unwrap_err();
        assert_eq!((e.status.as_u16(), e.category), (400, Category::BadRequest));
        // Past the limit in pieces, no length announced: refused once the limit is passed.
        let chunks: Vec<Result<Bytes, std::io::Error>> = (0..20)
            .map(|_| Ok(Bytes::from(vec![b' '; 8 * 1024])))
            .collect();
        let body = Body::from_stream(futures_util::stream::iter(chunks));
        let e = read::<Ask>(req(Some("application/json"), body))
            .await
            .unwrap_err();
        assert_eq!((e.status.as_u16(), e.category), (413, Category::TooLarge));
        // Exactly the limit is read.
        let mut at = vec![b' '; MAX_JSON - 2];
        at.extend_from_slice(b"{}");
        assert!(read::<Ask>(req(Some("application/json"), Body::from(at)))
            .await
            .is_ok());
        // An empty body, where the call allows it.
        let JsonOrEmpty(a) =
            JsonOrEmpty::<Ask>::from_request(req(Some("application/json"), Body::from(" \n")), &())
                .await
                .unwrap();
        assert_eq!(a, Ask::default());
    }
}
