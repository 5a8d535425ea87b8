//! Load client for tests/bench/webhook_burst.sh: sets the client's ActBlue webhook credentials (as its
//! administrator), then sends ORDERS orders of two line items plus REPLAYS replays of them, all at once, retrying
//! a 429 after its Retry-After as ActBlue does. Meanwhile it asks `/healthz` every 50 ms and signs in every
//! 500 ms. Prints every status seen, latency percentiles (per request, and per webhook until its 200), the line
//! items answered new, and the slowest health check and sign-in.
//!
//!   cargo run --release -p api --example webhook_burst -- BASE CLIENT_SHORT ADMIN_EMAIL ADMIN_PASSWORD ORDERS REPLAYS

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const USER: &str = "actblue";
const SECRET: &str = "bench-webhook-secret";

fn body(order: usize) -> String {
    json!({
        "donor": {"firstname": "Donor", "lastname": format!("N{order}"),
                  "email": format!("donor{}@example.org", order % 500), "zip": "20001"},
        "contribution": {"createdAt": "2026-10-31T23:41:07-04:00", "orderNumber": format!("AB{order}"),
                         "refcode": "em_20261031_deadline_a", "contributionForm": "deadline"},
        "lineitems": [
            {"lineitemId": format!("{order}-1"), "amount": "25.00", "paidAt": "2026-10-31T23:41:09-04:00"},
            {"lineitemId": format!("{order}-2"), "amount": "10.00", "paidAt": "2026-10-31T23:41:09-04:00"}
        ]
    })
    .to_string()
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1));
    sorted.get(i).map(|d| d.as_secs_f64() * 1e3).unwrap_or(0.0)
}

async fn sign_in(http: &reqwest::Client, base: &str, email: &str, password: &str) -> (u16, String) {
    let r = http
        .post(format!("{base}/auth-api/auth/login"))
        .json(&json!({"username": email, "password": password}))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let v: Value = r.json().await.unwrap_or_default();
    (status, v["accessToken"].as_str().unwrap_or("").to_owned())
}

