//! Issue 17, item 14: a list's page shows its members (searched, a page at a time, with their subscription) and
//! a member can be taken off an upload list.
use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::Value;

#[tokio::test]
async fn a_lists_members_are_paged_searched_and_removable_from_an_upload_list() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    // 30 members a00…a29, one unsubscribed; one contact outside the list.
    sqlx::query(
        "insert into contacts (email, first_name, last_name, subscription)
         select format('a%s@example.org', lpad(n::text, 2, '0')), 'Ann' || n, 'Lee',
                case when n = 7 then 'unsubscribed' else 'subscribed' end
         from generate_series(0, 29) n
         union all select 'out@example.org', 'Out', 'Sider', 'subscribed'",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    let list: i64 = sqlx::query_scalar(
        "insert into crm_lists (name, kind, count) values ('Upload', 'upload', 30) returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "insert into crm_list_members (list_id, contact_id)
         select $1, id from contacts where email like 'a%'",
    )
    .bind(list)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let first = app
        .get_json(&format!("/api/crm-list/{list}/members"), &session)
        .await;
    assert_eq!(first["total"], 30);
    assert_eq!(first["pageSize"], 25);
    assert_eq!(first["members"].as_array().unwrap().len(), 25);
    assert_eq!(first["members"][0]["email"], "a00@example.org");
    assert_eq!(first["members"][7]["subscription"], "unsubscribed");
    let second = app
        .get_json(&format!("/api/crm-list/{list}/members?page=2"), &session)
        .await;
    assert_eq!(second["members"].as_array().unwrap().len(), 5);

    // Search by name or e-mail, any case; % and _ are literal.
    let found = app
        .get_json(&format!("/api/crm-list/{list}/members?q=ANN12"), &session)
        .await;
    assert_eq!(found["total"], 1);
    assert_eq!(found["members"][0]["email"], "a12@example.org");
    let none = app
        .get_json(&format!("/api/crm-list/{list}/members?q=%25"), &session)
        .await;
    assert_eq!(none["total"], 0);
    let outside = app
        .get_json(&format!("/api/crm-list/{list}/members?q=out"), &session)
        .await;
    assert_eq!(outside["total"], 0);

    let contact = found["members"][0]["contactId"].as_i64().unwrap();
    let path = format!("/api/crm-list/{list}/members/{contact}");
    let removed = app
        .api(Method::DELETE, &path, &session)
        .send()
        .await
        .unwrap();
    assert_eq!(removed.status(), StatusCode::NO_CONTENT);
    let again = app
        .api(Method::DELETE, &path, &session)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
    let after = app
        .get_json(&format!("/api/crm-list/{list}/members"), &session)
        .await;
    assert_eq!(after["total"], 29);
    let detail: Value = app
        .get_json(&format!("/api/crm-list/{list}"), &session)
        .await;
    assert_eq!(detail["count"], 29);
    // The contact stays.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let kept: i64 = sqlx::query_scalar("select count(*) from contacts where id = $1")
        .bind(contact)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(kept, 1);
}
