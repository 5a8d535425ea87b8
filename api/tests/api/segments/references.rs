//! A rule names lists, segments, origin codes and source codes by id: each must exist in the caller's own
//! schema (issue 33, item 8).

use super::*;

#[tokio::test]
async fn item_8_rules_naming_ids_that_do_not_exist_here_are_refused_with_the_place() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let other = app.create_client().await;
    let s = app.session(&client).await;
    let here = |sql: &'static str| {
        let client = client.clone();
        let app = &app;
        async move { app.scalar_in(&client, sql).await }
    };
    let list =
        here("insert into crm_lists (name, kind) values ('Here', 'upload') returning id").await;
    let code = here("insert into origin_codes (name) values ('here-code') returning id").await;
    // Another client's list: an id that exists, but above every list id of this client.
    let elsewhere = app
        .scalar_in(
            &other,
            &format!(
                "with x as (insert into crm_lists (name, kind)
                            select 'Elsewhere ' || g, 'upload' from generate_series(1, {}) g returning id)
                 select max(id) from x",
                list + 1
            ),
        )
        .await;
    assert!(elsewhere > list);

    let member = |field: &str, ids: Vec<i64>| json!({ "field": field, "op": "in", "value": ids });
    let cases = [
        (
            json!({ "conditions": [member("list", vec![list]), member("list", vec![list, elsewhere])] }),
            format!("rule.conditions[1].value[1]: list {elsewhere} does not exist"),
        ),
        (
            json!({ "op": "or", "groups": [
                { "conditions": [member("originCode", vec![code])] },
                { "conditions": [{ "field": "gave", "op": "never" }, member("originCode", vec![999999])] }
            ] }),
            "rule.groups[1].conditions[1].value[0]: origin code 999999 does not exist".to_owned(),
        ),
        (
            json!({ "conditions": [member("segment", vec![999999])] }),
            "rule.conditions[0].value[0]: segment 999999 does not exist".to_owned(),
        ),
        (
            json!({ "conditions": [{ "field": "sourceCode", "op": "in", "value": [999999] }] }),
            "rule.conditions[0].value[0]: source code 999999 does not exist".to_owned(),
        ),
    ];
    let saved = app
        .api(Method::POST, "/api/segments", &s)
        .json(&json!({ "name": "Known", "rule": { "conditions": [member("list", vec![list])] } }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        saved.status(),
        StatusCode::CREATED,
        "ids of this client are fine"
    );
    let saved: Value = saved.json().await.unwrap();
    for (rule, message) in cases {
        for (method, path, body) in [
            (
                Method::POST,
                "/api/segments/preview".to_owned(),
                json!({ "rule": rule }),
            ),
            (
                Method::POST,
                "/api/segments".to_owned(),
                json!({ "name": "Unknown", "rule": rule }),
            ),
            (
                Method::PUT,
                format!("/api/segments/{}", saved["id"]),
                json!({ "name": "Known", "rule": rule }),
            ),
        ] {
            let response = app
                .api(method.clone(), &path, &s)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(
                json_message(response).await,
                (StatusCode::BAD_REQUEST, message.clone()),
                "{method} {path}"
            );
        }
    }
    let count = app
        .scalar_in(
            &client,
            "select count(*) from segments where name = 'Unknown'",
        )
        .await;
    assert_eq!(count, 0, "nothing saved");
}
