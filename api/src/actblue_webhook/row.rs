//! A webhook's line items checked and ready for SQL: one `Row` each.

use super::payload::Payload;
use crate::error::ApiError;
use domain::when::split_date;
use domain::Email;
use domain::Money;

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
pub(super) struct Row {
    pub(super) line_item_id: String,
    pub(super) receipt_id: Option<String>,
    pub(super) paid_abs: Option<String>,
    pub(super) paid_local: Option<String>,
    pub(super) refunded_abs: Option<String>,
    pub(super) refunded_local: Option<String>,
    pub(super) amount: String,
    pub(super) fee: Option<String>,
    pub(super) email: Option<String>,
    pub(super) first_name: Option<String>,
    pub(super) last_name: Option<String>,
    pub(super) zip: Option<String>,
    pub(super) state: Option<String>,
    pub(super) phone: Option<String>,
    pub(super) recurring_months: Option<i32>,
    pub(super) refcode: Option<String>,
    pub(super) refcode2: Option<String>,
    pub(super) page: Option<String>,
    pub(super) ab_test_name: Option<String>,
    pub(super) ab_variation: Option<String>,
    pub(super) mobile: Option<bool>,
    pub(super) express_signup: Option<bool>,
}

/// The payload's line items as rows; a body without line items, or with an amount or date that is none, is a 400.
pub(super) fn rows(p: &Payload) -> Result<Vec<Row>, ApiError> {
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
            let amount = Money::parse_written(&text(&l.amount))
                .ok()
                .map(|a| if refunded.is_some() { a.abs() } else { a })
                .filter(|a| !a.is_negative())
                .ok_or_else(|| bad("A line item's amount is not an amount"))?
                .to_string();
            let fee = match l.fee.as_ref().map(text).filter(|f| !f.is_empty()) {
                Some(f) => Some(
                    Money::parse_written(&f)
                        .map_err(|_| bad("A line item's fee is not an amount"))?
                        .to_string(),
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
