//! The floor for tests/bench/mailing_send.sh: the same number of pre-rendered messages pushed through one lettre
//! pool of the same size to the same kind of sink, with nothing else (no database, no rendering, no tracking).
//!
//!   cargo run --release -p worker --example mail_floor -- SMTP_URL MESSAGES POOL_SIZE

#![allow(clippy::unwrap_used, clippy::expect_used)]

use futures::StreamExt;
use mail::{Mailer, Outgoing};
use std::time::Instant;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, messages, pool] = args.as_slice() else {
        eprintln!("usage: mail_floor SMTP_URL MESSAGES POOL_SIZE");
        std::process::exit(2);
    };
    let messages: usize = messages.parse().unwrap();
    let pool: u32 = pool.parse().unwrap();
    let mailer = Mailer::from_url(url, pool).unwrap();
    let body = "<h1>This month on the campaign</h1><p>Hi Maria,</p><p>Here is what your support made possible.</p>\
                <p><a href=\"http://127.0.0.1:8080/api/track/click/MTox.abcdefghijklmnopqrstuv?u=https%3A%2F%2Fexample.org\">Chip in</a></p>\
                <p><a href=\"http://127.0.0.1:8080/api/unsubscribe/MTox.abcdefghijklmnopqrstuv\">Unsubscribe</a></p>\
                <img src=\"http://127.0.0.1:8080/api/track/open/MTox.abcdefghijklmnopqrstuv\" width=\"1\" height=\"1\" alt=\"\">";
    let rendered: Vec<_> = (0..messages)
        .map(|i| {
            Outgoing {
                from_name: "Friends of the Campaign".into(),
                from_address: "team@campaign.example.org".into(),
                reply_to: None,
                to: format!("person{i}@example.org"),
                subject: "What your support made possible".into(),
                html: body.into(),
                unsubscribe_url: Some(
                    "http://127.0.0.1:8080/api/unsubscribe/MTox.abcdefghijklmnopqrstuv".into(),
                ),
                message_id: Some(format!("m1.c{i}.k1@campaign.example.org")),
                envelope_from: None,
                test: false,
            }
            .build()
            .unwrap()
        })
        .collect();
    let started = Instant::now();
    // As the worker does: each message its own task, at most POOL_SIZE at once, so the client's work uses every
    // runtime thread.
    let sent = futures::stream::iter(rendered.into_iter().map(|m| {
        let mailer = mailer.clone();
        tokio::spawn(async move { mailer.send_message(m).await.is_ok() })
    }))
    .buffer_unordered(pool as usize)
    .filter(|ok| std::future::ready(matches!(ok, Ok(true))))
    .count()
    .await;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "floor: {sent} messages in {secs:.2} s, {:.0} messages/s",
        sent as f64 / secs
    );
    println!("FLOOR_SECONDS={secs:.3}");
}
