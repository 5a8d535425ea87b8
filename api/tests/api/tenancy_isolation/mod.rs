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
    /// Any user acting for the client: CRM pages need no permission (spec section 6).
    ClientUser,
    /// A user acting for the client and holding one of these permissions there.
    Client(&'static [&'static str]),
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

mod contacts_in_bulk;
mod every_operation;
mod sessions;
