//! Bounce and complaint rates (issue 30) per mailing, per sender domain or per mailbox provider: the figures the
//! mailing page, Performance and E-mail Analytics show (docs/deliverability.md "Rates").

use crate::auth::{ClientAuth, Needs};
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::state::SharedState;
use chrono::NaiveDate;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Enum, Object, OpenApi};
use store::deliverability::rates::{self, GroupBy};

pub struct RatesApi;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum RatesBy {
    Mailing,
    SenderDomain,
    Provider,
}

/// Bounce and complaint figures of one group (docs/deliverability.md "Rates"). Rates are decimal strings with
/// four places (0.0042 is 0.42 %), null when there is nothing to divide by.
#[derive(Debug, Object)]
pub struct DeliveryRates {
    /// The mailing's id, the sender's From domain, or the mailbox provider (gmail, yahoo, microsoft, other).
    pub group: String,
    /// The mailing's name, when per mailing.
    #[oai(nullable)]
    pub label: Option<String>,
    pub sent: i64,
    pub delivered: i64,
    #[oai(rename = "hardBounced")]
    pub hard_bounced: i64,
    #[oai(rename = "softBounced")]
    pub soft_bounced: i64,
    pub complained: i64,
    #[oai(nullable, rename = "hardBounceRate")]
    pub hard_bounce_rate: Option<String>,
    #[oai(nullable, rename = "softBounceRate")]
    pub soft_bounce_rate: Option<String>,
    #[oai(nullable, rename = "complaintRate")]
    pub complaint_rate: Option<String>,
}

impl From<rates::Rates> for DeliveryRates {
    fn from(r: rates::Rates) -> Self {
        Self {
            group: r.group,
            label: r.label,
            sent: r.sent,
            delivered: r.delivered,
            hard_bounced: r.hard_bounced,
            soft_bounced: r.soft_bounced,
            complained: r.complained,
            hard_bounce_rate: r.hard_bounce_rate,
            soft_bounce_rate: r.soft_bounce_rate,
            complaint_rate: r.complaint_rate,
        }
    }
}

#[OpenApi(tag = "ApiTags::Deliverability")]
impl RatesApi {
    /// Bounce and complaint rates per mailing, per sender (From) domain or per mailbox provider, of one mailing
    /// (`mailingId`) or of the mailings sent from `from` to `to` (the client's days, both included).
    #[oai(
        path = "/api/delivery-rates",
        method = "get",
        operation_id = "getDeliveryRates"
    )]
    async fn rates(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        by: Query<RatesBy>,
        #[oai(name = "mailingId")] mailing_id: Query<Option<i64>>,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<Vec<DeliveryRates>>, ApiError> {
        if let (Some(from), Some(to)) = (from.0, to.0) {
            if from > to {
                return Err(ApiError::BadRequest(
                    "The range ends before it starts".to_owned(),
                ));
            }
        }
        let group = match by.0 {
            RatesBy::Mailing => GroupBy::Mailing,
            RatesBy::SenderDomain => GroupBy::SenderDomain,
            RatesBy::Provider => GroupBy::Provider,
        };
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let (from, until) = rates::day_bounds(tx, from.0, to.0).await?;
                let filter = rates::Filter {
                    mailing_id: mailing_id.0,
                    from,
                    until,
                };
                Ok(rates::rates(tx, group, &filter).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(Into::into).collect()))
    }
}
