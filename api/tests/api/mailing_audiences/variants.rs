use super::*;

#[tokio::test]
async fn issue_15_each_variant_goes_to_its_share_with_its_own_subject_sender_preview_and_refcode() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails: Vec<String> = (0..31).map(|i| format!("r{i}@example.org")).collect();
    let refs: Vec<&str> = emails.iter().map(String::as_str).collect();
    let ids = contacts(&app, &client, &refs).await;
    let list = upload_list(&app, &client, "Everyone", &ids).await;
    let sender = sender(&app, &session).await;
    let other_sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Director", "fromAddress": "director@example.org" }),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let body = "<p>Dear {{First.Name}}</p><a href=\"https://secure.actblue.com/donate/x\">Give</a>";
    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "Split", "subjectLine": "Subject A {{First.Name}}", "senderId": sender,
                "sendTime": tomorrow(), "listId": list, "bodyHtml": body, "isDraft": false,
                "previewText": "Preview A",
                "variants": [{ "subjectLine": "Subject B {{First.Name}}", "senderId": other_sender },
                             { "previewText": "Preview C", "bodyHtml": "<p>C for {{First.Name}}</p>" }] }),
    )
    .await;
    let id = mailing["id"].as_i64().unwrap();
    assert_eq!(mailing["variants"][0]["letter"], "B");
    assert_eq!(mailing["variants"][1]["previewText"], "Preview C");
    send_now(&app, &client, id).await;
    wait_done(&app, &session, id).await;

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let split: Vec<(String, String, i64)> = sqlx::query_as(
        "select r.email, r.variant, count(*) over (partition by r.variant)
         from mailing_recipients r where r.mailing_id = $1 order by r.email",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(split.len(), 31);
    let mut sizes: Vec<i64> = split.iter().map(|s| s.2).collect();
    sizes.sort_unstable();
    sizes.dedup();
    assert!(
        sizes.iter().all(|n| (10..=11).contains(n)),
        "31 split three ways: {sizes:?}"
    );
    let messages = inbox.lock().unwrap();
    assert_eq!(messages.len(), 31, "everyone got exactly one message");
    for m in messages.iter() {
        let raw = String::from_utf8_lossy(&m.data).replace("=\r\n", "");
        let to = &m.recipients[0];
        let variant = &split.iter().find(|s| &s.0 == to).unwrap().1;
        let first = to.split('@').next().unwrap();
        let first = format!("{}{}", first[..1].to_uppercase(), &first[1..]);
        match variant.as_str() {
            "a" => {
                assert!(
                    raw.contains(&format!("Subject: Subject A {first}")),
                    "{raw}"
                );
                assert!(raw.contains("From: Team <team@example.org>"), "{raw}");
                assert!(raw.contains("Preview A"));
                assert!(
                    raw.contains(&format!("_{id}_a")),
                    "refcode with the letter a: {raw}"
                );
            }
            "b" => {
                assert!(
                    raw.contains(&format!("Subject: Subject B {first}")),
                    "{raw}"
                );
                assert!(
                    raw.contains("From: Director <director@example.org>"),
                    "{raw}"
                );
                assert!(raw.contains(&format!("_{id}_b")), "{raw}");
            }
            "c" => {
                assert!(
                    raw.contains(&format!("Subject: Subject A {first}")),
                    "{raw}"
                );
                assert!(raw.contains("Preview C"));
                assert!(raw.contains(&format!("C for {first}")), "{raw}");
            }
            other => panic!("unexpected variant {other}"),
        }
        assert!(raw.contains("List-Unsubscribe"), "unsubscribe per variant");
    }
}

#[tokio::test]
async fn issue_15_the_split_is_deterministic_for_a_seed_and_even_within_one() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails: Vec<String> = (0..1000).map(|i| format!("p{i}@example.org")).collect();
    let refs: Vec<&str> = emails.iter().map(String::as_str).collect();
    let ids = contacts(&app, &client, &refs).await;
    let list = upload_list(&app, &client, "Everyone", &ids).await;
    let sender = sender(&app, &session).await;
    let mut splits = Vec::new();
    for variants in [2usize, 3, 7] {
        let mailing = post(
            &app,
            &session,
            "/api/crm-mailing",
            json!({ "name": "Split", "subjectLine": "S", "senderId": sender, "sendTime": tomorrow(),
                    "listId": list, "bodyHtml": "", "isDraft": true,
                    "variants": vec![json!({ "subjectLine": "other" }); variants - 1] }),
        )
        .await;
        let id = mailing["id"].as_i64().unwrap();
        let mut tx = app.tenancy.begin(&client).await.unwrap();
        sqlx::query("update mailings set variant_seed = 42 where id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .unwrap();
        let sizes: Vec<i64> = sqlx::query_scalar(
            "select count(*) from mailing_audience_split($1) group by variant order by variant",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
        assert_eq!(sizes.len(), variants);
        assert_eq!(sizes.iter().sum::<i64>(), 1000);
        let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
        assert!(hi - lo <= 1, "{variants} variants: {sizes:?}");
        let once: Vec<(i64, String)> =
            sqlx::query_as("select contact_id, variant from mailing_audience_split($1) order by 1")
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .unwrap();
        let again: Vec<(i64, String)> =
            sqlx::query_as("select contact_id, variant from mailing_audience_split($1) order by 1")
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .unwrap();
        assert_eq!(once, again, "the same seed splits the same way");
        sqlx::query("update mailings set variant_seed = 43 where id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .unwrap();
        let other: Vec<(i64, String)> =
            sqlx::query_as("select contact_id, variant from mailing_audience_split($1) order by 1")
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .unwrap();
        assert_ne!(once, other, "another seed splits another way");
        tx.commit().await.unwrap();
        splits.push(once);
    }
}
