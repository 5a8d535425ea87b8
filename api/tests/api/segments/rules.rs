use super::*;

#[tokio::test]
async fn every_rule_kind_selects_the_members_written_out() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let (p, list, source) = fixture(&app, &client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let (web,): (i64,) = sqlx::query_as("select id from origin_codes where name = 'web'")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let active: i64 =
        sqlx::query_scalar("select id from segments where standard = 'active_donors'")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    store::segments::compute(&mut tx, active).await.unwrap();
    // Whole client days around the gifts of 5–21 days ago, whatever the zone.
    let today = chrono::Utc::now().date_naive();
    let from_15 = (today - chrono::Days::new(15)).to_string();
    let tomorrow = (today + chrono::Days::new(1)).to_string();
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (cond("gave", "withinDays", json!(30)), vec!["a", "e"]),
        (
            json!({ "conditions": [{ "field": "gave", "op": "never" }] }),
            vec!["d", "f"],
        ),
        (cond("firstGift", "withinDays", json!(30)), vec!["e"]),
        (cond("totalGiven", "gte", json!("100")), vec!["a"]),
        (
            cond("totalGiven", "lte", json!("15")),
            vec!["c", "d", "e", "f"],
        ),
        (
            json!({ "conditions": [{ "field": "totalGiven", "op": "gte", "value": "40", "window": { "days": 30 } }] }),
            vec!["a"],
        ),
        (cond("giftCount", "gte", json!(2)), vec!["a"]),
        (cond("giftCount", "eq", json!(0)), vec!["d", "f"]),
        (
            cond("hpc", "between", json!({ "min": "20", "max": "100" })),
            vec!["a", "b"],
        ),
        (cond("mrc", "lte", json!("15")), vec!["c", "e"]),
        (cond("activeSustainer", "is", json!(true)), vec!["e"]),
        (cond("sourceCode", "in", json!([source])), vec!["a"]),
        (cond("channel", "in", json!(["EM"])), vec!["a"]),
        (cond("campaign", "in", json!(["spring"])), vec!["a"]),
        (cond("recencyBand", "in", json!(["active"])), vec!["a", "e"]),
        (cond("recencyBand", "in", json!(["lapsed"])), vec!["b"]),
        (
            cond("recencyBand", "in", json!(["longLapsed", "never"])),
            vec!["c", "d", "f"],
        ),
        (cond("rfmRecency", "eq", json!(5)), vec!["a", "e"]),
        (cond("rfmFrequency", "gte", json!(2)), vec!["a"]),
        (cond("rfmCell", "in", json!(["112"])), vec!["b"]),
        (cond("opened", "withinDays", json!(30)), vec!["d"]),
        (cond("clicked", "withinDays", json!(30)), vec![]),
        (
            json!({ "conditions": [{ "field": "mailingsReceived", "op": "gte", "value": 3, "window": { "days": 30 } }] }),
            vec!["d"],
        ),
        (
            json!({ "conditions": [{ "field": "mailingsReceived", "op": "lte", "value": 2, "window": { "days": 30 } }] }),
            vec!["a", "b", "c", "e", "f"],
        ),
        (cond("originCode", "in", json!([web])), vec!["a", "b"]),
        (
            cond("originCode", "notIn", json!([web])),
            vec!["c", "d", "e", "f"],
        ),
        (cond("list", "in", json!([list])), vec!["b"]),
        (cond("segment", "in", json!([active])), vec!["a", "e"]),
        (
            cond("segment", "notIn", json!([active])),
            vec!["b", "c", "d", "f"],
        ),
        (cond("state", "in", json!(["ny", "CA"])), vec!["a", "b"]),
        (cond("zipPrefix", "startsWith", json!("941")), vec!["b"]),
        (cond("created", "withinDays", json!(7)), vec!["f"]),
        (
            cond("subscription", "in", json!(["unsubscribed"])),
            vec!["f"],
        ),
        (
            json!({ "op": "or", "conditions": [{ "field": "opened", "op": "withinDays", "value": 30 }],
                    "groups": [{ "op": "and", "conditions": [
                        { "field": "originCode", "op": "in", "value": [web] },
                        { "field": "gave", "op": "withinDays", "value": 30 }]}]}),
            vec!["a", "d"],
        ),
        // Tests on the same per-contact row, merged into one subquery in the group's own AND / OR.
        (
            json!({ "op": "and", "conditions": [
                { "field": "gave", "op": "withinDays", "value": 30 },
                { "field": "totalGiven", "op": "gte", "value": "100" }]}),
            vec!["a"],
        ),
        (
            json!({ "op": "or", "conditions": [
                { "field": "totalGiven", "op": "gte", "value": "100" },
                { "field": "mrc", "op": "lte", "value": "15" },
                { "field": "opened", "op": "withinDays", "value": 30 },
                { "field": "clicked", "op": "withinDays", "value": 30 }]}),
            vec!["a", "c", "d", "e"],
        ),
        (
            json!({ "op": "and", "conditions": [
                { "field": "recencyBand", "op": "in", "value": ["active"] },
                { "field": "opened", "op": "withinDays", "value": 30 }]}),
            vec![],
        ),
        (
            cond(
                "gave",
                "between",
                json!({ "from": from_15, "to": tomorrow }),
            ),
            vec!["a"],
        ),
    ];
    for (rule, expected) in cases {
        let got = store::segments::preview_members(&mut tx, &rule)
            .await
            .unwrap();
        assert_eq!(got, p.ids(&expected), "rule {rule}");
    }
}

