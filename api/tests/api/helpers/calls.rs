//! Clients, users, sign-in and calls as the web client makes them, on a test app.

use super::{unique, Session, TestApp, PASSWORD};
use api::accounts::{upsert_universal_user, NewUniversalUser};
use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;
use tenancy::{Client, ClientShort};

impl TestApp {
    /// Runs SQL statements in the client's schema and commits them (fixtures and changes made behind the api).
    pub async fn exec_in(&self, client: &Client, sql: &str) {
        let mut tx = self.tenancy.begin(client).await.unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        tx.commit().await.unwrap();
    }

    /// The one bigint a query in the client's schema answers.
    pub async fn scalar_in(&self, client: &Client, sql: &str) -> i64 {
        let mut tx = self.tenancy.begin(client).await.unwrap();
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        n
    }

    /// A new client, made as production usually makes one: from a spare schema renamed (with tests running side
    /// by side, another test's spare may be the one taken).
    pub async fn create_client(&self) -> Client {
        self.tenancy.add_spare_schema().await.unwrap();
        let short = ClientShort::parse(&unique("c")).unwrap();
        self.tenancy
            .create_client(&short, &format!("Client {short}"))
            .await
            .unwrap()
    }

    /// A universal user; an administrator may use every client, others only `clients`.
    pub async fn create_user(&self, admin: bool, clients: &[&Client]) -> String {
        let email = format!("{}@example.org", unique("user"));
        let user = NewUniversalUser {
            email: email.clone(),
            password: PASSWORD.into(),
            first_name: "Test".into(),
            last_name: "User".into(),
            admin,
            clients: clients.iter().map(|c| c.short_name.clone()).collect(),
        };
        upsert_universal_user(&self.tenancy, &user).await.unwrap();
        email
    }

    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.http
            .request(method, format!("{}{}", self.address, path))
    }

    pub async fn login(&self, email: &str, password: &str) -> Response {
        self.request(Method::POST, "/auth-api/auth/login")
            .json(&json!({ "username": email, "password": password }))
            .send()
            .await
            .unwrap()
    }

    /// Step-1 token of a user.
    pub async fn basic_token(&self, email: &str) -> String {
        let body: Value = self.login(email, PASSWORD).await.json().await.unwrap();
        body["accessToken"]
            .as_str()
            .expect("login gives a token")
            .to_owned()
    }

    pub async fn client_login(&self, basic_token: &str, client_id: i64) -> Response {
        self.request(Method::POST, "/auth-api/session/client-login")
            .bearer_auth(basic_token)
            .json(&json!({ "clientId": client_id }))
            .send()
            .await
            .unwrap()
    }

    /// A new administrator signed in to `client`.
    pub async fn session(&self, client: &Client) -> Session {
        let email = self.create_user(true, &[]).await;
        self.session_for(&email, client).await
    }

    pub async fn session_for(&self, email: &str, client: &Client) -> Session {
        let basic = self.basic_token(email).await;
        let response = self.client_login(&basic, client.id).await;
        assert_eq!(response.status(), StatusCode::OK);
        let body: Value = response.json().await.unwrap();
        Session {
            token: body["accessToken"].as_str().unwrap().to_owned(),
            client: client.clone(),
        }
    }

    /// A call carrying the token and the client headers, as the web client sends it.
    pub fn api(&self, method: Method, path: &str, session: &Session) -> RequestBuilder {
        self.request(method, path)
            .bearer_auth(&session.token)
            .header("client-short", &session.client.short_name)
            .header("client-id", session.client.id.to_string())
    }

    /// GET as the web client sends it, answered with JSON.
    pub async fn get_json(&self, path: &str, session: &Session) -> Value {
        self.api(Method::GET, path, session)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// Posts `bytes` as the multipart field `file`, as the browser's file picker does.
    pub async fn upload(
        &self,
        path: &str,
        session: &Session,
        filename: &str,
        bytes: Vec<u8>,
    ) -> Response {
        let part = reqwest::multipart::Part::bytes(bytes).file_name(filename.to_owned());
        let form = reqwest::multipart::Form::new().part("file", part);
        self.api(Method::POST, path, session)
            .multipart(form)
            .send()
            .await
            .unwrap()
    }

    /// Uploads and waits for the import job; returns the finished job.
    pub async fn import(
        &self,
        path: &str,
        session: &Session,
        filename: &str,
        bytes: Vec<u8>,
    ) -> Value {
        let response = self.upload(path, session, filename, bytes).await;
        assert_eq!(
            response.status(),
            StatusCode::ACCEPTED,
            "{:?}",
            response.text().await
        );
        let job: Value = response.json().await.unwrap();
        self.wait_for_job(session, job["id"].as_i64().unwrap())
            .await
    }

    pub async fn wait_for_job(&self, session: &Session, id: i64) -> Value {
        // A generous deadline: the test binary runs many apps and workers at once on a small machine.
        for _ in 0..600 {
            let job = self.get_json(&format!("/api/jobs/{id}/"), session).await;
            if job["completed"] == json!(true) {
                return job;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("job {id} did not finish within 120 s");
    }
}
