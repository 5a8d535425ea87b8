//! The steps every way of signing in shares: where the request comes from, which client it is for, whose account
//! an e-mail names, whether staff may act for a client, and opening the session with its tokens.

use crate::auth::{in_client, UserClaim};
use crate::error::ApiError;
use crate::identity::{self, audit, sessions, Account, Realm};
use crate::state::{AppState, SharedState};
use poem::Request;
use poem_openapi::Object;
use tenancy::Client;

/// A new access token and the refresh token that replaces the one used.
#[derive(Debug, Object)]
pub struct TokenPair {
    #[oai(rename = "accessToken")]
    pub access_token: String,
    #[oai(rename = "refreshToken")]
    pub refresh_token: String,
}

/// The client's address: the peer's, or the one a trusted proxy forwards (`TRUSTED_PROXIES`).
pub(crate) fn address(req: &Request) -> String {
    let peer = req.remote_addr().as_socket_addr().map(|a| a.ip());
    let forwarded = req
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok());
    match req.data::<SharedState>() {
        Some(state) => state.trusted_proxies.client_address(peer, forwarded),
        None => peer.map(|ip| ip.to_string()).unwrap_or_default(),
    }
}

/// The client a public auth request is for: the client-auth client when the server has one (a request naming
/// another is refused), else the one named, else none (universal users).
pub(crate) async fn requested_client(
    state: &AppState,
    named: Option<&str>,
) -> Result<Option<Client>, ApiError> {
    let named = named.map(str::trim).filter(|s| !s.is_empty());
    let short = match (&state.client_auth, named) {
        (Some(forced), Some(named)) if forced != named => {
            return Err(ApiError::BadRequest("Unknown client".to_owned()))
        }
        (Some(forced), _) => Some(forced.as_str()),
        (None, named) => named,
    };
    match short {
        None => Ok(None),
        Some(short) => state
            .tenancy
            .enabled_client_by_short(short)
            .await?
            .map(Some)
            .ok_or_else(|| ApiError::BadRequest("Unknown client".to_owned())),
    }
}

/// Whose account an e-mail names for a request about `client`: the universal user when there is one (agency
/// staff stay themselves in every client, even if a client user with their address was registered before that
/// was refused), otherwise that client's own user. Returns the realm and the account, if any.
pub(crate) async fn locate(
    state: &AppState,
    client: Option<&Client>,
    email: &str,
) -> Result<(Realm, Option<Account>), ApiError> {
    let mut tx = state.tenancy.public().await?;
    let universal = identity::find_by_email(&mut tx, &Realm::Universal, email).await?;
    tx.commit().await?;
    if universal.is_some() {
        return Ok((Realm::Universal, universal));
    }
    let Some(client) = client else {
        return Ok((Realm::Universal, None));
    };
    let realm = Realm::Client(client.clone());
    let mut tx = realm.begin(&state.tenancy).await?;
    let found = identity::find_by_email(&mut tx, &realm, email).await?;
    tx.commit().await?;
    Ok((realm, found))
}

/// Whether a universal user may act for a client: administrators everywhere, others where granted.
pub async fn may_use_client(
    state: &AppState,
    user_id: i64,
    client_id: i64,
) -> Result<bool, ApiError> {
    let mut tx = state.tenancy.public().await?;
    let allowed = store::access::may_use_client(&mut tx, user_id, client_id).await?;
    tx.commit().await?;
    Ok(allowed)
}

/// Opens a session and issues its tokens. `acting` is the client the session acts for: a client user's own
/// client, or the client a universal user signed in to directly. `replaces` is the session a client login ends:
/// the new one joins its family. Records the sign-in in that client's audit trail (or the public one).
pub(crate) async fn open_session(
    state: &AppState,
    realm: &Realm,
    account: &Account,
    acting: Option<&Client>,
    replaces: Option<i64>,
    how: &str,
    address: &str,
) -> Result<TokenPair, ApiError> {
    let session_client = match realm {
        Realm::Universal => acting.map(|c| c.id),
        Realm::Client(c) => Some(c.id),
    };
    let mut tx = realm.begin(&state.tenancy).await?;
    let (sid, secret) = sessions::open(&mut tx, &state.hasher, account.id, session_client).await?;
    if let Some(old) = replaces {
        sessions::hand_over(&mut tx, old, sid).await?;
    }
    let actor = audit::Actor {
        kind: realm.kind().as_str(),
        id: Some(account.id),
        email: account.email.clone(),
        address: address.to_owned(),
    };
    if realm.client().is_some() || acting.is_none() {
        audit::record(
            &mut tx,
            &actor,
            "sign in",
            serde_json::json!({ "method": how }),
        )
        .await?;
    }
    tx.commit().await?;
    if let (Realm::Universal, Some(client)) = (realm, acting) {
        in_client(&state.tenancy, client, async |tx| {
            let detail = serde_json::json!({ "method": how });
            Ok(audit::record(tx, &actor, "sign in", detail).await?)
        })
        .await?;
    }
    let client = match realm {
        Realm::Client(c) => Some(c),
        Realm::Universal => acting,
    };
    let access = state
        .tokens
        .issue(
            UserClaim {
                id: account.id,
                email: account.email.clone(),
                kind: realm.kind(),
            },
            client.map(|c| (c.id, c.short_name.clone())),
            sid,
        )
        .map_err(ApiError::internal)?;
    tracing::info!(
        user = account.id,
        kind = realm.kind().as_str(),
        how,
        "signed in"
    );
    Ok(TokenPair {
        access_token: access,
        refresh_token: sessions::encode(realm, &secret),
    })
}