async fn set_credentials(
    http: &reqwest::Client,
    base: &str,
    short: &str,
    email: &str,
    password: &str,
) {
    let (_, basic) = sign_in(http, base, email, password).await;
    let clients: Value = http
        .get(format!("{base}/auth-api/session/clients"))
        .bearer_auth(&basic)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = clients
        .as_array()
        .and_then(|a| a.iter().find(|c| c["short"] == short))
        .map(|c| c["id"].clone())
        .expect("the client is listed");
    let session: Value = http
        .post(format!("{base}/auth-api/session/client-login"))
        .bearer_auth(&basic)
        .json(&json!({"clientId": id}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = session["accessToken"].as_str().unwrap().to_owned();
    let call = |m: reqwest::Method, path: &str| {
        http.request(m, format!("{base}{path}"))
            .bearer_auth(&token)
            .header("client-short", short)
            .header("client-id", id.to_string())
    };
    let settings: Value = call(reqwest::Method::GET, "/api")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let saved = call(reqwest::Method::PATCH, &format!("/api/{}", settings["id"]))
        .json(&json!({"actblueWebhookUsername": USER, "actblueWebhookPassword": SECRET}))
        .send()
        .await
        .unwrap();
    assert!(
        saved.status().is_success(),
        "credentials saved: {}",
        saved.status()
    );
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, base, short, email, password, orders, replays] = args.as_slice() else {
        eprintln!(
            "usage: webhook_burst BASE CLIENT_SHORT ADMIN_EMAIL ADMIN_PASSWORD ORDERS REPLAYS"
        );
        std::process::exit(2);
    };
    let (orders, replays): (usize, usize) = (orders.parse().unwrap(), replays.parse().unwrap());
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(orders + replays)
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap();
    set_credentials(&http, base, short, email, password).await;
    let auth = format!(
        "Basic {}",
        base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            format!("{USER}:{SECRET}")
        )
    );
    let url = format!("{base}/api/webhooks/actblue/{short}");
    let done = Arc::new(AtomicBool::new(false));

    let health = tokio::spawn({
        let (http, base, done) = (http.clone(), base.clone(), done.clone());
        async move {
            let mut times = Vec::new();
            while !done.load(Ordering::Relaxed) {
                let t0 = Instant::now();
                let ok = http
                    .get(format!("{base}/healthz"))
                    .send()
                    .await
                    .is_ok_and(|r| r.status().is_success());
                times.push((t0.elapsed(), ok));
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            times
        }
    });
    let sign_ins = tokio::spawn({
        let (http, base, done, email, password) = (
            http.clone(),
            base.clone(),
            done.clone(),
            email.clone(),
            password.clone(),
        );
        async move {
            let mut seen = Vec::new();
            while !done.load(Ordering::Relaxed) {
                let t0 = Instant::now();
                let (status, _) = sign_in(&http, &base, &email, &password).await;
                seen.push((t0.elapsed(), status));
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            seen
        }
    });

    let started = Instant::now();
    let tasks: Vec<_> = (0..orders)
        .chain(0..replays)
        .map(|order| {
            let (http, url, auth) = (http.clone(), url.clone(), auth.clone());
            tokio::spawn(async move {
                let t0 = Instant::now();
                let mut seen = Vec::new();
                loop {
                    let t = Instant::now();
                    let r = http
                        .post(&url)
                        .header("authorization", &auth)
                        .header("content-type", "application/json")
                        .body(body(order))
                        .send()
                        .await;
                    let Ok(r) = r else {
                        seen.push((t.elapsed(), 0u16));
                        continue;
                    };
                    let status = r.status().as_u16();
                    seen.push((t.elapsed(), status));
                    if status == 429 || status == 503 {
                        let wait = r
                            .headers()
                            .get("retry-after")
                            .and_then(|v| v.to_str().ok()?.parse().ok());
                        tokio::time::sleep(Duration::from_secs(wait.unwrap_or(1))).await;
                        continue;
                    }
                    let v: Value = r.json().await.unwrap_or_default();
                    return (
                        seen,
                        t0.elapsed(),
                        status,
                        v["newLineItems"].as_i64().unwrap_or(0),
                    );
                }
            })
        })
        .collect();
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let (mut requests, mut until_final, mut new) = (Vec::new(), Vec::new(), 0);
    let mut finals: BTreeMap<u16, usize> = BTreeMap::new();
    for task in tasks {
        let (seen, total, last, n) = task.await.unwrap();
        for (t, s) in seen {
            *statuses.entry(s).or_default() += 1;
            requests.push(t);
        }
        *finals.entry(last).or_default() += 1;
        until_final.push(total);
        new += n;
    }
    let elapsed = started.elapsed();
    done.store(true, Ordering::Relaxed);
    let health = health.await.unwrap();
    let sign_ins = sign_ins.await.unwrap();
    requests.sort();
    until_final.sort();
    let mut health_times: Vec<Duration> = health.iter().map(|(t, _)| *t).collect();
    health_times.sort();
    println!(
        "webhooks: {} sent at once ({orders} orders of 2 lines + {replays} replays) in {:.2} s",
        orders + replays,
        elapsed.as_secs_f64()
    );
    println!("every answer by status: {statuses:?} (0 = no answer)");
    println!("final answer by status: {finals:?}");
    println!(
        "per request: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; until the final answer: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        pct(&requests, 0.5), pct(&requests, 0.99), pct(&requests, 1.0),
        pct(&until_final, 0.5), pct(&until_final, 0.99), pct(&until_final, 1.0)
    );
    println!(
        "/healthz during the burst: {} checks, {} failed, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        health.len(),
        health.iter().filter(|(_, ok)| !ok).count(),
        pct(&health_times, 0.5),
        pct(&health_times, 0.99),
        pct(&health_times, 1.0)
    );
    let mut sign_in_statuses: BTreeMap<u16, usize> = BTreeMap::new();
    for (_, s) in &sign_ins {
        *sign_in_statuses.entry(*s).or_default() += 1;
    }
    println!(
        "sign-ins during the burst: {sign_in_statuses:?}, slowest {:.0} ms",
        sign_ins
            .iter()
            .map(|(t, _)| t.as_secs_f64() * 1e3)
            .fold(0.0, f64::max)
    );
    println!("NEW_LINE_ITEMS={new}");
    println!(
        "ERRORS_5XX={}",
        statuses
            .iter()
            .filter(|(s, _)| **s >= 500 || **s == 0)
            .map(|(_, n)| n)
            .sum::<usize>()
    );
}
