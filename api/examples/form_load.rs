//! Load client for tests/bench/forms_load.sh: sends exactly `--requests` requests with `--concurrency` in flight,
//! waits for every answer, and prints the rate, latency percentiles and how many succeeded, so the script can
//! compare the server's stored counts with exactly what was sent.
//!
//!   cargo run --release -p api --example form_load -- view|submit|get URL REQUESTS CONCURRENCY CLIENT_SHORT

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, kind, url, requests, concurrency, client_short] = args.as_slice() else {
        eprintln!("usage: form_load view|submit|get URL REQUESTS CONCURRENCY CLIENT_SHORT");
        std::process::exit(2);
    };
    let submit = kind == "submit";
    let get = kind == "get";
    let requests: usize = requests.parse().unwrap();
    let concurrency: usize = concurrency.parse().unwrap();
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(concurrency)
        .build()
        .unwrap();
    let next = Arc::new(AtomicUsize::new(0));
    let run = std::process::id();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let (http, next, url, client_short) = (
            http.clone(),
            next.clone(),
            url.clone(),
            client_short.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut ok = 0usize;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= requests {
                    break;
                }
                let mut request = if get {
                    http.get(&url)
                } else {
                    http.post(&url).header("client-short", &client_short)
                };
                if submit {
                    request = request
                        .header("content-type", "application/json")
                        .body(format!("{{\"email\":\"load-{run}-{i}@example.org\"}}"));
                }
                let t0 = Instant::now();
                let response = request.send().await;
                latencies.push(t0.elapsed());
                if let Ok(r) = response {
                    if r.status().is_success() {
                        ok += 1;
                    }
                    let _ = r.bytes().await;
                }
            }
            (latencies, ok)
        }));
    }
    let mut latencies: Vec<Duration> = Vec::with_capacity(requests);
    let mut ok = 0;
    for task in tasks {
        let (l, n) = task.await.unwrap();
        latencies.extend(l);
        ok += n;
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    println!(
        "{kind}: {requests} sent, {ok} ok, {:.0}/s, p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        requests as f64 / elapsed.as_secs_f64(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.90).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        latencies.last().map(|d| d.as_secs_f64() * 1e3).unwrap_or(0.0),
    );
    println!("OK_COUNT={ok}");
}
