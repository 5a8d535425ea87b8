use super::*;

/// The read target: with 1,000,000 contacts and 3,000,000 gifts (two years), the Contributions summary and
/// the source-codes page answer with p95 ≤ 150 ms. Run by hand (it seeds millions of rows):
/// `REVENUE_BENCH_CONTACTS=1000000 REVENUE_BENCH_GIFTS=3000000 cargo test -q -p api --test api
///  revenue_read_latency -- --ignored --nocapture`
/// The rollup's rows that differ from a full recount of the facts, and the donors whose recounted first gift
/// differs, and the month rollups' rows that differ from theirs; all zero when the rollups are exact.
async fn rollup_differences(app: &TestApp, client: &Client) -> (i64, i64, i64) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let days: i64 = sqlx::query_scalar(
        "with recount as (
             select (c.paid_at at time zone s.time_zone)::date as day, coalesce(c.source_code_id, 0) as code,
                    count(*) filter (where c.amount > 0) as gifts,
                    coalesce(sum(c.amount) filter (where c.amount > 0), 0) as gross,
                    count(*) filter (where c.amount > 0 and (c.refund_id is not null or c.refunded_at is not null))
                      as refunded_gifts,
                    coalesce(sum(c.amount) filter (where c.amount > 0
                                   and (c.refund_id is not null or c.refunded_at is not null)), 0)
                      + coalesce(sum(-c.amount) filter (where c.amount < 0), 0) as refunds,
                    sum(case when c.amount > 0 and (c.refund_id is not null or c.refunded_at is not null)
                             then 0 else c.amount end) as net,
                    coalesce(sum(c.fee), 0) as fees,
                    coalesce(sum(c.amount) filter (where c.amount > 0 and c.recurring_months is not null), 0)
                      as recurring_gross
             from contributions c cross join app_settings s group by 1, 2
         ), rollup as (
             select day, source_code_id, gifts, gross, refunded_gifts, refunds, net, fees, recurring_gross
             from contribution_days
             -- Rows emptied by deletes stay behind as zeros; they add nothing to any sum.
             where (gifts, gross, refunded_gifts, refunds, net, fees, recurring_gross) <> (0, 0, 0, 0, 0, 0, 0)
         )
         select count(*) from ((table recount except table rollup) union all (table rollup except table recount)) x",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    let donors: i64 = sqlx::query_scalar(
        "with recount as (
             select coalesce(c.contact_id::text, 'e:' || c.email) as donor, min(c.paid_at) as first_paid_at
             from contributions c where c.amount > 0 and (c.contact_id is not null or c.email is not null)
             group by 1
         )
         select count(*) from ((table recount except table donor_firsts)
                               union all (table donor_firsts except table recount)) x",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    // The month rollups by donor, and by donor and state: rows emptied by an update or a delete are gone.
    let months: i64 = sqlx::query_scalar(
        "with lines as (
             select date_trunc('month', c.paid_at at time zone s.time_zone)::date as month,
                    upper(btrim(c.state)) as state, c.state ~ '^\\s*[A-Za-z]{2}\\s*$' as has_state,
                    coalesce(c.contact_id::text, 'e:' || c.email) as donor,
                    case when c.amount > 0 and (c.refund_id is not null or c.refunded_at is not null) then 0
                         else c.amount end as net,
                    (c.amount > 0)::int as gift
             from contributions c cross join app_settings s
             where c.contact_id is not null or c.email is not null
         ), by_month as (
             select month, donor, sum(net) as net, sum(gift)::int as gifts from lines group by 1, 2
         ), by_state as (
             select month, state, donor, sum(net) as net, sum(gift)::int as gifts from lines
             where has_state group by 1, 2, 3
         ), months as (select month, donor, net, gifts from donor_months
         ), states as (select month, state, donor, net, gifts from donor_state_months)
         select (select count(*) from ((table by_month except table months)
                                       union all (table months except table by_month)) x)
              + (select count(*) from ((table by_state except table states)
                                       union all (table states except table by_state)) x)",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    (days, donors, months)
}

