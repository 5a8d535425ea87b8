//! Load client for tests/bench/bounces.sh and tests/faults/bounces.sh: CONNECTIONS SMTP sessions send EVENTS bounce
//! messages (hard 5.1.1 DSNs, every fourth an ARF abuse complaint) to the signed VERP addresses of contacts
//! FIRST_CONTACT .. FIRST_CONTACT+EVENTS-1 of one mailing, one message per contact, as remote MTAs would.
//!
//! A message that is not answered 250 (a 4xx, a dropped connection, a refused connect while the listener is down)
//! is sent again later, as a real MTA does, until every message has its 250 or nothing progresses for
//! STALL_SECONDS (default 120). The contact id of every acknowledged message goes to ACKED_FILE, one a line.
//!
//!   bounce_burst ADDR BOUNCE_SECRET CLIENT_ID MAILING_ID FIRST_CONTACT EVENTS CONNECTIONS ACKED_FILE
//!
//! Prints ACKED=, REFUSED= (5xx answers), RETRIES=, SECONDS= and EVENTS_PER_SECOND=.

use mail::verp::{BounceToken, VerpSigner};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

const BOUNCE_DOMAIN: &str = "bounce.bench.example";

struct Plan {
    addr: String,
    signer: VerpSigner,
    client_id: i64,
    mailing_id: i64,
    first_contact: i64,
    events: usize,
}

/// What the sessions share: the next message never sent, the ones to send again, and what was answered.
struct Work {
    next: AtomicUsize,
    again: Mutex<VecDeque<usize>>,
    acked: Mutex<Vec<i64>>,
    done: AtomicUsize,
    refused: AtomicUsize,
    retries: AtomicU64,
    progress: Mutex<Instant>,
}

impl Work {
    fn take(&self, events: usize) -> Option<usize> {
        if let Some(n) = self.again.lock().ok()?.pop_front() {
            return Some(n);
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        (n < events).then_some(n)
    }

    fn answered(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut at) = self.progress.lock() {
            *at = Instant::now();
        }
    }
}

/// Message `n`: a Postfix-style DSN for a 5.1.1, or (every fourth) an ARF abuse report, with its own Message-ID.
fn message(plan: &Plan, n: usize, verp: &str) -> String {
    let recipient = format!("b{}@bench.example.org", n + 1);
    if n % 4 == 3 {
        format!(
            "Return-Path: <>\r\nDate: Thu, 26 Nov 2026 19:12:44 +0000\r\nFrom: Feedback Loop <fbl@isp.example.net>\r\n\
To: {verp}\r\nSubject: FW: Hello\r\nMIME-Version: 1.0\r\nMessage-ID: <fbl-{n}@isp.example.net>\r\n\
Content-Type: multipart/report; report-type=feedback-report;\r\n\tboundary=\"b_{n}\"\r\n\r\n\
--b_{n}\r\nContent-Type: text/plain; charset=\"US-ASCII\"\r\n\r\nThis is an email abuse report.\r\n\r\n\
--b_{n}\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: abuse\r\nUser-Agent: BenchFBL/1.0\r\n\
Version: 1\r\nOriginal-Mail-From: <{verp}>\r\nOriginal-Rcpt-To: <{recipient}>\r\n\
Arrival-Date: Thu, 26 Nov 2026 19:02:11 +0000\r\nReported-Domain: bench.example\r\n\r\n\
--b_{n}\r\nContent-Type: message/rfc822\r\nContent-Disposition: inline\r\n\r\n\
From: Team <team@bench.example>\r\nTo: {recipient}\r\nSubject: Hello\r\n\
Message-ID: <m{m}.c{c}.k{k}@bench.example>\r\nContent-Type: text/plain\r\n\r\nHi\r\n\r\n--b_{n}--\r\n",
            m = plan.mailing_id,
            c = plan.first_contact + n as i64,
            k = plan.client_id,
        )
    } else {
        format!(
            "Return-Path: <>\r\nDate: Thu, 26 Nov 2026 14:02:11 +0000 (UTC)\r\n\
From: MAILER-DAEMON@mx.bench.example.net (Mail Delivery System)\r\nSubject: Undelivered Mail Returned to Sender\r\n\
To: {verp}\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary=\"b_{n}\"\r\n\
Message-Id: <dsn-{n}@mx.bench.example.net>\r\n\r\n\
--b_{n}\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n<{recipient}>: 550 5.1.1 User unknown\r\n\r\n\
--b_{n}\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.bench.example.net\r\n\r\n\
Final-Recipient: rfc822; {recipient}\r\nAction: failed\r\nStatus: 5.1.1\r\n\
Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: Recipient address rejected: User unknown\r\n\r\n\
--b_{n}\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: Team <team@bench.example>\r\nTo: {recipient}\r\n\
Subject: Hello\r\nMessage-ID: <m{m}.c{c}.k{k}@bench.example>\r\n\r\n--b_{n}--\r\n",
            m = plan.mailing_id,
            c = plan.first_contact + n as i64,
            k = plan.client_id,
        )
    }
}

struct Session {
    reader: BufReader<tokio::net::tcp::OwnedReadHalf>,
    writer: tokio::net::tcp::OwnedWriteHalf,
}

