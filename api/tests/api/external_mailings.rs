//! External mailings imports through the real upload endpoint and worker: columns found by header synonyms or by
//! a mapping, figures stored as the file gives them (delivered derived when missing), a re-import that replaces
//! rather than adds, the figures counted in E-mail Analytics, the names served as selection data, a formula-like
//! name neutralised in the export, and bad files refused whole with each bad row named.

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// Headers as another platform's report and a lemlist export name them; no mapping needed.
const REPORT: &str = "Campaign Name,Platform,Sent At,Emails Sent,Delivered,Unique Opens,Unique Clicks,Unsubscribed,Bounced,Donations,Amount Raised
Spring appeal,Mailchimp,2030-03-04,1000,980,300,45,3,20,12,\"1,250.50\"
\"=HYPERLINK(\"\"http://x\"\")\",lemlist,2030-03-05T09:00:00.000Z,200,,60,10,1,4,2,300
";

async fn import(app: &TestApp, session: &Session, body: &str, fields: &[(&str, &str)]) -> Value {
    let mut form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(body.as_bytes().to_vec()).file_name("sends.csv"),
    );
    for (name, value) in fields {
        form = form.text(name.to_string(), value.to_string());
    }
    let response = app
        .api(Method::POST, "/api/external-mailings/import", session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    assert_eq!(job["label"], "External Mailings Import");
    app.wait_for_job(session, job["id"].as_i64().unwrap()).await
}

async fn march(app: &TestApp, session: &Session) -> Vec<Value> {
    let rows = app
        .get_json(
            "/api/external-mailings?from=2030-03-01&to=2030-03-31",
            session,
        )
        .await;
    let mut rows = rows.as_array().unwrap().clone();
    rows.sort_by_key(|r| r["sentOn"].as_str().unwrap_or_default().to_owned());
    rows.iter()
        .map(|r| {
            json!([
                r["source"],
                r["name"],
                r["sentOn"],
                r["recipients"],
                r["delivered"],
                r["bounces"],
                r["opens"],
                r["clicks"],
                r["unsubscribes"],
                r["gifts"],
                r["revenue"],
                r["openRate"],
                r["clickRate"],
                r["rpm"]
            ])
        })
        .collect()
}

#[tokio::test]
async fn a_report_imports_as_a_job_and_importing_it_again_replaces_rather_than_adds() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let job = import(&app, &session, REPORT, &[]).await;
    assert_eq!(job["success"], json!(true), "{job}");
    assert_eq!(
        job["result"]["details"]["counts"],
        json!({ "created": 2, "updated": 0, "repeated": 0 })
    );
    // Spring: open rate 300 / 1000; click rate 45 / 980 = 0.04592 → 0.0459; RPM 1250.50 × 1000 / 980 = 1276.02.
    // The lemlist row has no delivered figure: 200 − 4 bounces = 196; RPM 300 × 1000 / 196 = 1530.61.
    let expected = vec![
        json!([
            "esp",
            "Spring appeal",
            "2030-03-04",
            1000,
            980,
            20,
            300,
            45,
            3,
            12,
            "1250.50",
            0.3,
            0.0459,
            "1276.02"
        ]),
        json!([
            "lemlist",
            "=HYPERLINK(\"http://x\")",
            "2030-03-05",
            200,
            196,
            4,
            60,
            10,
            1,
            2,
            "300.00",
            0.3,
            0.051,
            "1530.61"
        ]),
    ];
    assert_eq!(march(&app, &session).await, expected);

    let again = import(&app, &session, REPORT, &[]).await;
    assert_eq!(
        again["result"]["details"]["counts"],
        json!({ "created": 0, "updated": 2, "repeated": 0 })
    );
    assert_eq!(march(&app, &session).await, expected, "nothing doubled");

    // Counted in E-mail Analytics: sent 1,200, delivered 1,176, opened 360 (0.3061 of delivered), revenue
    // 1,550.50, RPM 1,550.50 × 1000 / 1,176 = 1,318.45.
    let analytics = app
        .get_json(
            "/api/email-analytics?from=2030-03-01&to=2030-03-31&grain=month",
            &session,
        )
        .await;
    let total = &analytics["total"];
    assert_eq!(
        json!([
            total["sent"],
            total["delivered"],
            total["bounces"],
            total["opened"],
            total["openRate"],
            total["clicked"],
            total["unsubscribes"],
            total["revenue"],
            total["rpm"]
        ]),
        json!([1200, 1176, 24, 360, "0.3061", 55, 4, "1550.50", "1318.45"])
    );

    // Selection data by platform.
    let esp = app
        .get_json("/api/selection/external-mailing-names", &session)
        .await;
    assert_eq!(esp.as_array().unwrap().len(), 1);
    assert_eq!(esp[0]["label"], "Spring appeal");
    let lemlist = app
        .get_json("/api/selection/lemlist-campaign-names", &session)
        .await;
    assert_eq!(lemlist[0]["label"], "=HYPERLINK(\"http://x\")");

    // The export makes the formula-like name text.
    let export = app
        .api(
            Method::GET,
            "/api/external-mailings/export/csv?from=2030-03-01&to=2030-03-31",
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(export.status(), StatusCode::OK);
    let text = export.text().await.unwrap();
    assert!(
        text.starts_with("Sent on,Name,Platform,Recipients,"),
        "{text}"
    );
    assert!(
        text.contains("2030-03-05,\"'=HYPERLINK(\"\"http://x\"\")\",lemlist,200,196,4,60,"),
        "{text}"
    );
}

