use super::*;

mod guard_table;

use guard_table::{expect, guard_table};

fn document_operations() -> std::collections::BTreeMap<String, Operation> {
    let document: Value = serde_json::from_str(&api::routes::spec_json()).unwrap();
    let mut operations = std::collections::BTreeMap::new();
    for (path, methods) in document["paths"].as_object().unwrap() {
        for (method, operation) in methods.as_object().unwrap() {
            let scheme = operation["security"]
                .as_array()
                .and_then(|s| s.first())
                .and_then(|s| s.as_object())
                .and_then(|s| s.keys().next().cloned());
            let id = operation["operationId"].as_str().unwrap().to_owned();
            // Path parameters get values that name nothing: the guard must answer before any lookup.
            let path = path
                .replace("{id}", "999999")
                .replace("{contact_id}", "999999")
                .replace("{kind}", "universal")
                .replace("{token}", "x")
                .replace("{client_short}", "nosuchclient");
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let previous = operations.insert(
                id.clone(),
                Operation {
                    method,
                    path,
                    scheme,
                },
            );
            assert!(previous.is_none(), "operation id {id} used twice");
        }
    }
    operations
}

/// Asserts the caller got past the guard: whatever the answer, it is not a refusal of who they are.
async fn assert_admitted(response: Response, what: &str) {
    let status = response.status();
    let body = response.text().await.unwrap();
    assert!(
        status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN,
        "{what}: {status} {body}"
    );
}

#[tokio::test]
async fn item_8_every_operation_in_the_openapi_document_has_its_guard() {
    let operations = document_operations();
    let table = guard_table();
    let listed: std::collections::BTreeSet<&str> = table.iter().map(|e| e.op).collect();
    let missing: Vec<&String> = operations
        .keys()
        .filter(|id| !listed.contains(id.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "operations without an expected guard in guard_table: {missing:?}"
    );
    let stale: Vec<&&str> = listed
        .iter()
        .filter(|id| !operations.contains_key(**id))
        .collect();
    assert!(
        stale.is_empty(),
        "guard_table names unknown operations: {stale:?}"
    );
    for expected in &table {
        let declared = operations[expected.op].scheme.as_deref();
        let wanted = match expected.guard {
            Guard::Public => None,
            Guard::SignedIn | Guard::Universal(_) => Some("BasicAuth"),
            Guard::Open(_) | Guard::Trimmed(_) | Guard::Client(_) => Some("ClientAuth"),
        };
        assert_eq!(declared, wanted, "{} declares its security", expected.op);
    }

    let app = spawn_app().await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let admin_email = app.create_user(true, &[]).await;
    let admin_basic = app.basic_token(&admin_email).await;
    let (plain, plain_basic, plain_id) = user_without_permissions(&app, &client, &admin).await;

    for expected in &table {
        let op = &operations[expected.op];
        if expected.guard == Guard::Public {
            continue;
        }
        let anonymous = call(&app, op, expected, Caller::Nobody).await;
        assert_eq!(
            anonymous.status(),
            StatusCode::UNAUTHORIZED,
            "{} without a token",
            expected.op
        );
        if op.scheme.as_deref() == Some("ClientAuth") {
            let (status, message) =
                json_message(call(&app, op, expected, Caller::Basic(&admin_basic)).await).await;
            assert_eq!(
                (status, message.as_str()),
                (StatusCode::FORBIDDEN, "Select a client first"),
                "{} before a client is chosen",
                expected.op
            );
        }
    }

    // Each client permission: a user holding every other permission is refused; one holding just it is let in.
    let mut guards: Vec<&'static [&'static str]> = Vec::new();
    for expected in &table {
        if let Guard::Client(permissions) = expected.guard {
            if !guards.contains(&permissions) {
                guards.push(permissions);
            }
        }
    }
    for permissions in guards {
        let others: Vec<&str> = api::auth::ALL_CLIENT_PERMISSIONS
            .into_iter()
            .filter(|p| !permissions.contains(p))
            .collect();
        let guarded = || {
            table
                .iter()
                .filter(move |e| e.guard == Guard::Client(permissions))
        };
        grant(&app, &admin, plain_id, &others).await;
        for expected in guarded() {
            let response = call(
                &app,
                &operations[expected.op],
                expected,
                Caller::Client(&plain),
            )
            .await;
            assert_refused(
                response,
                &format!("{} holding all but {permissions:?}", expected.op),
            )
            .await;
        }
        grant(&app, &admin, plain_id, &permissions[..1]).await;
        for expected in guarded() {
            let response = call(
                &app,
                &operations[expected.op],
                expected,
                Caller::Client(&plain),
            )
            .await;
            assert_admitted(
                response,
                &format!("{} holding only {}", expected.op, permissions[0]),
            )
            .await;
        }
    }

    // With no permission at all, agency staff and a client user alike: refused everything guarded, let in to
    // the rest (what a trimmed answer leaves out: `no_role`).
    grant(&app, &admin, plain_id, &[]).await;
    let (client_user, _) = client_user_without_roles(&app, &client).await;
    for expected in &table {
        let op = &operations[expected.op];
        match expected.guard {
            Guard::Client(_) => {
                for (who, session) in [("universal", &plain), ("client", &client_user)] {
                    let response = call(&app, op, expected, Caller::Client(session)).await;
                    assert_refused(
                        response,
                        &format!("{} as a {who} user without permissions", expected.op),
                    )
                    .await;
                }
            }
            Guard::Open(_) | Guard::Trimmed(_) => {
                for (who, session) in [("universal", &plain), ("client", &client_user)] {
                    let response = call(&app, op, expected, Caller::Client(session)).await;
                    assert_admitted(
                        response,
                        &format!("{} as a {who} user without permissions", expected.op),
                    )
                    .await;
                }
            }
            Guard::Universal(_) => {
                let response = call(&app, op, expected, Caller::Basic(&plain_basic)).await;
                assert_refused(
                    response,
                    &format!("{} without the universal permission", expected.op),
                )
                .await;
                let response = call(&app, op, expected, Caller::Basic(&admin_basic)).await;
                assert_admitted(response, &format!("{} as an administrator", expected.op)).await;
            }
            Guard::Public | Guard::SignedIn => {}
        }
    }
    // Signed-in operations last: client login ends the step-1 session it is called with.
    let own_client = expect("clientLogin", Guard::SignedIn).json(json!({ "clientId": client.id }));
    for expected in table.iter().filter(|e| e.guard == Guard::SignedIn) {
        let op = &operations[expected.op];
        let expected = if expected.op == own_client.op {
            &own_client
        } else {
            expected
        };
        let response = call(&app, op, expected, Caller::Basic(&plain_basic)).await;
        assert_admitted(response, &format!("{} as any signed-in user", expected.op)).await;
    }
}
