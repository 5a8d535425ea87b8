use super::*;

const META: &str = "Reporting starts,Reporting ends,Campaign name,Ad set name,Ad name,Ad ID,Day,Amount spent (USD),Impressions,Link clicks,Results,URL parameters
2026-10-01,2026-10-02,Fall Acquisition,Lookalikes,Video A,1001,2026-10-01,100.00,\"20,000\",200,5,utm_source=fb&refcode=fb_video_a
2026-10-01,2026-10-02,Fall Acquisition,Lookalikes,Video A,1001,2026-10-02,50.00,10000,100,2,utm_source=fb&refcode=fb_video_a
2026-10-01,2026-10-02,Fall Acquisition,Lookalikes,Static B,1002,2026-10-01,50.00,5000,50,1,
";

/// Google's export opens with a title and a date-range line and closes with totals.
const GOOGLE: &str = "Ad report
\"October 1, 2026 - October 2, 2026\"
Day,Campaign,Ad group,Ad ID,Cost,Impr.,Clicks,Conversions,Final URL
2026-10-01,Search Brand,Brand terms,555,\"1,000.00\",\"4,000\",400,10.00,https://secure.actblue.com/donate/x?refcode=g_brand
Total: Account,,,,\"1,000.00\",\"4,000\",400,10.00,
";

/// line, contact, email, paid at, amount, through the refcode, refunded
type Gift = (
    &'static str,
    Option<i64>,
    Option<&'static str>,
    &'static str,
    &'static str,
    bool,
    bool,
);

fn row<'a>(rows: &'a Value, name: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no row {name} in {rows}"))
}

