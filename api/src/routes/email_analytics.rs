//! Email › E-mail Analytics: the programme's figures by week or month, the send-hour × weekday heat map and the
//! mailbox-provider split (docs/email-analytics.md).

use super::ApiTags;
use crate::auth::ClientAuth;
use crate::date_range::check_range;
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::NaiveDate;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Enum, Object, OpenApi};
use store::email_analytics::{self as stats, Grain};

pub use crate::auth::PAGE_PERFORMANCE;

pub struct EmailAnalyticsApi;

#[derive(Debug, Clone, Copy, Enum)]
#[oai(rename_all = "lowercase")]
pub enum AnalyticsGrain {
    Week,
    Month,
}

/// One period's (or the whole range's) figures. Rates are decimal strings with four places, null when their
/// denominator is 0; money has two.
#[derive(Debug, Object)]
pub struct EmailPeriod {
    pub start: NaiveDate,
    pub last: NaiveDate,
    pub subscribed: i64,
    #[oai(rename = "newSubscribers")]
    pub new_subscribers: i64,
    pub unsubscribes: i64,
    pub bounces: i64,
    /// Contacts with a human open or click in the 90 days up to the period's end.
    pub active: i64,
    #[oai(nullable, rename = "activeRate")]
    pub active_rate: Option<String>,
    pub sent: i64,
    pub delivered: i64,
    #[oai(nullable, rename = "deliveryRate")]
    pub delivery_rate: Option<String>,
    #[oai(nullable, rename = "bounceRate")]
    pub bounce_rate: Option<String>,
    pub opened: i64,
    #[oai(nullable, rename = "openRate")]
    pub open_rate: Option<String>,
    pub clicked: i64,
    #[oai(nullable, rename = "clickRate")]
    pub click_rate: Option<String>,
    /// E-mail revenue of the mailings whose send started in the period (whenever paid) + external mailings'.
    pub revenue: String,
    /// Revenue × 1000 ÷ (those mailings' delivered + external delivered).
    #[oai(nullable)]
    pub rpm: Option<String>,
}

impl From<stats::Period> for EmailPeriod {
    fn from(p: stats::Period) -> Self {
        Self {
            start: p.start,
            last: p.last,
            subscribed: p.subscribed,
            new_subscribers: p.new_subscribers,
            unsubscribes: p.unsubscribes,
            bounces: p.bounces,
            active: p.active,
            active_rate: p.active_rate,
            sent: p.sent,
            delivered: p.delivered,
            delivery_rate: p.delivery_rate,
            bounce_rate: p.bounce_rate,
            opened: p.opened,
            open_rate: p.open_rate,
            clicked: p.clicked,
            click_rate: p.click_rate,
            revenue: p.revenue,
            rpm: p.rpm,
        }
    }
}

/// Send figures of one heat-map cell (weekday 1 = Monday … 7, hour 0–23) or one provider.
#[derive(Debug, Object)]
pub struct EmailCell {
    pub weekday: i16,
    #[oai(rename = "sendHour")]
    pub send_hour: i16,
    pub provider: String,
    pub sent: i64,
    pub delivered: i64,
    pub bounced: i64,
    pub opened: i64,
    pub clicked: i64,
    pub unsubscribed: i64,
    #[oai(nullable, rename = "deliveryRate")]
    pub delivery_rate: Option<String>,
    #[oai(nullable, rename = "bounceRate")]
    pub bounce_rate: Option<String>,
    #[oai(nullable, rename = "openRate")]
    pub open_rate: Option<String>,
    #[oai(nullable, rename = "clickRate")]
    pub click_rate: Option<String>,
}

impl From<stats::Cell> for EmailCell {
    fn from(c: stats::Cell) -> Self {
        Self {
            weekday: c.weekday,
            send_hour: c.send_hour,
            provider: c.provider,
            sent: c.sent,
            delivered: c.delivered,
            bounced: c.bounced,
            opened: c.opened,
            clicked: c.clicked,
            unsubscribed: c.unsubscribed,
            delivery_rate: c.delivery_rate,
            bounce_rate: c.bounce_rate,
            open_rate: c.open_rate,
            click_rate: c.click_rate,
        }
    }
}

#[derive(Debug, Object)]
pub struct EmailAnalytics {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub grain: AnalyticsGrain,
    pub periods: Vec<EmailPeriod>,
    pub total: EmailPeriod,
    #[oai(rename = "heatMap")]
    pub heat_map: Vec<EmailCell>,
    pub providers: Vec<EmailCell>,
}

#[OpenApi(tag = "ApiTags::Mailings")]
impl EmailAnalyticsApi {
    /// The programme's figures from `from` to `to` (client days, both included) by week or month.
    #[oai(
        path = "/api/email-analytics",
        method = "get",
        operation_id = "getEmailAnalytics"
    )]
    async fn analytics(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<NaiveDate>,
        to: Query<NaiveDate>,
        grain: Query<Option<AnalyticsGrain>>,
    ) -> Result<Json<EmailAnalytics>, ApiError> {
        auth.0.check(PAGE_PERFORMANCE)?;
        let (from, to) = (from.0, to.0);
        check_range(from, to)?;
        let grain = grain.0.unwrap_or(AnalyticsGrain::Month);
        let store_grain = match grain {
            AnalyticsGrain::Week => Grain::Week,
            AnalyticsGrain::Month => Grain::Month,
        };
        let (periods, total, heat_map, providers) = auth
            .0
            .tx(&state, PAGE_PERFORMANCE, async |tx| {
                let periods = stats::periods(tx, from, to, store_grain, false).await?;
                let total = stats::periods(tx, from, to, store_grain, true)
                    .await?
                    .into_iter()
                    .next()
                    .ok_or_else(|| ApiError::internal("no total row"))?;
                let heat_map = stats::heat_map(tx, from, to).await?;
                let providers = stats::providers(tx, from, to).await?;
                Ok((periods, total, heat_map, providers))
            })
            .await?;
        Ok(Json(EmailAnalytics {
            from,
            to,
            grain,
            periods: periods.into_iter().map(Into::into).collect(),
            total: total.into(),
            heat_map: heat_map.into_iter().map(Into::into).collect(),
            providers: providers.into_iter().map(Into::into).collect(),
        }))
    }
}
