//! The figures of the Contributions page: the range's totals, its daily series and its breakdowns, each narrowed
//! by the page's filters. Definitions in docs/metrics.md.

use super::{Range, DONORS, NET, REFUNDED};
use chrono::{Datelike, NaiveDate};
use sqlx::PgConnection;

/// The filters that narrow the whole Contributions page (totals, chart, breakdowns and the gift table alike).
#[derive(Debug, Clone, Default)]
pub struct PageFilter {
    pub source_code_id: Option<i64>,
    pub refunded: Option<bool>,
    pub recurring: Option<bool>,
}

impl PageFilter {
    fn is_empty(&self) -> bool {
        self.source_code_id.is_none() && self.refunded.is_none() && self.recurring.is_none()
    }

    /// The daily rollup keeps source codes apart but not refunded or recurring lines.
    fn rollup_answers(&self) -> bool {
        self.refunded.is_none() && self.recurring.is_none()
    }
}

/// The page filters over `c`, as the nullable parameters $n (source code), $n+1 (refunded) and $n+2 (recurring).
fn page_filter(n: usize) -> String {
    format!(
        "(${n}::bigint is null or c.source_code_id = ${n}) and (${r}::boolean is null or {REFUNDED} = ${r})
         and (${c}::boolean is null or (c.recurring_months is not null) = ${c})",
        r = n + 1,
        c = n + 2,
    )
}

/// Totals of a range. Money is a decimal string with two places.
#[derive(Debug, sqlx::FromRow)]
pub struct Summary {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub gross: String,
    pub refunds: String,
    pub net: String,
    pub fees: String,
    pub gifts: i64,
    pub refunded_gifts: i64,
    pub donors: i64,
    pub new_donors: i64,
    pub average_gift: String,
    pub median_gift: String,
    pub recurring_gross: String,
    pub recurring_share: f64,
}

pub async fn summary(
    conn: &mut PgConnection,
    range: &Range,
    filter: &PageFilter,
) -> Result<Summary, sqlx::Error> {
    // Whole days come from the rollup (kept per source code); only distinct donors and the median read the
    // facts, from the covering index on paid_at. The rollup does not split refunded or recurring lines, so
    // those filters total the facts instead.
    let filter_sql = page_filter(5);
    let totals = if filter.rollup_answers() {
        "select coalesce(sum(gross), 0) as gross, coalesce(sum(refunds), 0) as refunds,
                coalesce(sum(fees), 0) as fees, coalesce(sum(gifts), 0)::bigint as gifts,
                coalesce(sum(refunded_gifts), 0)::bigint as refunded_gifts,
                coalesce(sum(recurring_gross), 0) as recurring_gross
         from contribution_days
         where day between $3 and $4 and ($5::bigint is null or source_code_id = $5)"
            .to_owned()
    } else {
        format!(
            "select coalesce(sum(c.amount) filter (where c.amount > 0), 0) as gross,
                    coalesce(sum(c.amount) filter (where c.amount > 0 and {REFUNDED}), 0)
                      + coalesce(sum(-c.amount) filter (where c.amount < 0), 0) as refunds,
                    coalesce(sum(c.fee), 0) as fees, count(*) filter (where c.amount > 0) as gifts,
                    count(*) filter (where c.amount > 0 and {REFUNDED}) as refunded_gifts,
                    coalesce(sum(c.amount) filter (where c.amount > 0 and c.recurring_months is not null), 0)
                      as recurring_gross
             from contributions c where c.paid_at >= $1 and c.paid_at < $2 and {filter_sql}"
        )
    };
    // Unfiltered, a new donor is one whose first gift ever falls in the range; filtered, one of those whose
    // gifts in the range include a filtered one.
    let new_donors = if filter.is_empty() {
        "(select count(*) from donor_firsts f where f.first_paid_at >= $1 and f.first_paid_at < $2)"
            .to_owned()
    } else {
        format!(
            "(select count(*) from donor_firsts f
              join (select distinct coalesce(c.contact_id::text, 'e:' || c.email) as donor
                    from contributions c
                    where c.paid_at >= $1 and c.paid_at < $2 and c.amount > 0 and {filter_sql}) d
                on d.donor = f.donor
              where f.first_paid_at >= $1 and f.first_paid_at < $2)"
        )
    };
    // Distinct donors: whole client months read their donor_months rows (a month's donors rather than its
    // gifts); any other range counts the facts, hashed rather than sorted, by the donor key's two parts.
    let months = if filter.is_empty() {
        whole_months(conn, range).await?
    } else {
        None
    };
    let donors = if months.is_some_and(|(first, last)| first == last) {
        // A donor has one row per month.
        "(select count(*) from donor_months where month = $8 and gifts > 0)".to_owned()
    } else if months.is_some() {
        "(select count(*) from (select donor from donor_months
                                where month >= $8 and month <= $9 and gifts > 0 group by donor) d)"
            .to_owned()
    } else {
        format!(
            "(select count(*) from (
                  select distinct c.contact_id, case when c.contact_id is null then c.email end
                  from contributions c
                  where c.paid_at >= $1 and c.paid_at < $2 and c.amount > 0
                    and (c.contact_id is not null or c.email is not null)
                    and {filter_sql}) d)"
        )
    };
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with t as ({totals}), g as (
             -- The median from the count of each amount (the lower and the upper middle value: their mean
             -- is the median, exactly).
             select {donors} as donors,
                    min(amount) filter (where cum >= (total + 1) / 2) as mid_low,
                    min(amount) filter (where cum >= total / 2 + 1) as mid_high
             from (select amount, sum(n) over (order by amount) as cum, (sum(n) over ())::bigint as total
                   from (select c.amount, count(*) as n from contributions c
                         where c.paid_at >= $1 and c.paid_at < $2 and c.amount > 0 and {filter_sql}
                         group by c.amount) a) m
         )
         select $3::date as \"from\", $4::date as \"to\",
                gross::numeric(20, 2)::text as gross, refunds::numeric(20, 2)::text as refunds,
                (gross - refunds)::numeric(20, 2)::text as net, fees::numeric(20, 2)::text as fees,
                gifts, refunded_gifts, donors,
                -- A donor is new when their first gift ever falls in the range.
                {new_donors} as new_donors,
                (case when gifts > 0 then round(gross / gifts, 2) else 0 end)::numeric(20, 2)::text
                  as average_gift,
                coalesce(round((mid_low + mid_high) / 2, 2), 0)::numeric(20, 2)::text as median_gift,
                recurring_gross::numeric(20, 2)::text as recurring_gross,
                (case when gross > 0 then recurring_gross / gross else 0 end)::float8 as recurring_share
         from t cross join g"
    )))
    .bind(range.lo)
    .bind(range.hi)
    .bind(range.from)
    .bind(range.to)
    .bind(filter.source_code_id)
    .bind(filter.refunded)
    .bind(filter.recurring)
    .bind(months.map(|m| m.0))
    .bind(months.map(|m| m.1))
    .fetch_one(conn)
    .await
}