async fn run_sql(app: &TestApp, client: &Client, statements: &[&'static str]) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    for sql in statements {
        sqlx::query(*sql)
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn the_rollups_equal_a_full_recount_after_imports_refunds_and_a_zone_change() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    // A set-based import like the platforms' (one statement, one transaction), across day boundaries.
    run_sql(
        &app,
        &client,
        &[
            "insert into source_codes (code) select 'code' || g from generate_series(1, 3) g",
            "insert into contacts (email) select 'r' || g || '@example.org' from generate_series(1, 20) g",
            "insert into contributions (platform, line_item_id, paid_at, amount, fee, contact_id, email,
                                        source_code_id, recurring_months, state)
             select 'actblue', 'L' || g, timestamptz '2026-03-01 00:00Z' + g * interval '97 minutes',
                    (array[5, 10.5, 25, 100])[1 + g % 4], case when g % 3 = 0 then 0.45 end,
                    case when g % 5 <> 0 then (select min(id) from contacts) + g % 20 end,
                    'r' || (g % 20) || '@example.org',
                    case when g % 4 <> 0 then (select min(id) from source_codes) + g % 3 end,
                    case when g % 6 = 0 then 0 end,
                    -- The dashboard's states: trimmed and upper-cased; a name or none is no state.
                    (array['NY', ' ca ', 'tx', 'Ontario', null])[1 + g % 5]
             from generate_series(1, 200) g",
        ],
    )
    .await;
    assert_eq!(rollup_differences(&app, &client).await, (0, 0, 0));
    let summary = |body: Value| {
        (
            body["gross"].clone(),
            body["newDonors"].clone(),
            body["refunds"].clone(),
        )
    };
    let before = summary(
        app.api(
            Method::GET,
            "/api/contributions/summary?from=2026-03-01&to=2026-03-31",
            &session,
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap(),
    );
    // Refunds marked on some gifts and a refund line, an earlier gift for some donors, a gift deleted and a
    // contact deleted (its gifts fall back to their e-mail).
    run_sql(
        &app,
        &client,
        &[
            "update contributions set refund_id = 'R' || id where id % 7 = 0",
            "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email)
             select 'winred', 'W' || g, timestamptz '2026-02-27 12:00Z', -10, null, 'r' || g || '@example.org'
             from generate_series(1, 3) g",
            "insert into contributions (platform, line_item_id, paid_at, amount, contact_id)
             select 'winred', 'E' || id, timestamptz '2026-02-20 12:00Z', 15, id
             from contacts order by id limit 4",
            "update contributions set paid_at = paid_at + interval '2 days', source_code_id = null
             where line_item_id in ('L10', 'L11', 'L12')",
            "delete from contributions where line_item_id = 'L13'",
            // A state corrected, and an update that leaves every counted column as it was.
            "update contributions set state = 'nj' where id % 11 = 0",
            "update contributions set fee = fee where id % 13 = 0",
            "delete from contacts where email = 'r7@example.org'",
        ],
    )
    .await;
    assert_eq!(rollup_differences(&app, &client).await, (0, 0, 0));
    let after = summary(
        app.api(
            Method::GET,
            "/api/contributions/summary?from=2026-03-01&to=2026-03-31",
            &session,
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap(),
    );
    assert_ne!(before, after, "the changes reach the summary");
    // Days are the client's: a new zone regroups every gift.
    run_sql(
        &app,
        &client,
        &["update app_settings set time_zone = 'Asia/Tokyo'"],
    )
    .await;
    assert_eq!(rollup_differences(&app, &client).await, (0, 0, 0));
}

#[tokio::test]
#[ignore = "benchmark; run by hand"]
async fn revenue_read_latency() {
    let size = |name: &str, default: i64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let contacts = size("REVENUE_BENCH_CONTACTS", 1_000_000);
    let gifts = size("REVENUE_BENCH_GIFTS", 3_000_000);
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let started = std::time::Instant::now();
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    // The sizes are numbers from the environment, written into the statements.
    for sql in [
        "insert into origin_codes (name) select 'origin' || g from generate_series(1, 20) g",
        "insert into contacts (email, origin_code_id, created)
         select 'c' || g || '@example.org', 1 + g % 20, now() - (g % 730) * interval '1 day'
         from generate_series(1, {contacts}) g",
        "insert into source_codes (code, parsed, channel, campaign, variant)
         select 'em_' || g || '_camp' || (g % 50) || '_a', true, (array['em', 'sms', 'fb', 'web'])[1 + g % 4],
                'camp' || (g % 50), 'a'
         from generate_series(1, 2000) g",
        "insert into contributions (platform, line_item_id, paid_at, amount, fee, contact_id, email, refcode,
                                    source_code_id, recurring_months, refund_id)
         select 'actblue', g::text, now() - (g % 730) * interval '1 day' - (g % 86400) * interval '1 second',
                (array[5, 10, 25, 50, 100, 250])[1 + g % 6], 0.40, 1 + g % {contacts}, 'c' || (1 + g % {contacts}) || '@example.org',
                'em_' || (1 + g % 2000), 1 + g % 2000, case when g % 7 = 0 then 0 end,
                case when g % 50 = 0 then 'R' || g end
         from generate_series(1, {gifts}) g",
    ] {
        let sql = sql
            .replace("{contacts}", &contacts.to_string())
            .replace("{gifts}", &gifts.to_string());
        sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    tx.commit().await.unwrap();
    // Vacuum sets the visibility map, so range reads stay on the covering index as in a settled database.
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&database_url())
        .await
        .unwrap();
    let schema = &client.schema_name;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "vacuum analyze {schema}.contributions, {schema}.contacts, {schema}.source_codes, \
         {schema}.contribution_days, {schema}.donor_firsts"
    )))
    .execute(&mut conn)
    .await
    .unwrap();
    println!(
        "seeded {contacts} contacts and {gifts} gifts in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    for path in [
        "/api/contributions/summary",
        "/api/contribution-source-codes",
        "/api/contributions/series",
        "/api/contributions/breakdowns",
    ] {
        let mut times = Vec::new();
        for round in 0..33 {
            let t = std::time::Instant::now();
            let response = app.api(Method::GET, path, &session).send().await.unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            response.bytes().await.unwrap();
            // The first rounds warm the caches; they are not counted.
            if round >= 3 {
                times.push(t.elapsed().as_secs_f64() * 1000.0);
            }
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
        println!(
            "{path}: p50 {:.1} ms, p95 {:.1} ms ({} requests)",
            at(0.5),
            at(0.95),
            times.len()
        );
    }
}