#[tokio::test]
async fn lybunt_and_sybunt_follow_their_standard_definitions() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    // Fiscal year from July: on the client's today the year began on the last 1 July.
    sqlx::query("update app_settings set fiscal_year_start = 7")
        .execute(&mut *tx)
        .await
        .unwrap();
    let fy: chrono::NaiveDate = sqlx::query_scalar("select fiscal_year_start(client_today())")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    // last_year: gave only in the previous fiscal year; older: only two years back; both: last year and this.
    let mut ids = Vec::new();
    for (name, gifts) in [
        ("last_year", vec![(fy - chrono::Months::new(6), "20")]),
        ("older", vec![(fy - chrono::Months::new(18), "20")]),
        ("both", vec![(fy - chrono::Months::new(6), "20"), (fy, "5")]),
        ("refunded_now", vec![(fy - chrono::Months::new(6), "20")]),
    ] {
        let id: i64 = sqlx::query_scalar("insert into contacts (email) values ($1) returning id")
            .bind(format!("{name}@example.org"))
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        for (i, (day, amount)) in gifts.iter().enumerate() {
            sqlx::query(
                "insert into contributions (platform, line_item_id, paid_at, amount, contact_id)
                 values ('actblue', $1, client_day_start($2) + interval '12 hours', $3::numeric, $4)",
            )
            .bind(format!("{name}{i}"))
            .bind(day)
            .bind(*amount)
            .bind(id)
            .execute(&mut *tx)
            .await
            .unwrap();
        }
        ids.push(id);
    }
    // A refunded gift this year does not count: refunded_now stays LYBUNT.
    sqlx::query(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, refunded_at)
         values ('actblue', 'r', now(), 30, $1, now())",
    )
    .bind(ids[3])
    .execute(&mut *tx)
    .await
    .unwrap();
    for (standard, expected) in [
        ("lybunt", vec![ids[0], ids[3]]),
        ("sybunt", vec![ids[0], ids[1], ids[3]]),
    ] {
        let id: i64 = sqlx::query_scalar("select id from segments where standard = $1")
            .bind(standard)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        let done = store::segments::compute(&mut tx, id).await.unwrap();
        assert_eq!(done.size as usize, expected.len(), "{standard}");
        let members: Vec<i64> = sqlx::query_scalar(
            "select contact_id from segment_members where segment_id = $1 order by contact_id",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
        assert_eq!(members, expected, "{standard}");
    }
    let today: chrono::NaiveDate = sqlx::query_scalar("select client_today()")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    // One definition: the LYBUNT and SYBUNT reports as of today list the segments' donors and count them alike.
    let session = app.session(&client).await;
    for (standard, expected) in [
        ("lybunt", vec![ids[0], ids[3]]),
        ("sybunt", vec![ids[0], ids[1], ids[3]]),
    ] {
        let report = app
            .get_json(
                &format!("/api/reports/{standard}?from={today}&to={today}"),
                &session,
            )
            .await;
        let mut listed: Vec<i64> = report["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row[0].as_str().unwrap().parse().unwrap())
            .collect();
        listed.sort_unstable();
        assert_eq!(listed, expected, "{standard} report");
        assert_eq!(
            report["totalRows"],
            serde_json::json!(expected.len()),
            "{standard} report"
        );
    }
}

#[tokio::test]
async fn rfm_scores_break_ties_alike_under_bands_and_quintiles() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    // Five donors: two tied at one $25 gift 10 days ago; one $25 gift 100 days ago; three $5 gifts 200 days
    // ago; twelve $100 gifts, the last 400 days ago (within 24 months: all twelve, 400..411 days ago).
    let plan: [(&str, &[(i32, &str)]); 5] = [
        ("t1", &[(10, "25")]),
        ("t2", &[(10, "25")]),
        ("m", &[(100, "25")]),
        ("s", &[(200, "5"), (201, "5"), (202, "5")]),
        (
            "big",
            &[
                (400, "100"),
                (401, "100"),
                (402, "100"),
                (403, "100"),
                (404, "100"),
                (405, "100"),
                (406, "100"),
                (407, "100"),
                (408, "100"),
                (409, "100"),
                (410, "100"),
                (411, "100"),
            ],
        ),
    ];
    let mut ids = Vec::new();
    for (name, gifts) in plan {
        let id: i64 = sqlx::query_scalar("insert into contacts (email) values ($1) returning id")
            .bind(format!("{name}@example.org"))
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        for (i, (days, amount)) in gifts.iter().enumerate() {
            sqlx::query(
                "insert into contributions (platform, line_item_id, paid_at, amount, contact_id)
                 values ('actblue', $1, now() - make_interval(days => $2), $3::numeric, $4)",
            )
            .bind(format!("{name}{i}"))
            .bind(*days)
            .bind(*amount)
            .bind(id)
            .execute(&mut *tx)
            .await
            .unwrap();
        }
        ids.push(id);
    }
    assert_eq!(store::segments::rfm::recompute(&mut tx).await.unwrap(), 5);
    // Bands: R ≤30 → 5, ≤90 → 4, ≤180 → 3, ≤365 → 2, else 1; F 1 → 1, 2 → 2, 3–5 → 3, 6–11 → 4, 12+ → 5;
    // M (24 months) <25 → 1, <100 → 2, <250 → 3, <1000 → 4, else 5.
    assert_eq!(
        scores(&mut tx, &ids).await,
        vec![(5, 1, 2), (5, 1, 2), (3, 1, 2), (2, 3, 1), (1, 5, 5)]
    );
    sqlx::query("update app_settings set rfm_method = 'quintiles'")
        .execute(&mut *tx)
        .await
        .unwrap();
    store::segments::rfm::recompute(&mut tx).await.unwrap();
    // Quintiles: score = 1 + floor(5 × (rank − 1) / 5), rank ascending with ties sharing the lowest rank.
    // R by last gift: big 1, s 2, m 3, t1 = t2 rank 4 → 4. F by gifts: t1 = t2 = m rank 1 → 1, s 4, big 5.
    // M by 24-month sum: s ($15) 1, t1 = t2 = m ($25) rank 2 → 2, big 5.
    assert_eq!(
        scores(&mut tx, &ids).await,
        vec![(4, 1, 2), (4, 1, 2), (3, 1, 2), (2, 4, 1), (1, 5, 5)]
    );
}

