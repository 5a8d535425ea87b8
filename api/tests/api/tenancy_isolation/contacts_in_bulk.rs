use super::*;

#[tokio::test]
async fn item_8_contacts_in_bulk_need_page_contacts_and_app_settings_need_edit_role() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let (plain, _, plain_id) = user_without_permissions(&app, &client, &admin).await;

    // A list with one member, and a form with one signup.
    let code: Value = app
        .api(
            Method::POST,
            "/api/external-origin-code/get-or-create-crm",
            &admin,
        )
        .json(&json!({ "name": "Rally" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("insert into contacts (email, first_name, origin_code_id) values ('ann@example.org', 'Ann', $1)")
        .bind(code["id"].as_i64().unwrap())
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let list: Value = app
        .api(Method::POST, "/api/crm-list", &admin)
        .json(&json!({ "name": "Rally goers", "originCodes": [code["id"]] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let download = format!("/api/crm-list/{}/download", list["id"]);
    let form: Value = app
        .api(Method::POST, "/api/crm-form", &admin)
        .json(&json!({ "name": "Join", "enabled": true }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let submitted = app
        .request(
            Method::POST,
            &format!("/api/crm-form/{}/submit", form["id"]),
        )
        .header("client-short", &client.short_name)
        .json(&json!({ "email": "bea@example.org" }))
        .send()
        .await
        .unwrap();
    assert_eq!(submitted.status(), StatusCode::OK);
    let signups = app.get_json("/api/external-signup", &admin).await;
    let signup = format!("/api/external-signup/{}", signups[0]["id"]);

    // No permissions: no export, no signups, no import into a new list, no renaming the client.
    for path in [&download, "/api/external-signup", &signup] {
        let response = app.api(Method::GET, path, &plain).send().await.unwrap();
        assert_refused(response, path).await;
    }
    let upload = app
        .upload(
            "/api/crm-list/upload?name=Sneaky&createNewContacts=1&overwriteOriginCode=1",
            &plain,
            "sneaky.csv",
            b"Email\nann@example.org\n".to_vec(),
        )
        .await;
    assert_refused(upload, "list upload").await;
    let rename = app
        .api(Method::PATCH, "/api/1", &plain)
        .json(&json!({ "client_name": "Taken over" }))
        .send()
        .await
        .unwrap();
    assert_refused(rename, "renaming the client").await;
    let lists = app.get_json("/api/crm-list", &admin).await;
    assert_eq!(
        lists.as_array().unwrap().len(),
        1,
        "no list was made: {lists}"
    );
    let settings = app.get_json("/api", &plain).await;
    assert_eq!(
        settings["client_name"],
        client.name.as_str(),
        "everyone reads the settings"
    );

    // pageContacts opens the contacts in bulk; it does not open the settings.
    grant(&app, &admin, plain_id, &[PAGE_CONTACTS]).await;
    let csv = app
        .api(Method::GET, &download, &plain)
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), StatusCode::OK);
    assert!(csv.text().await.unwrap().contains("ann@example.org"));
    let seen = app.get_json("/api/external-signup", &plain).await;
    assert_eq!(seen[0]["email"], "bea@example.org");
    let rename = app
        .api(Method::PATCH, "/api/1", &plain)
        .json(&json!({ "client_name": "Taken over" }))
        .send()
        .await
        .unwrap();
    assert_refused(rename, "renaming with pageContacts").await;

    // "edit role", the client's administrator permission, changes the settings.
    grant(&app, &admin, plain_id, &[EDIT_ROLE]).await;
    let renamed = app
        .api(Method::PATCH, "/api/1", &plain)
        .json(&json!({ "client_name": "Friends of the Lake" }))
        .send()
        .await
        .unwrap();
    assert_eq!(renamed.status(), StatusCode::OK);
    assert_eq!(
        app.get_json("/api", &admin).await["client_name"],
        "Friends of the Lake"
    );
}
