//! Rate limits on sign-in, code entry, registration and reset, counted in Redis per account and per address in
//! fixed windows, so they hold across api processes.

use crate::error::ApiError;
use redis::aio::ConnectionManager;

#[derive(Clone)]
pub struct AuthLimits {
    redis: ConnectionManager,
    prefix: String,
    per_account: u32,
    per_address: u32,
    window_secs: u64,
}

/// What is being attempted; each action has its own counters.
#[derive(Debug, Clone, Copy)]
pub enum Action {
    Login,
    Code,
    Register,
    Reset,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Self::Login => "login",
            Self::Code => "code",
            Self::Register => "register",
            Self::Reset => "reset",
        }
    }
}

pub const TOO_MANY: &str = "Too many attempts. Wait a few minutes and try again.";

impl AuthLimits {
    /// `per_account` and `per_address` attempts per `window_secs`; 0 turns a limit off.
    pub fn new(
        redis: ConnectionManager,
        prefix: &str,
        per_account: u32,
        per_address: u32,
        window_secs: u64,
    ) -> Self {
        Self {
            redis,
            prefix: prefix.to_owned(),
            per_account,
            per_address,
            window_secs: window_secs.max(1),
        }
    }

    /// Counts one attempt; refuses with 429 once either counter passes its limit.
    pub async fn hit(
        &self,
        action: Action,
        account: Option<&str>,
        address: &str,
    ) -> Result<(), ApiError> {
        let window = chrono::Utc::now().timestamp() as u64 / self.window_secs;
        let mut checks = Vec::with_capacity(2);
        if self.per_address > 0 {
            checks.push((format!("addr:{address}"), self.per_address));
        }
        if let (Some(account), true) = (account, self.per_account > 0) {
            checks.push((format!("acct:{account}"), self.per_account));
        }
        for (who, limit) in checks {
            let key = format!(
                "{}:authlimit:{}:{who}:{window}",
                self.prefix,
                action.as_str()
            );
            let mut conn = self.redis.clone();
            let (count,): (u32,) = redis::pipe()
                .atomic()
                .incr(&key, 1)
                .expire(&key, self.window_secs as i64)
                .ignore()
                .query_async(&mut conn)
                .await
                .map_err(|e| {
                    tracing::error!(error = %e, "rate limit store unavailable");
                    ApiError::Unavailable("Sign-in is unavailable; try again shortly".to_owned())
                })?;
            if count > limit {
                tracing::warn!(action = action.as_str(), %who, "auth rate limit");
                return Err(ApiError::TooManyRequests(TOO_MANY.to_owned()));
            }
        }
        Ok(())
    }
}