/// The first days of the client months `range` spans, when those months' `donor_months` rows hold exactly its
/// donors: the range starts on the first of a month and no gift is paid in its last month after it ends (the
/// current month up to today, or a month given whole).
async fn whole_months(
    conn: &mut PgConnection,
    range: &Range,
) -> Result<Option<(NaiveDate, NaiveDate)>, sqlx::Error> {
    month_rows_hold(conn, range.from, range.to, range.hi, &range.tz).await
}

/// `whole_months` of the client range `from`–`to` (ending at `hi`, zone `tz`), for the pages and reports whose
/// range is not a `Range`.
pub(crate) async fn month_rows_hold(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
    hi: chrono::DateTime<chrono::Utc>,
    tz: &str,
) -> Result<Option<(NaiveDate, NaiveDate)>, sqlx::Error> {
    if from.day() != 1 || from > to {
        return Ok(None);
    }
    let last = to - chrono::Days::new(u64::from(to.day0()));
    let later_gift: bool = sqlx::query_scalar(
        "select exists (select 1 from contributions c
                        where c.paid_at >= $1 and c.amount > 0
                          and c.paid_at < (($2::date + interval '1 month')::date)::timestamp at time zone $3)",
    )
    .bind(hi)
    .bind(last)
    .bind(tz)
    .fetch_one(conn)
    .await?;
    Ok((!later_gift).then_some((from, last)))
}

/// One day's figures; money as decimal strings with two places.
#[derive(Debug, sqlx::FromRow)]
pub struct Day {
    pub day: NaiveDate,
    pub gross: String,
    pub net: String,
    pub gifts: i64,
}

/// Every day of the previous period of equal length and then of the range, in order (a day without gifts too).
pub async fn days(
    conn: &mut PgConnection,
    range: &Range,
    filter: &PageFilter,
) -> Result<Vec<Day>, sqlx::Error> {
    let prev_lo = range.lo - (range.hi - range.lo);
    let filter_sql = page_filter(5);
    let agg = if filter.rollup_answers() {
        "select day, sum(gross) as gross, sum(net) as net, sum(gifts)::bigint as gifts
         from contribution_days
         where day between $1 and $2 and ($5::bigint is null or source_code_id = $5)
         group by day"
            .to_owned()
    } else {
        format!(
            "select (c.paid_at at time zone $3)::date as day,
                    sum(c.amount) filter (where c.amount > 0) as gross, sum({NET}) as net,
                    count(*) filter (where c.amount > 0) as gifts
             from contributions c
             where c.paid_at >= $4 and c.paid_at < $8 and {filter_sql}
             group by 1"
        )
    };
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with agg as ({agg})
         select d.day::date as day, coalesce(a.gross, 0)::numeric(20, 2)::text as gross,
                coalesce(a.net, 0)::numeric(20, 2)::text as net, coalesce(a.gifts, 0) as gifts
         from generate_series($1::date, $2::date, interval '1 day') d (day)
         left join agg a on a.day = d.day::date
         order by d.day"
    )))
    .bind(range.prev_from)
    .bind(range.to)
    .bind(&range.tz)
    .bind(prev_lo)
    .bind(filter.source_code_id)
    .bind(filter.refunded)
    .bind(filter.recurring)
    .bind(range.hi)
    .fetch_all(conn)
    .await
}

