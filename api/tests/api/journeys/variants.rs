//! A send step with its own body and variants (issue 31): recipients are dealt to A, B and C, each gets its
//! variant's subject and body, and the journey's figures give the step once (however many days it mailed) with
//! its figures per variant.
use super::*;
use std::collections::HashMap;

const BODY_A: &str = "<p>Dear {{First.Name}}, will you chip in today?</p>";
const BODY_C: &str = "<p>{{First.Name}}, every dollar counts this week.</p>";

fn definition(list: i64) -> Value {
    json!({ "triggers": [{ "kind": "list_added", "list_id": list }], "start": "mail",
            "steps": [{ "id": "mail", "kind": "send", "subject": "Chip in", "body_html": BODY_A,
                        "variants": [{ "subject": "Will you chip in?" }, { "body_html": BODY_C }],
                        "on_cap": "wait", "next": null }] })
}

impl Fixture {
    /// Every message at the sink: recipient → (subject, decoded text).
    fn messages(&self) -> HashMap<String, (String, String)> {
        self.inbox
            .lock()
            .unwrap()
            .iter()
            .map(|m| {
                let (to, subject, raw) = read_message(m);
                (to, (subject, raw))
            })
            .collect()
    }

    async fn add_to_list(&self, ids: &[i64]) {
        let values: Vec<String> = ids
            .iter()
            .map(|c| format!("({}, {c})", self.list))
            .collect();
        self.exec(&format!(
            "insert into crm_list_members (list_id, contact_id) values {}",
            values.join(", ")
        ))
        .await;
    }
}

#[tokio::test]
async fn a_send_step_with_its_own_body_deals_its_recipients_to_its_variants() {
    let f = fixture().await;
    // Refused with the place named: both a template and a body, or a variant with nothing of its own.
    let mut both = definition(f.list);
    both["steps"][0]["template_id"] = json!(f.template);
    let (status, body) = f
        .call(
            Method::POST,
            "/api/journeys",
            Some(json!({ "name": "Both", "definition": both })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["message"],
        "Step \"mail\" has both a template and its own body: keep one."
    );
    let mut empty = definition(f.list);
    empty["steps"][0]["variants"] = json!([{ "subject": "Fine" }, {}]);
    let (status, body) = f
        .call(
            Method::POST,
            "/api/journeys",
            Some(json!({ "name": "Empty", "definition": empty })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["message"],
        "Variant C of step \"mail\" needs its own subject (at most 300 characters) or body."
    );

    let id = f.active_journey("Ask", definition(f.list)).await;
    let emails: Vec<String> = (0..30).map(|i| format!("d{i:02}@example.org")).collect();
    let refs: Vec<&str> = emails.iter().map(String::as_str).collect();
    let ids = f.contacts(&refs).await;
    f.add_to_list(&ids).await;
    assert_eq!(f.pass().await.enrolled, 30);
    f.delivered(30).await;

    // Each contact got its variant's subject and body: A the step's own, B its subject, C its body.
    let messages = f.messages();
    let mut variant_of: HashMap<String, String> = HashMap::new();
    for (email, variant) in sqlx::query_as::<_, (String, String)>(
        "select r.email, r.variant from mailing_recipients r
         join journey_step_mailings m on m.mailing_id = r.mailing_id",
    )
    .fetch_all(&mut *f.app.tenancy.begin(&f.session.client).await.unwrap())
    .await
    .unwrap()
    {
        variant_of.insert(email, variant);
    }
    assert_eq!(variant_of.len(), 30);
    let mut dealt: HashMap<&str, usize> = HashMap::new();
    for (email, (subject, raw)) in &messages {
        let variant = variant_of[email].as_str();
        *dealt.entry(variant).or_default() += 1;
        // The first name is the address's local part, capitalised: "D07".
        let name = format!("D{}", &email[1..3]);
        match variant {
            "a" => {
                assert_eq!(subject, "Chip in");
                assert!(
                    raw.contains(&format!("Dear {name}, will you chip in today?")),
                    "{raw}"
                );
            }
            "b" => {
                assert_eq!(subject, "Will you chip in?");
                assert!(
                    raw.contains(&format!("Dear {name}, will you chip in today?")),
                    "{raw}"
                );
            }
            "c" => {
                assert_eq!(subject, "Chip in");
                assert!(
                    raw.contains(&format!("{name}, every dollar counts this week.")),
                    "{raw}"
                );
            }
            other => panic!("variant {other}"),
        }
    }
    assert_eq!(dealt.len(), 3, "every variant has recipients: {dealt:?}");

    // A day later six more enter: the step's second mailing. A gift from one recipient of the first day.
    f.advance(24.0).await;
    let more: Vec<String> = (30..36).map(|i| format!("d{i:02}@example.org")).collect();
    let refs: Vec<&str> = more.iter().map(String::as_str).collect();
    let ids = f.contacts(&refs).await;
    f.add_to_list(&ids).await;
    assert_eq!(f.pass().await.enrolled, 6);
    f.delivered(36).await;
    assert_eq!(
        f.scalar(&format!(
            "select count(*) from journey_step_mailings where journey_id = {id}"
        ))
        .await,
        2
    );
    let giver_variant = variant_of["d00@example.org"].to_uppercase();
    f.exec(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, mailing_id)
         select 'actblue', 'v-1', now(), 50.00, r.contact_id, r.mailing_id
         from mailing_recipients r where r.email = 'd00@example.org'",
    )
    .await;

    let figures = f
        .app
        .get_json(&format!("/api/journeys/{id}/figures"), &f.session)
        .await;
    let steps = figures["steps"].as_array().unwrap();
    assert_eq!(
        steps.len(),
        1,
        "one row for the step, not one per day: {figures}"
    );
    let step = &steps[0];
    assert_eq!(
        (step["reached"].as_i64(), step["sent"].as_i64()),
        (Some(36), Some(36)),
        "{step}"
    );
    assert_eq!(
        (step["gifts"].as_i64(), step["revenue_cents"].as_i64()),
        (Some(1), Some(5000)),
        "{step}"
    );
    let variants = step["variants"].as_array().unwrap();
    let letters: Vec<&str> = variants
        .iter()
        .filter_map(|v| v["variant"].as_str())
        .collect();
    assert_eq!(letters, ["A", "B", "C"], "{step}");
    assert_eq!(
        variants
            .iter()
            .filter_map(|v| v["recipients"].as_i64())
            .sum::<i64>(),
        36
    );
    for v in variants {
        let gave = v["variant"] == giver_variant.as_str();
        assert_eq!(v["gifts"], if gave { 1 } else { 0 }, "{v}");
        assert_eq!(v["revenue_cents"], if gave { 5000 } else { 0 }, "{v}");
    }
}
