use crate::auth::{Keys, TokenKeys};
use crate::body_limit::BodyLimit;
use crate::error::render;
use crate::identity::google::GoogleVerifier;
use crate::identity::limits::AuthLimits;
use crate::identity::notices::Notices;
use crate::identity::secrets::SecretHasher;
use crate::identity::sms::{HttpGateway, LogGateway, SmsGateway};
use crate::identity::totp::SecretBox;
use crate::input_guard::InputGuard;
use crate::public::PublicForms;
use crate::readiness::{readyz, Readiness};
use crate::signups::SignupWriter;
use crate::state::{AppState, SharedState};
use crate::{routes, Settings};
use jobs::JobQueue;
use poem::endpoint::StaticFilesEndpoint;
use poem::listener::{Acceptor, Listener, TcpAcceptor, TcpListener};
use poem::middleware::{NormalizePath, SetHeader, Tracing, TrailingSlash};
use poem::{handler, Endpoint, EndpointExt, IntoResponse, Request, Response, Route, Server};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tenancy::Tenancy;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Tenancy(#[from] tenancy::TenancyError),
    #[error(transparent)]
    Queue(#[from] jobs::JobError),
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error(transparent)]
    Keys(#[from] crate::auth::KeyError),
    #[error("sealing authenticator secrets: {0}")]
    Totp(#[from] crate::identity::totp::SealPlaintextError),
    #[error(transparent)]
    Mail(#[from] mail::MailError),
    #[error("SES_SNS_CERT_PEM: {0}")]
    SnsCertificates(String),
    #[error(transparent)]
    Dkim(#[from] mail::dkim::DkimError),
    #[error(transparent)]
    Dns(#[from] crate::dns::DnsConfigError),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

/// The server, bound to its port but not yet serving.
pub struct Application {
    port: u16,
    acceptor: TcpAcceptor,
    state: SharedState,
    readiness: Arc<Readiness>,
    settings: Settings,
}

impl Application {
    /// Connects to Postgres and Redis, migrates every schema, and binds the port (0 picks a free one).
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        let keys = Keys::derive(
            settings.jwt_secret.expose(),
            Some(settings.tracking_secret.expose()),
        )?;
        let tenancy = Tenancy::connect(&settings.database_url, settings.database_pool_size).await?;
        tenancy.migrate_all().await?;
        let totp = SecretBox::new(keys.totp());
        crate::identity::totp::seal_plaintext(&tenancy, &totp).await?;
        let queue = JobQueue::connect(&settings.redis_url, &settings.job_queue).await?;
        let redis = redis::Client::open(settings.redis_url.as_str())?
            .get_connection_manager()
            .await?;
        let mailer = mail::Mailer::from_url(&settings.smtp_url, 4)?;
        let nonempty = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
        let sms: Option<Arc<dyn SmsGateway>> = match nonempty(&settings.sms_gateway_url) {
            Some(url) => Some(Arc::new(HttpGateway::new(
                &url,
                settings.sms_gateway_key.expose(),
            ))),
            None if settings.dev_log_codes => {
                tracing::warn!("DEV_LOG_CODES: phone login codes are written to the log");
                Some(Arc::new(LogGateway))
            }
            None => None,
        };
        let dkim = match settings.dkim_key_secret.expose().trim() {
            "" => None,
            hex => Some(mail::dkim::KeyBox::from_hex(hex)?),
        };
        let state = Arc::new(AppState {
            tenancy: tenancy.clone(),
            queue,
            redis: redis.clone(),
            tokens: TokenKeys::new(keys.token_signing(), settings.token_ttl_minutes),
            public: PublicForms::new(
                settings.form_views_per_minute,
                settings.form_submits_per_minute,
            ),
            signups: SignupWriter::start(tenancy.clone(), 4),
            // The webhook's share of the pool: a quarter, one or two connections; the rest stays for everything else.
            gifts: crate::actblue_webhook::GiftWriter::start(
                tenancy.clone(),
                (settings.database_pool_size as usize / 4).clamp(1, 2),
            ),
            webhook_gate: Default::default(),
            delivery_hooks: crate::delivery_webhooks::Hooks::new(
                settings.ses_sns_cert_pem.as_deref(),
                tenancy.clone(),
                (settings.database_pool_size as usize / 4).clamp(1, 2),
            )?,
            mailer: mailer.clone(),
            links: mail::links::LinkSigner::new(keys.tracking(), &settings.public_url),
            tracking: crate::tracking::EventBuffer::default(),
            provider_name: settings.provider_name.clone(),
            google: nonempty(&settings.google_client_id).map(|id| {
                (
                    id.clone(),
                    GoogleVerifier::new(&id, &settings.google_jwks_url),
                )
            }),
            client_auth: nonempty(&settings.client_auth),
            hasher: SecretHasher::new(keys.hashing()),
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
                settings.auth_account_failures_before_delay,
                settings.auth_limit_window_seconds,
            )
            .with_registration_limits(
                settings.registrations_per_address_per_hour,
                settings.registrations_per_email_per_hour,
            ),
            totp,
            trusted_proxies: settings.trusted_proxies.clone(),
            dkim,
            dns: crate::dns::Dns::new(settings.dns_resolver.as_deref())?,
        });
        let acceptor = TcpListener::bind(format!("{}:{}", settings.host, settings.port))
            .into_acceptor()
            .await?;
        let readiness = Readiness::new(tenancy.clone(), &settings.redis_url, &settings.job_queue)?;
        let port = acceptor
            .local_addr()
            .first()
            .and_then(|a| a.as_socket_addr().map(|s| s.port()))
            .unwrap_or(settings.port);
        Ok(Self {
            port,
            acceptor,
            state,
            readiness,
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
        let app = app(self.state.clone(), self.readiness.clone(), &self.settings);
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
pub fn app(
    state: SharedState,
    readiness: Arc<Readiness>,
    settings: &Settings,
) -> impl poem::Endpoint {
    let service = routes::service();
    let spec = service.spec_endpoint();
    let docs = service.swagger_ui();
    let api = Arc::new(
        service
            .with(InputGuard)
            .with(BodyLimit::new(
                settings.max_body_bytes,
                settings.max_upload_bytes,
                crate::body_limit::UploadOperations::of::<routes::Apis>(),
            ))
            .around(api_headers)
            .around(crate::metrics::record),
    );
    crate::metrics::install();

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
        .at(
            "/api/openapi.json",
            spec.with(SetHeader::new().overriding("X-Content-Type-Options", "nosniff")),
        )
        .nest("/api/docs", docs.with(unframeable(DOCS_CSP)))
        .nest_no_strip("/api", api.clone())
        .nest_no_strip("/auth-api", api.clone())
        .at("/healthz", api)
        .at("/metrics", poem::get(crate::metrics::endpoint))
        .at("/readyz", poem::get(readyz).data(readiness))
        .nest("/", spa)
        .with(NormalizePath::new(TrailingSlash::Trim))
        .with(Tracing)
        .data(state)
        .catch_all_error(render)
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

/// The swagger page runs its own inline scripts and styles, and loads nothing from elsewhere.
const DOCS_CSP: &str = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// The unsubscribe page is static text with inline styles and a form posting back to itself: nothing else.
const UNSUBSCRIBE_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; \
     base-uri 'none'; frame-ancestors 'none'";

/// Pages no other site may frame: a framed page with a button invites clickjacking.
fn unframeable(csp: &'static str) -> SetHeader {
    SetHeader::new()
        .overriding("Content-Security-Policy", csp)
        .overriding("X-Frame-Options", "DENY")
        .overriding("X-Content-Type-Options", "nosniff")
}

/// Headers of every answer of the api, errors included (they are rendered here so they get them too): no
/// content sniffing; nothing from `/auth-api` is cached, as its answers carry tokens or the signed-in user's own
/// details (a rule by prefix cannot miss a new token operation); and the unsubscribe page cannot be framed.
async fn api_headers<E: Endpoint>(inner: Arc<E>, req: Request) -> poem::Result<Response> {
    let path = req.uri().path();
    let auth_api = path.starts_with("/auth-api/");
    let unsubscribe = path.starts_with("/api/unsubscribe/");
    let mut response = match inner.call(req).await {
        Ok(output) => output.into_response(),
        Err(err) => render(err).await,
    };
    let headers = response.headers_mut();
    headers.insert(
        poem::http::header::X_CONTENT_TYPE_OPTIONS,
        poem::http::HeaderValue::from_static("nosniff"),
    );
    if auth_api {
        headers.insert(
            poem::http::header::CACHE_CONTROL,
            poem::http::HeaderValue::from_static("no-store"),
        );
    }
    if unsubscribe {
        headers.insert(
            poem::http::header::CONTENT_SECURITY_POLICY,
            poem::http::HeaderValue::from_static(UNSUBSCRIBE_CSP),
        );
        headers.insert(
            poem::http::header::X_FRAME_OPTIONS,
            poem::http::HeaderValue::from_static("DENY"),
        );
    }
    Ok(response)
}

#[handler]
fn spa_missing() -> Response {
    Response::builder()
        .content_type("text/plain; charset=utf-8")
        .body("The web app is not built. Run `npm run build` in web/ (the README's run command does this).")
}
