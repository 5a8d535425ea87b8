//! How the portfolio's figures are kept (docs/portfolio.md, "How it is read"): the worker stores each client's
//! row; a client without one is read during the request (and stored), so it still shows; a stale row is refreshed
//! by the job; and a stored row reaches only users granted its client.

use super::{forget_stored, portfolio, stored_row};
use crate::helpers::*;
use chrono::{DateTime, Duration, Utc};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// One $25.00 gift today, so the client's month is not empty.
async fn gift_today(app: &TestApp, client: &tenancy::Client) {
    app.exec_in(
        client,
        "insert into contacts (email) values ('g@example.org');
         insert into contributions (platform, line_item_id, paid_at, contact_id, email, amount, attribution)
         select 'actblue', 'g1', now(), id, email, 25.00, 'none' from contacts where email = 'g@example.org'",
    )
    .await;
}

/// Writes a client's row as given, whatever is there (the test's own stale or marked figures).
async fn force_row(app: &TestApp, client: &tenancy::Client, figures: &Value, at: DateTime<Utc>) {
    let mut tx = app.tenancy.public().await.unwrap();
    sqlx::query(
        "insert into client_portfolio_figures (client_id, figures, computed_at) values ($1, $2, $3)
         on conflict (client_id) do update set figures = excluded.figures, computed_at = excluded.computed_at",
    )
    .bind(client.id)
    .bind(sqlx::types::Json(figures))
    .bind(at)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

/// The client's figures as its schema gives them now, in the stored form.
async fn figures_now(app: &TestApp, client: &tenancy::Client) -> Value {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let f = store::portfolio::client_figures(&mut tx, store::portfolio::REQUEST_STATEMENT_TIMEOUT)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    serde_json::to_value(f).unwrap()
}

fn rows(body: &str) -> Vec<Value> {
    serde_json::from_str::<Value>(body).unwrap()["clients"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test]
async fn a_client_without_stored_figures_still_shows_and_its_row_is_then_stored() {
    let app = spawn_app().await;
    let new = app.create_client().await;
    gift_today(&app, &new).await;
    forget_stored(&app, &[&new]).await;
    let token = app
        .basic_token(&app.create_user(false, &[&new]).await)
        .await;

    let before = Utc::now();
    let (status, body) = portfolio(&app, &token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let listed = rows(&body);
    assert_eq!(listed.len(), 1, "{body}");
    assert_eq!(listed[0]["id"], json!(new.id));
    assert_eq!(listed[0]["figures"]["monthNet"], json!("25.00"), "{body}");
    let generated: DateTime<Utc> = serde_json::from_str::<Value>(&body).unwrap()["generatedAt"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        generated >= before - Duration::milliseconds(1),
        "read just now: {generated}"
    );

    // What the request read is stored: the next request answers from the table.
    let (kept, at) = stored_row(&app, &new)
        .await
        .expect("the request stored the row");
    assert_eq!(kept["month_net"], json!("25.00"));
    assert!(at >= before - Duration::milliseconds(1));
}

#[tokio::test]
async fn a_stale_row_is_refreshed_by_the_job() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    gift_today(&app, &client).await;
    let token = app
        .basic_token(&app.create_user(false, &[&client]).await)
        .await;

    // A row an hour old with figures the client no longer has: the page shows it, and says how old it is.
    let mut stale = figures_now(&app, &client).await;
    stale["month_net"] = json!("999.00");
    stale["list_size"] = json!(4242);
    let an_hour_ago = Utc::now() - Duration::hours(1);
    forget_claim(&app, &client).await;
    force_row(&app, &client, &stale, an_hour_ago).await;
    let (_, body) = portfolio(&app, &token).await;
    let p: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        p["clients"][0]["figures"]["monthNet"],
        json!("999.00"),
        "{body}"
    );
    assert_eq!(
        p["generatedAt"]
            .as_str()
            .unwrap()
            .parse::<DateTime<Utc>>()
            .unwrap(),
        stored_row(&app, &client).await.unwrap().1,
        "the page says how old the figures are"
    );

    // The scheduler's look finds it due and queues one refresh; a second look while it is claimed queues none.
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let due = worker::portfolio_due(&app.tenancy, &queue, Some([client.id].as_slice()))
        .await
        .unwrap();
    assert_eq!(due, vec![client.id]);
    assert!(
        worker::portfolio_due(&app.tenancy, &queue, Some([client.id].as_slice()))
            .await
            .unwrap()
            .is_empty()
    );
    let worker = app.start_worker().await;
    let (fresh, at) = wait_until(
        "the refreshed row",
        std::time::Duration::from_secs(30),
        || async {
            stored_row(&app, &client)
                .await
                .filter(|r| r.1 > an_hour_ago)
        },
    )
    .await;
    worker.stop().await;
    assert_eq!(fresh["month_net"], json!("25.00"));
    assert_eq!(fresh["list_size"], json!(1));
    let (_, body) = portfolio(&app, &token).await;
    let p: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        p["clients"][0]["figures"]["monthNet"],
        json!("25.00"),
        "{body}"
    );
    assert_eq!(p["clients"][0]["figures"]["listSize"], json!(1), "{body}");
    assert_eq!(
        p["generatedAt"]
            .as_str()
            .unwrap()
            .parse::<DateTime<Utc>>()
            .unwrap(),
        at
    );
    // The job ran in the client's own schema and says so on its Jobs page; a fresh row is not due again.
    assert_eq!(
        app.scalar_in(
            &client,
            "select count(*) from jobs where command = 'refresh-portfolio' and status = 'done' and success"
        )
        .await,
        1
    );
    forget_claim(&app, &client).await;
    assert!(
        worker::portfolio_due(&app.tenancy, &queue, Some([client.id].as_slice()))
            .await
            .unwrap()
            .is_empty()
    );
}

