//! Which mailing a new gift belongs to, the same for every writer of contributions (imports and the ActBlue
//! webhook).

use sqlx::PgConnection;

/// Attributes the gifts this transaction added (their `imported` is the transaction's `now()`):
/// 1. a gift whose reference code is tied to a mailing belongs to that mailing (`refcode`) when it was paid at or
///    after the mailing reached the giver (their recipient row's `sent_at`; for a giver who was not mailed, the
///    send's start, `send_attempt`): a code used before its mailing went out is a bad link, not the mailing's;
/// 2. otherwise to the mailing whose last human click by the same contact came within the attribution window
///    before the gift (`click`);
/// 3. otherwise to none.
pub async fn attribute(
    conn: &mut PgConnection,
    window_days: i32,
) -> Result<(i64, i64), sqlx::Error> {
    let by_refcode = sqlx::query(
        "update contributions c set mailing_id = sc.mailing_id, attribution = 'refcode'
         from source_codes sc join mailings m on m.id = sc.mailing_id
         where c.imported = now() and c.source_code_id = sc.id
           and c.paid_at >= coalesce(
                   (select r.sent_at from mailing_recipients r
                    where r.mailing_id = sc.mailing_id and r.contact_id = c.contact_id),
                   m.send_attempt)",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;
    let by_click = sqlx::query(
        "update contributions c set mailing_id = last_click.mailing_id, attribution = 'click'
         from (
             select g.id,
                    (select e.mailing_id from mailing_events e
                     where e.contact_id = g.contact_id and e.kind = 'click' and not e.machine
                       and e.created <= g.paid_at and e.created >= g.paid_at - make_interval(days => $1)
                     order by e.created desc, e.id desc limit 1) as mailing_id
             from contributions g
             where g.imported = now() and g.attribution = 'none' and g.contact_id is not null
         ) last_click
         where c.id = last_click.id and last_click.mailing_id is not null",
    )
    .bind(window_days)
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;
    Ok((by_refcode, by_click))
}
