//! What a client user with no role gets from the operations every user may call (issue 33, item 7): CRM answers
//! without money, mailing audiences without segments, a dashboard without the tiles of gated pages, and only
//! their own jobs.

use super::*;

const MONEY: [&str; 5] = ["revenue", "gifts", "donors", "responseRate", "rpm"];

async fn created(app: &TestApp, session: &Session, path: &str, body: Value) -> Value {
    let response = app
        .api(Method::POST, path, session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED, "{path}");
    response.json().await.unwrap()
}

fn assert_no_money(mailing: &Value, what: &str) {
    for field in MONEY {
        assert!(
            mailing.get(field).is_none(),
            "{what} carries {field}: {mailing}"
        );
    }
}

#[tokio::test]
async fn item_7_a_client_user_with_no_role_sees_no_money_segments_or_gated_tiles() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let (member, _) = client_user_without_roles(&app, &client).await;

    let sender = created(
        &app,
        &admin,
        "/api/sender",
        json!({ "name": "Team", "fromAddress": "team@example.org" }),
    )
    .await;
    let list = app
        .scalar_in(
            &client,
            "insert into crm_lists (name, kind) values ('Everyone', 'upload') returning id",
        )
        .await;
    let segment = created(
        &app,
        &admin,
        "/api/segments",
        json!({ "name": "Secret segment", "rule": { "conditions": [{ "field": "gave", "op": "never" }] } }),
    )
    .await;
    let mailing = json!({ "name": "Appeal", "subjectLine": "Hello", "senderId": sender["id"],
                          "sendTime": "2030-01-01T00:00:00Z", "listId": list,
                          "bodyHtml": "<p>Hi</p>", "isDraft": true });
    let id = created(&app, &admin, "/api/crm-mailing", mailing.clone()).await["id"]
        .as_i64()
        .unwrap();
    app.exec_in(
        &client,
        &format!(
            "insert into contributions (platform, line_item_id, paid_at, amount, email, mailing_id)
             values ('actblue', 'NR1', now(), 25.00, 'giver@example.org', {id})"
        ),
    )
    .await;

    // Agency staff with every permission see what the mailing raised.
    let seen = app
        .get_json(&format!("/api/crm-mailing/{id}"), &admin)
        .await;
    assert_eq!(
        (seen["revenue"].as_str(), seen["gifts"].as_i64()),
        (Some("25.00"), Some(1))
    );

    // The client user with no role: the same mailing, without money, wherever it comes back.
    let seen = app
        .get_json(&format!("/api/crm-mailing/{id}"), &member)
        .await;
    assert_eq!(seen["name"], "Appeal");
    assert_no_money(&seen, "getMailing");
    for m in app
        .get_json("/api/crm-mailing", &member)
        .await
        .as_array()
        .unwrap()
    {
        assert_no_money(m, "listMailings");
    }
    let own = created(&app, &member, "/api/crm-mailing", mailing.clone()).await;
    assert_no_money(&own, "createMailing");
    let updated = app
        .api(Method::PATCH, &format!("/api/crm-mailing/{id}"), &member)
        .json(&mailing)
        .send()
        .await
        .unwrap();
    assert_eq!(updated.status(), StatusCode::OK);
    assert_no_money(&updated.json().await.unwrap(), "updateMailing");

    // Audiences: lists, and segments only for those who may open Segments.
    let kinds = |options: Value| -> Vec<String> {
        options
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                format!(
                    "{} {}",
                    o["kind"].as_str().unwrap(),
                    o["name"].as_str().unwrap()
                )
            })
            .collect()
    };
    let for_admin = kinds(app.get_json("/api/crm-mailing/audiences", &admin).await);
    assert!(
        for_admin.contains(&"segment Secret segment".to_owned()),
        "{for_admin:?}"
    );
    let for_member = kinds(app.get_json("/api/crm-mailing/audiences", &member).await);
    assert_eq!(for_member, vec!["list Everyone".to_owned()]);
    // Nor can a segment id be tried as an audience or a suppression.
    for body in [
        json!({ "listId": null, "segmentId": segment["id"] }),
        json!({ "suppressionSegmentIds": [segment["id"]] }),
    ] {
        let mut attempt = mailing.clone();
        attempt
            .as_object_mut()
            .unwrap()
            .extend(body.as_object().unwrap().clone());
        let response = app
            .api(Method::POST, "/api/crm-mailing", &member)
            .json(&attempt)
            .send()
            .await
            .unwrap();
        assert_refused(response, "a segment in a mailing without pageSegments").await;
    }

    // The dashboard: only the tiles of pages every user may open.
    let board = app.get_json("/api/dashboard", &member).await;
    for tile in [
        "revenue",
        "lastMailings",
        "topSourceCodes",
        "states",
        "pacing",
        "experiments",
    ] {
        assert!(
            board[tile].is_null(),
            "{tile} shown without permission: {board}"
        );
    }
    assert!(board["listSize"]["subscribed"].is_i64());
    assert!(board["upcoming"].is_array());
    let board = app.get_json("/api/dashboard", &admin).await;
    for tile in ["revenue", "lastMailings", "topSourceCodes", "states"] {
        assert!(
            !board[tile].is_null(),
            "{tile} missing for an administrator: {board}"
        );
    }
}

#[tokio::test]
async fn item_7_a_client_user_sees_only_their_own_jobs() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let (member, member_id) = client_user_without_roles(&app, &client).await;
    let (other, _) = client_user_without_roles(&app, &client).await;

    let start = |session: &Session| {
        app.api(Method::POST, "/api/crm-list/recount", session)
            .send()
    };
    let job = |response: reqwest::Response| async move {
        assert_eq!(response.status(), StatusCode::ACCEPTED);
        let body: Value = response.json().await.unwrap();
        body["id"].as_i64().unwrap()
    };
    let staff_job = job(start(&admin).await.unwrap()).await;
    let own_job = job(start(&member).await.unwrap()).await;
    let others_job = job(start(&other).await.unwrap()).await;
    // A universal user's job whose user id happens to equal the client user's: the id alone is not an owner.
    let same_id = app
        .scalar_in(
            &client,
            &format!(
                "insert into jobs (label, command, user_id, user_kind)
                 values ('Recount lists', 'recount-lists', {member_id}, 'universal') returning id"
            ),
        )
        .await;

    let ids = |jobs: Value| -> Vec<i64> {
        jobs.as_array()
            .unwrap()
            .iter()
            .map(|j| j["id"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(ids(app.get_json("/api/jobs", &member).await), vec![own_job]);
    let mine = app.get_json(&format!("/api/jobs/{own_job}"), &member).await;
    assert_eq!(
        (mine["user"]["id"].as_i64(), mine["user"]["kind"].as_str()),
        (Some(member_id), Some("client"))
    );
    for id in [staff_job, others_job, same_id] {
        let (status, message) = json_message(
            app.api(Method::GET, &format!("/api/jobs/{id}"), &member)
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(
            (status, message.as_str()),
            (StatusCode::NOT_FOUND, "Job not found"),
            "job {id}"
        );
    }
    // Agency staff see every job of the client.
    let all = ids(app.get_json("/api/jobs", &admin).await);
    for id in [staff_job, own_job, others_job, same_id] {
        assert!(all.contains(&id), "{id} in {all:?}");
    }
}
