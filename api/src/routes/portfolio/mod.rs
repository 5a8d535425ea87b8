//! The agency's portfolio (`GET /api/portfolio`, docs/portfolio.md): one row per client the signed-in universal
//! user may use, and each client's benchmarks against the median of those clients. A client user has no
//! portfolio (403): they never learn another client exists. The rows are the figures the worker keeps per client
//! (`client_portfolio_figures`, refreshed every 5 minutes), read for all granted clients with one query; only a
//! client without a stored row yet (a new one) is read in its own schema during the request, so no client is
//! ever left out.

mod shapes;

pub use shapes::{Portfolio, PortfolioBenchmarks, PortfolioClient, PortfolioFigures};

use super::ApiTags;
use crate::auth::BasicAuth;
use crate::error::ApiError;
use crate::identity::Realm;
use crate::state::{AppState, SharedState};
use chrono::{DateTime, Utc};
use futures_util::stream::{self, StreamExt};
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use store::portfolio::{ClientFigures, Stored};

/// Clients without stored figures read at once: enough to hide each schema's round trips, few enough to leave
/// the pool to other requests.
const PARALLEL_CLIENTS: usize = 6;

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
        // The grants and the granted clients' stored figures in one transaction: a figure is read only for a
        // client id the grants just answered.
        let mut tx = state.tenancy.public().await?;
        let granted = store::accounts::clients_of_universal_user(
            &mut tx,
            session.claims.user.id,
            state.client_auth.as_deref(),
        )
        .await?;
        let ids: Vec<i64> = granted.iter().map(|g| g.0).collect();
        let mut stored = store::portfolio::stored(&mut tx, &ids).await?;
        tx.commit().await?;
        let state: &AppState = &state;
        let rows: Vec<(PortfolioClient, Option<DateTime<Utc>>)> = stream::iter(granted)
            .map(|(id, name, short)| {
                let found = stored.remove(&id);
                async move {
                    let figures = match found {
                        Some(Stored {
                            figures,
                            computed_at,
                        }) => Some((figures, computed_at)),
                        None => read_now(state, id).await,
                    };
                    let at = figures.as_ref().map(|f| f.1);
                    let client = PortfolioClient {
                        id,
                        name,
                        short,
                        figures: figures.map(|f| PortfolioFigures::from(f.0)),
                    };
                    (client, at)
                }
            })
            .buffered(PARALLEL_CLIENTS)
            .collect()
            .await;
        let generated_at = rows
            .iter()
            .filter_map(|r| r.1)
            .min()
            .unwrap_or_else(Utc::now);
        let clients: Vec<PortfolioClient> = rows.into_iter().map(|r| r.0).collect();
        Ok(Json(Portfolio {
            benchmarks: PortfolioBenchmarks::of(&clients),
            clients,
            generated_at,
        }))
    }
}

/// A client without stored figures (created since the worker's last pass, or the worker is not running): its
/// figures read now in its own schema, and stored so the next request reads them from the table. `None` when they
/// cannot be read just now: the client keeps its row without figures (the others still show).
async fn read_now(state: &AppState, id: i64) -> Option<(ClientFigures, DateTime<Utc>)> {
    let computed_at = Utc::now();
    let read: Result<ClientFigures, ApiError> = async {
        let client = state
            .tenancy
            .enabled_client(id)
            .await?
            .ok_or_else(|| ApiError::NotFound("Client not found".to_owned()))?;
        crate::auth::in_client(&state.tenancy, &client, async |tx| {
            Ok(
                store::portfolio::client_figures(tx, store::portfolio::REQUEST_STATEMENT_TIMEOUT)
                    .await?,
            )
        })
        .await
    }
    .await;
    let figures = match read {
        Ok(f) => f,
        Err(e) => {
            tracing::warn!(client = id, error = %telemetry::Chain(&e), "portfolio figures");
            return None;
        }
    };
    let kept = async {
        let mut tx = state.tenancy.public().await?;
        store::portfolio::store(&mut tx, id, &figures, computed_at).await?;
        tx.commit().await?;
        Ok::<_, ApiError>(())
    }
    .await;
    if let Err(e) = kept {
        tracing::warn!(client = id, error = %telemetry::Chain(&e), "portfolio figures not stored");
    }
    Some((figures, computed_at))
}
