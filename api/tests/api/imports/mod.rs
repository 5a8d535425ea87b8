use crate::helpers::*;

use reqwest::{Method, StatusCode};

use serde_json::{json, Value};

async fn contacts(
    app: &TestApp,
    client: &tenancy::Client,
) -> Vec<(String, String, Option<String>)> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_as(
        "select c.email, c.first_name, o.name from contacts c left join origin_codes o on o.id = c.origin_code_id
         order by c.email",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap()
}

fn list_id(job: &Value) -> i64 {
    job["result"]["link"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

mod csv;
mod failures;
mod hostile;
mod mapped;
mod ngp;
mod ownership;
mod skips;