/// A row of a breakdown: a channel, source code, fundraising page or amount band.
#[derive(Debug, sqlx::FromRow)]
pub struct Breakdown {
    pub key: String,
    pub source_code_id: Option<i64>,
    pub gifts: i64,
    pub donors: i64,
    pub gross: String,
    pub net: String,
}

/// The four breakdowns of a range: by the source code's channel (`none` without a code, `unparsed` when the code's
/// pattern did not read it), the 100 codes with the most gross (the line's refcode when it has no source code),
/// the 100 fundraising pages with the most gross, and amount bands, smallest first.
#[derive(Debug, Default)]
pub struct Breakdowns {
    pub channels: Vec<Breakdown>,
    pub source_codes: Vec<Breakdown>,
    pub pages: Vec<Breakdown>,
    pub bands: Vec<Breakdown>,
}

#[derive(sqlx::FromRow)]
struct GroupedRow {
    /// Which grouping set the row belongs to: 0 channel, 1 source code, 2 page, 3 band.
    grp: i32,
    #[sqlx(flatten)]
    row: Breakdown,
}

/// The range's lines grouped four ways in one pass (grouping sets): the lines are read once, not once per
/// breakdown (issue 27 item 17: four scans of a year of gifts took a second at 3,000,000 gifts).
pub async fn breakdowns(
    conn: &mut PgConnection,
    range: &Range,
    filter: &PageFilter,
) -> Result<Breakdowns, sqlx::Error> {
    let filter_sql = page_filter(3);
    let rows: Vec<GroupedRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with lines as (
             select case when c.refcode is null and c.source_code_id is null then 'none'
                         when s.parsed and s.channel is not null then s.channel else 'unparsed' end as channel,
                    coalesce(s.code, c.refcode, 'none') as code, s.id as code_id,
                    coalesce(c.fundraising_page, 'none') as page,
                    case when c.amount <= 0 then 0 when c.amount < 25 then 1 when c.amount < 50 then 2
                         when c.amount < 100 then 3 when c.amount < 250 then 4 when c.amount < 1000 then 5
                         else 6 end as band,
                    -- Narrow rows: each grouping set sorts them again (a contact-less line's donor is its
                    -- e-mail; the net is worked out once).
                    c.amount, c.contact_id, case when c.contact_id is null then c.email end as email,
                    {NET} as net
             from contributions c left join source_codes s on s.id = c.source_code_id
             where c.paid_at >= $1 and c.paid_at < $2 and {filter_sql}
         ),
         grouped as (
             select case when grouping(channel) = 0 then 0 when grouping(code) = 0 then 1
                         when grouping(page) = 0 then 2 else 3 end as grp,
                    coalesce(channel, code, page,
                             (array['Refunds and adjustments', 'Under $25', '$25–49.99', '$50–99.99',
                                    '$100–249.99', '$250–999.99', '$1,000 and over'])[band + 1]) as key,
                    code_id as source_code_id, band,
                    count(*) filter (where c.amount > 0) as gifts,
                    {DONORS} as donors,
                    coalesce(sum(c.amount) filter (where c.amount > 0), 0) as gross,
                    coalesce(sum(c.net), 0) as net
             from lines c
             group by grouping sets ((channel), (code, code_id), (page), (band))
         ),
         ranked as (
             select *, row_number() over (
                 partition by grp
                 order by case when grp = 3 then band end, gross desc nulls last, key) as n
             from grouped
         )
         select grp::integer as grp, key, source_code_id, gifts, donors, gross::numeric(20, 2)::text as gross,
                net::numeric(20, 2)::text as net
         from ranked
         where n <= case grp when 0 then 1000 when 3 then 10 else 100 end
         order by grp, n"
    )))
    .bind(range.lo)
    .bind(range.hi)
    .bind(filter.source_code_id)
    .bind(filter.refunded)
    .bind(filter.recurring)
    .fetch_all(conn)
    .await?;
    let mut out = Breakdowns::default();
    for GroupedRow { grp, row } in rows {
        match grp {
            0 => out.channels.push(row),
            1 => out.source_codes.push(row),
            2 => out.pages.push(row),
            _ => out.bands.push(row),
        }
    }
    Ok(out)
}
