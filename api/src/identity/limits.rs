//! Rate limits on sign-in, code entry, registration and reset, counted in Redis so they hold across api
//! processes.
//!
//! Sign-in and code entry count failures only, three ways: per account and address pair (tight: the guesser is
//! stopped for the rest of the window), per address (password spraying across accounts), and per account from
//! every address (loose: past a threshold, a wrong answer within 1 s, then 2 s, 4 s … up to 5 minutes of the last
//! failure is refused as too many, and counted). That last one slows the wrong guesses only: a right password
//! or code still passes, and it does not apply at addresses the account signed in from in the last 30 days, so
//! an attacker elsewhere can slow guessing at an account but cannot lock its owner out. Registration and reset
//! requests, which send mail, count every attempt per account and per address in fixed windows.
//!
//! Webhook credentials (ActBlue's Basic password) count failures per address only, with their own counters.
//!
//! Accounts are keyed by a hash of their e-mail, so neither Redis nor the log holds addresses.

use crate::error::ApiError;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use redis::aio::ConnectionManager;
use sha2::{Digest, Sha256};

/// The longest wait the per-account delay imposes.
const MAX_DELAY_SECS: u64 = 300;
/// How long an address stays one the account signed in from.
const KNOWN_ADDRESS_SECS: u64 = 30 * 24 * 3600;

#[derive(Clone)]
pub struct AuthLimits {
    redis: ConnectionManager,
    prefix: String,
    per_account: u32,
    per_address: u32,
    before_delay: u32,
    window_secs: u64,
    registrations_per_address: u32,
    registrations_per_email: u32,
}

/// The window of the registration limits.
const REGISTRATION_WINDOW_SECS: u64 = 3600;

/// What is being attempted; each action has its own counters.
#[derive(Debug, Clone, Copy)]
pub enum Action {
    Login,
    Code,
    Register,
    Reset,
    /// A webhook's Basic credentials (ActBlue): failures per address only.
    Webhook,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Self::Login => "login",
            Self::Code => "code",
            Self::Register => "register",
            Self::Reset => "reset",
            Self::Webhook => "webhook",
        }
    }
}

/// One sign-in or code attempt: the account it names (its normalised e-mail; none for Google, whose token names
/// it), the account's id when there is one (for the log), and the client address.
#[derive(Debug, Clone, Copy)]
pub struct Attempt<'a> {
    pub action: Action,
    pub email: Option<&'a str>,
    pub user: Option<i64>,
    pub address: &'a str,
}

pub const TOO_MANY: &str = "Too many attempts. Wait a few minutes and try again.";

/// What an attempt's earlier failures allow, once neither its address nor its account-and-address pair is over
/// its limit (those are refused outright: they are this caller's own failures).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum Standing {
    /// The answer is what the credentials deserve.
    Clear,
    /// Failures from elsewhere are slowing this account: a right answer still passes, a wrong one is refused as
    /// too many, so a stranger's guessing cannot keep the owner out.
    Delayed,
}

impl Standing {
    /// The answer to a wrong password or code.
    pub fn wrong(self, error: ApiError) -> ApiError {
        match self {
            Self::Clear => error,
            Self::Delayed => ApiError::TooManyRequests(TOO_MANY.to_owned()),
        }
    }
}

fn unavailable(e: redis::RedisError) -> ApiError {
    tracing::error!(error = %telemetry::Chain(&e), "rate limit store unavailable");
    ApiError::Unavailable("Sign-in is unavailable; try again shortly".to_owned())
}

fn account_key(email: &str) -> String {
    URL_SAFE_NO_PAD.encode(&Sha256::digest(email.as_bytes())[..16])
}

/// The wait after the last failure once an account has `failures` of them and the delay starts at `threshold`.
fn delay_secs(failures: u32, threshold: u32) -> u64 {
    let doublings = failures.saturating_sub(threshold).min(16);
    (1u64 << doublings).min(MAX_DELAY_SECS)
}

impl AuthLimits {
    /// `per_account` attempts (for sign-in: failures from one address) and `per_address` per `window_secs`;
    /// `before_delay` failures per account before delays start. 0 turns a limit off.
    pub fn new(
        redis: ConnectionManager,
        prefix: &str,
        per_account: u32,
        per_address: u32,
        before_delay: u32,
        window_secs: u64,
    ) -> Self {
        Self {
            redis,
            prefix: prefix.to_owned(),
            per_account,
            per_address,
            before_delay,
            window_secs: window_secs.max(1),
            registrations_per_address: 0,
            registrations_per_email: 0,
        }
    }

