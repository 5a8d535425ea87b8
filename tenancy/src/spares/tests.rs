//! Spares against a database of their own (TEST_DATABASE_URL's name + `_spares`): which spare a creation takes is
//! only predictable when no other test creates clients meanwhile, so these tests also run one at a time.

use crate::{Client, ClientShort, Tenancy, TenancyError};
use sqlx::{AssertSqlSafe, Connection};

static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn tenancy() -> Tenancy {
    let url = std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/compass_test".into());
    let (server, name) = url.rsplit_once('/').unwrap();
    let name = format!("{}_spares", name.split('?').next().unwrap());
    let mut admin = sqlx::PgConnection::connect(&format!("{server}/postgres"))
        .await
        .unwrap();
    if let Err(e) = sqlx::query(AssertSqlSafe(format!("create database {name}")))
        .execute(&mut admin)
        .await
    {
        let code = e.as_database_error().and_then(|d| d.code());
        assert_eq!(code.as_deref(), Some("42P04"), "{e}");
    }
    let t = Tenancy::connect(&format!("{server}/{name}"), 4)
        .await
        .unwrap();
    t.migrate_all().await.unwrap();
    // Whatever an earlier run left.
    for schema in spares(&t).await {
        sqlx::query(AssertSqlSafe(format!(
            "drop schema if exists {schema} cascade"
        )))
        .execute(&t.pool)
        .await
        .unwrap();
    }
    sqlx::query("delete from public.spare_schemas")
        .execute(&t.pool)
        .await
        .unwrap();
    t
}

async fn spares(t: &Tenancy) -> Vec<String> {
    sqlx::query_scalar("select schema_name from public.spare_schemas order by 1")
        .fetch_all(&t.pool)
        .await
        .unwrap()
}

async fn schema_exists(t: &Tenancy, schema: &str) -> bool {
    sqlx::query_scalar("select exists (select 1 from pg_namespace where nspname = $1)")
        .bind(schema)
        .fetch_one(&t.pool)
        .await
        .unwrap()
}

async fn create(t: &Tenancy) -> Result<Client, TenancyError> {
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    let short = ClientShort::parse(&format!("s{}", &suffix[..12])).unwrap();
    t.create_client(&short, "Spare test").await
}

/// The schema's functions' `search_path` settings, with the schema's own name written `SELF`.
async fn function_paths(t: &Tenancy, schema: &str) -> Vec<(String, String)> {
    sqlx::query_as(
        "select p.proname::text, replace(replace(c, '\"', ''), $1, 'SELF')
         from pg_proc p cross join lateral unnest(p.proconfig) c
         where p.pronamespace = to_regnamespace($1) order by 1, 2",
    )
    .bind(schema)
    .fetch_all(&t.pool)
    .await
    .unwrap()
}

/// A recipient row written: its rollup trigger's function runs with the `search_path` it was given.
async fn rollup_works(t: &Tenancy, client: &Client) -> i64 {
    let mut tx = t.begin(client).await.unwrap();
    sqlx::raw_sql(
        "insert into contacts (email) values ('a@example.org');
         insert into mailings (name, subject_line, send_attempt) values ('M', 'S', now());
         insert into mailing_recipients (mailing_id, contact_id, email)
         select m.id, c.id, c.email from mailings m, contacts c;",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    let recipients = sqlx::query_scalar("select sum(recipients)::bigint from mailing_rollups")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    recipients
}

#[tokio::test]
async fn a_client_made_from_a_spare_is_the_same_as_one_made_from_nothing() {
    let _one = ONE_AT_A_TIME.lock().await;
    let t = tenancy().await;
    let made = create(&t).await.unwrap();
    let spare = t.add_spare_schema().await.unwrap();
    assert_eq!(spares(&t).await, vec![spare.clone()]);
    let renamed = create(&t).await.unwrap();
    assert!(spares(&t).await.is_empty());
    assert!(!schema_exists(&t, &spare).await);
    // Every function points at the client's name, exactly as in a client made from nothing.
    let paths = function_paths(&t, &renamed.schema_name).await;
    assert!(paths.len() > 30, "{paths:?}");
    assert_eq!(paths, function_paths(&t, &made.schema_name).await);
    let left: i64 = sqlx::query_scalar(
        "select count(*) from pg_proc p cross join lateral unnest(p.proconfig) c where c like '%' || $1 || '%'",
    )
    .bind(&spare)
    .fetch_one(&t.pool)
    .await
    .unwrap();
    assert_eq!(left, 0);
    assert_eq!(rollup_works(&t, &renamed).await, 1);
    assert_eq!(rollup_works(&t, &made).await, 1);
}

#[tokio::test]
async fn a_spare_of_another_build_is_dropped_and_the_client_made_as_before() {
    let _one = ONE_AT_A_TIME.lock().await;
    let t = tenancy().await;
    let spare = t.add_spare_schema().await.unwrap();
    sqlx::query(AssertSqlSafe(format!(
        "insert into {spare}._sqlx_migrations (version, description, success, checksum, execution_time)
         values (1, 'a later build', true, '\\x00', 0)"
    )))
    .execute(&t.pool)
    .await
    .unwrap();
    let client = create(&t).await.unwrap();
    assert!(spares(&t).await.is_empty());
    assert!(!schema_exists(&t, &spare).await);
    assert_eq!(rollup_works(&t, &client).await, 1);
}

#[tokio::test]
async fn two_creations_at_once_never_take_the_same_spare() {
    let _one = ONE_AT_A_TIME.lock().await;
    let t = tenancy().await;
    t.add_spare_schema().await.unwrap();
    let (a, b) = tokio::join!(create(&t), create(&t));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_ne!(a.schema_name, b.schema_name);
    assert!(spares(&t).await.is_empty());
    assert_eq!(rollup_works(&t, &a).await, 1);
    assert_eq!(rollup_works(&t, &b).await, 1);
}

#[tokio::test]
async fn topping_up_makes_spares_to_the_target_and_drops_those_of_another_build() {
    let _one = ONE_AT_A_TIME.lock().await;
    let t = tenancy().await;
    assert_eq!(t.top_up_spares(2).await.unwrap(), 2);
    assert_eq!(t.top_up_spares(2).await.unwrap(), 0);
    let stale = spares(&t).await.remove(0);
    sqlx::query(AssertSqlSafe(format!(
        "delete from {stale}._sqlx_migrations where version = (select max(version) from {stale}._sqlx_migrations)"
    )))
    .execute(&t.pool)
    .await
    .unwrap();
    assert_eq!(t.top_up_spares(2).await.unwrap(), 1);
    assert!(!schema_exists(&t, &stale).await);
    let now = spares(&t).await;
    assert_eq!(now.len(), 2);
    assert!(!now.contains(&stale));
}
