//! `smtp-sink [PORT] [DIR]`: a local SMTP server that keeps every message as an .eml file in DIR (default
//! .data/mail) and relays nothing. The run command starts it so "Send to my inbox" and sends can be read.
//! With DIR `-` it keeps nothing and prints the running count of messages ten times a second (benchmarks).

use mail::sink::{serve, Delivered};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let port: u16 = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(2525);
    let dir_arg = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| ".data/mail".to_owned());
    let count_only = dir_arg == "-";
    let dir = std::path::PathBuf::from(dir_arg);
    if !count_only {
        std::fs::create_dir_all(&dir)?;
    }
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!(
        "smtp sink on 127.0.0.1:{port}, mail kept in {}",
        dir.display()
    );
    let seq = Arc::new(AtomicU64::new(0));
    if count_only {
        let seq = seq.clone();
        tokio::spawn(async move {
            let mut last = u64::MAX;
            loop {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                let now = seq.load(Ordering::Relaxed);
                if now != last {
                    println!("delivered {now}");
                    last = now;
                }
            }
        });
    }
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    serve(
        listener,
        Arc::new(move |m: Delivered| {
            let n = seq.fetch_add(1, Ordering::Relaxed);
            if count_only {
                return;
            }
            let to = m
                .recipients
                .first()
                .cloned()
                .unwrap_or_default()
                .replace(['/', '\\'], "_");
            let _ = std::fs::write(dir.join(format!("{stamp}-{n:06}-{to}.eml")), &m.data);
        }),
    )
    .await;
    Ok(())
}
