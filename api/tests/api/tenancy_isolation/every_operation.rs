use super::*;

const VIEW_USER: &str = "view user";

fn expect(op: &'static str, guard: Guard) -> Expected {
    Expected {
        op,
        guard,
        body: Body::None,
        query: "",
    }
}

/// Every operation of the API and who may call it. An operation missing here fails
/// `item_8_every_operation_in_the_openapi_document_has_its_guard`: none ships without a decision on its guard.
fn guard_table() -> Vec<Expected> {
    use Guard::*;
    const CONTACTS: Guard = Client(&[PAGE_CONTACTS]);
    const ADMIN: Guard = Client(&[EDIT_ROLE]);
    let mailing = json!({ "name": "Guard", "subjectLine": "Hi", "senderId": 999999,
                          "sendTime": "2030-01-01T00:00:00Z", "listId": 999999, "bodyHtml": "<p>Hi</p>",
                          "isDraft": true });
    vec![
        expect("getAuthConfig", Public),
        expect("login", Public),
        expect("submitLoginCode", Public),
        expect("googleLogin", Public),
        expect("register", Public),
        expect("finishRegistration", Public),
        expect("sendResetEmail", Public),
        expect("checkResetToken", Public),
        expect("resetPassword", Public),
        expect("refreshToken", Public),
        expect("logout", Public),
        expect("viewCrmForm", Public),
        expect("recordCrmFormView", Public),
        expect("submitCrmForm", Public),
        expect("trackOpen", Public),
        expect("trackClick", Public),
        expect("unsubscribePage", Public),
        expect("unsubscribe", Public),
        expect("health", Public),
        expect("listMyClients", SignedIn),
        expect("getMe", SignedIn),
        expect("updateProfile", SignedIn).json(
            json!({ "firstName": "Gus", "lastName": "Guard", "phone": "", "twoFactorMethod": "email" }),
        ),
        expect("changePassword", SignedIn)
            .json(json!({ "currentPassword": "not-it", "newPassword": "Another-passw0rd" })),
        expect("startAuthenticatorEnrolment", SignedIn),
        expect("confirmAuthenticator", SignedIn).json(json!({ "code": "000000" })),
        // Tried last: it ends the session it is called with.
        expect("clientLogin", SignedIn).json(json!({ "clientId": 999999 })),
        expect("listGrantableClients", Universal(VIEW_USER)),
        expect("listUniversalUsers", Universal(VIEW_USER)),
        expect("createUniversalUser", Universal(VIEW_USER)).json(
            json!({ "email": "guard-new@example.org", "firstName": "G", "lastName": "U", "allClients": false,
                    "universalPermissions": [], "clientIds": [] }),
        ),
        expect("updateUniversalUser", Universal(VIEW_USER)).json(json!({})),
        expect("listUsers", Client(&[VIEW_USER])),
        expect("updateUser", Client(&[VIEW_USER])).json(json!({})),
        expect("listAuditEvents", Client(&[VIEW_USER])),
        expect("listRoles", Client(&[VIEW_USER, EDIT_ROLE])),
        expect("listPermissionNames", ClientUser),
        expect("createRole", ADMIN).json(json!({ "name": "Guard role", "permissions": [] })),
        expect("updateRole", ADMIN).json(json!({ "name": "Guard role", "permissions": [] })),
        expect("deleteRole", ADMIN),
        expect("getAppSettings", ClientUser),
        expect("updateAppSettings", ADMIN).json(json!({ "client_name": "Renamed by a guard test" })),
        expect("listJobs", ClientUser),
        expect("getJob", ClientUser),
        expect("recountLists", ClientUser),
        expect("listCrmLists", ClientUser),
        expect("createCrmList", ClientUser).json(json!({ "name": "Guard", "originCodes": [] })),
        expect("getCrmList", ClientUser),
        expect("deleteCrmList", ClientUser),
        expect("downloadCrmList", CONTACTS),
        expect("listCrmListMembers", CONTACTS),
        expect("removeCrmListMember", CONTACTS),
        expect("uploadCrmList", CONTACTS)
            .with(Body::File)
            .query("?name=Guard"),
        expect("importNgpList", CONTACTS).with(Body::File),
        expect("listImportFields", ClientUser),
        expect("importContacts", CONTACTS).with(Body::Mapped),
        expect("searchOriginCodes", ClientUser),
        expect("listOriginCodes", Client(&["pageContactOriginCodes"])),
        expect("getOrCreateOriginCode", ClientUser).json(json!({ "name": "Guard" })),
        expect("searchContacts", CONTACTS),
        expect("getContact", CONTACTS),
        expect("listCrmForms", ClientUser),
        expect("createCrmForm", ClientUser).json(json!({})),
        expect("getCrmForm", ClientUser),
        expect("updateCrmForm", ClientUser).json(json!({})),
        expect("deleteCrmForm", ClientUser),
        expect("listExternalSignups", CONTACTS),
        expect("getExternalSignup", CONTACTS),
        expect("listMailingTemplates", ClientUser),
        expect("createMailingTemplate", ClientUser).json(json!({})),
        expect("getMailingTemplate", ClientUser),
        expect("updateMailingTemplate", ClientUser).json(json!({})),
        expect("deleteMailingTemplate", ClientUser),
        expect("listSenderNames", ClientUser),
        expect("listSenders", ClientUser),
        expect("createSender", ADMIN).json(json!({ "name": "Guard", "fromAddress": "guard@example.org" })),
        expect("deleteSender", ADMIN),
        expect("sendMailingToMyInbox", ClientUser).json(mailing.clone()),
        expect("listMailings", ClientUser),
        expect("createMailing", ClientUser).json(mailing.clone()),
        expect("getMailing", ClientUser),
        expect("updateMailing", ClientUser).json(mailing),
        expect("deleteMailing", ClientUser),
        expect("resumeMailing", ClientUser),
        expect("getMailingStats", ClientUser),
        expect("listMailingAudiences", ClientUser),
        expect("listFlights", Client(&["pagePerformance"])),
        expect("exportFlightsCsv", Client(&["pagePerformance"])),
        expect("exportFlightsXlsx", Client(&["pagePerformance"])),
        expect("getFlightLinks", Client(&["pagePerformance"])),
        expect("getMailingLinks", ClientUser),
        expect("getMailingFirst48Hours", ClientUser),
        expect("listExperiments", Client(&["pagePerformance"])),
        expect("createExperiment", Client(&["pagePerformance"])).json(json!({ "name": "Guard",
            "kind": "subject", "mailingId": 999999, "testFraction": 0.2, "metric": "open_rate", "waitHours": 4,
            "autoSend": true, "baselineRate": 0.2, "expectedLift": 0.1 })),
        expect("listExperimentMailings", Client(&["pagePerformance"])),
        expect("checkExperimentSampleSize", Client(&["pagePerformance"])).json(
            json!({ "mailingId": 999999, "testFraction": 0.2, "baselineRate": 0.2, "expectedLift": 0.1 }),
        ),
        expect("getExperiment", Client(&["pagePerformance"])),
        expect("deleteExperiment", Client(&["pagePerformance"])),
        expect("startExperiment", Client(&["pagePerformance"])),
        expect("sendExperimentWinner", Client(&["pagePerformance"])).json(json!({})),
        expect("listExperimentNames", ClientUser),
        expect("listExperimentTypes", ClientUser),
        expect("listFlightNames", ClientUser),
        expect("listFlightTypes", ClientUser),
        expect("getContributionSummary", Client(&["pageContributions"])),
        expect("getContributionSeries", Client(&["pageContributions"])),
        expect("getContributionBreakdowns", Client(&["pageContributions"])),
        expect("listContributions", Client(&["pageContributions"])),
        expect("exportContributionsCsv", Client(&["pageContributions"])),
        expect("exportContributionsXlsx", Client(&["pageContributions"])),
        expect("getContactGiving", CONTACTS),
        expect("listContributionCategories", ClientUser),
        expect("listAttributionCodeNames", ClientUser),
        expect("listContactCategories", ClientUser),
        expect("listContribcodeNames", ClientUser),
        expect("listMailingNames", ClientUser),
        expect("listContributionSourceCodes", Client(&["pageContributionSourceCodes"])),
        expect("listContributionSourceCodeGroups", Client(&["pageContributionSourceCodes"])).query("?by=channel"),
        expect("listOriginCodeValue", Client(&["pageContactOriginCodes"])),
        expect("listOriginCodeAcquisition", Client(&["pageContactOriginCodes"])),
        expect("importContributions", Client(&["pageContributions"])).with(Body::Contributions),
        expect("listContributionImportFields", Client(&["pageContributions"])),
        expect("importMedia", Client(&["pageMedia"])).with(Body::Contributions),
        expect("listMediaImportFields", Client(&["pageMedia"])),
        expect("getMediaPerformance", Client(&["pageMedia"])),
        expect("getMediaSeries", Client(&["pageMedia"])),
        expect("listMediaAds", Client(&["pageMedia"])),
        expect("setMediaAdCodes", Client(&["pageMedia"]))
            .json(json!({ "refcodes": [], "originCodeIds": [] })),
        expect("listAdCampaignNames", ClientUser),
        expect("listAdGroupNames", ClientUser),
        expect("listAdNames", ClientUser),
        expect("getProjections", Client(&["pageProjections"])),
        expect("setProjectionGoal", Client(&["pageProjections"])).json(json!({ "month": 1, "amount": "100" })),
        expect("addInflectionEvent", Client(&["pageProjections"]))
            .json(json!({ "date": "2026-11-03", "label": "Guard" })),
        expect("deleteInflectionEvent", Client(&["pageProjections"])),
        expect("listInflectionMarkers", ClientUser),
        expect("actblueWebhook", Public),
        expect("listSegments", Client(&["pageSegments"])),
        expect("createSegment", Client(&["pageSegments"]))
            .json(json!({ "name": "Guard", "rule": { "op": "and", "conditions": [] } })),
        expect("previewSegmentCount", Client(&["pageSegments"]))
            .json(json!({ "rule": { "op": "and", "conditions": [] } })),
        expect("getSegment", Client(&["pageSegments"])),
        expect("updateSegment", Client(&["pageSegments"]))
            .json(json!({ "name": "Guard", "rule": { "op": "and", "conditions": [] } })),
        expect("deleteSegment", Client(&["pageSegments"])),
        expect("computeSegment", Client(&["pageSegments"])),
        expect("listSegmentMembers", Client(&["pageSegments"])),
        expect("exportSegment", Client(&["pageSegments"])),
        expect("saveSegmentAsList", Client(&["pageSegments"])).json(json!({ "name": "Guard" })),
        expect("getSegmentAnalytics", Client(&["pageSegments"])),
        expect("listSegmentNames", ClientUser),
        expect("listReports", Client(&["pageReports"])),
        expect("getReport", Client(&["pageReports"])),
        expect("downloadReport", Client(&["pageReports"])).query("?format=csv"),
        expect("buildReport", Client(&["pageReports"])).json(json!({ "format": "csv" })),
        expect("downloadReportFile", Client(&["pageReports"])),
        expect("listReportRecipients", Client(&["pageReports"])),
        expect("listReportSchedules", Client(&["pageReports"])),
        expect("createReportSchedule", Client(&["pageReports"])).json(
            json!({ "kind": "lybunt", "format": "csv", "frequency": "weekly", "recipients": ["x@example.org"] }),
        ),
        expect("deleteReportSchedule", Client(&["pageReports"])),
        expect("getDashboard", ClientUser),
        expect("getUsStatesGeojson", ClientUser),
        expect("getPlanningCalendar", Client(&["pagePlanning"])).query("?from=2026-01-01&to=2026-01-31"),
        expect("createPlannedSend", Client(&["pagePlanning"]))
            .json(json!({ "sendDate": "2030-01-01", "name": "Guard", "revenueGoal": "1.00" })),
        expect("updatePlannedSend", Client(&["pagePlanning"]))
            .json(json!({ "sendDate": "2030-01-01", "name": "Guard", "revenueGoal": "1.00" })),
        expect("listPlanningSegments", Client(&["pagePlanning"])),
        expect("deletePlannedSend", Client(&["pagePlanning"])),
        expect("makePlannedSendDraft", Client(&["pagePlanning"])),
        expect("movePlannedMailing", Client(&["pagePlanning"])).json(json!({ "day": "2030-01-01" })),
        expect("setPlanningMonthGoal", Client(&["pagePlanning"])).json(json!({ "month": "2030-01-01", "goal": "1.00" })),
        expect("getEmailAnalytics", Client(&["pagePerformance"])).query("?from=2026-01-01&to=2026-01-31"),
        expect("listExternalMailings", Client(&["pagePerformance"])).query("?from=2026-01-01&to=2026-01-31"),
        expect("exportExternalMailingsCsv", Client(&["pagePerformance"])).query("?from=2026-01-01&to=2026-01-31"),
        expect("importExternalMailings", Client(&["pagePerformance"])).with(Body::File),
        expect("listExternalMailingImportFields", Client(&["pagePerformance"])),
        expect("listExternalMailingNames", ClientUser),
        expect("listLemlistCampaignNames", ClientUser),
    ]
}

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
            Guard::ClientUser | Guard::Client(_) => Some("ClientAuth"),
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

    // With no permission at all: refused everything guarded, let in to the rest.
    grant(&app, &admin, plain_id, &[]).await;
    for expected in &table {
        let op = &operations[expected.op];
        match expected.guard {
            Guard::Client(_) => {
                let response = call(&app, op, expected, Caller::Client(&plain)).await;
                assert_refused(response, &format!("{} without permissions", expected.op)).await;
            }
            Guard::ClientUser => {
                let response = call(&app, op, expected, Caller::Client(&plain)).await;
                assert_admitted(response, &format!("{} as any client user", expected.op)).await;
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
