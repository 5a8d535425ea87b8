//! Identity end to end over HTTP: registration with a verification mail, administrator enabling, two-factor
//! sign-in by e-mail, phone and authenticator app, Google ID tokens against a locally served key set, password
//! reset, refresh-token rotation, logout, rate limits, roles and permissions, and client-auth mode.

use crate::helpers::*;

use reqwest::{Method, StatusCode, Url};

use serde_json::{json, Value};

use std::sync::{Arc, Mutex};

use mail::sink::Delivered;

type Inbox = Arc<Mutex<Vec<Delivered>>>;

/// An app whose mail goes to a local sink.
async fn app_with_mail(adjust: impl FnOnce(&mut api::Settings)) -> (TestApp, Inbox) {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| {
        s.smtp_url = format!("smtp://127.0.0.1:{port}");
        s.public_url = "http://compass.example".into();
        adjust(s);
    })
    .await;
    (app, inbox)
}

/// Every message delivered to `to`, decoded.
fn mail_to(inbox: &Inbox, to: &str) -> Vec<String> {
    inbox
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m.recipients.iter().any(|r| r == to))
        .map(|m| unqp(&String::from_utf8_lossy(&m.data)))
        .collect()
}

/// Waits for the `n`th message to `to` (mail from background tasks takes a moment).
async fn nth_mail(inbox: &Inbox, to: &str, n: usize) -> String {
    for _ in 0..100 {
        if let Some(m) = mail_to(inbox, to).get(n - 1) {
            return m.clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no message #{n} to {to}");
}

fn login_code(mail: &str) -> String {
    let at = mail.find("login code is ").expect("a login code") + "login code is ".len();
    mail[at..]
        .chars()
        .filter(char::is_ascii_digit)
        .take(6)
        .collect()
}

/// The first link in a mail that contains `path`, with its query parameters.
fn link(mail: &str, path: &str) -> (Url, std::collections::HashMap<String, String>) {
    let start = mail
        .find(&format!("http://compass.example{path}"))
        .unwrap_or_else(|| panic!("no link to {path} in {mail}"));
    // The text part writes a link as "text (url)": the closing parenthesis ends it too.
    let end = start
        + mail[start..]
            .find(['"', '<', ' ', ')', '\r', '\n'])
            .unwrap();
    let url = Url::parse(&mail[start..end].replace("&amp;", "&")).unwrap();
    let params = url.query_pairs().into_owned().collect();
    (url, params)
}

async fn post(app: &TestApp, path: &str, body: Value) -> reqwest::Response {
    app.request(Method::POST, path)
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn post_json(app: &TestApp, path: &str, body: Value) -> (StatusCode, Value) {
    let response = post(app, path, body).await;
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn session_from(body: &Value, client: &tenancy::Client) -> Session {
    Session {
        token: body["accessToken"]
            .as_str()
            .expect("an access token")
            .to_owned(),
        client: client.clone(),
    }
}

const NEW_PASSWORD: &str = "Fresh-passw0rd";

mod client_auth;
mod google;
mod logging;
mod password_reset;
mod permissions;
mod registration;
mod sign_in_limits;
mod tokens;
mod two_factor;
