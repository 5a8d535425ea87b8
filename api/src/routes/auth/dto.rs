//! The bodies of the sign-in, registration and reset operations.

use poem_openapi::Object;

/// What the sign-in pages need to know before anyone signs in.
#[derive(Debug, Object)]
pub struct AuthConfig {
    /// The agency's name, shown in the footer.
    #[oai(rename = "providerName")]
    pub provider_name: String,
    /// Set when Google sign-in is configured.
    #[oai(nullable, rename = "googleClientId")]
    pub google_client_id: Option<String>,
    /// Set in client-auth mode: the one client this deployment serves.
    #[oai(nullable, rename = "clientAuthShort")]
    pub client_auth_short: Option<String>,
    /// The name of the client the sign-in pages are for (client-auth mode, or `?client=`), when known.
    #[oai(nullable, rename = "clientName")]
    pub client_name: Option<String>,
}

#[derive(Debug, Object)]
pub struct LoginRequest {
    /// The e-mail address.
    #[oai(validator(max_length = 320))]
    pub username: String,
    #[oai(validator(max_length = 1024))]
    pub password: String,
    /// A client's short name: signs in to that client directly (client users, client-auth mode).
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct LoginResponse {
    #[oai(nullable, rename = "accessToken")]
    pub access_token: Option<String>,
    #[oai(nullable, rename = "refreshToken")]
    pub refresh_token: Option<String>,
    #[oai(rename = "twoFactorRequired")]
    pub two_factor_required: bool,
    pub email: String,
    /// Where the code was sent when two-factor is required: email, phone or app.
    #[oai(nullable, rename = "twoFactorMethod")]
    pub two_factor_method: Option<String>,
}

#[derive(Debug, Object)]
pub struct LoginCodeRequest {
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(validator(max_length = 16))]
    pub code: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct GoogleLoginRequest {
    /// The ID token Google's sign-in button hands the page.
    #[oai(validator(max_length = 8192))]
    pub credential: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct RegisterRequest {
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(validator(max_length = 1024))]
    pub password: String,
    #[oai(validator(max_length = 100))]
    pub firstname: String,
    #[oai(validator(max_length = 100))]
    pub lastname: String,
    #[oai(validator(max_length = 20))]
    pub phone: String,
    /// email or phone.
    #[oai(rename = "twoFactorMethod", validator(max_length = 10))]
    pub two_factor_method: String,
    /// The client to register with (set automatically in client-auth mode).
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct RegisterResponse {
    /// pending: check your e-mail; duplicate: the e-mail already has an account.
    pub status: String,
    /// Set when the existing account is already enabled: the user should reset the password instead.
    pub duplicate: bool,
}

/// An e-mailed link's contents.
#[derive(Debug, Object)]
pub struct EmailToken {
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(validator(max_length = 100))]
    pub token: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct ResetEmailRequest {
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct ResetCheckResponse {
    pub valid: bool,
}

#[derive(Debug, Object)]
pub struct ResetPasswordRequest {
    #[oai(validator(max_length = 1024))]
    pub password: String,
    #[oai(validator(max_length = 100))]
    pub token: String,
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct StatusResponse {
    pub status: String,
}

#[derive(Debug, Object)]
pub struct RefreshRequest {
    #[oai(rename = "refreshToken", validator(max_length = 200))]
    pub refresh_token: String,
}

#[derive(Debug, Object)]
pub struct LogoutRequest {
    #[oai(nullable, rename = "refreshToken", validator(max_length = 200))]
    pub refresh_token: Option<String>,
}
