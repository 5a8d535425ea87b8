//! A local SMTP sink: accepts every message and hands it to a callback. The run command keeps delivered mail in
//! `.data/mail/` with it, and tests count what arrived. It never relays anything anywhere.

use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// One delivered message: the envelope sender (MAIL FROM, empty for a null sender), the envelope recipients and
/// the raw message.
#[derive(Debug, Clone)]
pub struct Delivered {
    pub sender: String,
    pub recipients: Vec<String>,
    pub data: Vec<u8>,
}

/// Decides the answer to `RCPT TO:<address>`: `None` accepts, `Some(reply)` refuses with that reply line
/// (say "451 4.7.1 Slow down" or "550 5.1.1 No such user"). Tests use it to play a throttling or refusing server.
pub type RecipientPolicy = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Serves SMTP on `listener` until the task is dropped, calling `deliver` for each message.
pub async fn serve(listener: TcpListener, deliver: Arc<dyn Fn(Delivered) + Send + Sync>) {
    serve_with_policy(listener, deliver, Arc::new(|_| None)).await
}

/// [`serve`], answering each recipient as `policy` says.
pub async fn serve_with_policy(
    listener: TcpListener,
    deliver: Arc<dyn Fn(Delivered) + Send + Sync>,
    policy: RecipientPolicy,
) {
    loop {
        let Ok((socket, _)) = listener.accept().await else {
            continue;
        };
        let (deliver, policy) = (deliver.clone(), policy.clone());
        tokio::spawn(async move {
            let _ = session(socket, deliver, policy).await;
        });
    }
}

async fn session(
    socket: tokio::net::TcpStream,
    deliver: Arc<dyn Fn(Delivered) + Send + Sync>,
    policy: RecipientPolicy,
) -> std::io::Result<()> {
    // Replies are small and the client waits for each: without this, Nagle's algorithm and delayed ACKs add
    // tens of milliseconds to every command.
    socket.set_nodelay(true)?;
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    // Clients write a command or the end of the data in small pieces and wait for the reply; acknowledging at
    // once (instead of Linux's delayed ACK) keeps their Nagle-held last piece from waiting 40 ms.
    let quick_ack = |lines: &BufReader<tokio::net::tcp::OwnedReadHalf>| {
        let _ = socket2::SockRef::from(lines.get_ref().as_ref()).set_tcp_quickack(true);
    };
    write.write_all(b"220 compass-sink ESMTP\r\n").await?;
    let mut recipients = Vec::new();
    let mut sender = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        quick_ack(&lines);
        let command = line.trim_end().to_ascii_uppercase();
        let refusal;
        let reply: &[u8] = if command.starts_with("EHLO") {
            b"250-compass-sink\r\n250-8BITMIME\r\n250 SIZE 52428800\r\n"
        } else if command.starts_with("MAIL FROM") {
            sender = envelope_address(&line.trim_end()[9..]);
            b"250 OK\r\n"
        } else if command.starts_with("HELO") || command.starts_with("NOOP") {
            b"250 OK\r\n"
        } else if command.starts_with("RSET") {
            recipients.clear();
            sender.clear();
            b"250 OK\r\n"
        } else if command.starts_with("RCPT TO") {
            let address = line.trim_end()[8..]
                .trim()
                .trim_start_matches(':')
                .trim()
                .trim_matches(['<', '>']);
            match policy(address) {
                Some(reply) => {
                    refusal = format!("{}\r\n", reply.trim_end());
                    refusal.as_bytes()
                }
                None => {
                    recipients.push(address.to_owned());
                    b"250 OK\r\n"
                }
            }
        } else if command == "DATA" {
            write
                .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                .await?;
            let mut data = Vec::new();
            let mut raw = Vec::new();
            loop {
                raw.clear();
                if lines.read_until(b'\n', &mut raw).await? == 0 {
                    return Ok(());
                }
                quick_ack(&lines);
                if raw == b".\r\n" || raw == b".\n" {
                    break;
                }
                // Dot-unstuffing (RFC 5321 4.5.2).
                let body = if raw.starts_with(b"..") {
                    &raw[1..]
                } else {
                    &raw[..]
                };
                data.extend_from_slice(body);
            }
            deliver(Delivered {
                sender: std::mem::take(&mut sender),
                recipients: std::mem::take(&mut recipients),
                data,
            });
            b"250 OK queued\r\n"
        } else if command.starts_with("QUIT") {
            write.write_all(b"221 Bye\r\n").await?;
            return Ok(());
        } else {
            b"502 Command not implemented\r\n"
        };
        write.write_all(reply).await?;
    }
}

/// The address of `:<address> PARAMETERS…` after MAIL FROM.
fn envelope_address(rest: &str) -> String {
    let rest = rest.trim().trim_start_matches(':').trim();
    let path = rest.split_whitespace().next().unwrap_or("");
    path.trim_matches(['<', '>']).to_owned()
}
