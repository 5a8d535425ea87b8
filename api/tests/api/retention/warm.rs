//! The retention answers people read stay warm: the scheduler computes them again before they expire, with the
//! gifts that came in since, and the daily refresh computes again the ones read that day.

use super::*;

use jobs::JobKind;

/// (key, computed) of every stored answer, by key.
async fn answers(app: &TestApp, client: &Client) -> Vec<(String, chrono::DateTime<chrono::Utc>)> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let rows = sqlx::query_as("select key, computed from retention_figures order by key")
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    rows
}

async fn warm(app: &TestApp, client: &Client) -> usize {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let n = retention::warm::warm(&mut tx).await.unwrap();
    tx.commit().await.unwrap();
    n
}

#[tokio::test]
async fn answers_read_in_the_last_hour_are_computed_again_before_they_expire() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    app.exec_in(&client, page::FIXTURE).await;
    let summary = app.get_json("/api/retention", &session).await;
    app.get_json("/api/retention/sustainers", &session).await;
    app.get_json("/api/retention/cohorts", &session).await;
    let donors = summary["donorsCurrent"].as_i64().unwrap();
    // Fresh answers are left alone.
    assert_eq!(warm(&app, &client).await, 0);

    // Ten minutes on: the three answers are near their end. One more, for January, nobody read for two days.
    // A new donor gives meanwhile.
    app.exec_in(
        &client,
        "update retention_figures set computed = computed - interval '10 minutes', read_at = now() - interval '10 minutes';
         insert into retention_figures (key, body, computed, read_at)
         select 'retention:month:2026-01-15', body, now() - interval '3 days', now() - interval '2 days'
         from retention_figures where key like 'retention:year:%';
         insert into contacts (email) values ('new@example.org');
         insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email)
         select 'actblue', 'new-1', now(), 15.00, id, email from contacts where email = 'new@example.org';",
    )
    .await;
    let before = answers(&app, &client).await;
    assert_eq!(
        warm(&app, &client).await,
        3,
        "the three answers read lately"
    );
    let after = answers(&app, &client).await;
    for ((key, was), (_, is)) in before.iter().zip(&after) {
        if key == "retention:month:2026-01-15" {
            assert_eq!(was, is, "an answer nobody read lately is left to expire");
        } else {
            assert!(is > was, "{key} computed again");
        }
    }
    // The page answers from the warmed row, which already counts the new donor.
    let warmed = app.get_json("/api/retention", &session).await;
    assert_eq!(
        warmed["donorsCurrent"].as_i64().unwrap(),
        donors + 1,
        "{warmed}"
    );
    let computed = after
        .iter()
        .find(|(k, _)| k.starts_with("retention:year:"))
        .unwrap()
        .1;
    assert_eq!(
        warmed["computed"]
            .as_str()
            .unwrap()
            .parse::<chrono::DateTime<chrono::Utc>>()
            .unwrap(),
        computed,
        "served from the warmed answer, not computed in the request"
    );
    // Another worker's pass a moment later finds the client warmed.
    app.exec_in(
        &client,
        "update retention_figures set computed = computed - interval '10 minutes'",
    )
    .await;
    assert_eq!(warm(&app, &client).await, 0);

    // The daily refresh drops the answers and computes again those read in the last day: the cohorts too, not
    // January's.
    let _worker = app.start_worker().await;
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let job = queue
        .enqueue(
            app.tenancy.begin(&client).await.unwrap(),
            None,
            &JobKind::RefreshRetention {},
        )
        .await
        .unwrap();
    let refreshed = app.wait_for_job(&session, job.id).await;
    assert_eq!(refreshed["success"], true, "{refreshed}");
    let keys: Vec<String> = answers(&app, &client)
        .await
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert!(keys.iter().any(|k| k.starts_with("cohorts:")), "{keys:?}");
    assert!(keys.iter().any(|k| k == "sustainers"), "{keys:?}");
    assert!(
        !keys.iter().any(|k| k == "retention:month:2026-01-15"),
        "{keys:?}"
    );
}
