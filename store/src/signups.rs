//! Signups from public forms, written in batches.

use sqlx::PgConnection;

/// One statement for the whole batch (index i of each array is one signup): rows for unknown or disabled forms
/// drop out at the join; contacts are created (with the form's origin code) only when new, in e-mail order so
/// concurrent batches lock rows in the same order; every remaining row becomes a signup. Returns (its `order`
/// value, the form's redirect URL) for each signup written.
pub async fn insert_batch(
    conn: &mut PgConnection,
    form_ids: &[i64],
    emails: &[&str],
    referrers: &[Option<&str>],
    order: &[i32],
) -> Result<Vec<(i32, Option<String>)>, sqlx::Error> {
    sqlx::query_as(
            "with input as (
                 select * from unnest($1::bigint[], $2::text[], $3::text[], $4::int[]) as t (form_id, email, referrer, ord)
             ), f as (
                 select i.ord, i.email, i.referrer, fo.id as form_id, fo.origin_code_id, fo.redirect_url
                 from input i join forms fo on fo.id = i.form_id and fo.enabled
             ), c as (
                 insert into contacts (email, origin_code_id)
                 select distinct on (email) email, origin_code_id from f order by email, ord
                 on conflict (email) do update set email = excluded.email
                 returning id, email
             ), s as (
                 insert into external_signups (form_id, contact_id, origin_code_id, email, referrer)
                 select f.form_id, c.id, f.origin_code_id, f.email, f.referrer from f join c on c.email = f.email
                 returning form_id, contact_id, origin_code_id
             ), e as (
                 -- What journeys start from (issue 31): a signup on this form, and one with its origin code.
                 insert into journey_events (kind, contact_id, ref_id)
                 select k.kind, s.contact_id, case when k.kind = 'form_signup' then s.form_id else s.origin_code_id end
                 from s cross join (values ('form_signup'), ('origin_code_signup')) k (kind)
                 where exists (select 1 from journeys where status = 'active')
                   and (k.kind = 'form_signup' or s.origin_code_id is not null)
             )
             select f.ord, f.redirect_url from f",
        )
        .bind(form_ids)
        .bind(emails)
        .bind(referrers)
        .bind(order)
        .fetch_all(conn)
        .await
}
