//! Against the real Postgres named by TEST_DATABASE_URL (the test command creates it).

use super::*;

fn database_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/compass_test".into())
}

async fn tenancy(max_connections: u32) -> Tenancy {
    let t = Tenancy::connect(&database_url(), max_connections)
        .await
        .unwrap();
    t.migrate_all().await.unwrap();
    t
}

async fn new_client(t: &Tenancy) -> Client {
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    let short = ClientShort::parse(&format!("t{}", &suffix[..12])).unwrap();
    t.create_client(&short, "Test client").await.unwrap()
}

async fn search_path_of_bare_connection(t: &Tenancy) -> String {
    sqlx::query_scalar("select current_setting('search_path')")
        .fetch_one(&t.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_pooled_connection_does_not_keep_the_last_tenants_search_path() {
    // One connection, so every transaction below runs on the same server session.
    let t = tenancy(1).await;
    let client = new_client(&t).await;
    let default_path = search_path_of_bare_connection(&t).await;

    let mut tx = t.begin(&client).await.unwrap();
    let inside: String = sqlx::query_scalar("select current_setting('search_path')")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(inside, client.schema_name);
    tx.commit().await.unwrap();
    assert_eq!(search_path_of_bare_connection(&t).await, default_path);

    // A transaction dropped without commit (an error path) must not leak it either.
    let tx = t.begin(&client).await.unwrap();
    drop(tx);
    assert_eq!(search_path_of_bare_connection(&t).await, default_path);
}

#[tokio::test]
async fn two_clients_rows_never_mix() {
    let t = tenancy(4).await;
    let a = new_client(&t).await;
    let b = new_client(&t).await;
    for (client, email) in [(&a, "only-a@example.org"), (&b, "only-b@example.org")] {
        let mut tx = t.begin(client).await.unwrap();
        sqlx::query("insert into contacts (email) values ($1)")
            .bind(email)
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
    for (client, email) in [(&a, "only-a@example.org"), (&b, "only-b@example.org")] {
        let mut tx = t.begin(client).await.unwrap();
        let emails: Vec<String> = sqlx::query_scalar("select email from contacts")
            .fetch_all(&mut *tx)
            .await
            .unwrap();
        assert_eq!(emails, vec![email.to_owned()]);
    }
    // The registry is not reachable from a tenant transaction: its path holds only the client's schema.
    let mut tx = t.begin(&a).await.unwrap();
    let err = sqlx::query("select id from clients")
        .execute(&mut *tx)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("does not exist"), "{err}");
}

#[tokio::test]
async fn creating_a_client_creates_and_migrates_its_schema_once() {
    let t = tenancy(2).await;
    let client = new_client(&t).await;
    assert!(client.schema_name.starts_with("client_t"));
    let mut tx = t.begin(&client).await.unwrap();
    let settings: i64 = sqlx::query_scalar("select count(*) from app_settings")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(settings, 1);
    drop(tx);
    let short = ClientShort::parse(&client.short_name).unwrap();
    assert!(matches!(
        t.create_client(&short, "Again").await,
        Err(TenancyError::DuplicateClient(_))
    ));
    // Migrating again is a no-op, not a failure.
    t.migrate_all().await.unwrap();
}
