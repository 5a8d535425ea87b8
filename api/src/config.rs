use clap::Args;
use std::fmt;
use std::path::PathBuf;
use telemetry::secret::{redact_url, Secret};

/// Everything the server reads from its environment. Shared by every subcommand that touches the database.
/// `Debug` shows no secret: keys are [`Secret`]s and URLs lose their passwords.
#[derive(Clone, Args)]
pub struct Settings {
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1:5432/compass"
    )]
    pub database_url: String,
    #[arg(long, env = "REDIS_URL", default_value = "redis://127.0.0.1:6379")]
    pub redis_url: String,
    #[arg(long, env = "JOB_QUEUE", default_value = jobs::DEFAULT_QUEUE)]
    pub job_queue: String,
    #[arg(long, env = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// The master secret (at least 32 characters): the keys that sign access tokens, hash refresh tokens and
    /// codes, and encrypt authenticator secrets are derived from it, one per purpose.
    #[arg(long, env = "JWT_SECRET", hide_env_values = true, default_value = "")]
    pub jwt_secret: Secret,
    /// Minutes an access token stays valid.
    #[arg(long, env = "TOKEN_TTL_MINUTES", default_value_t = 15)]
    pub token_ttl_minutes: i64,
    /// Folder of the built web app (`npm run build` in web/).
    #[arg(long, env = "WEB_DIST", default_value = "web/dist")]
    pub web_dist: PathBuf,
    /// The agency's name, shown in the footer.
    #[arg(long, env = "PROVIDER_NAME", default_value = "Compass Digital")]
    pub provider_name: String,
    /// Google OAuth client id; the Google button shows only when it is set.
    #[arg(long, env = "GOOGLE_CLIENT_ID")]
    pub google_client_id: Option<String>,
    /// Largest accepted request body, in bytes.
    #[arg(long, env = "MAX_BODY_BYTES", default_value_t = 2 * 1024 * 1024)]
    pub max_body_bytes: usize,
    /// Largest accepted file upload, in bytes.
    #[arg(long, env = "MAX_UPLOAD_BYTES", default_value_t = 200 * 1024 * 1024)]
    pub max_upload_bytes: usize,
    /// Outgoing mail: smtp://host:port (plain), smtp://host:port?tls=required (STARTTLS) or smtps://host:port.
    #[arg(long, env = "SMTP_URL", default_value = "smtp://127.0.0.1:2525")]
    pub smtp_url: String,
    /// Key that signs tracking and unsubscribe links (at least 32 characters); the worker must have the same one,
    /// and needs no other. Derived from JWT_SECRET when unset, which suits an api without a worker only.
    #[arg(
        long,
        env = "TRACKING_SECRET",
        hide_env_values = true,
        default_value = ""
    )]
    pub tracking_secret: Secret,
    /// Key that seals sender domains' DKIM private keys (64 hex digits); the worker needs the same one to sign.
    /// Without it no sender domain can be added.
    #[arg(
        long,
        env = "DKIM_KEY_SECRET",
        hide_env_values = true,
        default_value = ""
    )]
    pub dkim_key_secret: Secret,
    /// The nameserver of the domain check (ip:port); the system's when unset.
    #[arg(long, env = "DNS_RESOLVER")]
    pub dns_resolver: Option<String>,
    /// The api's public address, used in tracking and unsubscribe links.
    #[arg(long, env = "PUBLIC_URL", default_value = "http://127.0.0.1:8080")]
    pub public_url: String,
    /// Public form views per address per minute; 0 turns the limit off.
    #[arg(long, env = "FORM_VIEWS_PER_MINUTE", default_value_t = 300)]
    pub form_views_per_minute: u32,
    /// Public form submissions per address per minute; 0 turns the limit off.
    #[arg(long, env = "FORM_SUBMITS_PER_MINUTE", default_value_t = 30)]
    pub form_submits_per_minute: u32,
    #[arg(long, env = "DATABASE_POOL_SIZE", default_value_t = 16)]
    pub database_pool_size: u32,
    /// client-auth mode: the short name of the one client this deployment signs in to.
    #[arg(long, env = "CLIENT_AUTH")]
    pub client_auth: Option<String>,
    /// Sender of sign-in codes, registration and reset e-mails.
    #[arg(
        long,
        env = "MAIL_FROM_ADDRESS",
        default_value = mail::DEFAULT_MAIL_FROM_ADDRESS
    )]
    pub mail_from_address: String,
    #[arg(long, env = "MAIL_FROM_NAME", default_value = "Compass")]
    pub mail_from_name: String,
    /// SMS gateway for phone login codes (POST JSON {to, message}); codes are only logged when unset.
    #[arg(long, env = "SMS_GATEWAY_URL")]
    pub sms_gateway_url: Option<String>,
    #[arg(
        long,
        env = "SMS_GATEWAY_KEY",
        hide_env_values = true,
        default_value = ""
    )]
    pub sms_gateway_key: Secret,
    /// Where Google's ID-token signing keys are published.
    #[arg(long, env = "GOOGLE_JWKS_URL", default_value = crate::identity::google::DEFAULT_JWKS_URL)]
    pub google_jwks_url: String,
    /// Sign-in, code, registration and reset attempts per account per window; 0 turns the limit off.
    #[arg(long, env = "AUTH_ATTEMPTS_PER_ACCOUNT", default_value_t = 10)]
    pub auth_attempts_per_account: u32,
    /// The same per client address.
    #[arg(long, env = "AUTH_ATTEMPTS_PER_ADDRESS", default_value_t = 60)]
    pub auth_attempts_per_address: u32,
    #[arg(long, env = "AUTH_LIMIT_WINDOW_SECONDS", default_value_t = 900)]
    pub auth_limit_window_seconds: u64,
    /// Failed sign-ins and codes per account, from every address, in a window before each further attempt from an
    /// address the account has not signed in from has to wait (1 s, doubling up to 5 minutes); 0 turns it off.
    #[arg(long, env = "AUTH_ACCOUNT_FAILURES_BEFORE_DELAY", default_value_t = 20)]
    pub auth_account_failures_before_delay: u32,
    /// Registrations per client address per hour; 0 turns the limit off. A registration answers whether an
    /// e-mail has an account, so asking must stay slow.
    #[arg(long, env = "REGISTRATIONS_PER_ADDRESS_PER_HOUR", default_value_t = 5)]
    pub registrations_per_address_per_hour: u32,
    /// Registrations naming one e-mail address per hour, from every client address; 0 turns the limit off.
    #[arg(long, env = "REGISTRATIONS_PER_EMAIL_PER_HOUR", default_value_t = 3)]
    pub registrations_per_email_per_hour: u32,
    /// Reverse proxies whose `X-Forwarded-For` is believed: comma-separated addresses or CIDR networks.
    #[arg(long, env = "TRUSTED_PROXIES", default_value = "")]
    pub trusted_proxies: crate::identity::address::TrustedProxies,
    /// Development only: write one-time codes that would go out by SMS to the log when no gateway is set.
    #[arg(
        long,
        env = "DEV_LOG_CODES",
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        default_value = "false"
    )]
    pub dev_log_codes: bool,
    /// Amazon SNS signing certificates to trust (a PEM file of one or more certificates). When set, SES webhooks
    /// are verified against these only and no certificate or subscription address is ever fetched.
    #[arg(long, env = "SES_SNS_CERT_PEM")]
    pub ses_sns_cert_pem: Option<PathBuf>,
}

