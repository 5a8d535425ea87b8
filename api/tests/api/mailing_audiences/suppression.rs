use super::*;

async fn segment(app: &TestApp, client: &tenancy::Client, name: &str, members: &[i64]) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let id: i64 = sqlx::query_scalar(
        "insert into segments (name, size, computed) values ($1, $2, now()) returning id",
    )
    .bind(name)
    .bind(members.len() as i32)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "insert into segment_members (segment_id, contact_id) select $1, unnest($2::bigint[])",
    )
    .bind(id)
    .bind(members)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    id
}

fn delivered_to(inbox: &Inbox) -> Vec<String> {
    let mut to: Vec<String> = inbox
        .lock()
        .unwrap()
        .iter()
        .map(|m| m.recipients[0].clone())
        .collect();
    to.sort();
    to
}

#[tokio::test]
async fn issue_15_suppressed_contacts_get_no_mail_and_a_segment_audience_is_sent() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let ids = contacts(
        &app,
        &client,
        &[
            "ann@example.org",
            "bob@example.org",
            "cy@example.org",
            "dee@example.org",
            "eve@example.org",
        ],
    )
    .await;
    let everyone = upload_list(&app, &client, "Everyone", &ids).await;
    let staff = upload_list(&app, &client, "Staff", &ids[1..2]).await;
    let recent = segment(&app, &client, "Gave this week", &ids[3..4]).await;
    let sender = sender(&app, &session).await;
    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "Appeal", "subjectLine": "Hello", "senderId": sender, "sendTime": tomorrow(),
                "listId": everyone, "bodyHtml": "<p>Hi</p>", "isDraft": false,
                "suppressionListIds": [staff], "suppressionSegmentIds": [recent] }),
    )
    .await;
    let id = mailing["id"].as_i64().unwrap();
    assert_eq!(
        mailing["suppressions"],
        json!([{ "kind": "list", "id": staff, "name": "Staff" },
               { "kind": "segment", "id": recent, "name": "Gave this week" }])
    );
    send_now(&app, &client, id).await;
    let done = wait_done(&app, &session, id).await;
    assert_eq!(done["recipCount"], 3);
    assert_eq!(
        delivered_to(&inbox),
        ["ann@example.org", "cy@example.org", "eve@example.org"],
        "the Staff list and the segment's member got nothing"
    );

    // A segment as the audience, with a list suppressed.
    inbox.lock().unwrap().clear();
    let vip = segment(&app, &client, "VIP", &ids[0..3]).await;
    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "VIP", "subjectLine": "Hello", "senderId": sender, "sendTime": tomorrow(),
                "segmentId": vip, "bodyHtml": "<p>Hi</p>", "isDraft": false,
                "suppressionListIds": [staff] }),
    )
    .await;
    assert_eq!(
        (
            mailing["segmentId"].as_i64(),
            mailing["segmentName"].as_str(),
            &mailing["listId"]
        ),
        (Some(vip), Some("VIP"), &Value::Null)
    );
    let id = mailing["id"].as_i64().unwrap();
    send_now(&app, &client, id).await;
    wait_done(&app, &session, id).await;
    assert_eq!(delivered_to(&inbox), ["ann@example.org", "cy@example.org"]);
}

#[tokio::test]
async fn issue_15_the_audience_fields_refuse_what_is_not_the_clients() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let other = app.create_client().await;
    let session = app.session(&client).await;
    let ids = contacts(&app, &client, &["ann@example.org"]).await;
    let list = upload_list(&app, &client, "Everyone", &ids).await;
    let foreign = segment(&app, &other, "Theirs", &[]).await;
    let sender = sender(&app, &session).await;
    let base = json!({ "name": "A", "subjectLine": "S", "senderId": sender, "sendTime": tomorrow(),
                       "bodyHtml": "", "isDraft": true });
    for (extra, message) in [
        (json!({}), "Choose a list or a segment"),
        (
            json!({ "listId": list, "segmentId": foreign }),
            "Choose a list or a segment, not both",
        ),
        (json!({ "segmentId": foreign }), "Unknown segment"),
        (
            json!({ "listId": list, "suppressionSegmentIds": [foreign] }),
            "Unknown segment",
        ),
        (
            json!({ "listId": list, "suppressionListIds": [list + 1000] }),
            "Unknown list",
        ),
        (
            json!({ "listId": list, "variants": [{ "senderId": sender + 1000 }] }),
            "Unknown sender",
        ),
        (
            json!({ "listId": list, "variants": [{ "subjectLine": "two\nlines" }] }),
            "A variant's subject line must be a single line",
        ),
    ] {
        let mut body = base.clone();
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let response = app
            .api(Method::POST, "/api/crm-mailing", &session)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["message"], message, "{body}");
    }
    // Every client has the standard segments; the other client's own segment is not among them.
    let options = app.get_json("/api/crm-mailing/audiences", &session).await;
    let options = options.as_array().unwrap();
    assert_eq!(
        options[0],
        json!({ "kind": "list", "id": list, "name": "Everyone", "size": 1 })
    );
    assert_eq!(options.iter().filter(|o| o["kind"] == "list").count(), 1);
    let standard: i64 =
        sqlx::query_scalar("select count(*) from segments where standard is not null")
            .fetch_one(&mut *app.tenancy.begin(&client).await.unwrap())
            .await
            .unwrap();
    assert_eq!(
        options.iter().filter(|o| o["kind"] == "segment").count() as i64,
        standard,
        "another client's segment is not offered"
    );
    assert!(options.iter().all(|o| o["name"] != "Theirs"));
}
