use crate::auth::TokenKeys;
use crate::body_limit::BodyLimit;
use crate::error::render;
use crate::identity::google::GoogleVerifier;
use crate::identity::limits::AuthLimits;
use crate::identity::notices::Notices;
use crate::identity::secrets::SecretHasher;
use crate::identity::sms::{HttpGateway, LogGateway, SmsGateway};
use crate::public::PublicForms;
use crate::signups::SignupWriter;
use crate::state::{AppState, SharedState};
use crate::{routes, Settings};
use poem::endpoint::StaticFilesEndpoint;
use poem::listener::{Acceptor, Listener, TcpAcceptor, TcpListener};
use poem::middleware::{NormalizePath, SetHeader, Tracing, TrailingSlash};
use poem::{handler, EndpointExt, Response, Route, Server};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tenancy::Tenancy;
use worker::JobQueue;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Tenancy(#[from] tenancy::TenancyError),
    #[error(transparent)]
    Queue(#[from] worker::JobError),
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error(transparent)]
    Token(#[from] crate::auth::TokenError),
    #[error(transparent)]
    Mail(#[from] worker::mail::MailError),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

/// The server, bound to its port but not yet serving.
pub struct Application {
    port: u16,
    acceptor: TcpAcceptor,
    state: SharedState,
    settings: Settings,
}

impl Application {
    /// Connects to Postgres and Redis, migrates every schema, and binds the port (0 picks a free one).
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        let tenancy = Tenancy::connect(&settings.database_url, settings.database_pool_size).await?;
        tenancy.migrate_all().await?;
        let queue = JobQueue::connect(&settings.redis_url, &settings.job_queue).await?;
        let redis = redis::Client::open(settings.redis_url.as_str())?
            .get_connection_manager()
            .await?;
        let mailer = worker::mail::Mailer::from_url(&settings.smtp_url, 4)?;
        let nonempty = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
        let sms: Arc<dyn SmsGateway> = match nonempty(&settings.sms_gateway_url) {
            Some(url) => Arc::new(HttpGateway::new(&url, &settings.sms_gateway_key)),
            None => Arc::new(LogGateway),
        };
        let state = Arc::new(AppState {
            tenancy: tenancy.clone(),
            queue,
            redis: redis.clone(),
            tokens: TokenKeys::new(&settings.jwt_secret, settings.token_ttl_minutes)?,
            public: PublicForms::new(
                settings.form_views_per_minute,
                settings.form_submits_per_minute,
            ),
            signups: SignupWriter::start(tenancy.clone(), 4),
            gifts: crate::actblue_webhook::GiftWriter::start(tenancy.clone(), 2),
            mailer: mailer.clone(),
            links: worker::mail::links::LinkSigner::new(
                tracking_secret(&settings),
                &settings.public_url,
            ),
            tracking: crate::tracking::EventBuffer::default(),
            provider_name: settings.provider_name.clone(),
            google: nonempty(&settings.google_client_id).map(|id| {
                (
                    id.clone(),
                    GoogleVerifier::new(&id, &settings.google_jwks_url),
                )
            }),
            client_auth: nonempty(&settings.client_auth),
            hasher: SecretHasher::new(&settings.jwt_secret),
            notices: Notices::new(
                mailer,
                &settings.mail_from_name,
                &settings.mail_from_address,
                &settings.public_url,
            ),
            sms,
            limits: AuthLimits::new(
                redis.clone(),
                &settings.job_queue,
                settings.auth_attempts_per_account,
                settings.auth_attempts_per_address,
                settings.auth_limit_window_seconds,
            ),
        });
        let acceptor = TcpListener::bind(format!("{}:{}", settings.host, settings.port))
            .into_acceptor()
            .await?;
        let port = acceptor
            .local_addr()
            .first()
            .and_then(|a| a.as_socket_addr().map(|s| s.port()))
            .unwrap_or(settings.port);
        Ok(Self {
            port,
            acceptor,
            state,
            settings,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn state(&self) -> SharedState {
        self.state.clone()
    }

    /// Serves until `shutdown` resolves, then lets in-flight requests finish (up to 10 s).
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), std::io::Error> {
        let app = app(self.state.clone(), &self.settings);
        tracing::info!(port = self.port, "api listening");
        // Form views are summed in memory and written twice a second, and once more on the way out.
        let state = self.state.clone();
        let flusher = tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(500));
            loop {
                tick.tick().await;
                state.public.flush_views(&state.tenancy).await;
                state.tracking.flush(&state.tenancy).await;
            }
        });
        let served = Server::new_with_acceptor(self.acceptor)
            .run_with_graceful_shutdown(app, shutdown, Some(Duration::from_secs(10)))
            .await;
        flusher.abort();
        self.state.public.flush_views(&self.state.tenancy).await;
        self.state.tracking.flush(&self.state.tenancy).await;
        served
    }
}

/// The whole HTTP surface: OpenAPI operations, their document and docs page, and the SPA.
pub fn app(state: SharedState, settings: &Settings) -> impl poem::Endpoint {
    let service = routes::service();
    let spec = service.spec_endpoint();
    let docs = service.swagger_ui();
    let api = Arc::new(service.with(BodyLimit::new(
        settings.max_body_bytes,
        settings.max_upload_bytes,
    )));

    let index = settings.web_dist.join("index.html");
    let spa = if index.is_file() {
        StaticFilesEndpoint::new(&settings.web_dist)
            .index_file("index.html")
            .fallback_to_index()
            .with(page_security_headers(
                settings
                    .google_client_id
                    .as_deref()
                    .is_some_and(|id| !id.trim().is_empty()),
            ))
            .boxed()
    } else {
        tracing::warn!(dir = %settings.web_dist.display(), "web app not built; serving a notice instead");
        spa_missing.boxed()
    };

    Route::new()
        .at("/api/openapi.json", spec)
        .nest("/api/docs", docs)
        .nest_no_strip("/api", api.clone())
        .nest_no_strip("/auth-api", api.clone())
        .at("/healthz", api)
        .nest("/", spa)
        .with(NormalizePath::new(TrailingSlash::Trim))
        .with(Tracing)
        .data(state)
        .catch_all_error(render)
}

/// Tracking links are signed with TRACKING_SECRET, or with JWT_SECRET when it is unset.
fn tracking_secret(settings: &Settings) -> &str {
    if settings.tracking_secret.is_empty() {
        &settings.jwt_secret
    } else {
        &settings.tracking_secret
    }
}

/// The SPA's pages run only the app's own scripts: even if a form body slipped past the sanitiser, an inline
/// script or handler would not run, and no form on our pages can post to another site. With Google sign-in
/// configured, Google's sign-in script, its button frame and its styles are allowed too, and nothing else.
fn page_security_headers(google: bool) -> SetHeader {
    let google_src = if google {
        " https://accounts.google.com/gsi/"
    } else {
        ""
    };
    let csp = format!(
        "default-src 'self'; script-src 'self'{google_src}; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'self'; frame-src 'self'{google_src}; img-src 'self' data: https:; \
         style-src 'self' 'unsafe-inline'{google_src}; connect-src 'self'{google_src}"
    );
    SetHeader::new()
        .overriding("Content-Security-Policy", csp)
        .overriding("X-Content-Type-Options", "nosniff")
        .overriding("Referrer-Policy", "strict-origin-when-cross-origin")
}

#[handler]
fn spa_missing() -> Response {
    Response::builder()
        .content_type("text/plain; charset=utf-8")
        .body("The web app is not built. Run `npm run build` in web/ (the README's run command does this).")
}
