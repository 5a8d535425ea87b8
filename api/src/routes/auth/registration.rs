//! Registering a client user and verifying the address.

use super::dto::*;
use super::*;
use crate::error::ApiError;
use crate::identity::challenges::{self, Purpose};
use crate::identity::limits::Action;
use crate::identity::sign_in::{address, requested_client};
use crate::identity::{self, audit, Realm, PASSWORD_RULE};
use crate::routes::ApiTags;
use crate::state::SharedState;
use domain::TwoFactorMethod;
use poem::web::Data;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;

pub struct RegistrationApi;

/// Tells the owner of an existing account that someone tried to register its address: the answer told them the
/// account exists, and the owner should know who is asking.
fn tell_owner(state: &SharedState, realm: Realm, to: String) {
    let notices = state.notices.clone();
    tokio::spawn(async move {
        if let Err(e) = notices.registration_attempt(&realm, &to).await {
            tracing::warn!(error = %telemetry::Chain(&e), "registration attempt e-mail failed");
        }
    });
}

#[OpenApi(tag = "ApiTags::Auth")]
impl RegistrationApi {
    /// Registers a client user. The account needs its e-mail verified (a link is mailed) and then an
    /// administrator to enable it.
    #[oai(
        path = "/auth-api/auth/register",
        method = "post",
        operation_id = "register"
    )]
    async fn register(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<RegisterRequest>,
    ) -> Result<Json<RegisterResponse>, ApiError> {
        let body = body.0;
        let address = address(req);
        state.limits.hit(Action::Register, None, &address).await?;
        let email = domain::Email::parse(&body.email)
            .map_err(|_| ApiError::BadRequest("Not a valid email".to_owned()))?
            .into_string();
        state.limits.registration(&email, &address).await?;
        if !identity::is_strong_password(&body.password) {
            return Err(ApiError::BadRequest(PASSWORD_RULE.to_owned()));
        }
        let phone = body.phone.trim().to_owned();
        if !identity::is_valid_phone(&phone) {
            return Err(ApiError::BadRequest(
                "Phone number should include only digits".to_owned(),
            ));
        }
        let method = match body.two_factor_method.as_str() {
            "" => TwoFactorMethod::Email,
            raw => match TwoFactorMethod::parse(raw) {
                Some(TwoFactorMethod::Email) => TwoFactorMethod::Email,
                Some(TwoFactorMethod::Phone) if !phone.is_empty() => TwoFactorMethod::Phone,
                Some(TwoFactorMethod::Phone) => {
                    return Err(ApiError::BadRequest(
                        "A phone number is needed for the phone method".to_owned(),
                    ))
                }
                _ => return Err(ApiError::BadRequest("Choose phone or email".to_owned())),
            },
        };
        let Some(client) = requested_client(&state, body.client.as_deref()).await? else {
            return Err(ApiError::BadRequest(
                "Registration needs a client: use the registration link of your organisation"
                    .to_owned(),
            ));
        };
        let realm = Realm::Client(client);
        let password = body.password;
        let hash = tokio::task::spawn_blocking(move || crate::auth::hash_password(&password))
            .await
            .map_err(ApiError::internal)?
            .map_err(ApiError::internal)?;
        // Agency staff sign in to clients as themselves: their address cannot become a client user, which would
        // shadow them. The answer is the one an existing account gets, and nothing is sent.
        let mut public = state.tenancy.public().await?;
        let staff = identity::find_by_email(&mut public, &Realm::Universal, &email).await?;
        public.commit().await?;
        if let Some(staff) = staff {
            tell_owner(&state, Realm::Universal, staff.email);
            return Ok(Json(RegisterResponse {
                status: "duplicate".to_owned(),
                duplicate: staff.enabled,
            }));
        }
        let mut tx = realm.begin(&state.tenancy).await?;
        let profile = store::accounts::Profile {
            first_name: body.firstname.trim(),
            last_name: body.lastname.trim(),
            phone: &phone,
            two_factor_method: method.as_str(),
        };
        let created = store::accounts::insert_client_user(&mut tx, &email, &hash, &profile).await?;
        let (user_id, response) = match created {
            Some(id) => (
                id,
                RegisterResponse {
                    status: "pending".to_owned(),
                    duplicate: false,
                },
            ),
            None => {
                let existing = identity::find_by_email(&mut tx, &realm, &email)
                    .await?
                    .ok_or_else(|| ApiError::internal("registered user vanished"))?;
                let response = RegisterResponse {
                    status: "duplicate".to_owned(),
                    duplicate: existing.enabled,
                };
                if existing.email_verified {
                    tx.commit().await?;
                    tell_owner(&state, realm, existing.email);
                    return Ok(Json(response));
                }
                // Not verified yet: send the link again.
                (existing.id, response)
            }
        };
        let token = identity::secrets::random_token();
        challenges::open(
            &mut tx,
            &state.hasher,
            user_id,
            Purpose::VerifyEmail,
            None,
            Some(&token),
        )
        .await?;
        let actor = audit::Actor {
            kind: domain::UserKind::Client.as_str(),
            id: Some(user_id),
            email: email.clone(),
            address,
        };
        audit::record(&mut tx, &actor, "register", serde_json::json!({})).await?;
        tx.commit().await?;
        let notices = state.notices.clone();
        tokio::spawn(async move {
            if let Err(e) = notices.verify_email(&realm, &email, &token).await {
                tracing::warn!(error = %telemetry::Chain(&e), "verification e-mail failed");
            }
        });
        Ok(Json(response))
    }

    /// The link in the verification e-mail: marks the address verified.
    #[oai(
        path = "/auth-api/auth/finish-registration",
        method = "post",
        operation_id = "finishRegistration"
    )]
    async fn finish_registration(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<EmailToken>,
    ) -> Result<Json<StatusResponse>, ApiError> {
        let email = domain::Email::normalise(&body.0.email);
        state
            .limits
            .hit(Action::Reset, Some(&email), &address(req))
            .await?;
        let Some(client) = requested_client(&state, body.0.client.as_deref()).await? else {
            return Err(invalid_link());
        };
        let realm = Realm::Client(client);
        let mut tx = realm.begin(&state.tenancy).await?;
        let account = identity::find_by_email(&mut tx, &realm, &email)
            .await?
            .ok_or_else(invalid_link)?;
        if account.email_verified {
            return Ok(Json(StatusResponse {
                status: "verified".to_owned(),
            }));
        }
        let Some(challenge) = challenges::check_secret(
            &mut tx,
            &state.hasher,
            account.id,
            Purpose::VerifyEmail,
            &body.0.token,
        )
        .await?
        else {
            tx.commit().await?;
            return Err(invalid_link());
        };
        challenges::consume(&mut tx, challenge).await?;
        store::accounts::mark_email_verified(&mut tx, account.id).await?;
        tx.commit().await?;
        Ok(Json(StatusResponse {
            status: "verified".to_owned(),
        }))
    }
}