impl fmt::Debug for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("database_url", &redact_url(&self.database_url))
            .field("redis_url", &redact_url(&self.redis_url))
            .field("job_queue", &self.job_queue)
            .field("host", &self.host)
            .field("port", &self.port)
            .field("jwt_secret", &self.jwt_secret)
            .field("token_ttl_minutes", &self.token_ttl_minutes)
            .field("web_dist", &self.web_dist)
            .field("provider_name", &self.provider_name)
            .field("google_client_id", &self.google_client_id)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_upload_bytes", &self.max_upload_bytes)
            .field("smtp_url", &redact_url(&self.smtp_url))
            .field("tracking_secret", &self.tracking_secret)
            .field("dkim_key_secret", &self.dkim_key_secret)
            .field("dns_resolver", &self.dns_resolver)
            .field("public_url", &self.public_url)
            .field("form_views_per_minute", &self.form_views_per_minute)
            .field("form_submits_per_minute", &self.form_submits_per_minute)
            .field("database_pool_size", &self.database_pool_size)
            .field("client_auth", &self.client_auth)
            .field("mail_from_address", &self.mail_from_address)
            .field("mail_from_name", &self.mail_from_name)
            .field(
                "sms_gateway_url",
                &self.sms_gateway_url.as_deref().map(redact_url),
            )
            .field("sms_gateway_key", &self.sms_gateway_key)
            .field("google_jwks_url", &self.google_jwks_url)
            .field("auth_attempts_per_account", &self.auth_attempts_per_account)
            .field("auth_attempts_per_address", &self.auth_attempts_per_address)
            .field("auth_limit_window_seconds", &self.auth_limit_window_seconds)
            .field(
                "auth_account_failures_before_delay",
                &self.auth_account_failures_before_delay,
            )
            .field(
                "registrations_per_address_per_hour",
                &self.registrations_per_address_per_hour,
            )
            .field(
                "registrations_per_email_per_hour",
                &self.registrations_per_email_per_hour,
            )
            .field("trusted_proxies", &self.trusted_proxies)
            .field("dev_log_codes", &self.dev_log_codes)
            .field("ses_sns_cert_pem", &self.ses_sns_cert_pem)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        settings: Settings,
    }

    /// Issue 11, item 15: secrets in the config structs do not print in `Debug`.
    #[test]
    fn secrets_in_the_settings_do_not_print_in_debug() {
        let cli = Cli::try_parse_from([
            "api",
            "--jwt-secret",
            "master-master-master-master-master-1",
            "--tracking-secret",
            "tracking-tracking-tracking-tracking-2",
            "--sms-gateway-key",
            "sms-gateway-key-3",
            "--smtp-url",
            "smtp://mailer:smtp-password-4@mail.example:587",
            "--database-url",
            "postgres://compass:db-password-5@db.example/compass",
            "--redis-url",
            "redis://:redis-password-6@cache.example:6379",
        ])
        .unwrap();
        let printed = format!("{:?}", cli.settings);
        for secret in [
            "master-master",
            "tracking-tracking",
            "sms-gateway-key-3",
            "smtp-password-4",
            "db-password-5",
            "redis-password-6",
        ] {
            assert!(!printed.contains(secret), "{secret} in {printed}");
        }
        assert!(printed.contains("mail.example:587"), "{printed}");
        assert_eq!(
            cli.settings.jwt_secret.expose(),
            "master-master-master-master-master-1"
        );
    }
}
