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
async fn the_pools_sessions_do_not_jit_compile() {
    // A rollup trigger's statement planned for a guessed million rows must not spend a second compiling.
    let t = tenancy(1).await;
    let client = new_client(&t).await;
    let mut tx = t.begin(&client).await.unwrap();
    let jit: String = sqlx::query_scalar("select current_setting('jit')")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(jit, "off");
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

/// A schema outside the registry, so other tests' `migrate_all` never sees what these tests do to it.
async fn loose_schema(t: &Tenancy) -> Client {
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    let schema = format!("mt_{}", &suffix[..12]);
    sqlx::query(sqlx::AssertSqlSafe(format!("create schema {schema}")))
        .execute(&t.pool)
        .await
        .unwrap();
    Client {
        id: 0,
        short_name: schema.clone(),
        name: schema.clone(),
        schema_name: schema,
        enabled: true,
        created: chrono::Utc::now(),
    }
}

async fn drop_schemas(t: &Tenancy, clients: &[Client]) {
    for c in clients {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "drop schema {} cascade",
            c.schema_name
        )))
        .execute(&t.pool)
        .await
        .unwrap();
    }
}

async fn scalar_in(t: &Tenancy, client: &Client, sql: &'static str) -> i64 {
    let mut tx = t.begin(client).await.unwrap();
    sqlx::query_scalar(sql).fetch_one(&mut *tx).await.unwrap()
}

/// A tenancy that also knows one extra migration, which fails if it ever runs twice in a schema.
async fn tenancy_with_marker_migration(dir: &std::path::Path) -> Tenancy {
    let mut t = Tenancy::connect(&database_url(), 4).await.unwrap();
    t.add_tenant_migrations(dir).await.unwrap();
    t
}

#[tokio::test]
async fn two_migrators_on_the_same_schemas_apply_each_migration_once() {
    let dir = std::env::temp_dir().join(format!("compass-mig-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("29990101000000_marker.sql"),
        "create table marker (n int); insert into marker values (1);",
    )
    .unwrap();
    let a = tenancy_with_marker_migration(&dir).await;
    let b = tenancy_with_marker_migration(&dir).await;
    let mut schemas = Vec::new();
    for _ in 0..6 {
        schemas.push(loose_schema(&a).await);
    }

    let (ra, rb) = tokio::join!(a.migrate_clients(&schemas), b.migrate_clients(&schemas));
    let (ra, rb) = (ra.unwrap(), rb.unwrap());

    // Every schema was migrated by exactly one of the two; the other found it done.
    let mut migrated = [ra.migrated, rb.migrated].concat();
    migrated.sort();
    let mut expected: Vec<String> = schemas.iter().map(|c| c.schema_name.clone()).collect();
    expected.sort();
    assert_eq!(migrated, expected);
    let versions = i64::try_from(a.tenant_migrations.len()).unwrap();
    for c in &schemas {
        assert_eq!(scalar_in(&a, c, "select count(*) from marker").await, 1);
        assert_eq!(
            scalar_in(
                &a,
                c,
                "select count(distinct version) from _sqlx_migrations"
            )
            .await,
            versions
        );
        assert_eq!(
            scalar_in(&a, c, "select count(*) from app_settings").await,
            1
        );
    }
    // Nothing is left: a third pass migrates nothing.
    assert!(a
        .migrate_clients(&schemas)
        .await
        .unwrap()
        .migrated
        .is_empty());
    drop_schemas(&a, &schemas).await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn a_broken_schema_is_reported_by_name_while_the_others_migrate() {
    // The registry migrated first: on a fresh database the tenant migrations would otherwise fail in every schema
    // (`scripts/test quick` runs these tests before any other has migrated it).
    let t = tenancy(4).await;
    let mut schemas = Vec::new();
    for _ in 0..4 {
        schemas.push(loose_schema(&t).await);
    }
    let broken = schemas[2].clone();
    // A table in the way of the first migration's own `contacts`.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "create table {}.contacts (x int)",
        broken.schema_name
    )))
    .execute(&t.pool)
    .await
    .unwrap();

    let err = t.migrate_clients(&schemas).await.unwrap_err();
    let TenancyError::SchemasFailed(failures) = &err else {
        panic!("expected failed schemas, got {err}");
    };
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].schema, broken.schema_name);
    assert!(
        failures[0].error.contains("already exists"),
        "{}",
        failures[0].error
    );
    assert!(err.to_string().contains(&broken.schema_name), "{err}");
    for c in schemas
        .iter()
        .filter(|c| c.schema_name != broken.schema_name)
    {
        assert_eq!(
            scalar_in(&t, c, "select count(*) from app_settings").await,
            1
        );
    }
    // The broken schema got nothing half-way: its migrations and bookkeeping ran in one transaction.
    let tables: Vec<String> =
        sqlx::query_scalar("select tablename::text from pg_tables where schemaname = $1")
            .bind(&broken.schema_name)
            .fetch_all(&t.pool)
            .await
            .unwrap();
    assert_eq!(tables, vec!["contacts".to_owned()]);
    drop_schemas(&t, &schemas).await;
}

#[tokio::test]
async fn a_disabled_client_is_refused_at_once_here_and_within_the_cache_lifetime_elsewhere() {
    let here = tenancy(2).await;
    // The other process's cache lives a fifth of a second, so the test watches its copy expire without sleeping
    // through the production lifetime; the rule under test (expiry, not invalidation) is the same.
    let ttl = Duration::from_millis(200);
    let mut elsewhere = Tenancy::connect(&database_url(), 2).await.unwrap();
    elsewhere.clients = Arc::new(crate::cache::ClientCache::with_ttl(ttl));
    let client = new_client(&here).await;
    assert!(here.enabled_client(client.id).await.unwrap().is_some());
    assert!(elsewhere.enabled_client(client.id).await.unwrap().is_some());

    here.set_client_enabled(client.id, false).await.unwrap();
    assert_eq!(here.enabled_client(client.id).await.unwrap(), None);
    assert_eq!(
        here.enabled_client_by_short(&client.short_name)
            .await
            .unwrap(),
        None
    );
    // The other process still holds its copy, for at most the cache's lifetime: poll until it is refused, and
    // check that this came no later than the lifetime (plus a scheduling margin) after the change.
    let changed = std::time::Instant::now();
    while elsewhere.enabled_client(client.id).await.unwrap().is_some() {
        assert!(
            changed.elapsed() < ttl + Duration::from_secs(2),
            "still enabled long after the cache lifetime"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let renamed = here.rename_client(client.id, "Renamed").await.unwrap();
    here.set_client_enabled(client.id, true).await.unwrap();
    let found = here.enabled_client(client.id).await.unwrap().unwrap();
    assert_eq!(found.name, renamed.name);
    assert_eq!(found.name, "Renamed");
}
