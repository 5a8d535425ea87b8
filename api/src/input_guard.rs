//! Refuses text that PostgreSQL cannot store, once, before any operation sees the request.
//!
//! A `text` value in a UTF-8 database holds any character but NUL (U+0000): Postgres answers "invalid byte
//! sequence 0x00", which became a 500 wherever a request's text reached a query. Every other character Postgres
//! refuses (invalid UTF-8, lone surrogates) cannot reach a handler at all: path, query and JSON are decoded into
//! Rust strings, which refuse them with a 400 of their own. So this checks the decoded path segments, query
//! string, url-encoded form bodies and JSON bodies (every string, keys included) for NUL and answers 400 naming
//! the field. The text fields of multipart uploads are checked by their own validators (a pattern refusing NUL),
//! so that a 200 MB upload is never read into memory here.

use crate::error::ApiError;
use poem::http::header::CONTENT_TYPE;
use poem::{Body, Endpoint, Middleware, Request, Result};
use serde_json::Value;

pub struct InputGuard;

impl<E: Endpoint> Middleware<E> for InputGuard {
    type Output = InputGuardEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        InputGuardEndpoint { inner }
    }
}

pub struct InputGuardEndpoint<E> {
    inner: E,
}

fn refused(field: &str) -> poem::Error {
    ApiError::BadRequest(format!("{field}: must not contain a NUL character")).into()
}

/// Undoes percent-encoding (and `+` for a space when `plus` is set) into raw bytes; a malformed escape is kept
/// as it is, as the decoders of the operations do.
fn percent_decode(s: &str, plus: bool) -> Vec<u8> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let hex = |c: u8| (c as char).to_digit(16);
        if b == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(if plus && b == b'+' { b' ' } else { b });
        i += 1;
    }
    out
}

/// The first field of `name=value&…` whose decoded name or value holds a NUL.
fn nul_in_pairs(encoded: &str) -> Option<String> {
    encoded.split('&').find_map(|pair| {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let name = percent_decode(name, true);
        let value = percent_decode(value, true);
        (name.contains(&0) || value.contains(&0))
            .then(|| String::from_utf8_lossy(&name).replace('\0', "\\0"))
    })
}

/// The path (`a.b[2].c`) of the first string in `value`, key or value, that holds a NUL.
fn nul_in_json(value: &Value, at: &str) -> Option<String> {
    match value {
        Value::String(s) => s.contains('\0').then(|| at.to_owned()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| nul_in_json(item, &format!("{at}[{i}]"))),
        Value::Object(fields) => fields.iter().find_map(|(key, item)| {
            let path = if at == "body" {
                key.clone()
            } else {
                format!("{at}.{key}")
            };
            if key.contains('\0') {
                Some(path.replace('\0', "\\0"))
            } else {
                nul_in_json(item, &path)
            }
        }),
        _ => None,
    }
}

impl<E: Endpoint> Endpoint for InputGuardEndpoint<E> {
    type Output = E::Output;

    async fn call(&self, mut req: Request) -> Result<Self::Output> {
        if percent_decode(req.uri().path(), false).contains(&0) {
            return Err(refused("path"));
        }
        if let Some(field) = req.uri().query().and_then(nul_in_pairs) {
            return Err(refused(&field));
        }
        let mime = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.to_ascii_lowercase())
            .unwrap_or_default();
        let json = mime.starts_with("application/json") || mime.contains("+json");
        let form = mime.starts_with("application/x-www-form-urlencoded");
        if json || form {
            // Bodies of these types are small (the body limit has been applied already), so reading them
            // whole costs nothing the operation would not spend anyway.
            let bytes = req.take_body().into_bytes().await?;
            let field = if json {
                // Not JSON at all: the operation answers that with its own 400.
                serde_json::from_slice::<Value>(&bytes)
                    .ok()
                    .and_then(|v| nul_in_json(&v, "body"))
            } else {
                nul_in_pairs(&String::from_utf8_lossy(&bytes))
            };
            if let Some(field) = field {
                return Err(refused(&field));
            }
            req.set_body(Body::from_bytes(bytes));
        }
        self.inner.call(req).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_the_field_that_holds_a_nul() {
        assert_eq!(nul_in_pairs("a=1&q=x%00y"), Some("q".to_owned()));
        assert_eq!(nul_in_pairs("a=1&q=x%2500y"), None);
        assert_eq!(nul_in_pairs("a%00b=1"), Some("a\\0b".to_owned()));
        assert_eq!(
            nul_in_json(&json!({"a": {"b": ["ok", "x\u{0}"]}}), "body"),
            Some("a.b[1]".to_owned())
        );
        assert_eq!(
            nul_in_json(&json!("x\u{0}"), "body"),
            Some("body".to_owned())
        );
        assert_eq!(nul_in_json(&json!({"a": 1, "b": null}), "body"), None);
        assert_eq!(percent_decode("%4", false), b"%4");
        assert_eq!(percent_decode("a+b%41", true), b"a bA");
    }
}