/// Cents as the API writes money.
fn money(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// a ÷ b rounded half away from zero to 2 places, as SQL's round(numeric, 2).
fn ratio(a: i64, b: i64) -> String {
    let hundredths = (a * 1000 / b + 5) / 10;
    money(hundredths)
}

#[tokio::test]
async fn meta_and_google_exports_import_and_figures_equal_a_hand_computation() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let meta = import(&app, &session, "meta", "meta.csv", META).await;
    assert_eq!(meta["success"], json!(true), "{meta}");
    assert_eq!(meta["result"]["details"]["counts"]["newDays"], json!(3));
    let google = import(&app, &session, "google", "google.csv", GOOGLE).await;
    assert_eq!(google["success"], json!(true), "{google}");
    assert_eq!(google["result"]["details"]["totalRows"], json!(1));
    // The same export again replaces its days: nothing is counted twice.
    let again = import(&app, &session, "meta", "meta.csv", META).await;
    assert_eq!(again["result"]["details"]["counts"]["newDays"], json!(0));
    assert_eq!(
        again["result"]["details"]["counts"]["replacedDays"],
        json!(3)
    );

    // People and money: contacts from the ad's form, gifts through its refcode.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let origin: i64 =
        sqlx::query_scalar("insert into origin_codes (name) values ('fb_form') returning id")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    let contact = |email: &'static str, created: &'static str| {
        sqlx::query_scalar::<_, i64>(
            "insert into contacts (email, origin_code_id, created) values ($1, $2, $3::timestamptz) returning id",
        )
        .bind(email)
        .bind(origin)
        .bind(created)
    };
    let p1 = contact("p1@example.org", "2026-10-01 12:00-04")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let p2 = contact("p2@example.org", "2026-10-02 10:00-04")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    // Signed up before the range: not a new contact, but touched by a refcode gift in it.
    let p3 = contact("p3@example.org", "2026-09-20 10:00-04")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let code: i64 =
        sqlx::query_scalar("insert into source_codes (code) values ('fb_video_a') returning id")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    let gifts: Vec<Gift> = vec![
        // line, contact, email, paid at (New York), amount, refcode, refunded
        (
            "G0",
            Some(p3),
            None,
            "2026-09-01 09:00-04",
            "30.00",
            false,
            false,
        ),
        (
            "G1",
            Some(p1),
            None,
            "2026-10-01 18:00-04",
            "25.00",
            true,
            false,
        ),
        (
            "G7",
            Some(p1),
            None,
            "2026-10-01 19:00-04",
            "5.00",
            true,
            true,
        ),
        (
            "G6",
            Some(p3),
            None,
            "2026-10-01 20:00-04",
            "20.00",
            true,
            false,
        ),
        (
            "G5",
            None,
            Some("x@example.org"),
            "2026-10-02 11:00-04",
            "15.00",
            true,
            false,
        ),
        (
            "G2",
            Some(p1),
            None,
            "2026-10-20 09:00-04",
            "10.00",
            false,
            false,
        ),
        (
            "G3",
            Some(p2),
            None,
            "2026-12-15 09:00-05",
            "40.00",
            false,
            false,
        ),
        (
            "G4",
            Some(p2),
            None,
            "2027-06-01 09:00-04",
            "100.00",
            false,
            false,
        ),
        // A year and a day after p2's signup: outside every window.
        (
            "G8",
            Some(p2),
            None,
            "2027-10-04 09:00-04",
            "500.00",
            false,
            false,
        ),
    ];
    for (line, contact, email, paid, amount, coded, refunded) in gifts {
        sqlx::query(
            "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email, refcode,
                                        source_code_id, refund_id)
             values ('actblue', $1, $2::timestamptz, $3::numeric, $4, $5, $6, $7, $8)",
        )
        .bind(line)
        .bind(paid)
        .bind(amount)
        .bind(contact)
        .bind(email)
        .bind(coded.then_some("fb_video_a"))
        .bind(coded.then_some(code))
        .bind(refunded.then_some("R1"))
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();

    let ads = app.get_json("/api/media/ads", &session).await;
    let video = row(&ads, "Video A")["id"].as_i64().unwrap();
    assert_eq!(row(&ads, "Video A")["refcodes"], json!(["fb_video_a"]));
    assert_eq!(row(&ads, "555")["refcodes"], json!(["g_brand"]));
    let response = app
        .api(
            Method::PUT,
            &format!("/api/media/ads/{video}/codes"),
            &session,
        )
        .json(&json!({ "refcodes": ["fb_video_a"], "originCodeIds": [origin] }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    // A refcode of another ad is refused, not moved.
    let static_b = row(&ads, "Static B")["id"].as_i64().unwrap();
    let response = app
        .api(
            Method::PUT,
            &format!("/api/media/ads/{static_b}/codes"),
            &session,
        )
        .json(&json!({ "refcodes": ["fb_video_a"], "originCodeIds": [] }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CONFLICT);

    // Hand computation for Video A over Oct 1–2 (cents).
    let spend = 10000 + 5000;
    let (impressions, clicks) = (30_000i64, 300i64);
    // Touched: p1 and p2 (signups), x (refcode gift), p3 (refcode gift). New contacts: p1, p2.
    let new_contacts = 2;
    // New donors: first gift ever on or after the touch day and within the range: p1 (Oct 1), x (Oct 2).
    let new_donors = 2;
    // Same day: p1 25 (+ 5 refunded = 0), p3 20 (touch Oct 1), x 15 (touch Oct 2).
    let r0 = 2500 + 2000 + 1500;
    let r30 = r0 + 1000; // p1 on day 19
    let r90 = r30 + 4000; // p2 on day 74
    let r365 = r90 + 10000; // p2 on day 242; G8 is day 367
    let perf = app
        .get_json(
            "/api/media/performance?from=2026-10-01&to=2026-10-02&level=ad",
            &session,
        )
        .await;
    let v = row(&perf["rows"], "Video A");
    assert_eq!(v["spend"], json!(money(spend)));
    assert_eq!(v["impressions"], json!(impressions));
    assert_eq!(v["cpm"], json!(ratio(spend * 1000, impressions * 100)));
    assert_eq!(v["cpc"], json!(ratio(spend, clicks * 100)));
    assert_eq!(v["ctr"], json!("0.0100"));
    assert_eq!(v["newContacts"], json!(new_contacts));
    assert_eq!(v["cpl"], json!(ratio(spend, new_contacts * 100)));
    assert_eq!(v["newDonors"], json!(new_donors));
    assert_eq!(v["costPerDonor"], json!(ratio(spend, new_donors * 100)));
    assert_eq!(v["revenue0"], json!(money(r0)));
    assert_eq!(v["revenue30"], json!(money(r30)));
    assert_eq!(v["revenue90"], json!(money(r90)));
    assert_eq!(v["revenue365"], json!(money(r365)));
    assert_eq!(v["roas0"], json!(ratio(r0, spend)));
    assert_eq!(v["roas30"], json!(ratio(r30, spend)));
    assert_eq!(v["roas90"], json!(ratio(r90, spend)));
    assert_eq!(v["roas365"], json!(ratio(r365, spend)));
    assert_eq!(v["roas365"], json!("1.40"));
    assert_eq!(row(&perf["rows"], "Static B")["cpl"], Value::Null);

    // The campaign: Static B adds 50.00 of spend and nobody.
    let perf = app
        .get_json(
            "/api/media/performance?from=2026-10-01&to=2026-10-02&level=campaign",
            &session,
        )
        .await;
    let c = row(&perf["rows"], "Fall Acquisition");
    let spend = spend + 5000;
    assert_eq!(c["spend"], json!(money(spend)));
    assert_eq!(c["cpl"], json!(ratio(spend, 200)));
    assert_eq!(c["costPerDonor"], json!(ratio(spend, 200)));
    assert_eq!(c["roas30"], json!(ratio(r30, spend)));
    assert_eq!(
        row(&perf["rows"], "Search Brand")["spend"],
        json!("1000.00")
    );
    assert_eq!(perf["total"]["spend"], json!("1200.00"));
    assert_eq!(perf["total"]["clicks"], json!(750));
    // The total comes from the statement that reads the rows; it is every ad's figures at once (a person touched
    // by two ads counts once), exactly as the total computed alone.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let day = |d: &str| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").unwrap();
    let alone = store::media::performance(
        &mut tx,
        store::media::Level::Total,
        day("2026-10-01"),
        day("2026-10-02"),
        None,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let alone = &alone[0];
    assert_eq!(
        (
            perf["total"]["name"].as_str(),
            perf["total"]["newContacts"].as_i64(),
            perf["total"]["newDonors"].as_i64(),
            perf["total"]["revenue0"].as_str(),
            perf["total"]["revenue365"].as_str(),
            perf["total"]["costPerDonor"].as_str(),
        ),
        (
            Some("Total"),
            Some(alone.new_contacts),
            Some(alone.new_donors),
            Some(alone.revenue_0.as_str()),
            Some(alone.revenue_365.as_str()),
            alone.cost_per_donor.as_deref(),
        )
    );

    // The Media ROAS report is the campaign table: same numbers on the page, in the CSV and in the XLSX.
    let range = "from=2026-10-01&to=2026-10-02";
    let report = app
        .get_json(&format!("/api/reports/media-roas?{range}"), &session)
        .await;
    let cells: Vec<Vec<String>> = serde_json::from_value(report["rows"].clone()).unwrap();
    let fall = cells.iter().find(|r| r[0] == "Fall Acquisition").unwrap();
    let text = |v: &Value| {
        v.as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| v.to_string())
    };
    let expected: Vec<String> = [
        "spend",
        "impressions",
        "clicks",
        "cpm",
        "cpc",
        "ctr",
        "newContacts",
        "cpl",
        "newDonors",
        "costPerDonor",
        "revenue0",
        "revenue30",
        "revenue90",
        "revenue365",
        "roas0",
        "roas30",
        "roas90",
        "roas365",
    ]
    .iter()
    .map(|k| text(&c[*k]))
    .collect();
    assert_eq!(fall[2..], expected[..]);
    assert_eq!(
        (fall[2].as_str(), fall[17].as_str()),
        (money(spend).as_str(), ratio(r30, spend).as_str())
    );
    let kinds: Vec<String> = report["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap().to_owned())
        .collect();
    for format in ["csv", "xlsx"] {
        let response = app
            .api(
                Method::GET,
                &format!("/api/reports/media-roas/file?format={format}&{range}"),
                &session,
            )
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let bytes = response.bytes().await.unwrap();
        let read = if format == "csv" {
            crate::reports::read_csv(&bytes)
        } else {
            crate::reports::read_xlsx(&bytes, &kinds)
        };
        assert_eq!(read, cells, "{format}");
    }

    let series = app
        .get_json("/api/media/series?from=2026-10-01&to=2026-10-02", &session)
        .await;
    assert_eq!(series[0]["spend"], json!("1150.00"));
    assert_eq!(series[0]["revenue"], json!("45.00"));
    assert_eq!(series[1]["revenue"], json!("15.00"));

    let names = app
        .get_json("/api/selection/ad-campaign-names", &session)
        .await;
    assert_eq!(names.as_array().unwrap().len(), 2);
    let names = app.get_json("/api/selection/ad-names", &session).await;
    assert!(names
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["label"] == "Fall Acquisition › Lookalikes › Video A"));
}
