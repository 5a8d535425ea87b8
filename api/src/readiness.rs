//! `GET /readyz`: whether this process can serve now — the database answers, Redis answers, and every schema
//! holds this build's migrations. 200 when all three hold, 503 otherwise; the body names each check, so a load
//! balancer or an operator sees which one failed. `/healthz` stays the liveness check.
//!
//! The body also says how many workers on the api's queue beat in the last 15 s (`workers`, `liveWorkers`). That
//! check does not make the api unready: the api still serves everything but jobs, and its pages are what tell
//! users that no worker runs; each worker's own `/readyz` fails when its queue poll stalls.

use poem::http::StatusCode;
use poem::web::Data;
use poem::{handler, Response};
use std::sync::Arc;
use std::time::Duration;
use tenancy::Tenancy;

/// A check that takes longer than this counts as failed: a probe must answer even when a dependency hangs.
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// What `/readyz` asks. Redis is reached on a connection of the probe's own, so the answer is about Redis
/// now, not about a connection the process opened at start.
pub struct Readiness {
    tenancy: Tenancy,
    redis: redis::Client,
    /// The job queue whose workers count.
    queue: String,
}

impl Readiness {
    pub fn new(
        tenancy: Tenancy,
        redis_url: &str,
        queue: &str,
    ) -> Result<Arc<Self>, redis::RedisError> {
        Ok(Arc::new(Self {
            tenancy,
            redis: redis::Client::open(redis_url)?,
            queue: queue.to_owned(),
        }))
    }

    /// `None` when the database could not say.
    async fn live_workers(&self) -> Option<i64> {
        let count = jobs::liveness::live_workers(&self.tenancy, &self.queue);
        tokio::time::timeout(CHECK_TIMEOUT, count).await.ok()?.ok()
    }

    async fn redis_answers(&self) -> bool {
        let ping = async {
            let mut conn = self.redis.get_multiplexed_async_connection().await?;
            redis::cmd("PING").query_async::<String>(&mut conn).await
        };
        matches!(tokio::time::timeout(CHECK_TIMEOUT, ping).await, Ok(Ok(_)))
    }

    async fn database_answers(&self) -> bool {
        tokio::time::timeout(CHECK_TIMEOUT, self.tenancy.ping())
            .await
            .unwrap_or(false)
    }

    /// `None` when the database could not say.
    async fn migrations_current(&self) -> Option<bool> {
        match tokio::time::timeout(CHECK_TIMEOUT, self.tenancy.migrations_current()).await {
            Ok(Ok(current)) => Some(current),
            _ => None,
        }
    }
}

#[handler]
pub async fn readyz(Data(readiness): Data<&Arc<Readiness>>) -> Response {
    let (database, redis, migrations, workers) = tokio::join!(
        readiness.database_answers(),
        readiness.redis_answers(),
        readiness.migrations_current(),
        readiness.live_workers()
    );
    let word = |ok: bool| if ok { "ok" } else { "unreachable" };
    let migrations_word = match migrations {
        Some(true) => "ok",
        Some(false) => "pending",
        None => "unknown",
    };
    let workers_word = match workers {
        Some(0) => "none live",
        Some(_) => "ok",
        None => "unknown",
    };
    let ready = database && redis && migrations == Some(true);
    let body = serde_json::json!({
        "ready": ready,
        "checks": {
            "database": word(database),
            "redis": word(redis),
            "migrations": migrations_word,
            "workers": workers_word,
        },
        "liveWorkers": workers.unwrap_or(0),
    });
    Response::builder()
        .status(if ready {
            StatusCode::OK
        } else {
            StatusCode::SERVICE_UNAVAILABLE
        })
        .content_type("application/json")
        .header("Cache-Control", "no-store")
        .body(body.to_string())
}
