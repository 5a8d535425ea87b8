//! Text messages for phone two-factor codes, behind a small trait: an HTTP gateway for production and a log
//! gateway for development only (`DEV_LOG_CODES`): without either, phone codes go by e-mail.

use std::future::Future;
use std::pin::Pin;

#[derive(Debug, thiserror::Error)]
pub enum SmsError {
    #[error("sms gateway: {0}")]
    Unreachable(#[from] reqwest::Error),
    #[error("sms gateway: answered {0}")]
    Refused(reqwest::StatusCode),
}

pub type SmsFuture<'a> = Pin<Box<dyn Future<Output = Result<(), SmsError>> + Send + 'a>>;

pub trait SmsGateway: Send + Sync {
    /// Sends `text` to a 10-digit phone number.
    fn send<'a>(&'a self, phone: &'a str, text: &'a str) -> SmsFuture<'a>;
}

/// Posts `{"to": "...", "message": "..."}` to a URL with `Authorization: Bearer <key>`; any 2xx is success.
pub struct HttpGateway {
    url: String,
    key: String,
    http: reqwest::Client,
}

impl HttpGateway {
    pub fn new(url: &str, key: &str) -> Self {
        Self {
            url: url.to_owned(),
            key: key.to_owned(),
            http: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(10))
                .build()
                .unwrap_or_default(),
        }
    }
}

impl SmsGateway for HttpGateway {
    fn send<'a>(&'a self, phone: &'a str, text: &'a str) -> SmsFuture<'a> {
        Box::pin(async move {
            let answer = self
                .http
                .post(&self.url)
                .bearer_auth(&self.key)
                .json(&serde_json::json!({ "to": phone, "message": text }))
                .send()
                .await?;
            if answer.status().is_success() {
                Ok(())
            } else {
                Err(SmsError::Refused(answer.status()))
            }
        })
    }
}

/// Development only (`DEV_LOG_CODES`): writes the message, code and all, to the log instead of sending it.
pub struct LogGateway;

impl SmsGateway for LogGateway {
    fn send<'a>(&'a self, phone: &'a str, text: &'a str) -> SmsFuture<'a> {
        Box::pin(async move {
            tracing::info!(to = phone, message = text, "sms (log gateway, not sent)");
            Ok(())
        })
    }
}
