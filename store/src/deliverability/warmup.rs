//! Warm-up plans: a new sender domain may send at most its day's cap, which grows each day from the plan's start
//! (first-day cap × (1 + growth)^days, the first day's cap before the start; computed once, by
//! [`warmup_cap`], for the send and the System page alike). Days are the database's (UTC) days.

use super::sender_domains::warmup_cap;
use chrono::NaiveDate;
use sqlx::PgConnection;

/// The tightest warm-up plan among the From domains of a mailing's variants, today.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowance {
    pub domain: String,
    /// Today's cap.
    pub cap: i64,
    /// What is left of it after every copy sent from the domain today, by any mailing.
    pub remaining: i64,
}

/// The allowance of the mailing's tightest warm-up plan; None when no From domain of it has a plan running.
/// Counting today's copies reads the day's sent rows once per send (plans belong to new domains: small volumes).
/// The cap itself is [`warmup_cap`]'s, the one the System page shows.
pub async fn allowance_today(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<Option<Allowance>, sqlx::Error> {
    let plans: Vec<(String, NaiveDate, i32, i32, NaiveDate, i64)> = sqlx::query_as(
        "with domains as (
             select distinct lower(split_part(s.from_address, '@', 2)) as domain
             from (select m.sender_id from mailings m where m.id = $1
                   union all
                   select coalesce(x.sender_id, m.sender_id) from mailing_variants x
                   join mailings m on m.id = x.mailing_id where x.mailing_id = $1) v
             join senders s on s.id = v.sender_id)
         select d.domain, sd.warmup_start, sd.warmup_daily_cap, sd.warmup_growth_percent, current_date,
                (select count(*) from mailing_recipients r
                 join mailings m on m.id = r.mailing_id
                 left join mailing_variants x on x.mailing_id = r.mailing_id and x.letter = r.variant
                 join senders s on s.id = coalesce(x.sender_id, m.sender_id)
                 where r.status = 'sent' and r.sent_at >= current_date
                   and lower(split_part(s.from_address, '@', 2)) = d.domain) as sent_today
         from domains d join sender_domains sd on sd.domain = d.domain
         where sd.warmup_start is not null and sd.warmup_daily_cap is not null",
    )
    .bind(mailing_id)
    .fetch_all(conn)
    .await?;
    Ok(plans
        .into_iter()
        .filter_map(
            |(domain, start, first_day_cap, growth, today, sent_today)| {
                let cap = warmup_cap(start, first_day_cap, growth, today)?;
                Some(Allowance {
                    domain,
                    cap,
                    remaining: cap - sent_today,
                })
            },
        )
        .min_by(|a, b| (a.remaining, &a.domain).cmp(&(b.remaining, &b.domain))))
}

/// Holds the mailing until the next UTC day, when the scheduler resumes it.
pub async fn hold_until_tomorrow(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update mailings set resume_at = date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'
                                         + interval '1 day'
         where id = $1",
    )
    .bind(mailing_id)
    .execute(conn)
    .await?;
    Ok(())
}
