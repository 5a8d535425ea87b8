//! The mail server a process talks to, and connections of our own to it for mailings.
//!
//! One-off messages (codes, "Send to my inbox") go through lettre's pooled transport ([`super::Mailer`]). A
//! mailing's send holds its connections itself, still lettre's SMTP client underneath, for two reasons the pool
//! cannot serve: it lets the caller act at the one moment that matters for sending each message once — just
//! before the final "." that commits the server to deliver it — and it skips the pool's NOOP round trip before
//! every message (a fifth of the commands a message costs).

use super::MailError;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, Tls, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use lettre::transport::smtp::PoolConfig;
use lettre::{AsyncSmtpTransport, Tokio1Executor};
use std::time::Duration;

/// How long a connection, a command or a reply may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Where outgoing mail goes: `smtp://host:port` (plain, for a local relay or sink), `smtp://host:port?tls=required`
/// (STARTTLS), `smtp://host:port?tls=opportunistic` or `smtps://host:port`; user and password may be given in the
/// URL, and a path names this host in EHLO.
#[derive(Clone)]
pub struct SmtpServer {
    host: String,
    port: u16,
    tls: Tls,
    credentials: Option<Credentials>,
    hello: ClientId,
}

impl std::fmt::Debug for SmtpServer {
    // The credentials stay out of logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SmtpServer({}:{})", self.host, self.port)
    }
}

impl SmtpServer {
    pub fn from_url(url: &str) -> Result<Self, MailError> {
        let config = |e: &dyn std::fmt::Display| MailError::Config(format!("SMTP_URL: {e}"));
        let parsed = url::Url::parse(url).map_err(|e| config(&e))?;
        let host = parsed
            .host_str()
            .ok_or_else(|| config(&"no host"))?
            .to_owned();
        let tls_parameters = || TlsParameters::new(host.clone()).map_err(|e| config(&e));
        let mode = parsed
            .query_pairs()
            .find(|(k, _)| k == "tls")
            .map(|(_, v)| v.into_owned());
        let (default_port, tls) = match (parsed.scheme(), mode.as_deref()) {
            ("smtp", None) => (25, Tls::None),
            ("smtp", Some("required")) => (587, Tls::Required(tls_parameters()?)),
            ("smtp", Some("opportunistic")) => (587, Tls::Opportunistic(tls_parameters()?)),
            ("smtps", _) => (465, Tls::Wrapper(tls_parameters()?)),
            (scheme, mode) => {
                return Err(config(&format!(
                    "unknown scheme {scheme} or tls={}",
                    mode.unwrap_or("")
                )))
            }
        };
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .map(|s| s.into_owned())
                .map_err(|e| config(&e))
        };
        let credentials = match parsed.password() {
            Some(password) => Some(Credentials::new(
                decode(parsed.username())?,
                decode(password)?,
            )),
            None => None,
        };
        let name = parsed.path().trim_matches('/');
        Ok(Self {
            port: parsed.port().unwrap_or(default_port),
            tls,
            credentials,
            hello: if name.is_empty() {
                ClientId::default()
            } else {
                ClientId::Domain(name.to_owned())
            },
            host,
        })
    }

    /// A plain connection to a host and port (tests and local sinks).
    pub fn plain(host: &str, port: u16) -> Self {
        Self {
            host: host.to_owned(),
            port,
            tls: Tls::None,
            credentials: None,
            hello: ClientId::default(),
        }
    }

    /// lettre's pooled transport to this server, `pool_size` connections at most.
    pub fn transport(&self, pool_size: u32) -> AsyncSmtpTransport<Tokio1Executor> {
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&self.host)
            .port(self.port)
            .tls(self.tls.clone())
            .hello_name(self.hello.clone())
            .timeout(Some(TIMEOUT))
            .pool_config(PoolConfig::new().max_size(pool_size.max(1)));
        if let Some(credentials) = &self.credentials {
            builder = builder.credentials(credentials.clone());
        }
        builder.build()
    }

    /// A new connection, encrypted and signed in as the URL says.
    pub async fn connect(&self) -> Result<Connection, MailError> {
        let wrapper = match &self.tls {
            Tls::Wrapper(parameters) => Some(parameters.clone()),
            _ => None,
        };
        let mut inner = AsyncSmtpConnection::connect_tokio1(
            (self.host.as_str(), self.port),
            Some(TIMEOUT),
            &self.hello,
            wrapper,
            None,
        )
        .await
        .map_err(classify)?;
        match &self.tls {
            Tls::Required(parameters) => inner.starttls(parameters.clone(), &self.hello).await,
            Tls::Opportunistic(parameters) if inner.can_starttls() => {
                inner.starttls(parameters.clone(), &self.hello).await
            }
            _ => Ok(()),
        }
        .map_err(classify)?;
        if let Some(credentials) = &self.credentials {
            inner
                .auth(&[Mechanism::Plain, Mechanism::Login], credentials)
                .await
                .map_err(classify)?;
        }
        Ok(Connection {
            inner,
            broken: false,
        })
    }
}

