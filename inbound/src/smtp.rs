//! The SMTP side: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP and QUIT, nothing else (no relaying, no AUTH). A
//! recipient is accepted only when its address is a valid bounce token of an existing client, so forged or
//! altered addresses are refused (550) before any data is sent. Lines, messages, recipients, errors,
//! connections and the wait for each command are bounded.

use crate::commit::{Committer, Outcome};
use mail::verp::{BounceToken, VerpSigner};
use std::sync::Arc;
use std::time::Duration;
use telemetry::Chain;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

/// What one session may take.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest message accepted (its bytes after dot-unstuffing); larger ones are refused with 552.
    pub max_message_bytes: usize,
    /// Longest command line (RFC 5321 allows 512; some clients add parameters).
    pub max_command_bytes: usize,
    pub max_recipients: usize,
    /// Refused commands after which the session is closed.
    pub max_errors: u32,
    /// Sessions at once; more are told to come back later (421).
    pub max_connections: usize,
    /// The longest wait for a command or for the next line of data.
    pub timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_message_bytes: 10 * 1024 * 1024,
            max_command_bytes: 2048,
            max_recipients: 100,
            max_errors: 20,
            max_connections: 512,
            timeout: Duration::from_secs(120),
        }
    }
}

/// The listener's world: the clients' data, the bounce-token key, its limits, and the committer its sessions
/// hand messages to.
pub struct Listener {
    tenancy: tenancy::Tenancy,
    verp: VerpSigner,
    limits: Limits,
    /// The name it greets with.
    hostname: String,
    committer: Committer,
}

/// Messages committed in one transaction at most, and transactions committing at once. Three: measured against
/// one and four on the 50,000-event bench (docs/deliverability.md); more rounds of one client mostly wait for each
/// other's locks on the same rollup rows (the day's e-mail-list figures).
const GROUP_COMMIT_MESSAGES: usize = 256;
const GROUP_COMMIT_ROUNDS: usize = 3;

impl Listener {
    /// Starts the committer (on the current runtime).
    pub fn new(
        tenancy: tenancy::Tenancy,
        verp: VerpSigner,
        limits: Limits,
        hostname: String,
    ) -> Self {
        let committer =
            Committer::start(tenancy.clone(), GROUP_COMMIT_MESSAGES, GROUP_COMMIT_ROUNDS);
        Self {
            tenancy,
            verp,
            limits,
            hostname,
            committer,
        }
    }
}

/// Serves SMTP on `socket` until the task is dropped.
pub async fn serve(socket: TcpListener, listener: Arc<Listener>) {
    let sessions = Arc::new(Semaphore::new(listener.limits.max_connections.max(1)));
    loop {
        let Ok((stream, _)) = socket.accept().await else {
            continue;
        };
        let listener = listener.clone();
        let Ok(permit) = sessions.clone().try_acquire_owned() else {
            tokio::spawn(async move {
                let mut stream = stream;
                let _ = stream
                    .write_all(b"421 4.3.2 Too busy, try again later\r\n")
                    .await;
            });
            continue;
        };
        tokio::spawn(async move {
            if let Err(e) = session(stream, &listener).await {
                tracing::debug!(error = %Chain(&e), "bounce session ended");
            }
            drop(permit);
        });
    }
}

/// One line read with a bound on its length.
enum Line {
    /// The line, with its line ending.
    Read,
    /// The peer closed the connection.
    Closed,
    /// Longer than allowed: read to its end and dropped.
    TooLong,
}

async fn read_line(
    reader: &mut (impl AsyncBufRead + Unpin),
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Line> {
    buf.clear();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(Line::Closed);
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..=at], true),
            None => (available, false),
        };
        let used = chunk.len();
        if !too_long && buf.len() + used <= max {
            buf.extend_from_slice(chunk);
        } else {
            too_long = true;
            buf.clear();
        }
        reader.consume(used);
        if done {
            return Ok(if too_long { Line::TooLong } else { Line::Read });
        }
    }
}

