//! A gift's links to its contact, source code and mailing hold as foreign keys would (migration
//! `20261212000000_contribution_links_by_statement.sql`): a link to nothing is refused, a linked row cannot go while
//! a writer naming it is open, and a delete clears the link and keeps the gift.

use super::*;

use std::time::Duration;

/// Runs one statement in the client's schema, committing it when it succeeds.
async fn try_exec(app: &TestApp, client: &Client, sql: &str) -> Result<(), sqlx::Error> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()))
        .execute(&mut *tx)
        .await?;
    tx.commit().await.unwrap();
    Ok(())
}

/// The SQLSTATE and constraint of a refused statement.
fn refusal(result: Result<(), sqlx::Error>) -> (String, String) {
    let error = result.expect_err("the statement should be refused");
    let db = error.as_database_error().expect("a database error");
    (
        db.code().unwrap_or_default().into_owned(),
        db.constraint().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn a_gift_linked_to_nothing_is_refused_and_a_delete_clears_the_link_but_keeps_the_gift() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    app.exec_in(&client, "with c as (insert into contacts (email) values ('ann@example.org') returning id),
              s as (insert into source_codes (code) values ('web') returning id),
              m as (insert into mailings (name, subject_line) values ('June', 'Hi') returning id)
         insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email, source_code_id,
                                    mailing_id, attribution)
         select 'actblue', 'L' || g, timestamptz '2026-06-01 12:00Z' + g * interval '1 day', 25, c.id,
                'ann@example.org', s.id, m.id, 'refcode'
         from c, s, m, generate_series(1, 3) g").await;

    for (column, constraint) in [
        ("contact_id", "contributions_contact_id_fkey"),
        ("source_code_id", "contributions_source_code_id_fkey"),
        ("mailing_id", "contributions_mailing_id_fkey"),
    ] {
        // One good line and one naming a row that does not exist: the whole statement is refused.
        let insert = format!(
            "insert into contributions (platform, line_item_id, paid_at, amount, {column})
             select 'other', 'X' || g, now(), 5, case when g = 1 then (select min({column}) from contributions)
                                                      else 987654 end
             from generate_series(1, 2) g"
        );
        assert_eq!(
            refusal(try_exec(&app, &client, &insert).await),
            ("23503".to_owned(), constraint.to_owned()),
            "{column} on insert"
        );
        let update =
            format!("update contributions set {column} = 987654 where line_item_id = 'L1'");
        assert_eq!(
            refusal(try_exec(&app, &client, &update).await),
            ("23503".to_owned(), constraint.to_owned()),
            "{column} on update"
        );
    }
    assert_eq!(
        app.scalar_in(&client, "select count(*) from contributions")
            .await,
        3
    );
    // Changing something else, or clearing a link, needs no check.
    app.exec_in(
        &client,
        "update contributions set refund_id = 'R1', refunded_at = now() where line_item_id = 'L1'",
    )
    .await;

    for (delete, column) in [
        ("delete from mailings", "mailing_id"),
        ("delete from source_codes", "source_code_id"),
        ("delete from contacts", "contact_id"),
    ] {
        app.exec_in(&client, delete).await;
        assert_eq!(
            app.scalar_in(
                &client,
                &format!("select count(*) from contributions where {column} is null")
            )
            .await,
            3,
            "{delete} clears {column}"
        );
    }
    assert_eq!(
        app.scalar_in(
            &client,
            "select count(*) from contributions where email = 'ann@example.org' and amount = 25"
        )
        .await,
        3
    );
}

#[tokio::test]
async fn a_contact_named_by_an_open_writer_is_deleted_only_after_it_and_leaves_no_dangling_link() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    app.exec_in(
        &client,
        "insert into contacts (email) values ('bo@example.org'), ('cy@example.org')",
    )
    .await;

    // The writer names bo in an open transaction; the delete waits for it, then clears the new gift's link.
    let mut writer = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email)
         select 'actblue', 'B1', now(), 10, id, email from contacts where email = 'bo@example.org'",
    )
    .execute(&mut *writer)
    .await
    .unwrap();
    let deleting = {
        let (app_tenancy, client) = (app.tenancy.clone(), client.clone());
        tokio::spawn(async move {
            let mut tx = app_tenancy.begin(&client).await.unwrap();
            sqlx::query("delete from contacts where email = 'bo@example.org'")
                .execute(&mut *tx)
                .await
                .unwrap();
            tx.commit().await.unwrap();
        })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !deleting.is_finished(),
        "the delete should wait for the writer"
    );
    writer.commit().await.unwrap();
    deleting.await.unwrap();
    assert_eq!(
        app.scalar_in(
            &client,
            "select count(*) from contributions where line_item_id = 'B1' and contact_id is null"
        )
        .await,
        1
    );

    // The other way round: a delete not yet committed makes a writer naming that contact wait, then refuses it.
    let mut deleter = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("delete from contacts where email = 'cy@example.org'")
        .execute(&mut *deleter)
        .await
        .unwrap();
    let cy: i64 = app
        .scalar_in(
            &client,
            "select id from contacts where email = 'cy@example.org'",
        )
        .await;
    let writing = {
        let (app_tenancy, client) = (app.tenancy.clone(), client.clone());
        tokio::spawn(async move {
            let mut tx = app_tenancy.begin(&client).await.unwrap();
            sqlx::query(
                "insert into contributions (platform, line_item_id, paid_at, amount, contact_id)
                 values ('actblue', 'C1', now(), 10, $1)",
            )
            .bind(cy)
            .execute(&mut *tx)
            .await
            .map(|_| ())
        })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !writing.is_finished(),
        "the writer should wait for the delete"
    );
    deleter.commit().await.unwrap();
    assert_eq!(
        refusal(writing.await.unwrap()),
        (
            "23503".to_owned(),
            "contributions_contact_id_fkey".to_owned()
        )
    );
    assert_eq!(
        app.scalar_in(&client,
            "select count(*) from contributions c
             where c.contact_id is not null and not exists (select 1 from contacts k where k.id = c.contact_id)"
        )
        .await,
        0
    );
}
