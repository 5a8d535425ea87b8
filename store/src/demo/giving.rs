//! The demo's giving: three years of gifts and this one so far, with the sector's donor retention, each naming the
//! donor's US state and ZIP.

use sqlx::PgConnection;

/// US states, the large ones repeated so they weigh about as much as their share of donors, each with a ZIP prefix
/// of one of its cities.
const STATES: [(&str, &str); 60] = [
    ("CA", "900"),
    ("CA", "941"),
    ("CA", "921"),
    ("CA", "958"),
    ("TX", "750"),
    ("TX", "770"),
    ("TX", "787"),
    ("FL", "331"),
    ("FL", "328"),
    ("NY", "100"),
    ("NY", "112"),
    ("NY", "142"),
    ("PA", "191"),
    ("PA", "152"),
    ("IL", "606"),
    ("IL", "605"),
    ("OH", "441"),
    ("OH", "432"),
    ("GA", "303"),
    ("NC", "276"),
    ("NC", "282"),
    ("MI", "482"),
    ("NJ", "071"),
    ("NJ", "088"),
    ("VA", "232"),
    ("VA", "223"),
    ("WA", "981"),
    ("AZ", "850"),
    ("MA", "021"),
    ("MA", "024"),
    ("TN", "372"),
    ("IN", "462"),
    ("MD", "212"),
    ("MO", "631"),
    ("WI", "532"),
    ("CO", "802"),
    ("MN", "554"),
    ("SC", "292"),
    ("AL", "352"),
    ("LA", "701"),
    ("KY", "402"),
    ("OR", "972"),
    ("OK", "731"),
    ("CT", "061"),
    ("UT", "841"),
    ("IA", "503"),
    ("NV", "891"),
    ("AR", "722"),
    ("MS", "392"),
    ("KS", "662"),
    ("NM", "871"),
    ("NE", "681"),
    ("ID", "837"),
    ("NH", "031"),
    ("ME", "041"),
    ("HI", "968"),
    ("RI", "029"),
    ("DE", "198"),
    ("VT", "054"),
    ("DC", "200"),
];

/// SQL for a donor's state and ZIP, the same for every gift of one contact: (state, zip) expressions of `id`.
pub(super) fn state_and_zip(id: &str) -> (String, String) {
    let states = STATES.map(|(s, _)| format!("'{s}'")).join(",");
    let zips = STATES.map(|(_, z)| format!("'{z}'")).join(",");
    let n = STATES.len();
    let pick = format!("1 + (hashint8({id}) % {n} + {n}) % {n}");
    (
        format!("(array[{states}])[{pick}]"),
        format!("(array[{zips}])[{pick}] || lpad((({id} * 7) % 100)::text, 2, '0')"),
    )
}

pub async fn contributions_count(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from contributions")
        .fetch_one(conn)
        .await
}