async fn session(stream: TcpStream, listener: &Listener) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let limits = &listener.limits;
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    let greeting = format!(
        "220 {} ESMTP Compass bounce listener\r\n",
        listener.hostname
    );
    write.write_all(greeting.as_bytes()).await?;
    let mut in_transaction = false;
    let mut recipients: Vec<BounceToken> = Vec::new();
    let mut errors = 0u32;
    let mut line = Vec::new();
    loop {
        let read = tokio::time::timeout(
            limits.timeout,
            read_line(&mut reader, &mut line, limits.max_command_bytes),
        )
        .await;
        let reply: String = match read {
            Err(_) => {
                write.write_all(b"421 4.4.2 Timeout, closing\r\n").await?;
                return Ok(());
            }
            Ok(Err(e)) => return Err(e),
            Ok(Ok(Line::Closed)) => return Ok(()),
            Ok(Ok(Line::TooLong)) => "500 5.5.2 Line too long".into(),
            Ok(Ok(Line::Read)) => {
                let text = String::from_utf8_lossy(&line);
                let text = text.trim_end_matches(['\r', '\n']);
                let verb = text
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_uppercase();
                let rest = text.get(verb.len()..).unwrap_or("").trim();
                match verb.as_str() {
                    "EHLO" => {
                        in_transaction = false;
                        recipients.clear();
                        format!(
                            "250-{}\r\n250-8BITMIME\r\n250-ENHANCEDSTATUSCODES\r\n250 SIZE {}",
                            listener.hostname, limits.max_message_bytes
                        )
                    }
                    "HELO" => {
                        in_transaction = false;
                        recipients.clear();
                        format!("250 {}", listener.hostname)
                    }
                    "MAIL" if in_transaction => "503 5.5.1 Sender already given".into(),
                    "MAIL" => match mail_from(rest) {
                        Some(size) if size > limits.max_message_bytes => {
                            "552 5.3.4 Message too big".into()
                        }
                        Some(_) => {
                            in_transaction = true;
                            "250 2.1.0 OK".into()
                        }
                        None => "501 5.5.4 Syntax: MAIL FROM:<address>".into(),
                    },
                    "RCPT" if !in_transaction => "503 5.5.1 MAIL first".into(),
                    "RCPT" if recipients.len() >= limits.max_recipients => {
                        "452 4.5.3 Too many recipients".into()
                    }
                    "RCPT" => match rcpt_to(rest) {
                        None => "501 5.5.4 Syntax: RCPT TO:<address>".into(),
                        Some(address) => match recipient(listener, &address).await {
                            Ok(Some(token)) => {
                                recipients.push(token);
                                "250 2.1.5 OK".into()
                            }
                            Ok(None) => "550 5.1.1 No such bounce address".into(),
                            Err(e) => {
                                tracing::warn!(error = %Chain(&e), "bounce recipient not checked");
                                "451 4.3.0 Try again later".into()
                            }
                        },
                    },
                    "DATA" if recipients.is_empty() => "554 5.5.1 No valid recipients".into(),
                    "DATA" => {
                        write
                            .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                            .await?;
                        let Some(message) = data(&mut reader, limits).await? else {
                            write.write_all(b"421 4.4.2 Timeout, closing\r\n").await?;
                            return Ok(());
                        };
                        let tokens = std::mem::take(&mut recipients);
                        in_transaction = false;
                        match message {
                            Data::TooBig => "552 5.3.4 Message too big".into(),
                            Data::Message(raw) => deliver(listener, &tokens, raw).await,
                        }
                    }
                    "RSET" => {
                        in_transaction = false;
                        recipients.clear();
                        "250 2.0.0 OK".into()
                    }
                    "NOOP" => "250 2.0.0 OK".into(),
                    "QUIT" => {
                        write.write_all(b"221 2.0.0 Bye\r\n").await?;
                        return Ok(());
                    }
                    _ => "502 5.5.1 Command not implemented".into(),
                }
            }
        };
        if reply.starts_with(['4', '5']) {
            errors += 1;
        }
        write.write_all(reply.as_bytes()).await?;
        write.write_all(b"\r\n").await?;
        if errors > limits.max_errors {
            write
                .write_all(b"421 4.7.0 Too many errors, closing\r\n")
                .await?;
            return Ok(());
        }
    }
}