#[tokio::test]
async fn hostile_rules_are_refused_or_treated_as_data() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    fixture(&app, &client).await;
    let s = app.session(&client).await;
    let preview = |rule: Value| {
        app.api(Method::POST, "/api/segments/preview", &s)
            .json(&json!({ "rule": rule }))
            .send()
    };
    let mut deep = json!({ "conditions": [] });
    for _ in 0..40 {
        deep = json!({ "groups": [deep] });
    }
    let many: Vec<Value> = (0..60)
        .map(|_| json!({ "field": "gave", "op": "never" }))
        .collect();
    for (rule, path) in [
        (
            json!({ "conditions": [{ "field": "email; drop table contacts", "op": "in", "value": [1] }] }),
            "rule.conditions[0].field",
        ),
        (
            json!({ "conditions": [{ "field": "totalGiven", "op": "gte", "value": "99999999999999999999" }] }),
            "rule.conditions[0].value",
        ),
        (
            json!({ "conditions": [{ "field": "giftCount", "op": "gte", "value": 1e300 }] }),
            "rule.conditions[0].value",
        ),
        (
            json!({ "conditions": [{ "field": "gave", "op": "withinDays) or 1=1 --", "value": 1 }] }),
            "rule.conditions[0].op",
        ),
        (
            json!({ "conditions": [{ "field": "list", "op": "in", "value": ["1) or (1=1"] }] }),
            "rule.conditions[0].value[0]",
        ),
        (
            json!({ "groups": [{ "op": "or", "injected": "1" }] }),
            "rule.groups[0].injected",
        ),
        (
            deep,
            "rule.groups[0].groups[0].groups[0].groups[0].groups[0]",
        ),
        (json!({ "conditions": many }), "rule.conditions[50]"),
    ] {
        let (status, message) = json_message(preview(rule).await.unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(message.starts_with(&format!("{path}:")), "{message}");
    }
    // SQL in the string fields is data: it matches no one, and the tables are still there.
    for rule in [
        cond("state", "in", json!(["NY') or 1=1 --"])),
        cond("channel", "in", json!(["em' or '1'='1"])),
        cond("campaign", "in", json!(["x'); drop table contacts; --"])),
        cond("zipPrefix", "startsWith", json!("%' or ''='")),
    ] {
        let response = preview(rule).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.json::<Value>().await.unwrap()["count"], json!(0));
    }
    let count = app
        .api(Method::POST, "/api/segments/preview", &s)
        .json(&json!({ "rule": { "op": "and", "conditions": [] } }))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(count["count"], json!(6));
}

async fn scores(tx: &mut tenancy::TenantTx, ids: &[i64]) -> Vec<(i16, i16, i16)> {
    let mut out = Vec::new();
    for id in ids {
        let row: (i16, i16, i16) = sqlx::query_as(
            "select recency, frequency, monetary from rfm_scores where contact_id = $1",
        )
        .bind(id)
        .fetch_one(&mut **tx)
        .await
        .unwrap();
        out.push(row);
    }
    out
}