/// A large client's figures take longer than the page may wait. The job is not held to the request's bound: a
/// refresh whose statement waits 8 s (here on a lock another transaction holds on the gifts) succeeds at its first
/// attempt instead of failing for good after four.
#[tokio::test]
async fn a_refresh_slower_than_the_request_bound_succeeds_at_once() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    gift_today(&app, &client).await;
    forget_stored(&app, &[&client]).await;
    forget_claim(&app, &client).await;

    let mut holder = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("lock table contributions in access exclusive mode")
        .execute(&mut *holder)
        .await
        .unwrap();
    let held = std::time::Instant::now();
    let release = tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_secs(8)).await;
        holder.commit().await.unwrap();
    });
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let due = worker::portfolio_due(&app.tenancy, &queue, Some([client.id].as_slice()))
        .await
        .unwrap();
    assert_eq!(due, vec![client.id]);
    let worker = app.start_worker().await;
    let (fresh, _) = wait_until(
        "the refreshed row",
        std::time::Duration::from_secs(60),
        || async { stored_row(&app, &client).await },
    )
    .await;
    // The row can only be written once the gifts could be read again.
    assert!(
        held.elapsed() >= std::time::Duration::from_secs(8),
        "the refresh waited for the lock"
    );
    worker.stop().await;
    release.await.unwrap();
    assert_eq!(fresh["month_net"], json!("25.00"));
    assert_eq!(
        app.scalar_in(
            &client,
            "select count(*) from jobs where command = 'refresh-portfolio' and status = 'done' and success
                                         and attempts = 1"
        )
        .await,
        1,
        "one attempt, not a timeout and a retry"
    );
    assert_eq!(
        app.scalar_in(
            &client,
            "select count(*) from jobs where command = 'refresh-portfolio' and not coalesce(success, true)"
        )
        .await,
        0
    );
}

async fn forget_claim(app: &TestApp, client: &tenancy::Client) {
    let mut public = app.tenancy.public().await.unwrap();
    sqlx::query("delete from client_portfolio_claims where client_id = $1")
        .bind(client.id)
        .execute(&mut *public)
        .await
        .unwrap();
    public.commit().await.unwrap();
}

#[tokio::test]
async fn a_user_never_sees_the_stored_row_of_a_client_without_a_grant() {
    let app = spawn_app().await;
    let (mine, other) = (app.create_client().await, app.create_client().await);
    // Both clients have stored rows; the other's carries figures no other client has.
    let now = Utc::now();
    force_row(&app, &mine, &figures_now(&app, &mine).await, now).await;
    let mut marked = figures_now(&app, &other).await;
    marked["month_net"] = json!("424242.42");
    marked["list_size"] = json!(97531);
    marked["rpm"] = json!("8642.00");
    marked["retention"] = json!(0.7777);
    force_row(&app, &other, &marked, now).await;

    let email = app.create_user(false, &[&mine]).await;
    let token = app.basic_token(&email).await;
    let (status, body) = portfolio(&app, &token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let listed = rows(&body);
    assert_eq!(listed.len(), 1, "{body}");
    assert_eq!(listed[0]["id"], json!(mine.id));
    for leak in [
        other.name.as_str(),
        other.short_name.as_str(),
        "424242.42",
        "97531",
        "8642",
        "0.7777",
    ] {
        assert!(
            !body.contains(leak),
            "{leak} of a client without a grant shows: {body}"
        );
    }
    // The benchmarks are the user's clients' only: the other's RPM and retention are not in the medians.
    let p: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(p["benchmarks"]["rpm"], Value::Null);
    assert_eq!(p["benchmarks"]["retention"], Value::Null);

    // Given a grant, the same user sees the other's stored row at once.
    let mut public = app.tenancy.public().await.unwrap();
    sqlx::query(
        "insert into universal_user_clients (user_id, client_id)
         select id, $1 from universal_users where email = $2",
    )
    .bind(other.id)
    .bind(&email)
    .execute(&mut *public)
    .await
    .unwrap();
    public.commit().await.unwrap();
    let (_, body) = portfolio(&app, &token).await;
    assert!(body.contains("424242.42"), "{body}");
}
