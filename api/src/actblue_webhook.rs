//! ActBlue's contribution webhook. Each request waits on a channel; a few writer tasks take whatever has queued
//! up and write it per client in one transaction (group commit, as form submissions are written), then answer
//! every waiting request — so a 200 means the gift is on disk, and a burst costs a few transactions, not one each.
//!
//! ActBlue's refund webhook is the same body with `refundedAt` set on the contribution and its line items: it
//! marks the known line refunded (or adds it already marked). Its cancellation webhook (`cancelledAt`: a
//! recurring series stopped) refunds nothing, so its lines are written like any contribution's.

use crate::error::ApiError;
use domain::CodePattern;
use domain::Email;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Arc;
use tenancy::{Client, Tenancy};
use tokio::sync::{mpsc, oneshot, Mutex};
use worker::import::contributions::{attribute, parse_amount, split_date};

const MAX_BATCH: usize = 256;

/// The parts of ActBlue's webhook body the ledger keeps (see `api/tests/fixtures/actblue-webhook.json`).
#[derive(Debug, Deserialize)]
pub struct Payload {
    #[serde(default)]
    pub donor: Donor,
    pub contribution: Contribution,
    #[serde(default)]
    pub lineitems: Vec<LineItem>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Donor {
    pub firstname: Option<String>,
    pub lastname: Option<String>,
    pub zip: Option<String>,
    pub state: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contribution {
    pub created_at: Option<String>,
    pub order_number: Option<String>,
    pub contribution_form: Option<String>,
    #[serde(default)]
    pub refcodes: HashMap<String, Option<String>>,
    pub refcode: Option<String>,
    pub refcode2: Option<String>,
    pub recurring_period: Option<String>,
    pub recurring_duration: Option<serde_json::Value>,
    pub is_recurring: Option<bool>,
    pub is_mobile: Option<bool>,
    pub express_signup: Option<bool>,
    pub ab_test_name: Option<String>,
    #[serde(alias = "abTestVariation")]
    pub ab_variation: Option<String>,
    pub refunded_at: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LineItem {
    pub lineitem_id: serde_json::Value,
    pub amount: serde_json::Value,
    pub paid_at: Option<String>,
    pub fee: Option<serde_json::Value>,
    pub refunded_at: Option<String>,
}

fn text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.trim().to_owned(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn nonempty(v: &Option<String>) -> Option<String> {
    v.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.chars().take(200).collect())
}

/// One line item, checked and ready for SQL.
#[derive(Debug, Clone)]
struct Row {
    line_item_id: String,
    receipt_id: Option<String>,
    paid_abs: Option<String>,
    paid_local: Option<String>,
    refunded_abs: Option<String>,
    refunded_local: Option<String>,
    amount: String,
    fee: Option<String>,
    email: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    zip: Option<String>,
    state: Option<String>,
    phone: Option<String>,
    recurring_months: Option<i32>,
    refcode: Option<String>,
    refcode2: Option<String>,
    page: Option<String>,
    ab_test_name: Option<String>,
    ab_variation: Option<String>,
    mobile: Option<bool>,
    express_signup: Option<bool>,
}

/// The payload's line items as rows; a body without line items, or with an amount or date that is none, is a 400.
fn rows(p: &Payload) -> Result<Vec<Row>, ApiError> {
    let c = &p.contribution;
    let bad = |m: &str| ApiError::BadRequest(m.to_owned());
    if p.lineitems.is_empty() {
        return Err(bad("The contribution has no line items"));
    }
    let refcode = nonempty(&c.refcode).or_else(|| c.refcodes.get("refcode").and_then(nonempty));
    let refcode2 = nonempty(&c.refcode2).or_else(|| c.refcodes.get("refcode2").and_then(nonempty));
    let recurring = c.is_recurring.unwrap_or(false)
        || c.recurring_period
            .as_deref()
            .is_some_and(|p| !p.is_empty() && p != "once");
    let recurring_months = recurring.then(|| {
        c.recurring_duration
            .as_ref()
            .and_then(|d| text(d).parse::<i32>().ok())
            .filter(|n| *n >= 0)
            .unwrap_or(0)
    });
    let set = |d: &Option<String>| {
        d.as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .is_some()
    };
    // The contribution's refund date speaks for every line only when no line names its own.
    let whole_refund = !p.lineitems.iter().any(|l| set(&l.refunded_at));
    p.lineitems
        .iter()
        .map(|l| {
            let line_item_id = text(&l.lineitem_id);
            if line_item_id.is_empty() {
                return Err(bad("A line item has no lineitemId"));
            }
            let refunded = l
                .refunded_at
                .as_deref()
                .or(c.refunded_at.as_deref().filter(|_| whole_refund))
                .map(str::trim)
                .filter(|d| !d.is_empty());
            let (refunded_abs, refunded_local) = match refunded {
                Some(d) => split_date(d).ok_or_else(|| bad("The refund's date is not a date"))?,
                None => (None, None),
            };
            // A refund may state the amount as taken back; the ledger keeps the gift's own (positive) amount.
            let amount = parse_amount(&text(&l.amount))
                .map(|a| match a.strip_prefix('-') {
                    Some(positive) if refunded.is_some() => positive.to_owned(),
                    _ => a,
                })
                .filter(|a| !a.starts_with('-'))
                .ok_or_else(|| bad("A line item's amount is not an amount"))?;
            let fee = match l.fee.as_ref().map(text).filter(|f| !f.is_empty()) {
                Some(f) => Some(
                    parse_amount(&f).ok_or_else(|| bad("A line item's fee is not an amount"))?,
                ),
                None => None,
            };
            let when = l
                .paid_at
                .as_deref()
                .or(c.created_at.as_deref())
                .ok_or_else(|| bad("The contribution has no date"))?;
            let (paid_abs, paid_local) =
                split_date(when).ok_or_else(|| bad("The contribution's date is not a date"))?;
            Ok(Row {
                line_item_id,
                receipt_id: nonempty(&c.order_number),
                paid_abs,
                paid_local,
                refunded_abs,
                refunded_local,
                amount,
                fee,
                email: p
                    .donor
                    .email
                    .as_deref()
                    .and_then(|raw| Email::parse(raw).ok())
                    .map(Email::into_string),
                first_name: nonempty(&p.donor.firstname),
                last_name: nonempty(&p.donor.lastname),
                zip: nonempty(&p.donor.zip),
                state: nonempty(&p.donor.state),
                phone: nonempty(&p.donor.phone),
                recurring_months,
                refcode: refcode.clone(),
                refcode2: refcode2.clone(),
                page: nonempty(&c.contribution_form),
                ab_test_name: nonempty(&c.ab_test_name),
                ab_variation: nonempty(&c.ab_variation),
                mobile: c.is_mobile,
                express_signup: c.express_signup,
            })
        })
        .collect()
}

/// What one webhook changed: line items written new, and line items it marked refunded (new ones included).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    pub new: i64,
    pub refunded: i64,
}

struct Pending {
    client: Client,
    rows: Vec<Row>,
    reply: oneshot::Sender<Result<Written, ApiError>>,
}

pub struct GiftWriter {
    queue: mpsc::Sender<Pending>,
}

impl GiftWriter {
    /// Starts `writers` writer tasks on the current runtime.
    pub fn start(tenancy: Tenancy, writers: usize) -> Self {
        let (queue, rx) = mpsc::channel::<Pending>(8192);
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..writers.max(1) {
            tokio::spawn(write_loop(tenancy.clone(), rx.clone()));
        }
        Self { queue }
    }

    /// Writes the payload's line items durably; answers how many were new and how many it marked refunded (a
    /// replay does neither).
    pub async fn submit(&self, client: Client, payload: &Payload) -> Result<Written, ApiError> {
        let rows = rows(payload)?;
        let (reply, answer) = oneshot::channel();
        self.queue
            .send(Pending {
                client,
                rows,
                reply,
            })
            .await
            .map_err(|_| ApiError::internal("gift writer stopped"))?;
        answer
            .await
            .map_err(|_| ApiError::internal("gift writer dropped a webhook"))?
    }
}

async fn write_loop(tenancy: Tenancy, rx: Arc<Mutex<mpsc::Receiver<Pending>>>) {
    loop {
        let mut batch = Vec::new();
        {
            let mut rx = rx.lock().await;
            match rx.recv().await {
                Some(first) => batch.push(first),
                None => return,
            }
            while batch.len() < MAX_BATCH {
                match rx.try_recv() {
                    Ok(next) => batch.push(next),
                    Err(_) => break,
                }
            }
        }
        let mut by_client: HashMap<i64, Vec<Pending>> = HashMap::new();
        for item in batch {
            by_client.entry(item.client.id).or_default().push(item);
        }
        for (_, items) in by_client {
            match write_batch(&tenancy, &items).await {
                Ok(new) => {
                    for (item, n) in items.into_iter().zip(new) {
                        let _ = item.reply.send(Ok(n));
                    }
                }
                Err(e) => {
                    let message = e.to_string();
                    for item in items {
                        let _ = item.reply.send(Err(ApiError::internal(message.clone())));
                    }
                }
            }
        }
    }
}

/// Writes one client's group in one transaction; returns what each webhook changed.
async fn write_batch(tenancy: &Tenancy, items: &[Pending]) -> Result<Vec<Written>, ApiError> {
    let Some(first) = items.first() else {
        return Ok(Vec::new());
    };
    let all: Vec<(usize, &Row)> = items
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.rows.iter().map(move |r| (i, r)))
        .collect();
    let col = |f: fn(&Row) -> Option<String>| all.iter().map(|(_, r)| f(r)).collect::<Vec<_>>();
    let owner: Vec<i32> = all.iter().map(|(i, _)| *i as i32).collect();
    let ids: Vec<String> = all.iter().map(|(_, r)| r.line_item_id.clone()).collect();
    let amounts: Vec<String> = all.iter().map(|(_, r)| r.amount.clone()).collect();
    let months: Vec<Option<i32>> = all.iter().map(|(_, r)| r.recurring_months).collect();
    let mobile: Vec<Option<bool>> = all.iter().map(|(_, r)| r.mobile).collect();
    let express: Vec<Option<bool>> = all.iter().map(|(_, r)| r.express_signup).collect();

    let mut tx = tenancy.begin(&first.client).await?;
    let (origin_code, pattern, window): (String, String, i32) = sqlx::query_as(
        "select actblue_origin_code, refcode_pattern, attribution_window_days from app_settings limit 1",
    )
    .fetch_one(&mut *tx)
    .await?;
    let emails = col(|r| r.email.clone());
    sqlx::query(
        "insert into origin_codes (name)
         select $1 where exists (
             select 1 from unnest($2::text[]) e
             where e is not null and not exists (select 1 from contacts c where c.email = e))
         on conflict (name) do nothing",
    )
    .bind(&origin_code)
    .bind(&emails)
    .execute(&mut *tx)
    .await?;
    // E-mail order, so concurrent groups lock contact rows in the same order.
    sqlx::query(
        "insert into contacts (email, first_name, last_name, phone, origin_code_id)
         select distinct on (email) email, coalesce(first_name, ''), coalesce(last_name, ''), phone,
                (select o.id from origin_codes o where o.name = $5)
         from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as t (email, first_name, last_name, phone)
         where email is not null
         order by email
         on conflict (email) do nothing",
    )
    .bind(&emails)
    .bind(col(|r| r.first_name.clone()))
    .bind(col(|r| r.last_name.clone()))
    .bind(col(|r| r.phone.clone()))
    .bind(&origin_code)
    .execute(&mut *tx)
    .await?;
    let pattern = CodePattern::new(&pattern);
    let mut codes: Vec<String> = all.iter().filter_map(|(_, r)| r.refcode.clone()).collect();
    codes.sort();
    codes.dedup();
    for code in &codes {
        let p = pattern.parse(code);
        sqlx::query(
            "insert into source_codes (code, parsed, channel, code_date, campaign, variant)
             values ($1, $2, $3, $4, $5, $6) on conflict (code) do nothing",
        )
        .bind(code)
        .bind(p.parsed)
        .bind(p.channel)
        .bind(p.date)
        .bind(p.campaign)
        .bind(p.variant)
        .execute(&mut *tx)
        .await?;
    }
    let refunded_abs = col(|r| r.refunded_abs.clone());
    let refunded_local = col(|r| r.refunded_local.clone());
    let inserted: Vec<(i32, bool)> = sqlx::query_as(
        "insert into contributions (
             platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email, first_name, last_name,
             zip, state, phone, recurring_months, refcode, refcode2, source_code_id, fundraising_page,
             ab_test_name, ab_variation, mobile, express_signup, refunded_at)
         select distinct on (t.line_item_id)
                'actblue', t.line_item_id, t.receipt_id,
                coalesce(t.paid_abs::timestamptz,
                         t.paid_local::timestamp at time zone (select time_zone from app_settings limit 1)),
                t.amount::numeric, t.fee::numeric, c.id, t.email, t.first_name, t.last_name, t.zip, t.state,
                t.phone, t.months, t.refcode, t.refcode2, sc.id, t.page, t.ab_test_name, t.ab_variation,
                t.mobile, t.express,
                coalesce(t.refunded_abs::timestamptz,
                         t.refunded_local::timestamp at time zone (select time_zone from app_settings limit 1))
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[],
                     $15::text[], $16::text[], $17::text[], $18::text[], $19::bool[], $20::bool[], $21::int[],
                     $22::text[], $23::text[])
              as t (line_item_id, receipt_id, paid_abs, paid_local, amount, fee, email, first_name, last_name,
                    zip, state, phone, months, refcode, refcode2, page, ab_test_name, ab_variation, mobile,
                    express, owner, refunded_abs, refunded_local)
         left join contacts c on c.email = t.email
         left join source_codes sc on sc.code = t.refcode
         -- A refund beats the paid webhook of the same line within one group.
         order by t.line_item_id, (t.refunded_abs is null and t.refunded_local is null)
         on conflict (platform, line_item_id) do nothing
         returning (select min(o) from unnest($1::text[], $21::int[]) as x (id, o) where x.id = line_item_id),
                   refunded_at is not null",
    )
    .bind(&ids)
    .bind(col(|r| r.receipt_id.clone()))
    .bind(col(|r| r.paid_abs.clone()))
    .bind(col(|r| r.paid_local.clone()))
    .bind(&amounts)
    .bind(col(|r| r.fee.clone()))
    .bind(&emails)
    .bind(col(|r| r.first_name.clone()))
    .bind(col(|r| r.last_name.clone()))
    .bind(col(|r| r.zip.clone()))
    .bind(col(|r| r.state.clone()))
    .bind(col(|r| r.phone.clone()))
    .bind(&months)
    .bind(col(|r| r.refcode.clone()))
    .bind(col(|r| r.refcode2.clone()))
    .bind(col(|r| r.page.clone()))
    .bind(col(|r| r.ab_test_name.clone()))
    .bind(col(|r| r.ab_variation.clone()))
    .bind(&mobile)
    .bind(&express)
    .bind(&owner)
    .bind(&refunded_abs)
    .bind(&refunded_local)
    .fetch_all(&mut *tx)
    .await?;
    // Known lines a refund webhook names are marked once; a line already refunded (or a replay) stays as it is.
    let marked: Vec<i32> = sqlx::query_scalar(
        "update contributions c
         set refunded_at = coalesce(t.refunded_abs::timestamptz,
                                    t.refunded_local::timestamp at time zone s.time_zone)
         from unnest($1::text[], $2::int[], $3::text[], $4::text[])
              as t (line_item_id, owner, refunded_abs, refunded_local)
         cross join app_settings s
         where c.platform = 'actblue' and c.line_item_id = t.line_item_id
           and (t.refunded_abs is not null or t.refunded_local is not null)
           and c.refunded_at is null and c.refund_id is null
         returning t.owner",
    )
    .bind(&ids)
    .bind(&owner)
    .bind(&refunded_abs)
    .bind(&refunded_local)
    .fetch_all(&mut *tx)
    .await?;
    attribute(&mut tx, window)
        .await
        .map_err(ApiError::internal)?;
    tx.commit().await?;
    let mut written = vec![Written::default(); items.len()];
    for (o, refunded) in inserted {
        if let Some(w) = written.get_mut(o as usize) {
            w.new += 1;
            w.refunded += i64::from(refunded);
        }
    }
    for o in marked {
        if let Some(w) = written.get_mut(o as usize) {
            w.refunded += 1;
        }
    }
    Ok(written)
}
