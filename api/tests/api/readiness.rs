//! `GET /readyz` (issue 18): 200 when the database, Redis and every schema's migrations hold, 503 naming the
//! failing check otherwise. `/healthz` stays the liveness check and is not asked here.
use crate::helpers::*;
use api::readiness::{readyz, Readiness};
use poem::listener::{Acceptor, Listener};
use poem::EndpointExt;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use tenancy::Tenancy;
use tokio::task::JoinHandle;

async fn readyz_of(address: &str) -> (StatusCode, Option<String>, Value) {
    let response = reqwest::get(format!("{address}/readyz")).await.unwrap();
    let status = response.status();
    let cache = response
        .headers()
        .get("cache-control")
        .map(|v| v.to_str().unwrap().to_owned());
    (status, cache, response.json().await.unwrap())
}

#[tokio::test]
async fn ready_when_the_database_redis_and_every_schema_are_current() {
    let app = spawn_app().await;
    app.create_client().await;
    let (status, cache, body) = readyz_of(&app.address).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(cache.as_deref(), Some("no-store"));
    assert_eq!(
        body,
        json!({"ready": true, "checks": {"database": "ok", "redis": "ok", "migrations": "ok", "workers": "none live"}, "liveWorkers": 0})
    );
}

/// A TCP door in front of the test Redis: the app reaches Redis through it until `close`, after which nothing
/// answers on its port — Redis gone while the api runs.
struct RedisDoor {
    url: String,
    accept: JoinHandle<()>,
    open: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl RedisDoor {
    async fn open() -> Self {
        let target = redis_url()
            .trim_start_matches("redis://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("redis://{}", listener.local_addr().unwrap());
        let open: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let tasks = open.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let target = target.clone();
                tasks.lock().unwrap().push(tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                }));
            }
        });
        Self { url, accept, open }
    }

    /// Stops listening and drops every connection made through the door.
    fn close(&self) {
        self.accept.abort();
        for task in self.open.lock().unwrap().drain(..) {
            task.abort();
        }
    }
}

#[tokio::test]
async fn not_ready_naming_redis_when_redis_stops_answering() {
    let door = RedisDoor::open().await;
    let redis = door.url.clone();
    let app = spawn_app_with(|s| s.redis_url = redis).await;
    let (status, _, body) = readyz_of(&app.address).await;
    assert_eq!(status, StatusCode::OK, "through the open door: {body}");

    door.close();
    let body = wait_until("readyz 503", std::time::Duration::from_secs(30), || async {
        let (status, _, body) = readyz_of(&app.address).await;
        (status == StatusCode::SERVICE_UNAVAILABLE).then_some(body)
    })
    .await;
    assert_eq!(
        body,
        json!({"ready": false, "checks": {"database": "ok", "redis": "unreachable", "migrations": "ok", "workers": "none live"}, "liveWorkers": 0})
    );
}

/// A process of a build that knows one more tenant migration than the schemas hold (a newer build whose
/// migrations have not run yet): the real readiness check, served on a port of its own, says which check fails.
#[tokio::test]
async fn not_ready_naming_migrations_when_a_tenant_migration_is_pending() {
    let app = spawn_app().await;
    app.create_client().await;
    let dir = std::env::temp_dir().join(unique("compass-readyz-migrations-"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("20261125003999_readiness_probe.sql"),
        "alter table contacts add column readiness_probe int;\n",
    )
    .unwrap();
    let mut newer = Tenancy::connect(&database_url(), 2).await.unwrap();
    newer.add_tenant_migrations(&dir).await.unwrap();
    let readiness = Readiness::new(newer, &redis_url(), &unique("compass-readyz-queue-")).unwrap();
    let acceptor = poem::listener::TcpListener::bind("127.0.0.1:0")
        .into_acceptor()
        .await
        .unwrap();
    let port = acceptor.local_addr()[0].as_socket_addr().unwrap().port();
    let route = poem::Route::new().at("/readyz", poem::get(readyz).data(readiness));
    tokio::spawn(poem::Server::new_with_acceptor(acceptor).run(route));

    let (status, _, body) = readyz_of(&format!("http://127.0.0.1:{port}")).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(
        body,
        json!({"ready": false, "checks": {"database": "ok", "redis": "ok", "migrations": "pending", "workers": "none live"}, "liveWorkers": 0})
    );
    // The app that migrated at start knows no such migration, and stays ready.
    let (status, _, body) = readyz_of(&app.address).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 28: the api says how many workers on its queue beat in the last 15 s, and stays ready without one (it
/// serves everything but jobs, and its pages tell users that no worker runs).
#[tokio::test]
async fn readyz_counts_the_workers_that_beat_in_the_last_15_seconds() {
    let app = spawn_app().await;
    let (status, _, body) = readyz_of(&app.address).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["checks"]["workers"], "none live");
    assert_eq!(body["liveWorkers"], 0);

    let worker = app.start_worker().await;
    let body = wait_until(
        "a live worker",
        std::time::Duration::from_secs(30),
        || async {
            let (_, _, body) = readyz_of(&app.address).await;
            (body["liveWorkers"] == 1).then_some(body)
        },
    )
    .await;
    assert_eq!(body["checks"]["workers"], "ok");

    // Its beat is older than 15 s (backdated, as a worker that stopped would leave it): none is live.
    worker.kill();
    let mut tx = app.tenancy.public().await.unwrap();
    sqlx::query("update workers set beat = now() - interval '16 seconds' where queue = $1")
        .bind(&app.queue_name)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let (status, _, body) = readyz_of(&app.address).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["checks"]["workers"], "none live");
    assert_eq!(body["liveWorkers"], 0);
}
