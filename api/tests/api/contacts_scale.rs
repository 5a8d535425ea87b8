//! Contact Search and list exports made for a million contacts (issue 18): keyset pages, an estimated total past
//! 10,000 matches, trigram indexes the search can use, and a streamed export.
use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn sql(app: &TestApp, client: &tenancy::Client, statement: &str) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::raw_sql(sqlx::AssertSqlSafe(statement.to_owned()))
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn pages_follow_the_cursor_newest_first_without_gaps_or_repeats() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    // 30 contacts, five of them sharing one instant (the id breaks the tie).
    sql(
        &app,
        &client,
        "insert into contacts (email, first_name, last_name, created)
         select 'p' || g || '@example.org', 'Pat', 'No' || g,
                timestamptz '2026-01-01' + (least(g, 25) || ' minutes')::interval
         from generate_series(1, 30) g",
    )
    .await;
    let mut seen = Vec::new();
    let mut after: Option<String> = None;
    let mut pages = 0;
    loop {
        let path = match &after {
            Some(a) => format!("/api/contacts?pageSize=7&after={a}"),
            None => "/api/contacts?pageSize=7".to_owned(),
        };
        let page = app.get_json(&path, &session).await;
        assert_eq!(page["total"], 30);
        assert_eq!(page["totalEstimated"], false);
        pages += 1;
        for c in page["items"].as_array().unwrap() {
            seen.push((
                c["created"].as_str().unwrap().to_owned(),
                c["id"].as_i64().unwrap(),
            ));
        }
        match page["next"].as_str() {
            Some(n) => after = Some(n.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, 5);
    assert_eq!(seen.len(), 30);
    let mut sorted = seen.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    sorted.dedup();
    assert_eq!(sorted.len(), 30, "no contact twice");
    // Newest first by (created, id): compare with the database's own order.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let ids: Vec<i64> =
        sqlx::query_scalar("select id from contacts order by created desc, id desc")
            .fetch_all(&mut *tx)
            .await
            .unwrap();
    assert_eq!(seen.iter().map(|s| s.1).collect::<Vec<_>>(), ids);
    // The page numbers still work, and a cursor that is not one is refused.
    let third = app
        .get_json("/api/contacts?pageSize=7&page=3", &session)
        .await;
    assert_eq!(third["items"][0]["id"].as_i64().unwrap(), ids[14]);
    let bad = app
        .api(Method::GET, "/api/contacts?after=12x_3", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn search_finds_substrings_of_email_and_name_and_counts_past_ten_thousand_as_about() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    sql(
        &app,
        &client,
        "insert into contacts (email, first_name, last_name) values
           ('ann.o''hara@example.org', 'Ann', 'O''Hara'), ('bob@100%.org', 'Bob', 'Percent');
         insert into contacts (email, first_name, last_name)
         select 'bulk' || g || '@example.org', 'Bulk', 'Person' from generate_series(1, 10050) g;
         analyze contacts",
    )
    .await;
    let hara = app.get_json("/api/contacts?q=ann%20o%27h", &session).await;
    assert_eq!(hara["total"], 1);
    assert_eq!(hara["items"][0]["email"], "ann.o'hara@example.org");
    let by_mail = app.get_json("/api/contacts?q=HARA@EXAMPLE", &session).await;
    assert_eq!(by_mail["total"], 1);
    // % is a character, not a wildcard.
    let percent = app.get_json("/api/contacts?q=100%25", &session).await;
    assert_eq!(percent["total"], 1);
    assert_eq!(percent["totalEstimated"], false);
    // 10,050 match: counted up to 10,000, then estimated.
    let bulk = app
        .get_json("/api/contacts?q=bulk&pageSize=5", &session)
        .await;
    assert_eq!(bulk["totalEstimated"], true);
    assert!(
        bulk["total"].as_i64().unwrap() > 10_000,
        "{}",
        bulk["total"]
    );
    assert_eq!(bulk["items"].as_array().unwrap().len(), 5);
    // Everyone: the table's size as ANALYZE saw it.
    let all = app.get_json("/api/contacts?pageSize=5", &session).await;
    assert_eq!(all["totalEstimated"], true);
    assert_eq!(all["total"], 10_052);
}

#[tokio::test]
async fn the_search_filter_can_use_the_trigram_indexes() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("set local enable_seqscan = off")
        .execute(&mut *tx)
        .await
        .unwrap();
    let plan: Vec<String> = sqlx::query_scalar(
        "explain select id from contacts c
         where c.email ilike '%smith%' or (c.first_name || ' ' || c.last_name) ilike '%smith%'",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let plan = plan.join("\n");
    assert!(plan.contains("contacts_email_trgm_idx"), "{plan}");
    assert!(plan.contains("contacts_name_trgm_idx"), "{plan}");
}

#[tokio::test]
async fn a_large_list_downloads_whole_as_a_stream() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    sql(
        &app,
        &client,
        "insert into origin_codes (name) values ('big');
         insert into contacts (email, first_name, last_name, origin_code_id)
         select 'm' || lpad(g::text, 6, '0') || '@example.org', '=cmd', 'L', (select id from origin_codes)
         from generate_series(1, 20000) g",
    )
    .await;
    let code: i64 = {
        let mut tx = app.tenancy.begin(&client).await.unwrap();
        sqlx::query_scalar("select id from origin_codes")
            .fetch_one(&mut *tx)
            .await
            .unwrap()
    };
    let list: Value = app
        .api(Method::POST, "/api/crm-list", &session)
        .json(&json!({ "name": "Everyone", "originCodes": [code] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let response = app
        .api(
            Method::GET,
            &format!("/api/crm-list/{}/download", list["id"]),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    // Streamed: no length known in advance.
    assert!(response.headers().get("content-length").is_none());
    let body = response.text().await.unwrap();
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines.len(), 20_001);
    assert_eq!(lines[0], "Email,First,Last,Origin code");
    assert_eq!(lines[1], "m000001@example.org,'=cmd,L,big");
    assert_eq!(lines[20_000], "m020000@example.org,'=cmd,L,big");
}

/// Issue 27 item 6: an origin code's row and the dashboard's subscribed tile open Contact Search narrowed to exactly
/// the contacts they counted.
#[tokio::test]
async fn search_narrows_by_origin_code_subscription_and_creation_day() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    sql(
        &app,
        &client,
        "insert into origin_codes (name) values ('web'), ('ads');
         insert into contacts (email, first_name, origin_code_id, subscription, created)
         values ('w1@example.org', 'Web', (select id from origin_codes where name = 'web'), 'subscribed',
                 '2026-03-01 04:59Z'),
                ('w2@example.org', 'Web', (select id from origin_codes where name = 'web'), 'unsubscribed',
                 '2026-03-01 05:00Z'),
                ('w3@example.org', 'Web', (select id from origin_codes where name = 'web'), 'subscribed',
                 '2026-03-31 12:00Z'),
                ('a1@example.org', 'Ad', (select id from origin_codes where name = 'ads'), 'subscribed',
                 '2026-03-10 12:00Z')",
    )
    .await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let web: i64 = sqlx::query_scalar("select id from origin_codes where name = 'web'")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let emails = |page: &Value| -> Vec<String> {
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["email"].as_str().unwrap().to_owned())
            .collect()
    };
    // March in New York: w1 (04:59Z) is still February 28 there.
    let march = app
        .get_json(
            &format!(
                "/api/contacts?originCodeId={web}&createdFrom=2026-03-01&createdTo=2026-03-31"
            ),
            &session,
        )
        .await;
    assert_eq!(emails(&march), vec!["w3@example.org", "w2@example.org"]);
    assert_eq!(march["total"], 2);
    let subscribed = app
        .get_json("/api/contacts?subscription=subscribed", &session)
        .await;
    assert_eq!(
        emails(&subscribed),
        vec!["w3@example.org", "a1@example.org", "w1@example.org"]
    );
    assert_eq!(subscribed["total"], 3);
    let both = app
        .get_json(
            &format!("/api/contacts?originCodeId={web}&subscription=subscribed&q=w"),
            &session,
        )
        .await;
    assert_eq!(emails(&both), vec!["w3@example.org", "w1@example.org"]);
    let bad = app
        .api(Method::GET, "/api/contacts?subscription=maybe", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
}
