//! The portfolio's answer: the rows, their figures and the benchmarks against the median client.

use chrono::{DateTime, NaiveDate, Utc};
use poem_openapi::Object;
use store::portfolio::{median, ClientFigures};

/// A ratio rounded to four places (0.0042 is 0.42 %).
fn ratio(v: Option<f64>) -> Option<f64> {
    v.map(|x| (x * 10_000.0).round() / 10_000.0)
}

fn money(v: Option<f64>) -> Option<String> {
    v.map(|x| format!("{:.2}", (x * 100.0).round() / 100.0))
}

#[derive(Debug, Clone, Object)]
pub struct Portfolio {
    /// The clients the user may use, by name.
    pub clients: Vec<PortfolioClient>,
    pub benchmarks: PortfolioBenchmarks,
    /// How old the figures are: when the reads of the oldest client's figures shown began (the worker refreshes
    /// each client's every 5 minutes; a client read during this request counts as now).
    #[oai(rename = "generatedAt")]
    pub generated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Object)]
pub struct PortfolioClient {
    pub id: i64,
    pub name: String,
    pub short: String,
    /// Null when the client's figures could not be read just now.
    #[oai(nullable)]
    pub figures: Option<PortfolioFigures>,
}

/// One client's figures (docs/portfolio.md). Money is decimal text; ratios are numbers (0.0042 is 0.42 %), null
/// where there is nothing to divide by.
#[derive(Debug, Clone, Object)]
pub struct PortfolioFigures {
    /// The client's today (its time zone).
    pub today: NaiveDate,
    #[oai(rename = "monthNet")]
    pub month_net: String,
    #[oai(nullable, rename = "monthGoal")]
    pub month_goal: Option<String>,
    /// Net of the month through yesterday ÷ its projection to date.
    #[oai(nullable, rename = "monthPacing")]
    pub month_pacing: Option<f64>,
    #[oai(rename = "yearNet")]
    pub year_net: String,
    #[oai(nullable, rename = "yearGoal")]
    pub year_goal: Option<String>,
    #[oai(nullable, rename = "yearPacing")]
    pub year_pacing: Option<f64>,
    /// New donors this month.
    #[oai(rename = "newDonors")]
    pub new_donors: i64,
    /// Donor retention (FEP): donors of last calendar year who gave again this year ÷ last year's donors.
    #[oai(nullable)]
    pub retention: Option<f64>,
    pub sustainers: i64,
    #[oai(rename = "listSize")]
    pub list_size: i64,
    #[oai(rename = "listChange30")]
    pub list_change_30: i64,
    /// E-mail RPM of the mailings sent in the last 90 days; null while they delivered nothing.
    #[oai(nullable)]
    pub rpm: Option<String>,
    #[oai(nullable, rename = "responseRate")]
    pub response_rate: Option<f64>,
    /// Hard bounces ÷ sent, last 30 days.
    #[oai(nullable, rename = "bounceRate")]
    pub bounce_rate: Option<f64>,
    /// Complaints ÷ delivered, last 30 days.
    #[oai(nullable, rename = "complaintRate")]
    pub complaint_rate: Option<f64>,
    /// Ad spend ÷ new donors, last 365 days.
    #[oai(nullable, rename = "costPerDonor")]
    pub cost_per_donor: Option<String>,
    #[oai(rename = "jobsFailing")]
    pub jobs_failing: i64,
    #[oai(rename = "mailingsPaused")]
    pub mailings_paused: i64,
    /// Net per month, the last 12 months, oldest first.
    #[oai(rename = "netByMonth")]
    pub net_by_month: Vec<String>,
}

impl From<ClientFigures> for PortfolioFigures {
    fn from(f: ClientFigures) -> Self {
        Self {
            today: f.today,
            month_net: f.month_net,
            month_goal: f.month_goal,
            month_pacing: ratio(f.month_pacing),
            year_net: f.year_net,
            year_goal: f.year_goal,
            year_pacing: ratio(f.year_pacing),
            new_donors: f.new_donors,
            retention: ratio(f.retention),
            sustainers: f.sustainers,
            list_size: f.list_size,
            list_change_30: f.list_change_30,
            rpm: f.rpm,
            response_rate: ratio(f.response_rate),
            bounce_rate: ratio(f.bounce_rate),
            complaint_rate: ratio(f.complaint_rate),
            cost_per_donor: f.cost_per_donor,
            jobs_failing: f.jobs_failing,
            mailings_paused: f.mailings_paused,
            net_by_month: f.net_by_month,
        }
    }
}

/// The median of the user's clients for each benchmark (a client without the figure is left out of its median).
#[derive(Debug, Clone, Object)]
pub struct PortfolioBenchmarks {
    #[oai(nullable)]
    pub rpm: Option<String>,
    #[oai(nullable, rename = "responseRate")]
    pub response_rate: Option<f64>,
    #[oai(nullable)]
    pub retention: Option<f64>,
    #[oai(nullable, rename = "costPerDonor")]
    pub cost_per_donor: Option<String>,
}

impl PortfolioBenchmarks {
    pub fn of(rows: &[PortfolioClient]) -> Self {
        let figures = || rows.iter().filter_map(|r| r.figures.as_ref());
        let number = |s: &str| s.parse::<f64>().ok();
        Self {
            rpm: money(median(figures().map(|f| f.rpm.as_deref().and_then(number)))),
            response_rate: ratio(median(figures().map(|f| f.response_rate))),
            retention: ratio(median(figures().map(|f| f.retention))),
            cost_per_donor: money(median(
                figures().map(|f| f.cost_per_donor.as_deref().and_then(number)),
            )),
        }
    }
}
