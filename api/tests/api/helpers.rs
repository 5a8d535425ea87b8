use api::accounts::{upsert_universal_user, NewUniversalUser};
use api::{Application, Settings};
use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tenancy::{Client, ClientShort, Tenancy};
use tokio::sync::oneshot;
use worker::mail::sink::{serve, Delivered};
use worker::{run_pool, JobQueue, PoolConfig};

pub const PASSWORD: &str = "Sturdy-passw0rd";
/// The master secret of test apps (their keys are derived from it).
pub const JWT_SECRET: &str = "test-secret-test-secret-test-secret!";

pub fn database_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/compass_test".into())
}

pub fn redis_url() -> String {
    std::env::var("TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// Asks `probe` every 50 ms until it answers `Some`, and answers that; panics naming `what` once `deadline` has
/// passed. Tests wait for what they expect to see, never for a fixed time.
pub async fn wait_until<T, F, Fut>(what: &str, deadline: Duration, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let until = tokio::time::Instant::now() + deadline;
    loop {
        if let Some(found) = probe().await {
            return found;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "{what}: not seen within {deadline:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub fn unique(prefix: &str) -> String {
    let id = uuid::Uuid::new_v4().simple().to_string();
    format!("{prefix}{}", &id[..12])
}

pub struct TestApp {
    pub address: String,
    pub smtp_url: String,
    pub tracking_secret: String,
    /// The send journals of this app's workers.
    pub send_journal: std::path::PathBuf,
    pub tenancy: Tenancy,
    pub queue_name: String,
    pub http: reqwest::Client,
}

/// A signed-in user acting for one client.
#[derive(Clone)]
pub struct Session {
    pub token: String,
    pub client: Client,
}

/// `TEST_LOG=1 cargo test …` shows the api's and worker's logs.
fn init_logs() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    if std::env::var_os("TEST_LOG").is_some() {
        ONCE.call_once(worker::init_tracing);
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// `spawn_app` with settings changed by `adjust` first.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    init_logs();
    let web_dist = std::env::temp_dir().join(unique("compass-web-"));
    std::fs::create_dir_all(&web_dist).unwrap();
    std::fs::write(
        web_dist.join("index.html"),
        "<!doctype html><title>Compass</title><div id=root></div>",
    )
    .unwrap();
    let queue_name = unique("compass-test-");
    let mut settings = Settings {
        database_url: database_url(),
        redis_url: redis_url(),
        job_queue: queue_name.clone(),
        host: "127.0.0.1".into(),
        port: 0,
        jwt_secret: JWT_SECRET.into(),
        token_ttl_minutes: 30,
        web_dist,
        provider_name: "Test Agency".into(),
        google_client_id: None,
        max_body_bytes: 64 * 1024,
        max_upload_bytes: 4 * 1024 * 1024,
        smtp_url: "smtp://127.0.0.1:9".into(),
        tracking_secret: Default::default(),
        public_url: "http://127.0.0.1".into(),
        form_views_per_minute: 0,
        form_submits_per_minute: 0,
        database_pool_size: 8,
        client_auth: None,
        mail_from_address: "no-reply@compass.test".into(),
        mail_from_name: "Compass".into(),
        sms_gateway_url: None,
        sms_gateway_key: Default::default(),
        google_jwks_url: "http://127.0.0.1:9/certs".into(),
        // Tests sign in often from one address; the limit test sets its own.
        auth_attempts_per_account: 0,
        auth_attempts_per_address: 0,
        auth_limit_window_seconds: 900,
        auth_account_failures_before_delay: 0,
        trusted_proxies: Default::default(),
        dev_log_codes: false,
    };
    adjust(&mut settings);
    let smtp_url = settings.smtp_url.clone();
    // The key the api signs tracking links with, which its workers get.
    let tracking_secret = api::auth::Keys::derive(
        settings.jwt_secret.expose(),
        Some(settings.tracking_secret.expose()),
    )
    .expect("test keys")
    .tracking()
    .to_owned();
    let app = Application::build(settings).await.expect("api builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    let tenancy = app.state().tenancy.clone();
    tokio::spawn(app.run_until(std::future::pending()));
    TestApp {
        address: address.clone(),
        smtp_url,
        tracking_secret,
        send_journal: std::env::temp_dir().join(unique("compass-journal-")),
        tenancy,
        queue_name,
        http: reqwest::Client::new(),
    }
}

/// A worker pool on this app's queue; dropping the handle (or `stop`) shuts it down.
pub struct WorkerHandle {
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl WorkerHandle {
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(20), &mut self.task).await;
    }

    /// Ends the pool at once, like a killed process: no graceful shutdown.
    pub fn kill(self) {
        self.task.abort();
    }
}

impl TestApp {
    pub async fn start_worker(&self) -> WorkerHandle {
        self.start_worker_with(None).await
    }

    /// A worker whose mailing scheduler also runs. Only one test may use it: a scheduler claims due mailings of
    /// every client in the database, which in tests means other tests' clients too. Its passes are an hour apart
    /// (the first one at start), so a mailing confirmed later starts only through the database's notification.
    pub async fn start_worker_with_scheduler(&self) -> WorkerHandle {
        self.start_worker_with(Some(Duration::from_secs(3600)))
            .await
    }

    /// A worker that reconciles (queues again jobs whose queue message was lost) for this one client only, at
    /// start and then every `every`.
    pub async fn start_worker_reconciling(&self, client_id: i64, every: Duration) -> WorkerHandle {
        self.start_pool(None, Some((client_id, every))).await
    }

    async fn start_worker_with(&self, schedule_every: Option<Duration>) -> WorkerHandle {
        self.start_pool(schedule_every, None).await
    }

    async fn start_pool(
        &self,
        schedule_every: Option<Duration>,
        reconcile: Option<(i64, Duration)>,
    ) -> WorkerHandle {
        let queue = JobQueue::connect(&redis_url(), &self.queue_name)
            .await
            .unwrap();
        let config = PoolConfig {
            concurrency: 2,
            name: "test-worker".into(),
            shutdown_timeout: Duration::from_secs(5),
            schedule_every,
            reconcile_every: reconcile.map(|r| r.1),
            reconcile_only_client: reconcile.map(|r| r.0),
        };
        let services = std::sync::Arc::new(worker::Services {
            smtp: worker::mail::SmtpServer::from_url(&self.smtp_url).unwrap(),
            send_journal: self.send_journal.clone(),
            links: worker::mail::links::LinkSigner::new(&self.tracking_secret, &self.address),
            send_rate_per_second: 0,
            send_concurrency: 4,
        });
        let (tx, rx) = oneshot::channel::<()>();
        let tenancy = self.tenancy.clone();
        let task = tokio::spawn(async move {
            let shutdown = async move {
                let _ = rx.await;
                Ok(())
            };
            run_pool(tenancy, queue, services, config, shutdown)
                .await
                .unwrap();
        });
        WorkerHandle {
            stop: Some(tx),
            task,
        }
    }

    pub async fn create_client(&self) -> Client {
        let short = ClientShort::parse(&unique("c")).unwrap();
        self.tenancy
            .create_client(&short, &format!("Client {short}"))
            .await
            .unwrap()
    }

    /// A universal user; an administrator may use every client, others only `clients`.
    pub async fn create_user(&self, admin: bool, clients: &[&Client]) -> String {
        let email = format!("{}@example.org", unique("user"));
        let user = NewUniversalUser {
            email: email.clone(),
            password: PASSWORD.into(),
            first_name: "Test".into(),
            last_name: "User".into(),
            admin,
            clients: clients.iter().map(|c| c.short_name.clone()).collect(),
        };
        upsert_universal_user(&self.tenancy, &user).await.unwrap();
        email
    }

    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.http
            .request(method, format!("{}{}", self.address, path))
    }

    pub async fn login(&self, email: &str, password: &str) -> Response {
        self.request(Method::POST, "/auth-api/auth/login")
            .json(&json!({ "username": email, "password": password }))
            .send()
            .await
            .unwrap()
    }

    /// Step-1 token of a user.
    pub async fn basic_token(&self, email: &str) -> String {
        let body: Value = self.login(email, PASSWORD).await.json().await.unwrap();
        body["accessToken"]
            .as_str()
            .expect("login gives a token")
            .to_owned()
    }

    pub async fn client_login(&self, basic_token: &str, client_id: i64) -> Response {
        self.request(Method::POST, "/auth-api/session/client-login")
            .bearer_auth(basic_token)
            .json(&json!({ "clientId": client_id }))
            .send()
            .await
            .unwrap()
    }

    /// A new administrator signed in to `client`.
    pub async fn session(&self, client: &Client) -> Session {
        let email = self.create_user(true, &[]).await;
        self.session_for(&email, client).await
    }

    pub async fn session_for(&self, email: &str, client: &Client) -> Session {
        let basic = self.basic_token(email).await;
        let response = self.client_login(&basic, client.id).await;
        assert_eq!(response.status(), StatusCode::OK);
        let body: Value = response.json().await.unwrap();
        Session {
            token: body["accessToken"].as_str().unwrap().to_owned(),
            client: client.clone(),
        }
    }

    /// A call carrying the token and the client headers, as the web client sends it.
    pub fn api(&self, method: Method, path: &str, session: &Session) -> RequestBuilder {
        self.request(method, path)
            .bearer_auth(&session.token)
            .header("client-short", &session.client.short_name)
            .header("client-id", session.client.id.to_string())
    }

    /// GET as the web client sends it, answered with JSON.
    pub async fn get_json(&self, path: &str, session: &Session) -> Value {
        self.api(Method::GET, path, session)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// Posts `bytes` as the multipart field `file`, as the browser's file picker does.
    pub async fn upload(
        &self,
        path: &str,
        session: &Session,
        filename: &str,
        bytes: Vec<u8>,
    ) -> Response {
        let part = reqwest::multipart::Part::bytes(bytes).file_name(filename.to_owned());
        let form = reqwest::multipart::Form::new().part("file", part);
        self.api(Method::POST, path, session)
            .multipart(form)
            .send()
            .await
            .unwrap()
    }

    /// Uploads and waits for the import job; returns the finished job.
    pub async fn import(
        &self,
        path: &str,
        session: &Session,
        filename: &str,
        bytes: Vec<u8>,
    ) -> Value {
        let response = self.upload(path, session, filename, bytes).await;
        assert_eq!(
            response.status(),
            StatusCode::ACCEPTED,
            "{:?}",
            response.text().await
        );
        let job: Value = response.json().await.unwrap();
        self.wait_for_job(session, job["id"].as_i64().unwrap())
            .await
    }

    pub async fn wait_for_job(&self, session: &Session, id: i64) -> Value {
        // A generous deadline: the test binary runs many apps and workers at once on a small machine.
        for _ in 0..300 {
            let job = self.get_json(&format!("/api/jobs/{id}/"), session).await;
            if job["completed"] == json!(true) {
                return job;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("job {id} did not finish within 60 s");
    }
}

pub async fn json_message(response: Response) -> (StatusCode, String) {
    let status = response.status();
    let body: Value = response.json().await.expect("error bodies are JSON");
    (
        status,
        body["message"]
            .as_str()
            .expect("error bodies have a message")
            .to_owned(),
    )
}

/// A local SMTP sink on a free port; returns the port and what it received.
pub async fn start_sink() -> (u16, Arc<Mutex<Vec<Delivered>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox = Arc::new(Mutex::new(Vec::new()));
    let store = inbox.clone();
    tokio::spawn(serve(
        listener,
        Arc::new(move |m| store.lock().unwrap().push(m)),
    ));
    (port, inbox)
}

/// Undoes quoted-printable (soft breaks and =XX), enough to read codes and URLs out of a delivered body.
pub fn unqp(raw: &str) -> String {
    let joined = raw.replace("=\r\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&joined[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).to_string()
}

/// One request a [`start_http`] server received.
#[derive(Debug, Clone)]
pub struct Captured {
    pub request_line: String,
    pub headers: String,
    pub body: String,
}

/// A minimal HTTP/1.1 server on a free port that answers every request with `status` and `body` (JSON) and
/// keeps what it received: stands in for an SMS gateway or Google's key endpoint, over a real socket.
pub async fn start_http(status: u16, body: String) -> (String, Arc<Mutex<Vec<Captured>>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let store = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                continue;
            };
            let store = store.clone();
            let body = body.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                let (head, rest) = loop {
                    let n = socket.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        break (
                            String::from_utf8_lossy(&buf[..i]).to_string(),
                            buf[i + 4..].to_vec(),
                        );
                    }
                };
                let length = head
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                let mut content = rest;
                while content.len() < length {
                    let n = socket.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    content.extend_from_slice(&chunk[..n]);
                }
                let (request_line, headers) = head.split_once("\r\n").unwrap_or((&head, ""));
                store.lock().unwrap().push(Captured {
                    request_line: request_line.to_owned(),
                    headers: headers.to_owned(),
                    body: String::from_utf8_lossy(&content).to_string(),
                });
                let answer = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    (url, seen)
}

/// The claims of a JWT, read without checking its signature.
pub fn decode_claims(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap()
}

/// The same token, signed with the test apps' token key, but expired two minutes ago.
pub fn expired(token: &str) -> String {
    let mut claims = decode_claims(token);
    claims["exp"] = serde_json::json!(chrono::Utc::now().timestamp() - 120);
    jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(
            api::auth::Keys::derive(JWT_SECRET, None)
                .unwrap()
                .token_signing(),
        ),
    )
    .unwrap()
}
