use clap::Args;
use std::path::PathBuf;

/// Everything the server reads from its environment. Shared by every subcommand that touches the database.
#[derive(Debug, Clone, Args)]
pub struct Settings {
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1:5432/compass"
    )]
    pub database_url: String,
    #[arg(long, env = "REDIS_URL", default_value = "redis://127.0.0.1:6379")]
    pub redis_url: String,
    #[arg(long, env = "JOB_QUEUE", default_value = worker::DEFAULT_QUEUE)]
    pub job_queue: String,
    #[arg(long, env = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// Secret that signs access tokens; at least 32 characters.
    #[arg(long, env = "JWT_SECRET", hide_env_values = true, default_value = "")]
    pub jwt_secret: String,
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
    /// Secret that signs tracking and unsubscribe links (the worker must have the same one).
    #[arg(
        long,
        env = "TRACKING_SECRET",
        hide_env_values = true,
        default_value = ""
    )]
    pub tracking_secret: String,
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
        default_value = "no-reply@compass.test"
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
    pub sms_gateway_key: String,
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
}
