//! The send guard: after each batch, a complaint or hard-bounce rate past the client's limit pauses the mailing.

use crate::JobContext;
use jobs::JobError;

/// The send guard, after each batch: a complaint or hard-bounce rate past the client's limit over the first
/// delivered copies pauses the mailing (the dashboard's alerts show it) until a person resumes it.
pub(super) async fn guard(
    ctx: &JobContext<'_>,
    mailing_id: i64,
) -> Result<Option<String>, JobError> {
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    let Some(trip) = store::deliverability::guard::check(&mut tx, mailing_id).await? else {
        tx.commit().await?;
        return Ok(None);
    };
    let message = guard_message(&trip);
    store::deliverability::guard::pause(&mut tx, mailing_id, &message).await?;
    tx.commit().await?;
    tracing::warn!(mailing_id, reason = %message, "send paused by the guard");
    Ok(Some(message))
}

fn guard_message(trip: &store::deliverability::guard::Trip) -> String {
    use store::deliverability::guard::Tripped;
    match trip.rate {
        Tripped::Complaints => format!(
            "Paused: {} % of the first {} delivered complained (limit {} %). Resume when you have checked the list.",
            percent(trip.percent),
            thousands(trip.delivered),
            percent(trip.limit_percent)
        ),
        Tripped::HardBounces => format!(
            "Paused: {} % of the first {} sent bounced for good (limit {} %). Resume when you have checked the list.",
            percent(trip.percent),
            thousands(trip.sent),
            percent(trip.limit_percent)
        ),
    }
}

/// Two places at most, without trailing zeros: 0.42, 0.3, 5.
fn percent(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// 2000 as 2,000.
pub(super) fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::deliverability::guard::{Trip, Tripped};

    #[test]
    fn the_guard_says_which_rate_and_its_value() {
        let trip = Trip {
            rate: Tripped::Complaints,
            percent: 0.42,
            limit_percent: 0.3,
            delivered: 2000,
            sent: 2010,
        };
        assert_eq!(
            guard_message(&trip),
            "Paused: 0.42 % of the first 2,000 delivered complained (limit 0.3 %). Resume when you have checked the list."
        );
        let trip = Trip {
            rate: Tripped::HardBounces,
            percent: 6.0,
            limit_percent: 5.0,
            delivered: 940,
            sent: 1000,
        };
        assert_eq!(
            guard_message(&trip),
            "Paused: 6 % of the first 1,000 sent bounced for good (limit 5 %). Resume when you have checked the list."
        );
    }
}
