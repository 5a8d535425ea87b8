//! Issue 27 items 6 and 7: a filter on the Contributions page narrows every part of it, and a mailing's refcode
//! groups under the mailing's name.

use super::*;

#[tokio::test]
async fn a_source_code_filter_narrows_totals_chart_and_breakdowns() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let fx = fixture(&app, &client).await;
    let code = format!("{MARCH}&sourceCodeId={}", fx.s1);
    // L1 (10.00) and L2 (25.00, recurring), both a@.
    let summary = app
        .get_json(&format!("/api/contributions/summary?{code}"), &session)
        .await;
    assert_eq!(
        (
            summary["gross"].as_str(),
            summary["net"].as_str(),
            summary["gifts"].as_i64(),
            summary["donors"].as_i64(),
            summary["newDonors"].as_i64(),
            summary["medianGift"].as_str(),
            summary["recurringGross"].as_str(),
        ),
        (
            Some("35.00"),
            Some("35.00"),
            Some(2),
            Some(1),
            Some(1),
            Some("17.50"),
            Some("25.00")
        )
    );
    let series = app
        .get_json(&format!("/api/contributions/series?{code}"), &session)
        .await;
    let days: Vec<(String, String)> = series["days"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["net"] != "0.00")
        .map(|d| {
            (
                d["date"].as_str().unwrap().to_owned(),
                d["net"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        days,
        vec![
            ("2026-03-02".to_owned(), "10.00".to_owned()),
            ("2026-03-15".to_owned(), "25.00".to_owned())
        ]
    );
    let breakdowns = app
        .get_json(&format!("/api/contributions/breakdowns?{code}"), &session)
        .await;
    let codes = breakdowns["sourceCodes"].as_array().unwrap();
    assert_eq!(codes.len(), 1, "{codes:?}");
    assert_eq!(codes[0]["key"], "em_20260301_spring_a");
    assert_eq!(codes[0]["gross"], "35.00");
    let channels = breakdowns["channels"].as_array().unwrap();
    assert_eq!(channels.len(), 1, "{channels:?}");
    assert_eq!(channels[0]["key"], "em");
}

#[tokio::test]
async fn recurring_and_refunded_filters_narrow_totals_chart_and_breakdowns() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    fixture(&app, &client).await;
    let recurring = format!("{MARCH}&recurring=true");
    let summary = app
        .get_json(&format!("/api/contributions/summary?{recurring}"), &session)
        .await;
    assert_eq!(
        (
            summary["gross"].as_str(),
            summary["gifts"].as_i64(),
            summary["donors"].as_i64(),
            summary["recurringGross"].as_str()
        ),
        (Some("25.00"), Some(1), Some(1), Some("25.00"))
    );
    let series = app
        .get_json(&format!("/api/contributions/series?{recurring}"), &session)
        .await;
    let net: Vec<&str> = series["days"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["net"] != "0.00")
        .map(|d| d["date"].as_str().unwrap())
        .collect();
    assert_eq!(net, vec!["2026-03-15"]);
    let bands = app
        .get_json(
            &format!("/api/contributions/breakdowns?{recurring}"),
            &session,
        )
        .await;
    assert_eq!(bands["bands"].as_array().unwrap().len(), 1);
    assert_eq!(bands["bands"][0]["key"], "$25–49.99");
    // Refunded: L3 (100.00, refunded) only; its net is nothing.
    let refunded = app
        .get_json(
            &format!("/api/contributions/summary?{MARCH}&refunded=true"),
            &session,
        )
        .await;
    assert_eq!(
        (
            refunded["gross"].as_str(),
            refunded["net"].as_str(),
            refunded["gifts"].as_i64(),
            refunded["refundedGifts"].as_i64()
        ),
        (Some("100.00"), Some("0.00"), Some(1), Some(1))
    );
    // Unfiltered totals still read the whole range.
    let all = app
        .get_json(&format!("/api/contributions/summary?{MARCH}"), &session)
        .await;
    assert_eq!(all["gross"], "197.50");
}

#[tokio::test]
async fn a_mailings_refcode_names_its_campaign_by_the_mailing() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let fx = fixture(&app, &client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    // The refcode a send makes: em_{yyyymmdd}_{mailing id}_{variant}.
    sqlx::query(
        "with s as (
             insert into source_codes (code, parsed, channel, campaign, variant, mailing_id)
             values ('em_20260305_' || $1 || '_b', true, 'em', $1::text, 'b', $1) returning id, code
         )
         insert into contributions (platform, line_item_id, paid_at, amount, email, refcode, source_code_id,
                                    mailing_id, attribution)
         select 'actblue', 'M1', '2026-03-06 12:00Z', 40, 'm@example.org', s.code, s.id, $1, 'refcode' from s",
    )
    .bind(fx.mailing)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let groups = app
        .get_json(
            &format!("/api/contribution-source-codes/groups?by=campaign&{MARCH}"),
            &session,
        )
        .await;
    let keys: Vec<&str> = groups
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, vec!["unparsed", "Spring appeal", "spring"]);
    let table = app
        .get_json(&format!("/api/contribution-source-codes?{MARCH}"), &session)
        .await;
    let row = table["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["variant"] == "b")
        .unwrap()
        .clone();
    assert_eq!(row["campaign"], "Spring appeal");
}
