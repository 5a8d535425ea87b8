//! The signed-in user's own name, phone, two-factor method and password.

use super::{account, actor, me, Me};
use crate::auth::{verify_password, BasicAuth};
use crate::error::ApiError;
use crate::identity::limits::{Action, Attempt};
use crate::identity::sign_in::address;
use crate::identity::{self, audit, sessions, PASSWORD_RULE};
use crate::routes::ApiTags;
use crate::state::SharedState;
use domain::TwoFactorMethod;
use poem::web::Data;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct ProfileApi;

#[derive(Debug, Object)]
pub struct ProfileUpdate {
    #[oai(rename = "firstName", validator(max_length = 100))]
    pub first_name: String,
    #[oai(rename = "lastName", validator(max_length = 100))]
    pub last_name: String,
    #[oai(validator(max_length = 20))]
    pub phone: String,
    /// email, phone or app.
    #[oai(rename = "twoFactorMethod", validator(max_length = 10))]
    pub two_factor_method: String,
}

#[derive(Debug, Object)]
pub struct PasswordChange {
    #[oai(rename = "currentPassword", validator(max_length = 1024))]
    pub current_password: String,
    #[oai(rename = "newPassword", validator(max_length = 1024))]
    pub new_password: String,
}

#[OpenApi(tag = "ApiTags::Auth")]
impl ProfileApi {
    /// Updates the signed-in user's name, phone and two-factor method.
    #[oai(
        path = "/auth-api/session/profile",
        method = "patch",
        operation_id = "updateProfile"
    )]
    async fn update_profile(
        &self,
        state: Data<&SharedState>,
        auth: BasicAuth,
        body: Json<ProfileUpdate>,
    ) -> Result<Json<Me>, ApiError> {
        let session = auth.0;
        let body = body.0;
        let phone = body.phone.trim().to_owned();
        if !identity::is_valid_phone(&phone) {
            return Err(ApiError::BadRequest(
                "Phone number should include only digits".to_owned(),
            ));
        }
        let current = account(&state, &session.realm, session.claims.user.id).await?;
        let method = match TwoFactorMethod::parse(&body.two_factor_method) {
            Some(TwoFactorMethod::Email) => TwoFactorMethod::Email,
            Some(TwoFactorMethod::Phone) if !phone.is_empty() => TwoFactorMethod::Phone,
            Some(TwoFactorMethod::Phone) => {
                return Err(ApiError::BadRequest(
                    "A phone number is needed for the phone method".to_owned(),
                ))
            }
            Some(TwoFactorMethod::App) if current.totp_secret.is_some() => TwoFactorMethod::App,
            Some(TwoFactorMethod::App) => {
                return Err(ApiError::BadRequest(
                    "Set up an authenticator app first".to_owned(),
                ))
            }
            Some(TwoFactorMethod::None) if current.two_factor_method == TwoFactorMethod::None => {
                TwoFactorMethod::None
            }
            _ => {
                return Err(ApiError::BadRequest(
                    "Choose email, phone or app".to_owned(),
                ))
            }
        };
        let mut tx = session.realm.begin(&state.tenancy).await?;
        let profile = store::accounts::Profile {
            first_name: body.first_name.trim(),
            last_name: body.last_name.trim(),
            phone: &phone,
            two_factor_method: method.as_str(),
        };
        store::accounts::set_profile(&mut tx, session.realm.users(), current.id, &profile).await?;
        tx.commit().await?;
        Ok(Json(me(&state, &session).await?))
    }

    /// Changes the signed-in user's password. Their other sessions end.
    #[oai(
        path = "/auth-api/session/password",
        method = "post",
        operation_id = "changePassword"
    )]
    async fn change_password(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: BasicAuth,
        body: Json<PasswordChange>,
    ) -> Result<crate::routes::Deleted, ApiError> {
        let session = auth.0;
        let body = body.0;
        let address = address(req);
        // A wrong current password is a wrong password: it counts as a failed sign-in.
        let attempt = Attempt {
            action: Action::Login,
            email: Some(&session.claims.user.email),
            user: Some(session.claims.user.id),
            address: &address,
        };
        let standing = state.limits.check(attempt).await?;
        if !identity::is_strong_password(&body.new_password) {
            return Err(ApiError::BadRequest(PASSWORD_RULE.to_owned()));
        }
        let current = account(&state, &session.realm, session.claims.user.id).await?;
        let stored = current.password_hash.clone();
        let (old, new) = (body.current_password, body.new_password);
        let (ok, hash) = tokio::task::spawn_blocking(move || {
            (
                verify_password(&old, Some(&stored)),
                crate::auth::hash_password(&new),
            )
        })
        .await
        .map_err(ApiError::internal)?;
        if !ok {
            state.limits.failed(attempt).await?;
            return Err(standing.wrong(ApiError::BadRequest(
                "Current password is incorrect".to_owned(),
            )));
        }
        let hash = hash.map_err(ApiError::internal)?;
        let mut tx = session.realm.begin(&state.tenancy).await?;
        store::accounts::set_password(&mut tx, session.realm.users(), current.id, &hash).await?;
        sessions::revoke_all(&mut tx, current.id, Some(session.claims.sid)).await?;
        audit::record(
            &mut tx,
            &actor(&session.realm, &current, address),
            "password changed",
            serde_json::json!({}),
        )
        .await?;
        tx.commit().await?;
        Ok(crate::routes::Deleted::Deleted)
    }
}
