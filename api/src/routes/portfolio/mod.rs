//! The agency's portfolio (`GET /api/portfolio`, docs/portfolio.md): one row per client the signed-in universal
//! user may use, and each client's benchmarks against the median of those clients. A client user has no
//! portfolio (403): they never learn another client exists. Each client's row is read in its own schema by
//! `store::portfolio::client_figures`, a few clients at a time, and the whole answer is kept briefly per set of
//! clients, so a page left open or reloaded does not read every schema again.

mod shapes;

pub use shapes::{Portfolio, PortfolioBenchmarks, PortfolioClient, PortfolioFigures};

use super::ApiTags;
use crate::auth::BasicAuth;
use crate::error::ApiError;
use crate::identity::Realm;
use crate::state::{AppState, SharedState};
use futures_util::stream::{self, StreamExt};
use moka::sync::Cache;
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use std::sync::{Arc, LazyLock};
use std::time::Duration;
use tenancy::Client;

/// How long an answer is reused for the same set of clients: figures move by the minute at most, and an agency
/// user flicking between the portfolio and a client should not read 200 schemas each time.
const CACHE_TTL: Duration = Duration::from_secs(60);
/// Clients read at once: enough to hide each schema's round trips, few enough to leave the pool to other requests.
const PARALLEL_CLIENTS: usize = 6;

static CACHE: LazyLock<Cache<Vec<i64>, Arc<Portfolio>>> = LazyLock::new(|| {
    Cache::builder()
        .time_to_live(CACHE_TTL)
        .max_capacity(1_000)
        .build()
});

pub struct PortfolioApi;

#[OpenApi(tag = "ApiTags::Reports")]
impl PortfolioApi {
    /// Every client the signed-in agency user may use, with this month's and the year's net against goal and
    /// projection, donors, list, e-mail and health figures, a 12-month net series, and the benchmarks against the
    /// median of those clients. Client users have no portfolio (403).
    #[oai(path = "/api/portfolio", method = "get", operation_id = "getPortfolio")]
    async fn portfolio(
        &self,
        state: Data<&SharedState>,
        auth: BasicAuth,
    ) -> Result<Json<Portfolio>, ApiError> {
        let session = auth.0;
        if !matches!(session.realm, Realm::Universal) {
            return Err(ApiError::Forbidden(
                "The portfolio is for agency staff".to_owned(),
            ));
        }
        let mut tx = state.tenancy.public().await?;
        let granted = store::accounts::clients_of_universal_user(
            &mut tx,
            session.claims.user.id,
            state.client_auth.as_deref(),
        )
        .await?;
        tx.commit().await?;
        let mut ids: Vec<i64> = granted.iter().map(|g| g.0).collect();
        ids.sort_unstable();
        if let Some(hit) = CACHE.get(&ids) {
            return Ok(Json(Portfolio::clone(&hit)));
        }
        let portfolio = Arc::new(read(&state, &ids).await?);
        CACHE.insert(ids, portfolio.clone());
        Ok(Json(Portfolio::clone(&portfolio)))
    }
}

/// Reads the clients' rows a few at a time, in name order. A client whose figures cannot be read keeps its row
/// without figures (the others still show).
async fn read(state: &AppState, ids: &[i64]) -> Result<Portfolio, ApiError> {
    let mut clients: Vec<Client> = state
        .tenancy
        .list_clients()
        .await?
        .into_iter()
        .filter(|c| c.enabled && ids.binary_search(&c.id).is_ok())
        .collect();
    clients.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    let rows: Vec<PortfolioClient> = stream::iter(clients)
        .map(|client| async move {
            let figures = crate::auth::in_client(&state.tenancy, &client, async |tx| {
                Ok(store::portfolio::client_figures(tx).await?)
            })
            .await;
            let figures = match figures {
                Ok(f) => Some(PortfolioFigures::from(f)),
                Err(e) => {
                    tracing::warn!(client = client.id, error = %telemetry::Chain(&e), "portfolio figures");
                    None
                }
            };
            PortfolioClient {
                id: client.id,
                name: client.name,
                short: client.short_name,
                figures,
            }
        })
        .buffered(PARALLEL_CLIENTS)
        .collect()
        .await;
    Ok(Portfolio {
        benchmarks: PortfolioBenchmarks::of(&rows),
        clients: rows,
        generated_at: chrono::Utc::now(),
    })
}
