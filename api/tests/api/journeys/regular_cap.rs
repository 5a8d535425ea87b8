//! The programme's frequency cap holds back regular mailings too (issue 31): a contact who already had the day's
//! e-mails (here a journey's) is left out of a mailing, which says how many it left out; an urgent mailing that
//! ignores the cap reaches everyone.
use super::*;
use crate::mailings::{send_now, wait_for_delivery};

impl Fixture {
    /// A confirmed mailing to `list`, sent at once through the worker; the mailing once its delivery is done.
    async fn mail_list(&self, list: i64, subject: &str, respect_cap: Option<bool>) -> Value {
        let sender = self.scalar("select id from senders").await;
        let mut body = json!({ "name": subject, "subjectLine": subject, "senderId": sender,
                               "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(),
                               "listId": list, "bodyHtml": "<p>Dear {{First.Name}},</p>", "isDraft": false });
        if let Some(respect) = respect_cap {
            body["respectCap"] = json!(respect);
        }
        let (status, created) = self
            .call(Method::POST, "/api/crm-mailing", Some(body))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        assert_eq!(created["respectCap"], respect_cap.unwrap_or(true));
        let id = created["id"].as_i64().unwrap();
        send_now(&self.app, &self.session.client, id).await;
        wait_for_delivery(&self.app, &self.session, id, "done").await
    }
}

#[tokio::test]
async fn a_regular_mailing_leaves_out_who_reached_the_cap_today_unless_it_ignores_the_cap() {
    let f = fixture().await;
    let ids = f.contacts(&["ann@example.org", "bob@example.org"]).await;
    let (ann, bob) = (ids[0], ids[1]);
    let (status, body) = f
        .call(Method::PUT, "/api/journeys/limits", Some(json!({ "per_day": 1, "per_week": null, "quiet_start_hour": null, "quiet_end_hour": null })))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Ann gets a journey's welcome today: her one e-mail of the day.
    f.active_journey(
        "Welcome",
        json!({ "triggers": [{ "kind": "list_added", "list_id": f.list }], "start": "mail",
                "steps": [{ "id": "mail", "kind": "send", "template_id": f.template, "subject": "Welcome", "on_cap": "wait", "next": null }] }),
    )
    .await;
    f.exec(&format!(
        "insert into crm_list_members (list_id, contact_id) values ({}, {ann})",
        f.list
    ))
    .await;
    assert_eq!(f.pass().await.enrolled, 1);
    assert_eq!(
        f.delivered(1).await,
        vec![("ann@example.org".to_owned(), "Welcome".to_owned())]
    );
    let members = f
        .scalar("insert into crm_lists (name, kind) values ('Members', 'upload') returning id")
        .await;
    f.exec(&format!(
        "insert into crm_list_members (list_id, contact_id) values ({members}, {ann}), ({members}, {bob})"
    ))
    .await;

    // A regular mailing today: Ann is held back, Bob gets it, and the mailing says so.
    let june = f.mail_list(members, "June appeal", None).await;
    assert_eq!(june["recipCount"], 1, "{june}");
    assert_eq!(june["heldBack"], 1, "{june}");
    let id = june["id"].as_i64().unwrap();
    let stats = f
        .app
        .get_json(&format!("/api/crm-mailing/{id}/stats"), &f.session)
        .await;
    assert_eq!(
        (stats["recipients"].as_i64(), stats["heldBack"].as_i64()),
        (Some(1), Some(1)),
        "{stats}"
    );
    assert_eq!(
        f.scalar(&format!(
            "select contact_id from mailing_held_back where mailing_id = {id}"
        ))
        .await,
        ann
    );
    assert_eq!(
        f.delivered(2).await,
        vec![
            ("ann@example.org".to_owned(), "Welcome".to_owned()),
            ("bob@example.org".to_owned(), "June appeal".to_owned())
        ]
    );

    // An urgent mailing ignores the cap: both get it, though each already had the day's e-mail.
    let urgent = f.mail_list(members, "Urgent", Some(false)).await;
    assert_eq!(
        (urgent["recipCount"].as_i64(), urgent["heldBack"].as_i64()),
        (Some(2), Some(0)),
        "{urgent}"
    );
    assert_eq!(
        f.delivered(4).await,
        vec![
            ("ann@example.org".to_owned(), "Urgent".to_owned()),
            ("ann@example.org".to_owned(), "Welcome".to_owned()),
            ("bob@example.org".to_owned(), "June appeal".to_owned()),
            ("bob@example.org".to_owned(), "Urgent".to_owned())
        ]
    );
    // The urgent mailing still counts: both have had two e-mails today, so the next capped mailing reaches nobody.
    let july = f.mail_list(members, "July appeal", Some(true)).await;
    assert_eq!(
        (july["recipCount"].as_i64(), july["heldBack"].as_i64()),
        (Some(0), Some(2)),
        "{july}"
    );
    let july = july["id"].as_i64().unwrap();
    assert_eq!(
        f.scalar(&format!(
            "select count(*) from mailing_held_back where mailing_id = {july} and contact_id in ({ann}, {bob})"
        ))
        .await,
        2
    );
    assert_eq!(f.inbox.lock().unwrap().len(), 4);
    // A test copy to the signed-in user is never capped.
    let sender = f.scalar("select id from senders").await;
    let (status, body) = f
        .call(
            Method::POST,
            "/api/crm-mailing/send-to-my-inbox",
            Some(json!({ "name": "Test", "subjectLine": "Test copy", "senderId": sender, "listId": members,
                         "bodyHtml": "<p>Dear {{First.Name}},</p>", "mailingId": july })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(f.delivered(5).await.len(), 5);
}
