use super::*;

#[tokio::test]
async fn another_clients_contacts_and_uploads_are_out_of_reach() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let a = app.create_client().await;
    let b = app.create_client().await;
    let session_a = app.session(&a).await;
    let session_b = app.session(&b).await;
    app.import(
        "/api/crm-list/upload?name=A&createNewContacts=1",
        &session_a,
        "a.csv",
        b"email\nonly-a@example.org\n".to_vec(),
    )
    .await;
    let page = app.get_json("/api/contacts", &session_b).await;
    assert_eq!(page["total"], 0);
    let a_contact = app.get_json("/api/contacts", &session_a).await["items"][0]["id"]
        .as_i64()
        .unwrap();
    let response = app
        .api(
            Method::GET,
            &format!("/api/contacts/{a_contact}"),
            &session_b,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn deleting_a_list_or_a_contact_removes_their_memberships() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let csv = b"email\na@example.org\nb@example.org\n".to_vec();
    let first = list_id(
        &app.import(
            "/api/crm-list/upload?name=One&createNewContacts=1",
            &session,
            "a.csv",
            csv.clone(),
        )
        .await,
    );
    let second = list_id(
        &app.import("/api/crm-list/upload?name=Two", &session, "a.csv", csv)
            .await,
    );
    let members = |list: i64| {
        let app = &app;
        let client = &client;
        async move {
            let mut tx = app.tenancy.begin(client).await.unwrap();
            sqlx::query_scalar::<_, i64>("select count(*) from crm_list_members where list_id = $1")
                .bind(list)
                .fetch_one(&mut *tx)
                .await
                .unwrap()
        }
    };
    assert_eq!((members(first).await, members(second).await), (2, 2));

    let deleted = app
        .api(Method::DELETE, &format!("/api/crm-list/{first}"), &session)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(members(first).await, 0);

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("delete from contacts where email = 'a@example.org'")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(members(second).await, 1);
}