/// A server's refusal (4xx for now, 5xx for good) or trouble reaching it (worth another try).
pub(crate) fn classify(e: lettre::transport::smtp::Error) -> MailError {
    if e.is_permanent() {
        MailError::Permanent(e.to_string())
    } else {
        MailError::Transient(e.to_string())
    }
}

/// One open SMTP connection, one message at a time.
pub struct Connection {
    inner: AsyncSmtpConnection,
    /// Set after trouble that leaves the session in an unknown state: the connection must be replaced.
    broken: bool,
}

impl Connection {
    pub fn is_broken(&self) -> bool {
        self.broken || self.inner.has_broken()
    }

    /// Sends one formatted message. `before_end` runs right before the final "." is written: from that write on,
    /// the server may deliver the message even if its answer never reaches us.
    pub async fn send(
        &mut self,
        envelope: &Envelope,
        message: &[u8],
        before_end: impl FnOnce(),
    ) -> Result<(), MailError> {
        let mut options = Vec::new();
        let non_ascii = |a: &lettre::Address| !AsRef::<str>::as_ref(a).is_ascii();
        if envelope.to().iter().chain(envelope.from()).any(non_ascii) {
            if !self
                .inner
                .server_info()
                .supports_feature(Extension::SmtpUtfEight)
            {
                return Err(MailError::Address(
                    "the mail server does not accept non-ASCII addresses".to_owned(),
                ));
            }
            options.push(MailParameter::SmtpUtfEight);
        }
        if !message.is_ascii() {
            if !self
                .inner
                .server_info()
                .supports_feature(Extension::EightBitMime)
            {
                return Err(MailError::Build(
                    "the mail server does not accept 8-bit messages".to_owned(),
                ));
            }
            options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
        }
        let envelope_result = async {
            self.inner
                .command(Mail::new(envelope.from().cloned(), options))
                .await?;
            for to in envelope.to() {
                self.inner.command(Rcpt::new(to.clone(), vec![])).await?;
            }
            self.inner.command(Data).await
        }
        .await;
        if let Err(e) = envelope_result {
            return Err(self.refused_before_data(e).await);
        }
        let answer = self
            .inner
            .message_iter(ThenRun {
                message: Some(message),
                before_end: Some(before_end),
            })
            .await;
        answer.map(|_| ()).map_err(|e| {
            // A refusal of the data itself ends the transaction cleanly; anything else leaves us unsure where
            // the session stands.
            if !(e.is_permanent() || e.is_transient()) {
                self.broken = true;
            }
            classify(e)
        })
    }

    /// After a refused MAIL, RCPT or DATA the connection stays usable once the transaction is reset.
    async fn refused_before_data(&mut self, e: lettre::transport::smtp::Error) -> MailError {
        let refused = e.is_permanent() || e.is_transient();
        if !refused || self.inner.command(Rset).await.is_err() {
            self.broken = true;
        }
        classify(e)
    }

    /// Says goodbye; errors do not matter any more.
    pub async fn quit(mut self) {
        let _ = self.inner.quit().await;
    }
}

/// The message, then `before_end` when lettre asks for more: lettre writes the final "." right after that.
struct ThenRun<'a, F: FnOnce()> {
    message: Option<&'a [u8]>,
    before_end: Option<F>,
}

impl<'a, F: FnOnce()> Iterator for ThenRun<'a, F> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if let Some(message) = self.message.take() {
            return Some(message);
        }
        if let Some(before_end) = self.before_end.take() {
            before_end();
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_the_server_its_encryption_and_credentials() {
        let plain = SmtpServer::from_url("smtp://127.0.0.1:2525").unwrap();
        assert_eq!((plain.host.as_str(), plain.port), ("127.0.0.1", 2525));
        assert!(matches!(plain.tls, Tls::None) && plain.credentials.is_none());
        let starttls =
            SmtpServer::from_url("smtp://user%40x:p%40ss@mail.example.org?tls=required").unwrap();
        assert_eq!(starttls.port, 587);
        assert!(matches!(starttls.tls, Tls::Required(_)));
        assert_eq!(
            starttls.credentials,
            Some(Credentials::new("user@x".into(), "p@ss".into()))
        );
        assert!(!format!("{starttls:?}").contains("p@ss"));
        let wrapped = SmtpServer::from_url("smtps://mail.example.org").unwrap();
        assert_eq!(wrapped.port, 465);
        assert!(matches!(wrapped.tls, Tls::Wrapper(_)));
        assert!(SmtpServer::from_url("http://mail.example.org").is_err());
        assert!(SmtpServer::from_url("smtp://mail.example.org?tls=sometimes").is_err());
    }
}
