//! The demo client the run command creates: realistic contacts, origin codes and lists, made set-based in SQL.

use crate::error::ApiError;
use tenancy::{Client, ClientShort, Tenancy};
use worker::{JobKind, JobQueue};

/// Creates the client if it is missing and fills it once; running it again changes nothing.
pub async fn seed(
    tenancy: &Tenancy,
    queue: &JobQueue,
    short: &str,
    name: &str,
    contacts: i64,
) -> Result<Client, ApiError> {
    let short = ClientShort::parse(short)?;
    let client = match tenancy.enabled_client_by_short(short.as_str()).await? {
        Some(c) => c,
        None => tenancy.create_client(&short, name).await?,
    };
    let mut tx = tenancy.begin(&client).await?;
    let existing: i64 = sqlx::query_scalar("select count(*) from contacts")
        .fetch_one(&mut *tx)
        .await?;
    if existing > 0 {
        tx.commit().await?;
        return Ok(client);
    }
    sqlx::query(
        "insert into origin_codes (name) values
             ('web-homepage-signup'), ('fb-lead-ad-2026q3'), ('petition-clean-water'),
             ('ngp-import-2025'), ('event-town-hall-oct'), ('google-search-brand')",
    )
    .execute(&mut *tx)
    .await?;
    // Names drawn from short lists, e-mails unique by construction; created dates spread over two years.
    sqlx::query(
        "with first_names as (select array['Maria','James','Aisha','Robert','Chen','Linda','Diego','Patricia',
                                            'Kwame','Susan','Noah','Fatima','David','Grace','Luis','Emily'] a),
              last_names as (select array['Garcia','Johnson','Okafor','Smith','Nguyen','Williams','Patel',
                                           'Brown','Martinez','Davis','Kim','Lopez','Wilson','Moore'] a),
              codes as (select array_agg(id order by id) a from origin_codes)
         insert into contacts (email, first_name, last_name, phone, origin_code_id, subscription, created)
         select lower(f.a[1 + i % 16]) || '.' || lower(l.a[1 + (i / 16) % 14]) || i || '@example.org',
                f.a[1 + i % 16], l.a[1 + (i / 16) % 14],
                case when i % 3 = 0 then '555' || lpad((i % 10000000)::text, 7, '0') end,
                c.a[1 + (i * 7) % cardinality(c.a)],
                case when i % 50 = 0 then 'unsubscribed' when i % 97 = 0 then 'bounced' else 'subscribed' end,
                now() - make_interval(hours => ((i * 37) % (24 * 730))::int)
         from generate_series(1, $1) i, first_names f, last_names l, codes c",
    )
    .bind(contacts)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "insert into crm_lists (name, kind, origin_code_ids)
         select 'Web and search sign-ups', 'query', array_agg(id) from origin_codes
             where name in ('web-homepage-signup', 'google-search-brand')
         union all
         select 'Clean water petition', 'query', array_agg(id) from origin_codes
             where name = 'petition-clean-water'
         union all
         select 'Town hall RSVPs', 'upload', '{}'::bigint[]",
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "insert into crm_list_members (list_id, contact_id)
         select l.id, c.id from crm_lists l
         join contacts c on c.origin_code_id = (select id from origin_codes where name = 'event-town-hall-oct')
         where l.name = 'Town hall RSVPs'",
    )
    .execute(&mut *tx)
    .await?;
    // The list sizes are computed the way the product computes them: by a real job the worker runs.
    queue.enqueue(tx, None, &JobKind::RecountLists).await?;
    Ok(client)
}
