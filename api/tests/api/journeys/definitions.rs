use super::*;

fn welcome(template: i64, triggers: Value) -> Value {
    json!({
        "triggers": triggers,
        "start": "welcome",
        "steps": [
            { "id": "welcome", "kind": "send", "template_id": template, "subject": "Welcome", "next": "pause", "x": 0, "y": 0 },
            { "id": "pause", "kind": "wait", "hours": 48, "next": "opened" },
            { "id": "opened", "kind": "branch", "condition": { "kind": "opened" }, "yes": null, "no": "again" },
            { "id": "again", "kind": "send", "template_id": template, "subject": "In case you missed it", "next": null }
        ]
    })
}

#[tokio::test]
async fn definitions_are_checked_with_the_step_named_versioned_and_limited() {
    let f = fixture().await;
    let t = f.template;
    let refused = |definition: Value| {
        let f = &f;
        async move {
            let (status, body) = f
                .call(
                    Method::POST,
                    "/api/journeys",
                    Some(json!({ "name": "Bad", "definition": definition })),
                )
                .await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            body["message"].as_str().unwrap().to_owned()
        }
    };
    let mut unreachable = welcome(t, json!([]));
    unreachable["steps"][1]["next"] = Value::Null;
    assert_eq!(
        refused(unreachable).await,
        "Step \"opened\" cannot be reached."
    );
    let mut missing = welcome(t, json!([]));
    missing["steps"][3]["template_id"] = json!(999_999);
    assert_eq!(
        refused(missing).await,
        "Step \"again\" uses template 999999, which does not exist."
    );
    let mut nowhere = welcome(t, json!([]));
    nowhere["steps"][2]["no"] = json!("ask2");
    assert_eq!(
        refused(nowhere).await,
        "Step \"opened\" leads to \"ask2\", which does not exist."
    );
    let spin = json!({ "start": "a", "steps": [
        { "id": "a", "kind": "split", "percent": 50, "a": "b", "b": null },
        { "id": "b", "kind": "add_to_list", "list_id": f.list, "next": "a" } ] });
    assert_eq!(
        refused(spin).await,
        "Step \"a\" is in a loop without a wait step."
    );
    let early = json!({ "start": "o", "steps": [
        { "id": "o", "kind": "branch", "condition": { "kind": "clicked" }, "yes": "m", "no": null },
        { "id": "m", "kind": "send", "template_id": t, "subject": "Hi", "next": null } ] });
    assert_eq!(
        refused(early).await,
        "Step \"o\" branches on an e-mail that may not have been sent yet."
    );
    let twice = json!({ "start": "e", "steps": [{ "id": "e", "kind": "end" }, { "id": "e", "kind": "end" }] });
    assert_eq!(refused(twice).await, "Step \"e\" is defined twice.");
    assert!(
        refused(json!({ "start": "e", "steps": [{ "id": "e", "kind": "teleport" }] }))
            .await
            .starts_with("The journey's definition is not valid")
    );
    let bad_form = welcome(t, json!([{ "kind": "form_signup", "form_id": 999_999 }]));
    assert_eq!(
        refused(bad_form).await,
        "The trigger's form 999999 does not exist."
    );

    // A draft without triggers saves, cannot be activated, and is edited in place.
    let (status, body) = f
        .call(
            Method::POST,
            "/api/journeys",
            Some(json!({ "name": "Welcome", "definition": welcome(t, json!([])) })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_i64().unwrap();
    let path = format!("/api/journeys/{id}");
    let (status, body) = f
        .call(Method::POST, &format!("{path}/activate"), None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["message"],
        "A journey needs at least one trigger to be activated."
    );
    let definition = welcome(t, json!([{ "kind": "list_added", "list_id": f.list }]));
    let (status, body) = f
        .call(
            Method::PUT,
            &path,
            Some(json!({ "name": "Welcome series", "definition": definition })),
        )
        .await;
    assert_eq!(
        (status, body["version"].as_i64()),
        (StatusCode::OK, Some(1)),
        "{body}"
    );
    let (status, body) = f
        .call(Method::POST, &format!("{path}/activate"), None)
        .await;
    assert_eq!(
        (status, body["status"].as_str()),
        (StatusCode::OK, Some("active"))
    );

    // A one-time push enrols a list's contacts once.
    let ids = f.contacts(&["ann@example.org", "bob@example.org"]).await;
    f.exec(&format!(
        "insert into crm_list_members (list_id, contact_id) select {}, unnest(array{ids:?}::bigint[])",
        f.list
    ))
    .await;
    let enrol = json!({ "list_id": f.list, "segment_id": null });
    let (status, body) = f
        .call(Method::POST, &format!("{path}/enrol"), Some(enrol.clone()))
        .await;
    assert_eq!(
        (status, body["enrolled"].as_i64()),
        (StatusCode::OK, Some(2)),
        "{body}"
    );
    let (_, body) = f
        .call(Method::POST, &format!("{path}/enrol"), Some(enrol))
        .await;
    assert_eq!(body["enrolled"], 0, "inside already: not again");
    // The list additions were events too: the pass finds both inside already.
    assert_eq!(f.pass().await.enrolled, 0);

    // Editing a live journey makes version 2; the contacts inside finish version 1.
    let mut changed = welcome(t, json!([{ "kind": "list_added", "list_id": f.list }]));
    changed["steps"][1]["hours"] = json!(24);
    let (status, body) = f
        .call(
            Method::PUT,
            &path,
            Some(json!({ "name": "Welcome series", "definition": changed })),
        )
        .await;
    assert_eq!(
        (status, body["version"].as_i64()),
        (StatusCode::OK, Some(2)),
        "{body}"
    );
    let detail = f.app.get_json(&path, &f.session).await;
    assert_eq!(detail["version"], 2);
    assert_eq!(detail["definition"]["steps"][1]["hours"], 24);
    assert_eq!(
        detail["versions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| (v["version"].clone(), v["active"].clone()))
            .collect::<Vec<_>>(),
        vec![(json!(1), json!(true)), (json!(2), json!(false))]
    );
    f.pass().await;
    let ann = f.places(ids[0]).await;
    assert_eq!(
        (ann[0]["version"].as_i64(), ann[0]["step_id"].as_str()),
        (Some(1), Some("pause")),
        "{ann:?}"
    );
    let list = f.app.get_json("/api/journeys", &f.session).await;
    assert_eq!(
        (list[0]["entered"].as_i64(), list[0]["active"].as_i64()),
        (Some(2), Some(2)),
        "{list}"
    );
    let figures = f
        .app
        .get_json(&format!("{path}/figures?version=1"), &f.session)
        .await;
    let welcome_step = figures["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["step_id"] == "welcome")
        .unwrap()
        .clone();
    assert_eq!(
        (
            welcome_step["reached"].as_i64(),
            welcome_step["sent"].as_i64()
        ),
        (Some(2), Some(2)),
        "{figures}"
    );

    // Pause, archive: the contacts inside leave.
    let (status, _) = f.call(Method::POST, &format!("{path}/pause"), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = f.call(Method::POST, &format!("{path}/pause"), None).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            StatusCode::CONFLICT,
            Some("Only an active journey can be paused.")
        )
    );
    let (status, _) = f.call(Method::POST, &format!("{path}/archive"), None).await;
    assert_eq!(status, StatusCode::OK);
    let bob = f.places(ids[1]).await;
    assert_eq!(
        (bob[0]["state"].as_str(), bob[0]["exit_reason"].as_str()),
        (Some("exited"), Some("archived"))
    );
    let (status, _) = f.call(Method::GET, "/api/journeys/999999", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The programme's limits.
    let limits = f.app.get_json("/api/journeys/limits", &f.session).await;
    assert_eq!(
        limits,
        json!({ "per_day": null, "per_week": null, "quiet_start_hour": null, "quiet_end_hour": null })
    );
    let (status, body) = f
        .call(Method::PUT, "/api/journeys/limits", Some(json!({ "per_day": 2, "per_week": null, "quiet_start_hour": 22, "quiet_end_hour": null })))
        .await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            StatusCode::BAD_REQUEST,
            Some("Quiet hours need both a start and an end hour.")
        )
    );
    let set = json!({ "per_day": 2, "per_week": 5, "quiet_start_hour": 22, "quiet_end_hour": 7 });
    let (status, _) = f
        .call(Method::PUT, "/api/journeys/limits", Some(set.clone()))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        f.app.get_json("/api/journeys/limits", &f.session).await,
        set
    );
}