/// The refcodes gifts carry: each sent mailing's (as the send writes it: only a mailing that went out has a
/// refcode), each form's, a few of ads and SMS, and two that are not parsed.
pub async fn insert_source_codes(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into source_codes (code, parsed, channel, code_date, campaign, variant, mailing_id)
         select 'em_' || to_char(m.send_attempt, 'YYYYMMDD') || '_' || m.id || '_a', true, 'em',
                m.send_attempt::date, m.id::text, 'a', m.id
         from mailings m where m.send_attempt is not null
         on conflict (code) do nothing",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into source_codes (code, parsed, channel, code_date, campaign, variant, form_id)
         select 'web_' || to_char(f.created, 'YYYYMMDD') || '_form' || f.id || '_a', true, 'web', f.created::date,
                'form' || f.id, 'a', f.id
         from forms f
         on conflict (code) do nothing",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into source_codes (code, parsed, channel, code_date, campaign, variant) values
           ('fb_20250901_persuasion_a', true, 'fb', '2025-09-01', 'persuasion', 'a'),
           ('fb_20260115_match_b', true, 'fb', '2026-01-15', 'match', 'b'),
           ('sms_20251015_gotv_a', true, 'sms', '2025-10-15', 'gotv', 'a'),
           ('ggl_20250601_brand_a', true, 'ggl', '2025-06-01', 'brand', 'a')
         on conflict (code) do nothing",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into source_codes (code, parsed) values ('homepage', false), ('footer-link', false)
         on conflict (code) do nothing",
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// About `gifts` gifts over three calendar years and this one so far, set-based, with the sector's retention
/// (docs/revenue.md "The demo's giving"). Each origin code brings donors at its own rate (from about one contact in
/// sixteen to one in two). A donor gives in the calendar year they arrived; one in four comes back the next year,
/// and from then on 45 % of them come back each year (new-donor retention about 25 %, repeat-donor retention about
/// 45 %, as the Fundraising Effectiveness Project reports). Each year a donor is active they give at least once;
/// how often is their share of the asked-for gifts by the days they were active, weighted by how generous they are
/// (an exponential weight, so a few give often and most rarely). Days cluster at month ends and more at quarter
/// ends; a sixth of the gifts are monthly recurring; about 1% are refunded; three gifts in four carry a refcode of
/// a form, an ad, SMS or the homepage. When few gifts are asked for, fewer donors give (about two gifts per active
/// year each), so the shape holds at any size.
pub async fn insert_gifts(conn: &mut PgConnection, gifts: i64) -> Result<(), sqlx::Error> {
    let (state, zip) = state_and_zip("c.id");
    // A uniform draw in (0, 1] from a donor's id and a salt, for the geometric and exponential draws.
    let uniform = |id: &str, salt: i64| {
        format!("(((hashint8({id} + {salt}) % 1000000 + 1000000) % 1000000 + 1) / 1000000.0)")
    };
    let (come_back, years_after) = (uniform("d.id", 1), uniform("d.id", 2));
    let generous = uniform("y.id", 4);
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "with rates (name, per_mille) as (values ('web-homepage-signup', 140), ('fb-lead-ad-2026q3', 60),
                                                 ('petition-clean-water', 90), ('ngp-import-2025', 520),
                                                 ('event-town-hall-oct', 310), ('google-search-brand', 190)),
              donors as (
                  select n.id, greatest(n.created::date, make_date(extract(year from current_date)::int - 3, 1, 1))
                             as since
                  from contacts n
                  left join origin_codes o on o.id = n.origin_code_id
                  left join rates r on r.name = o.name
                  where (hashint8(n.id) % 1000 + 1000) % 1000 < coalesce(r.per_mille, 100)),
              -- The calendar years each donor gives in: the first, then one more with probability 0.25, then each
              -- further one with probability 0.45 (a geometric count), never past this year.
              years as (
                  select d.id, d.since, y,
                         greatest(d.since, make_date(y, 1, 1)) as f,
                         least(make_date(y, 12, 31), current_date) as t
                  from donors d
                  cross join lateral (
                      select case when {come_back} <= 0.25
                                  then 1 + floor(ln({years_after}) / ln(0.45))::int else 0 end as extra) x
                  cross join lateral generate_series(extract(year from d.since)::int,
                                                     least(extract(year from d.since)::int + x.extra,
                                                           extract(year from current_date)::int)) y
                  where d.since <= current_date),
              sized as (select count(*)::numeric as donor_years from years),
              kept as (
                  select y.*, {generous} as w
                  from years y cross join sized s
                  where (hashint8(y.id + 5) % 1000 + 1000) % 1000
                        < 1000 * least(1.0, $1::numeric / greatest(2 * s.donor_years, 1))),
              weight as (select sum(-ln(w) * (t - f + 1))::numeric as total from kept),
              counts as (
                  select k.id, k.since, k.y, k.f, k.t,
                         greatest(1, ceil($1 * -ln(k.w) * (k.t - k.f + 1) / nullif(wt.total, 0)))::int as n
                  from kept k cross join weight wt),
              -- Every donor-year's first gift is kept; the extra ones beyond the asked-for count are dropped.
              given as (
                  select row_number() over (order by c.id, c.y, s.i) as g, c.id as contact_id, c.since, c.f, c.t,
                         s.i
                  from counts c cross join lateral generate_series(1, c.n) s (i)),
              picked as (
                  select g, (g * 2654435761::bigint) % 1000003 as h, contact_id, since,
                         f + ((hashint8(g) % (t - f + 1) + (t - f + 1)) % (t - f + 1))::int as d
                  from given
                  order by (i = 1) desc, hashint8(g + 7)
                  limit greatest($1, (select count(*) from counts))),
              dated as (
                  select g, h, contact_id, since,
                         case when h % 9 = 0 and extract(month from d)::int % 3 = 0
                                   then (date_trunc('quarter', d) + interval '3 months - 1 day')::date
                              when h % 4 = 0
                                   then (date_trunc('month', d) + interval '1 month - 1 day')::date - (h % 3)::int
                              else d end as day
                  from picked),
              shaped as (
                  select g, h, contact_id, greatest(least(day, current_date), since) as day,
                         g % 6 = 0 as recurring,
                         (array[5, 10, 10, 15, 25, 25, 25, 27, 35, 50, 50, 100, 100, 250, 500, 1000, 25])
                             [1 + (h / 7) % 17]::numeric as ladder
                  from dated),
              codes as (select array_agg(id order by id) ids from source_codes where mailing_id is null)
         insert into contributions (
             platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email, first_name, last_name,
             state, zip, recurring_months, recurrence_number, refcode, source_code_id, fundraising_page, refund_id,
             refunded_at, mobile, express_signup, mailing_id, attribution)
         select 'actblue', 'demo-' || s.g, 'AB' || (s.g - (s.g % 20 = 1)::int),
                least(greatest((s.day + make_interval(secs => (s.h * 37) % 86400)) at time zone 'America/New_York',
                               c.created),
                      now()),
                a.amount, round(a.amount * 0.0395, 2), c.id, c.email, c.first_name, c.last_name, {state}, {zip},
                case when s.recurring then 0 end, case when s.recurring then 1 + (s.g / 6) % 24 end,
                sc.code, sc.id, case when s.h % 2 = 0 then 'main-donate' else 'quarter-end' end,
                case when s.g % 97 = 0 then 'RF' || s.g end,
                case when s.g % 97 = 0 then s.day + 3 end,
                s.h % 5 < 3, s.h % 7 = 0, null, 'none'
         from shaped s
         cross join codes cd
         cross join lateral (select case when s.recurring then (array[10, 15, 25])[1 + s.h % 3]::numeric
                                         else s.ladder end as amount) a
         join contacts c on c.id = s.contact_id
         left join source_codes sc on s.h % 4 <> 0 and sc.id = cd.ids[1 + (s.g * 13) % cardinality(cd.ids)]
         -- In the order gifts arrive (exports and webhooks come in time order), so a month's gifts sit together
         -- on disk as they do for a real client; a random order would make every date range read the whole table.
         order by 4"
    )))
    .bind(gifts)
    .execute(conn)
    .await?;
    Ok(())
}

