//! The e-mails identity sends: login codes, registration links, reset links and invitations. They go through the
//! same pooled SMTP transport as test sends.

use super::Realm;
use mail::{MailError, Mailer, Outgoing};

#[derive(Clone)]
pub struct Notices {
    mailer: Mailer,
    from_name: String,
    from_address: String,
    public_url: String,
}

impl Notices {
    pub fn new(mailer: Mailer, from_name: &str, from_address: &str, public_url: &str) -> Self {
        Self {
            mailer,
            from_name: from_name.to_owned(),
            from_address: from_address.to_owned(),
            public_url: public_url.trim_end_matches('/').to_owned(),
        }
    }

    async fn send(&self, to: &str, subject: &str, paragraphs: &[String]) -> Result<(), MailError> {
        let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>")).collect();
        let html = format!(
            "<!doctype html><html><body style=\"font-family:Arial,sans-serif;font-size:15px\">{body}\
             <p style=\"color:#666;font-size:12px\">Compass</p></body></html>"
        );
        self.mailer
            .send(&Outgoing {
                from_name: self.from_name.clone(),
                from_address: self.from_address.clone(),
                reply_to: None,
                to: to.to_owned(),
                subject: subject.to_owned(),
                html,
                unsubscribe_url: None,
                message_id: None,
                envelope_from: None,
                test: false,
            })
            .await
    }

    /// A link into the SPA with query parameters, escaped for an HTML attribute.
    fn link(&self, path: &str, params: &[(&str, &str)]) -> String {
        let base = format!("{}{path}", self.public_url);
        let url = reqwest::Url::parse_with_params(&base, params)
            .map(String::from)
            .unwrap_or(base);
        // Query values are percent-encoded; only `&` and quotes need escaping inside an attribute.
        url.replace('&', "&amp;").replace('"', "&quot;")
    }

    fn client_params<'a>(realm: &'a Realm, params: &mut Vec<(&'static str, &'a str)>) {
        if let Realm::Client(c) = realm {
            params.push(("client", c.short_name.as_str()));
        }
    }

    pub async fn login_code(&self, to: &str, code: &str) -> Result<(), MailError> {
        self.send(
            to,
            "Your Compass login code",
            &[
                format!("Your login code is <strong style=\"font-size:20px;letter-spacing:2px\">{code}</strong>"),
                "It expires in 10 minutes. If you did not try to log in, change your password.".to_owned(),
            ],
        )
        .await
    }

    pub async fn verify_email(
        &self,
        realm: &Realm,
        to: &str,
        token: &str,
    ) -> Result<(), MailError> {
        let mut params = vec![("token", token), ("email", to)];
        Self::client_params(realm, &mut params);
        let link = self.link("/auth/finish-registration", &params);
        self.send(
            to,
            "Finish your Compass registration",
            &[
                "Thanks for signing up for a Compass account.".to_owned(),
                format!("<a href=\"{link}\">Verify your email</a> to finish registration. The link works for 3 days."),
                format!("Or open this address: {link}"),
            ],
        )
        .await
    }

    pub async fn reset_password(
        &self,
        realm: &Realm,
        to: &str,
        token: &str,
    ) -> Result<(), MailError> {
        let mut params = vec![("token", token), ("email", to)];
        Self::client_params(realm, &mut params);
        let link = self.link("/auth/reset-password", &params);
        self.send(
            to,
            "Reset your Compass password",
            &[
                format!(
                    "<a href=\"{link}\">Set a new password</a>. The link works once, for one hour."
                ),
                format!("Or open this address: {link}"),
                "If you did not ask for this, ignore this e-mail: your password stays as it is."
                    .to_owned(),
            ],
        )
        .await
    }

    /// Someone registered an address that already has an account.
    pub async fn registration_attempt(&self, realm: &Realm, to: &str) -> Result<(), MailError> {
        let mut params = Vec::new();
        Self::client_params(realm, &mut params);
        let login = self.link("/auth/login", &params);
        params.push(("email", to));
        let reset = self.link("/auth/reset-password", &params);
        self.send(
            to,
            "Someone tried to register your Compass address",
            &[
                "Someone tried to register a new Compass account with this e-mail address, which already has one."
                    .to_owned(),
                format!("If it was you, <a href=\"{login}\">log in</a> instead, or <a href=\"{reset}\">reset your password</a>."),
                "If it was not you, ignore this e-mail: nothing was changed.".to_owned(),
            ],
        )
        .await
    }

    /// A new universal user's invitation: a reset link that sets the first password.
    pub async fn invitation(&self, to: &str, token: &str) -> Result<(), MailError> {
        let link = self.link("/auth/reset-password", &[("token", token), ("email", to)]);
        self.send(
            to,
            "You have been invited to Compass",
            &[
                "An administrator created a Compass account for you.".to_owned(),
                format!("<a href=\"{link}\">Choose your password</a>. The link works once, for one hour."),
            ],
        )
        .await
    }
}