    /// Registrations allowed per client address and per named e-mail in an hour; 0 turns a limit off.
    pub fn with_registration_limits(mut self, per_address: u32, per_email: u32) -> Self {
        self.registrations_per_address = per_address;
        self.registrations_per_email = per_email;
        self
    }

    /// Counts one registration naming `email`. Its answer tells whether the address has an account (the spec
    /// asks for that), so each client address and each named e-mail gets only a few an hour.
    pub async fn registration(&self, email: &str, address: &str) -> Result<(), ApiError> {
        let checks = [
            (
                format!("register:addr:{address}"),
                self.registrations_per_address,
                "registrations per address",
            ),
            (
                format!("register:acct:{}", account_key(email)),
                self.registrations_per_email,
                "registrations per e-mail",
            ),
        ];
        for (what, limit, which) in checks {
            if limit == 0 {
                continue;
            }
            let count = self
                .count(&what, REGISTRATION_WINDOW_SECS)
                .await
                .map_err(unavailable)?;
            if count > limit {
                return Err(self.refuse(Action::Register, None, address, which));
            }
        }
        Ok(())
    }

    fn window(&self) -> u64 {
        chrono::Utc::now().timestamp().max(0) as u64 / self.window_secs
    }

    fn refuse(&self, action: Action, user: Option<i64>, address: &str, which: &str) -> ApiError {
        tracing::warn!(
            action = action.as_str(),
            user,
            address,
            limit = which,
            "auth rate limit"
        );
        ApiError::TooManyRequests(TOO_MANY.to_owned())
    }

    /// Counts one registration or reset attempt; refuses with 429 once either counter passes its limit.
    pub async fn hit(
        &self,
        action: Action,
        email: Option<&str>,
        address: &str,
    ) -> Result<(), ApiError> {
        let window = self.window();
        let mut checks = Vec::with_capacity(2);
        if self.per_address > 0 {
            checks.push((format!("addr:{address}"), self.per_address, "address"));
        }
        if let (Some(email), true) = (email, self.per_account > 0) {
            checks.push((
                format!("acct:{}", account_key(email)),
                self.per_account,
                "account",
            ));
        }
        for (who, limit, which) in checks {
            let key = format!(
                "{}:authlimit:{}:{who}:{window}",
                self.prefix,
                action.as_str()
            );
            let (count,): (u32,) = self
                .run(
                    redis::pipe()
                        .atomic()
                        .incr(&key, 1)
                        .expire(&key, self.window_secs as i64)
                        .ignore(),
                )
                .await
                .map_err(unavailable)?;
            if count > limit {
                return Err(self.refuse(action, None, address, which));
            }
        }
        Ok(())
    }

    /// Counts one hit on `what` (say `form:submit:<address>`) and answers the count so far in a window that
    /// opens with the first hit and lasts `window_secs`. Redis holds it, so every api process sees one count.
    pub async fn count(&self, what: &str, window_secs: u64) -> Result<u32, redis::RedisError> {
        let key = format!("{}:limit:{what}", self.prefix);
        let (count,): (u32,) = self
            .run(
                redis::pipe()
                    .atomic()
                    .cmd("SET")
                    .arg(&key)
                    .arg(0)
                    .arg("EX")
                    .arg(window_secs.max(1))
                    .arg("NX")
                    .ignore()
                    .incr(&key, 1),
            )
            .await?;
        Ok(count)
    }

    /// Runs a pipeline, once more after a failure: the first call after a Redis restart meets the old,
    /// broken connection while the manager reconnects.
    async fn run<T: redis::FromRedisValue>(
        &self,
        pipe: &redis::Pipeline,
    ) -> Result<T, redis::RedisError> {
        telemetry::retry::once_more(|| {
            let mut conn = self.redis.clone();
            async move { pipe.query_async(&mut conn).await }
        })
        .await
    }

    fn failure_keys(&self, attempt: &Attempt<'_>) -> FailureKeys {
        let base = format!("{}:authfail:{}", self.prefix, attempt.action.as_str());
        let window = self.window();
        let account = attempt.email.map(account_key);
        FailureKeys {
            pair: account
                .as_ref()
                .map(|a| format!("{base}:pair:{a}:{}:{window}", attempt.address)),
            address: format!("{base}:addr:{}:{window}", attempt.address),
            account: account.as_ref().map(|a| format!("{base}:acct:{a}")),
            known: account.map(|a| format!("{}:authok:{a}:{}", self.prefix, attempt.address)),
        }
    }