/// The sent newsletter's gifts: one recipient in forty gives within three days of receiving it, by its link. A
/// mailing's refcode is only on gifts its recipients made after it reached them.
pub async fn insert_newsletter_gifts(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    let (state, zip) = state_and_zip("c.id");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "insert into contributions (platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email,
                                    first_name, last_name, state, zip, refcode, source_code_id, fundraising_page,
                                    mailing_id, attribution)
         select 'actblue', 'demo-mailing-' || r.mailing_id || '-' || r.contact_id, 'ML' || r.mailing_id || r.contact_id,
                least(r.sent_at + make_interval(mins => 5 + ((r.contact_id * 17) % 4320)::int), now()),
                a.amount, round(a.amount * 0.0395, 2), c.id, c.email, c.first_name, c.last_name, {state}, {zip},
                sc.code, sc.id, 'main-donate', r.mailing_id, 'refcode'
         from mailing_recipients r
         join mailings m on m.id = r.mailing_id
         join source_codes sc on sc.mailing_id = m.id and sc.variant = 'a'
         join contacts c on c.id = r.contact_id
         cross join lateral (select (array[10, 25, 25, 50, 100, 250])[1 + (r.contact_id % 6)::int]::numeric
                             as amount) a
         where r.status = 'sent' and r.sent_at is not null and m.send_attempt is not null
           and (hashint8(r.contact_id) % 40 + 40) % 40 = 0
         order by 4"
    )))
    .execute(conn)
    .await?;
    Ok(())
}
