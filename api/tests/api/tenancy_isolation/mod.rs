use crate::helpers::*;

use reqwest::{Method, Response, StatusCode};

use serde_json::{json, Value};

/// Who may call an operation (issue 11, item 8).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Guard {
    /// Anyone, without signing in.
    Public,
    /// Any signed-in user, before or after choosing a client.
    SignedIn,
    /// A signed-in user holding this universal permission.
    Universal(&'static str),
    /// Any user acting for the client, for the reason stated.
    Open(Why),
    /// Any user acting for the client; what needs one of these permissions is left out of the answer for the
    /// others (`no_role::*` checks what is left).
    Trimmed(&'static [&'static str]),
    /// A user acting for the client and holding one of these permissions there.
    Client(&'static [&'static str]),
}

/// Why an operation needs no permission (issue 33, item 7: every operation states its permission).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Why {
    /// The CRM pages need none (spec section 6).
    Crm,
    /// A fixed list of options that names no client data (flight types, permission names …).
    FixedOptions,
    /// The app shell every user loads (app settings).
    Shell,
    /// The user's own jobs; agency staff and holders of "view user" see every job (docs/jobs.md).
    OwnJobs,
}

const EDIT_ROLE: &str = "edit role";

const PAGE_CONTACTS: &str = "pageContacts";

enum Body {
    None,
    Json(Value),
    /// A CSV file in the multipart field `file`.
    File,
    /// A CSV file and its column mapping.
    Mapped,
    /// An ActBlue export and its platform.
    Contributions,
}

/// An operation's expected guard, and a request the operation accepts far enough to reach its handler.
struct Expected {
    op: &'static str,
    guard: Guard,
    body: Body,
    query: &'static str,
}

impl Expected {
    fn json(self, body: Value) -> Self {
        Self {
            body: Body::Json(body),
            ..self
        }
    }
    fn with(self, body: Body) -> Self {
        Self { body, ..self }
    }
    fn query(self, query: &'static str) -> Self {
        Self { query, ..self }
    }
}

/// One operation of the OpenAPI document.
struct Operation {
    method: Method,
    path: String,
    /// The security scheme it declares, if any.
    scheme: Option<String>,
}

/// How a request proves who sends it.
enum Caller<'a> {
    Nobody,
    /// A signed-in user's token before a client is chosen.
    Basic(&'a str),
    Client(&'a Session),
}

async fn call(app: &TestApp, op: &Operation, expected: &Expected, caller: Caller<'_>) -> Response {
    let path = format!("{}{}", op.path, expected.query);
    let mut request = match caller {
        Caller::Nobody => app.request(op.method.clone(), &path),
        Caller::Basic(token) => app.request(op.method.clone(), &path).bearer_auth(token),
        Caller::Client(session) => app.api(op.method.clone(), &path, session),
    };
    let csv = || {
        reqwest::multipart::Part::bytes(b"Email,First\nguard@example.org,Gus\n".to_vec())
            .file_name("guard.csv")
    };
    request = match &expected.body {
        Body::None => request,
        Body::Json(body) => request.json(body),
        Body::File => request.multipart(reqwest::multipart::Form::new().part("file", csv())),
        Body::Mapped => request.multipart(
            reqwest::multipart::Form::new()
                .part("file", csv())
                .text("mapping", r#"{"Email":"email"}"#),
        ),
        Body::Contributions => request.multipart(
            reqwest::multipart::Form::new()
                .part("file", csv())
                .text("platform", "actblue"),
        ),
    };
    request.send().await.unwrap()
}

/// Asserts a refusal for want of a permission.
async fn assert_refused(response: Response, what: &str) {
    let (status, message) = json_message(response).await;
    assert_eq!(
        (status, message.as_str()),
        (
            StatusCode::FORBIDDEN,
            "You do not have permission to do this"
        ),
        "{what}"
    );
}

/// Gives the user `user_id` exactly one role holding `permissions` in the admin's client.
async fn grant(app: &TestApp, admin: &Session, user_id: i64, permissions: &[&str]) {
    let role: Value = app
        .api(Method::POST, "/api/roles", admin)
        .json(&json!({ "name": unique("role"), "permissions": permissions }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let assigned = app
        .api(
            Method::PATCH,
            &format!("/api/users/universal/{user_id}"),
            admin,
        )
        .json(&json!({ "roleIds": [role["id"]] }))
        .send()
        .await
        .unwrap();
    assert_eq!(assigned.status(), StatusCode::OK);
}

/// A universal user who may use `client` but holds no permission there: their session, their step-1 token and
/// their id.
async fn user_without_permissions(
    app: &TestApp,
    client: &tenancy::Client,
    admin: &Session,
) -> (Session, String, i64) {
    let email = app.create_user(false, &[client]).await;
    let session = app.session_for(&email, client).await;
    let basic = app.basic_token(&email).await;
    let users = app.get_json("/api/users", admin).await;
    let id = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == email.as_str())
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    (session, basic, id)
}

/// A client user of `client`: registered, verified and enabled, with no second factor and no role. Their
/// session (signed in straight to their client) and id.
async fn client_user_without_roles(app: &TestApp, client: &tenancy::Client) -> (Session, i64) {
    let email = format!("{}@example.org", unique("member"));
    let hash = api::auth::hash_password(PASSWORD).unwrap();
    app.exec_in(
        client,
        &format!(
            "insert into client_users (email, password_hash, two_factor_method, email_verified, enabled)
             values ('{email}', '{hash}', 'none', now(), true)"
        ),
    )
    .await;
    let id = app
        .scalar_in(
            client,
            &format!("select id from client_users where email = '{email}'"),
        )
        .await;
    let response = app
        .request(Method::POST, "/auth-api/auth/login")
        .json(&json!({ "username": email, "password": PASSWORD, "client": client.short_name }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    let session = Session {
        token: body["accessToken"]
            .as_str()
            .expect("signed in without a second factor")
            .to_owned(),
        client: client.clone(),
    };
    (session, id)
}

mod contacts_in_bulk;
mod every_operation;
mod no_role;
mod sessions;