/// `FROM:<address> [SIZE=n …]`: the declared size (0 when not given), or `None` when it is not MAIL FROM.
fn mail_from(rest: &str) -> Option<usize> {
    let rest = strip_prefix_ignore_case(rest, "FROM:")?.trim();
    let mut words = rest.split_whitespace();
    let path = words.next()?;
    if !(path.starts_with('<') && path.ends_with('>')) {
        return None;
    }
    Some(
        words
            .filter_map(|w| strip_prefix_ignore_case(w, "SIZE="))
            .find_map(|n| n.parse().ok())
            .unwrap_or(0),
    )
}

/// `TO:<address> …`: the address.
fn rcpt_to(rest: &str) -> Option<String> {
    let rest = strip_prefix_ignore_case(rest, "TO:")?.trim();
    let path = rest.split_whitespace().next()?;
    let address = path.strip_prefix('<')?.strip_suffix('>')?;
    (!address.is_empty()).then(|| address.to_owned())
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// The token of a bounce address whose client exists and is enabled.
async fn recipient(
    listener: &Listener,
    address: &str,
) -> Result<Option<BounceToken>, tenancy::TenancyError> {
    let Some(token) = listener.verp.verify_address(address) else {
        return Ok(None);
    };
    Ok(listener
        .tenancy
        .enabled_client(token.client_id)
        .await?
        .map(|_| token))
}

enum Data {
    Message(Vec<u8>),
    TooBig,
}

/// The message after 354, dot-unstuffed, up to the lone "."; `None` when the peer stalls or leaves.
async fn data(
    reader: &mut (impl AsyncBufRead + Unpin),
    limits: &Limits,
) -> std::io::Result<Option<Data>> {
    let mut message = Vec::new();
    let mut too_big = false;
    let mut line = Vec::new();
    loop {
        let read = tokio::time::timeout(
            limits.timeout,
            read_line(reader, &mut line, limits.max_message_bytes + 2),
        )
        .await;
        match read {
            Err(_) | Ok(Ok(Line::Closed)) => return Ok(None),
            Ok(Err(e)) => return Err(e),
            Ok(Ok(Line::TooLong)) => too_big = true,
            Ok(Ok(Line::Read)) => {
                if line == b".\r\n" || line == b".\n" {
                    break;
                }
                let body = line.strip_prefix(b".").unwrap_or(&line);
                if message.len() + body.len() > limits.max_message_bytes {
                    too_big = true;
                    message = Vec::new();
                }
                if !too_big {
                    message.extend_from_slice(body);
                }
            }
        }
    }
    Ok(Some(if too_big {
        Data::TooBig
    } else {
        Data::Message(message)
    }))
}

/// Stores and records the message for each of its recipients; 250 only once every one is committed.
async fn deliver(listener: &Listener, tokens: &[BounceToken], raw: Vec<u8>) -> String {
    let report = std::sync::Arc::new(crate::report::read(&raw));
    let raw: std::sync::Arc<[u8]> = raw.into();
    for token in tokens {
        let outcome = listener
            .committer
            .submit(*token, raw.clone(), report.clone())
            .await;
        if outcome == Outcome::Failed {
            return "451 4.3.0 Not stored, try again later".into();
        }
    }
    "250 2.0.0 OK".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_commands_are_read_as_rfc_5321_writes_them() {
        assert_eq!(mail_from("FROM:<>"), Some(0));
        assert_eq!(
            mail_from("from:<a@b.c> SIZE=2048 BODY=8BITMIME"),
            Some(2048)
        );
        assert_eq!(mail_from("FROM:a@b.c"), None);
        assert_eq!(mail_from("TO:<a@b.c>"), None);
        assert_eq!(
            rcpt_to("TO:<bounces+x@b.c>").as_deref(),
            Some("bounces+x@b.c")
        );
        assert_eq!(rcpt_to("to:<a@b.c> NOTIFY=NEVER").as_deref(), Some("a@b.c"));
        assert_eq!(rcpt_to("TO:<>"), None);
        assert_eq!(rcpt_to("TO:a@b.c"), None);
    }
}