#[tokio::test]
async fn a_mapped_file_with_an_id_column_matches_sends_by_id() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mapping =
        json!({ "Step": "name", "When": "sent_on", "cid": "external_id", "People": "recipients",
                          "Replies": "clicks" })
        .to_string();
    let fields = [("platform", "lemlist"), ("mapping", mapping.as_str())];
    let first = "cid,Step,When,People,Replies,Opens\nc1,Intro,03/10/2030,50,5,40\nc2,Intro,03/10/2030,70,7,1\n";
    let job = import(&app, &session, first, &fields).await;
    assert_eq!(job["success"], json!(true), "{job}");
    // Renamed and re-counted in the platform: still the same two sends. Opens is not mapped, so it is not read.
    let second = "cid,Step,When,People,Replies,Opens\nc1,Intro (v2),03/11/2030,55,6,40\nc2,Intro,03/10/2030,70,7,1\n";
    let job = import(&app, &session, second, &fields).await;
    assert_eq!(
        job["result"]["details"]["counts"],
        json!({ "created": 0, "updated": 2, "repeated": 0 })
    );
    let rows = march(&app, &session).await;
    assert_eq!(
        rows.iter()
            .map(|r| json!([r[1], r[2], r[3], r[6], r[7]]))
            .collect::<Vec<_>>(),
        [
            json!(["Intro", "2030-03-10", 70, 0, 7]),
            json!(["Intro (v2)", "2030-03-11", 55, 0, 6])
        ]
    );
}

#[tokio::test]
async fn a_bad_file_imports_nothing_and_names_each_bad_row() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let bad = "Name,Date,Recipients,Opens\nGood,2030-03-01,10,1\nLate,someday,10,1\nOdd,2030-03-02,10,lots\n";
    let job = import(&app, &session, bad, &[]).await;
    assert_eq!(job["success"], json!(false), "{job}");
    assert_eq!(
        job["error"],
        "Nothing was imported: Row 3, column 'Date': \"someday\" is not a date; \
         Row 4, column 'Opens': \"lots\" is not a whole number"
    );
    assert_eq!(march(&app, &session).await, Vec::<Value>::new());

    let job = import(&app, &session, "Email,Opens\na@example.org,1\n", &[]).await;
    assert_eq!(job["error"], "Map a column to 'Name' and 'Send date'");

    // A mapping that leaves out the send date, or names an unknown field, is refused before any job.
    for (mapping, message) in [
        (r#"{"Name":"name"}"#, "Map a column to Send date"),
        (
            r#"{"Name":"name","Date":"sent_on","X":"nope"}"#,
            "Unknown field \"nope\"",
        ),
    ] {
        let form = reqwest::multipart::Form::new()
            .part(
                "file",
                reqwest::multipart::Part::bytes(bad.as_bytes().to_vec()).file_name("x.csv"),
            )
            .text("mapping", mapping);
        let response = app
            .api(Method::POST, "/api/external-mailings/import", &session)
            .multipart(form)
            .send()
            .await
            .unwrap();
        assert_eq!(
            json_message(response).await,
            (StatusCode::BAD_REQUEST, message.to_owned())
        );
    }
}
