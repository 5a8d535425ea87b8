//! Enrolling an authenticator app for two-factor sign-in.

use super::{account, actor, me, Me};
use crate::auth::BasicAuth;
use crate::error::ApiError;
use crate::identity::limits::Action;
use crate::identity::sign_in::address;
use crate::identity::{audit, totp};
use crate::routes::ApiTags;
use crate::state::SharedState;
use poem::web::Data;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct AuthenticatorApi;

/// What an authenticator app needs to enrol.
#[derive(Debug, Object)]
pub struct AuthenticatorEnrolment {
    /// Base32 secret, for typing in by hand.
    pub secret: String,
    #[oai(rename = "otpauthUri")]
    pub otpauth_uri: String,
    /// The QR code of `otpauthUri` as an SVG document.
    #[oai(rename = "qrSvg")]
    pub qr_svg: String,
}

#[derive(Debug, Object)]
pub struct AuthenticatorConfirm {
    #[oai(validator(max_length = 16))]
    pub code: String,
}

#[OpenApi(tag = "ApiTags::Auth")]
impl AuthenticatorApi {
    /// Starts enrolling an authenticator app: a new secret, its otpauth address and QR code. The app is used for
    /// sign-in only after a code from it is confirmed.
    #[oai(
        path = "/auth-api/session/authenticator",
        method = "post",
        operation_id = "startAuthenticatorEnrolment"
    )]
    async fn start_authenticator(
        &self,
        state: Data<&SharedState>,
        auth: BasicAuth,
    ) -> Result<Json<AuthenticatorEnrolment>, ApiError> {
        let session = auth.0;
        let secret = totp::new_secret();
        let sealed = state
            .totp
            .seal(
                &secret,
                &totp::owner(&session.realm, session.claims.user.id),
            )
            .map_err(ApiError::internal)?;
        let uri = totp::otpauth_uri(&secret, &session.claims.user.email)
            .ok_or_else(|| ApiError::internal("could not build the otpauth address"))?;
        let qr_svg =
            totp::qr_svg(&uri).ok_or_else(|| ApiError::internal("could not draw the QR code"))?;
        let mut tx = session.realm.begin(&state.tenancy).await?;
        let users = session.realm.users();
        store::accounts::set_totp_pending_secret(&mut tx, users, session.claims.user.id, &sealed)
            .await?;
        tx.commit().await?;
        Ok(Json(AuthenticatorEnrolment {
            secret,
            otpauth_uri: uri,
            qr_svg,
        }))
    }

    /// Confirms enrolment with a code from the app; the app becomes the two-factor method.
    #[oai(
        path = "/auth-api/session/authenticator/confirm",
        method = "post",
        operation_id = "confirmAuthenticator"
    )]
    async fn confirm_authenticator(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: BasicAuth,
        body: Json<AuthenticatorConfirm>,
    ) -> Result<Json<Me>, ApiError> {
        let session = auth.0;
        state
            .limits
            .hit(
                Action::Code,
                Some(&session.claims.user.email),
                &address(req),
            )
            .await?;
        let current = account(&state, &session.realm, session.claims.user.id).await?;
        let pending = current
            .totp_pending_secret
            .as_deref()
            .and_then(|sealed| {
                state
                    .totp
                    .open(sealed, &totp::owner(&session.realm, current.id))
            })
            .ok_or_else(|| {
                ApiError::BadRequest("Start the authenticator set-up first".to_owned())
            })?;
        let now = chrono::Utc::now().timestamp().max(0) as u64;
        let step = totp::accepted_step(&pending, body.0.code.trim(), 0, now)
            .ok_or_else(|| ApiError::BadRequest("Invalid passcode".to_owned()))?;
        let mut tx = session.realm.begin(&state.tenancy).await?;
        store::accounts::confirm_totp(&mut tx, session.realm.users(), current.id, step).await?;
        audit::record(
            &mut tx,
            &actor(&session.realm, &current, address(req)),
            "authenticator enrolled",
            serde_json::json!({}),
        )
        .await?;
        tx.commit().await?;
        Ok(Json(me(&state, &session).await?))
    }
}
