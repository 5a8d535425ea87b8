//! A local HTTP server that stands in for a third party's endpoint.

use std::sync::{Arc, Mutex};

/// One request a [`start_http`] server received.
#[derive(Debug, Clone)]
pub struct Captured {
    pub request_line: String,
    pub headers: String,
    pub body: String,
}

/// A minimal HTTP/1.1 server on a free port that answers every request with `status` and `body` (JSON) and
/// keeps what it received: stands in for an SMS gateway or Google's key endpoint, over a real socket.
pub async fn start_http(status: u16, body: String) -> (String, Arc<Mutex<Vec<Captured>>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let store = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                continue;
            };
            let store = store.clone();
            let body = body.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                let (head, rest) = loop {
                    let n = socket.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        break (
                            String::from_utf8_lossy(&buf[..i]).to_string(),
                            buf[i + 4..].to_vec(),
                        );
                    }
                };
                let length = head
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                let mut content = rest;
                while content.len() < length {
                    let n = socket.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    content.extend_from_slice(&chunk[..n]);
                }
                let (request_line, headers) = head.split_once("\r\n").unwrap_or((&head, ""));
                store.lock().unwrap().push(Captured {
                    request_line: request_line.to_owned(),
                    headers: headers.to_owned(),
                    body: String::from_utf8_lossy(&content).to_string(),
                });
                let answer = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    (url, seen)
}
