//! A local SMTP sink and reading what it received.

use mail::sink::{serve, Delivered};
use std::sync::{Arc, Mutex};

/// A local SMTP sink on a free port; returns the port and what it received.
pub async fn start_sink() -> (u16, Arc<Mutex<Vec<Delivered>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox = Arc::new(Mutex::new(Vec::new()));
    let store = inbox.clone();
    tokio::spawn(serve(
        listener,
        Arc::new(move |m| store.lock().unwrap().push(m)),
    ));
    (port, inbox)
}

/// Undoes quoted-printable (soft breaks and =XX), enough to read codes and URLs out of a delivered body.
pub fn unqp(raw: &str) -> String {
    let joined = raw.replace("=\r\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&joined[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).to_string()
}
