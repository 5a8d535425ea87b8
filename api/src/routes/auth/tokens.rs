//! Refreshing and ending a session.

use super::dto::*;
use crate::auth::UserClaim;
use crate::error::ApiError;
use crate::identity::sign_in::{may_use_client, TokenPair};
use crate::identity::{self, sessions, Account, Realm};
use crate::routes::ApiTags;
use crate::state::SharedState;
use poem::web::Data;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;

pub struct TokensApi;

#[OpenApi(tag = "ApiTags::Auth")]
impl TokensApi {
    /// Exchanges a refresh token for a new access token and a new refresh token; the old one stops working. An old
    /// token presented again (a copy) ends the session and every session a client login made from it.
    #[oai(
        path = "/auth-api/auth/refresh",
        method = "post",
        operation_id = "refreshToken"
    )]
    async fn refresh(
        &self,
        state: Data<&SharedState>,
        body: Json<RefreshRequest>,
    ) -> Result<Json<TokenPair>, ApiError> {
        let expired = || ApiError::Unauthorized("Your session has ended; log in again".to_owned());
        let (client_id, secret) = sessions::decode(&body.0.refresh_token).ok_or_else(expired)?;
        let realm = match client_id {
            None => Realm::Universal,
            Some(id) => Realm::Client(
                state
                    .tenancy
                    .enabled_client(id)
                    .await?
                    .ok_or_else(expired)?,
            ),
        };
        let mut tx = realm.begin(&state.tenancy).await?;
        let Some((session, next)) = sessions::rotate(&mut tx, &state.hasher, secret).await? else {
            if let Some(ended) =
                sessions::end_family_of_spent(&mut tx, &state.hasher, secret).await?
            {
                tracing::warn!(
                    sessions = ended,
                    "a spent refresh token was presented again; its sessions ended"
                );
            }
            tx.commit().await?;
            return Err(expired());
        };
        let account = identity::find_by_id(&mut tx, &realm, session.user_id)
            .await?
            .filter(Account::may_sign_in)
            .ok_or_else(expired)?;
        tx.commit().await?;
        let acting = match (&realm, session.client_id) {
            (Realm::Universal, Some(id)) => {
                let client = state
                    .tenancy
                    .enabled_client(id)
                    .await?
                    .ok_or_else(expired)?;
                if !may_use_client(&state, account.id, client.id).await? {
                    return Err(expired());
                }
                Some(client)
            }
            (Realm::Client(c), _) => Some(c.clone()),
            (Realm::Universal, None) => None,
        };
        let access = state
            .tokens
            .issue(
                UserClaim {
                    id: account.id,
                    email: account.email,
                    kind: realm.kind(),
                },
                acting.map(|c| (c.id, c.short_name)),
                session.id,
            )
            .map_err(ApiError::internal)?;
        Ok(Json(TokenPair {
            access_token: access,
            refresh_token: sessions::encode(&realm, &next),
        }))
    }

    /// Ends the session: its refresh token and every access token issued for it stop working.
    #[oai(
        path = "/auth-api/auth/logout",
        method = "post",
        operation_id = "logout"
    )]
    async fn logout(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<LogoutRequest>,
    ) -> Result<crate::routes::Deleted, ApiError> {
        if let Some((client_id, secret)) =
            body.0.refresh_token.as_deref().and_then(sessions::decode)
        {
            let realm = match client_id {
                None => Some(Realm::Universal),
                Some(id) => state.tenancy.enabled_client(id).await?.map(Realm::Client),
            };
            if let Some(realm) = realm {
                let mut tx = realm.begin(&state.tenancy).await?;
                sessions::revoke_by_token(&mut tx, &state.hasher, secret).await?;
                tx.commit().await?;
            }
        }
        // The access token, when sent, names its session: end that too.
        let bearer = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if let Some(claims) = bearer.and_then(|t| state.tokens.verify(t).ok()) {
            if let Ok(realm) = crate::auth::realm_of(&state, &claims).await {
                let mut tx = realm.begin(&state.tenancy).await?;
                store::accounts::revoke_session(&mut tx, claims.sid, claims.user.id).await?;
                tx.commit().await?;
            }
        }
        Ok(crate::routes::Deleted::Deleted)
    }
}