impl Session {
    async fn open(addr: &str) -> std::io::Result<Self> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (read, writer) = stream.into_split();
        let mut session = Self {
            reader: BufReader::new(read),
            writer,
        };
        expect(&session.reply().await?, "220")?;
        expect(&session.command("EHLO mx.bench.example.net").await?, "250")?;
        Ok(session)
    }

    /// The reply's last line.
    async fn reply(&mut self) -> std::io::Result<String> {
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).await? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            if line.len() < 4 || line.as_bytes()[3] != b'-' {
                return Ok(line.trim_end().to_owned());
            }
        }
    }

    async fn command(&mut self, line: &str) -> std::io::Result<String> {
        self.writer
            .write_all(format!("{line}\r\n").as_bytes())
            .await?;
        self.reply().await
    }

    /// One SMTP transaction; the reply to the message (or to the first command refused).
    async fn send(&mut self, to: &str, text: &str) -> std::io::Result<String> {
        let reply = self.command("MAIL FROM:<>").await?;
        if !reply.starts_with("250") {
            return Ok(reply);
        }
        let reply = self.command(&format!("RCPT TO:<{to}>")).await?;
        if !reply.starts_with("250") {
            let _ = self.command("RSET").await?;
            return Ok(reply);
        }
        let reply = self.command("DATA").await?;
        if !reply.starts_with("354") {
            return Ok(reply);
        }
        self.writer.write_all(text.as_bytes()).await?;
        self.writer.write_all(b".\r\n").await?;
        self.reply().await
    }
}

fn expect(reply: &str, code: &str) -> std::io::Result<()> {
    if reply.starts_with(code) {
        Ok(())
    } else {
        Err(std::io::Error::other(reply.to_owned()))
    }
}

async fn sender(plan: Arc<Plan>, work: Arc<Work>) {
    let mut session: Option<Session> = None;
    loop {
        let Some(n) = work.take(plan.events) else {
            // Nothing new: wait while others may still hand messages back.
            if work.done.load(Ordering::Relaxed) >= plan.events {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let contact_id = plan.first_contact + n as i64;
        let token = BounceToken {
            client_id: plan.client_id,
            mailing_id: plan.mailing_id,
            contact_id,
        };
        let verp = plan.signer.address(token, BOUNCE_DOMAIN);
        let text = message(&plan, n, &verp);
        let outcome = match session.as_mut() {
            Some(s) => s.send(&verp, &text).await,
            None => match Session::open(&plan.addr).await {
                Ok(mut s) => {
                    let reply = s.send(&verp, &text).await;
                    session = Some(s);
                    reply
                }
                Err(e) => Err(e),
            },
        };
        match outcome {
            Ok(reply) if reply.starts_with('2') => {
                if let Ok(mut acked) = work.acked.lock() {
                    acked.push(contact_id);
                }
                work.answered();
            }
            Ok(reply) if reply.starts_with('5') => {
                eprintln!("message {n} refused: {reply}");
                work.refused.fetch_add(1, Ordering::Relaxed);
                work.answered();
            }
            other => {
                // 4xx or a lost connection: not stored as far as we know; try again later on a new session.
                if let Ok(mut again) = work.again.lock() {
                    again.push_back(n);
                }
                work.retries.fetch_add(1, Ordering::Relaxed);
                session = None;
                if let Ok(reply) = other {
                    eprintln!("message {n} deferred: {reply}");
                }
                // A real MTA waits before it tries again; this keeps a listener that answers 451 from being
                // hammered.
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 9 {
        return Err("usage: bounce_burst ADDR BOUNCE_SECRET CLIENT_ID MAILING_ID FIRST_CONTACT EVENTS CONNECTIONS ACKED_FILE".into());
    }
    let stall = Duration::from_secs(
        std::env::var("STALL_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(120),
    );
    let plan = Arc::new(Plan {
        addr: args[1].clone(),
        signer: VerpSigner::new(&args[2]),
        client_id: args[3].parse()?,
        mailing_id: args[4].parse()?,
        first_contact: args[5].parse()?,
        events: args[6].parse()?,
    });
    let connections: usize = args[7].parse()?;
    let work = Arc::new(Work {
        next: AtomicUsize::new(0),
        again: Mutex::new(VecDeque::new()),
        acked: Mutex::new(Vec::with_capacity(plan.events)),
        done: AtomicUsize::new(0),
        refused: AtomicUsize::new(0),
        retries: AtomicU64::new(0),
        progress: Mutex::new(Instant::now()),
    });
    let start = Instant::now();
    let senders: Vec<_> = (0..connections.max(1))
        .map(|_| tokio::spawn(sender(plan.clone(), work.clone())))
        .collect();
    let all = async {
        for s in senders {
            let _ = s.await;
        }
    };
    let watchdog = async {
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let since = work
                .progress
                .lock()
                .map(|p| p.elapsed())
                .unwrap_or_default();
            if since > stall {
                eprintln!("no progress for {} s: giving up", stall.as_secs());
                return;
            }
        }
    };
    tokio::select! {
        _ = all => {}
        _ = watchdog => {}
    }
    let seconds = start.elapsed().as_secs_f64();
    let acked = work.acked.lock().map(|a| a.clone()).unwrap_or_default();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&args[8])?);
    for id in &acked {
        writeln!(file, "{id}")?;
    }
    file.flush()?;
    println!("ACKED={}", acked.len());
    println!("REFUSED={}", work.refused.load(Ordering::Relaxed));
    println!("RETRIES={}", work.retries.load(Ordering::Relaxed));
    println!("SECONDS={seconds:.2}");
    println!("EVENTS_PER_SECOND={:.0}", acked.len() as f64 / seconds);
    Ok(())
}