    /// Refuses with 429 when this address's own failures say it must wait; otherwise answers whether failures
    /// from elsewhere are slowing the account. Counts nothing.
    pub async fn check(&self, attempt: Attempt<'_>) -> Result<Standing, ApiError> {
        let keys = self.failure_keys(&attempt);
        let (pair, address, account, last, known): (
            Option<u32>,
            Option<u32>,
            Option<u32>,
            Option<i64>,
            bool,
        ) = self
            .run(
                redis::pipe()
                    .get(keys.pair.as_deref().unwrap_or(""))
                    .get(&keys.address)
                    .hget(keys.account.as_deref().unwrap_or(""), "failures")
                    .hget(keys.account.as_deref().unwrap_or(""), "last")
                    .exists(keys.known.as_deref().unwrap_or("")),
            )
            .await
            .map_err(unavailable)?;
        let refuse = |which| Err(self.refuse(attempt.action, attempt.user, attempt.address, which));
        if self.per_account > 0 && keys.pair.is_some() && pair.unwrap_or(0) >= self.per_account {
            return refuse("account and address");
        }
        if self.per_address > 0 && address.unwrap_or(0) >= self.per_address {
            return refuse("address");
        }
        let failures = account.unwrap_or(0);
        if self.before_delay > 0 && failures >= self.before_delay && !known {
            let wait_ms = delay_secs(failures, self.before_delay) as i64 * 1000;
            let since = chrono::Utc::now().timestamp_millis() - last.unwrap_or(0);
            if since < wait_ms {
                tracing::warn!(
                    action = attempt.action.as_str(),
                    user = attempt.user,
                    address = attempt.address,
                    "account delayed: only a right answer passes"
                );
                return Ok(Standing::Delayed);
            }
        }
        Ok(Standing::Clear)
    }

    /// Counts a failed attempt.
    pub async fn failed(&self, attempt: Attempt<'_>) -> Result<(), ApiError> {
        let keys = self.failure_keys(&attempt);
        let window = self.window_secs as i64;
        let mut pipe = redis::pipe();
        pipe.atomic();
        if let Some(pair) = &keys.pair {
            pipe.incr(pair, 1).ignore().expire(pair, window).ignore();
        }
        pipe.incr(&keys.address, 1)
            .ignore()
            .expire(&keys.address, window)
            .ignore();
        if let Some(account) = &keys.account {
            // The account's count lives as long as failures keep coming, so a slow attacker stays slowed.
            pipe.hincr(account, "failures", 1)
                .ignore()
                .hset(account, "last", chrono::Utc::now().timestamp_millis())
                .ignore()
                .expire(account, window)
                .ignore();
        }
        self.run::<()>(&pipe).await.map_err(unavailable)
    }

    /// Remembers that the account signed in from this address: the account's delay does not apply there.
    pub async fn succeeded(&self, attempt: Attempt<'_>) -> Result<(), ApiError> {
        let Some(known) = self.failure_keys(&attempt).known else {
            return Ok(());
        };
        self.run::<()>(
            redis::pipe()
                .cmd("SET")
                .arg(&known)
                .arg(1)
                .arg("EX")
                .arg(KNOWN_ADDRESS_SECS)
                .ignore(),
        )
        .await
        .map_err(unavailable)
    }
}

struct FailureKeys {
    pair: Option<String>,
    address: String,
    account: Option<String>,
    known: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_from_one_second_up_to_five_minutes() {
        assert_eq!(delay_secs(20, 20), 1);
        assert_eq!(delay_secs(21, 20), 2);
        assert_eq!(delay_secs(24, 20), 16);
        assert_eq!(delay_secs(40, 20), MAX_DELAY_SECS);
        assert_eq!(delay_secs(u32::MAX, 20), MAX_DELAY_SECS);
    }

    #[test]
    fn accounts_are_keyed_without_their_address() {
        let key = account_key("ann@example.org");
        assert!(!key.contains("ann") && !key.contains("example"));
        assert_eq!(key, account_key("ann@example.org"));
        assert_ne!(key, account_key("bob@example.org"));
    }
}
