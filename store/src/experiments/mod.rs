//! Experiments (Email › Experiments): a mailing's variants sent to a test fraction of its audience, judged on one
//! metric once the wait is over, then the winner sent to the rest.
//!
//! Life: `draft` → (start) `testing` while the test cells are sent → `waiting` once they are → (the wait ends)
//! `decided` (a winner) or `no_difference` → (auto-send, or a person's "Send winner") `winner_sending` →
//! `finished` once the remainder is sent. The test cells are rows of `experiment_cells`; the winner send is the
//! mailing's own send (resumable, journalled) of the recipients it did not reach yet, so nobody gets two messages.

pub mod figures;
mod lifecycle;
pub mod stats;

pub use lifecycle::{advance, begin_winner_send, decide_next, start};

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

pub const KINDS: [(&str, &str); 5] = [
    ("subject", "Subject line"),
    ("sender", "Sender"),
    ("preview", "Preview text"),
    ("body", "Body"),
    ("ask", "Ask"),
];

pub const METRICS: [&str; 4] = ["open_rate", "click_rate", "response_rate", "rpm"];

#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    #[error("Experiment not found")]
    NotFound,
    #[error("Mailing not found")]
    MailingNotFound,
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Conflict(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Experiment {
    pub id: i64,
    pub name: String,
    pub kind: String,
    pub mailing_id: i64,
    pub mailing_name: String,
    pub test_fraction: f64,
    pub metric: String,
    pub wait_hours: i32,
    pub auto_send: bool,
    pub baseline_rate: f64,
    pub expected_lift: f64,
    pub alpha: f64,
    pub power: f64,
    pub status: String,
    pub created: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub decided_at: Option<DateTime<Utc>>,
    pub winner: Option<String>,
    pub winner_sent_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    pub result: Option<serde_json::Value>,
}

const SELECT: &str = "select x.id, x.name, x.kind, x.mailing_id, m.name as mailing_name,
        x.test_fraction::float8 as test_fraction, x.metric, x.wait_hours, x.auto_send, x.baseline_rate,
        x.expected_lift, x.alpha, x.power, x.status, x.created, x.started_at, x.decided_at, x.winner,
        x.winner_sent_at, x.finished_at, x.result
    from experiments x join mailings m on m.id = x.mailing_id";

pub async fn list(conn: &mut PgConnection) -> Result<Vec<Experiment>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} order by x.created desc, x.id desc"
    )))
    .fetch_all(conn)
    .await
}

pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Experiment, ExperimentError> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} where x.id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await?
        .ok_or(ExperimentError::NotFound)
}

/// What a new experiment says; checked by [`create`].
#[derive(Debug, Clone)]
pub struct NewExperiment {
    pub name: String,
    pub kind: String,
    pub mailing_id: i64,
    pub test_fraction: f64,
    pub metric: String,
    pub wait_hours: i32,
    pub auto_send: bool,
    pub baseline_rate: f64,
    pub expected_lift: f64,
    pub alpha: f64,
    pub power: f64,
}

/// The mailing's variant letters, or why it cannot be tested: gone, already sent, or with one version only.
pub(crate) async fn testable_mailing(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<Vec<String>, ExperimentError> {
    let sent: Option<bool> =
        sqlx::query_scalar("select send_attempt is not null from mailings where id = $1")
            .bind(mailing_id)
            .fetch_optional(&mut *conn)
            .await?;
    match sent {
        None => return Err(ExperimentError::MailingNotFound),
        Some(true) => {
            return Err(ExperimentError::Conflict(
                "The mailing has already been sent".to_owned(),
            ))
        }
        Some(false) => {}
    }
    let letters: Vec<String> = sqlx::query_scalar(
        "select 'a' union all select letter from mailing_variants where mailing_id = $1 order by 1",
    )
    .bind(mailing_id)
    .fetch_all(&mut *conn)
    .await?;
    if letters.len() < 2 {
        return Err(ExperimentError::Invalid(
            "The mailing needs at least two variants".to_owned(),
        ));
    }
    Ok(letters)
}

fn check(new: &NewExperiment) -> Result<(), ExperimentError> {
    let bad = |m: &str| Err(ExperimentError::Invalid(m.to_owned()));
    if new.name.trim().is_empty() || new.name.chars().count() > 200 {
        return bad("The name must be 1 to 200 characters");
    }
    if !KINDS.iter().any(|(k, _)| *k == new.kind) {
        return bad("Unknown experiment type");
    }
    if !METRICS.contains(&new.metric.as_str()) {
        return bad("Unknown metric");
    }
    if !(0..=720).contains(&new.wait_hours) {
        return bad("The wait must be 0 to 720 hours");
    }
    check_plan(
        new.test_fraction,
        new.baseline_rate,
        new.expected_lift,
        new.alpha,
        new.power,
    )
}

/// Checks the numbers of a planned test.
pub fn check_plan(
    test_fraction: f64,
    baseline_rate: f64,
    expected_lift: f64,
    alpha: f64,
    power: f64,
) -> Result<(), ExperimentError> {
    let bad = |m: &str| Err(ExperimentError::Invalid(m.to_owned()));
    if !(0.01..=0.9).contains(&test_fraction) {
        return bad("The test fraction must be between 1% and 90%");
    }
    if !(baseline_rate > 0.0 && baseline_rate < 1.0) {
        return bad("The baseline rate must be between 0 and 100%");
    }
    if !(expected_lift > 0.0 && expected_lift <= 10.0)
        || baseline_rate * (1.0 + expected_lift) >= 1.0
    {
        return bad("The expected lift must be above 0 and keep the rate below 100%");
    }
    if !(alpha > 0.0 && alpha < 0.5 && (0.5..1.0).contains(&power)) {
        return bad("Significance must be below 0.5 and power between 0.5 and 1");
    }
    Ok(())
}

pub async fn create(conn: &mut PgConnection, new: &NewExperiment) -> Result<i64, ExperimentError> {
    check(new)?;
    testable_mailing(conn, new.mailing_id).await?;
    let taken: bool =
        sqlx::query_scalar("select exists (select 1 from experiments where mailing_id = $1)")
            .bind(new.mailing_id)
            .fetch_one(&mut *conn)
            .await?;
    if taken {
        return Err(ExperimentError::Conflict(
            "This mailing already has an experiment".to_owned(),
        ));
    }
    let id = sqlx::query_scalar(
        "insert into experiments (name, kind, mailing_id, test_fraction, metric, wait_hours, auto_send,
                                  baseline_rate, expected_lift, alpha, power)
         values ($1, $2, $3, round($4::numeric, 3), $5, $6, $7, $8, $9, $10, $11) returning id",
    )
    .bind(new.name.trim())
    .bind(&new.kind)
    .bind(new.mailing_id)
    .bind(new.test_fraction)
    .bind(&new.metric)
    .bind(new.wait_hours)
    .bind(new.auto_send)
    .bind(new.baseline_rate)
    .bind(new.expected_lift)
    .bind(new.alpha)
    .bind(new.power)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// Deletes an experiment that has not started.
pub async fn delete_draft(conn: &mut PgConnection, id: i64) -> Result<(), ExperimentError> {
    let status: Option<String> = sqlx::query_scalar(
        "delete from experiments where id = $1 and status = 'draft' returning status",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    if status.is_none() {
        get(conn, id).await?;
        return Err(ExperimentError::Conflict(
            "Only a draft experiment can be deleted".to_owned(),
        ));
    }
    Ok(())
}

/// The sample-size check of a planned test: how many people each cell gets against how many it needs.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleSize {
    pub audience: i64,
    pub variants: i64,
    pub per_cell: i64,
    pub needed_per_cell: Option<u64>,
    pub enough: bool,
}

/// Cells get `round(audience × fraction)` people dealt evenly (the smallest cell counts). For RPM the check uses
/// the response rate: revenue per recipient cannot move unless the share who give does.
pub async fn sample_size(
    conn: &mut PgConnection,
    mailing_id: i64,
    test_fraction: f64,
    baseline_rate: f64,
    expected_lift: f64,
    alpha: f64,
    power: f64,
) -> Result<SampleSize, ExperimentError> {
    let letters = testable_mailing(conn, mailing_id).await?;
    let audience: i64 = sqlx::query_scalar("select count(*) from mailing_audience($1)")
        .bind(mailing_id)
        .fetch_one(&mut *conn)
        .await?;
    let variants = letters.len() as i64;
    let test = (audience as f64 * test_fraction).round() as i64;
    let per_cell = test / variants;
    let needed = stats::sample_size_per_arm(
        baseline_rate,
        baseline_rate * (1.0 + expected_lift),
        alpha,
        power,
    );
    Ok(SampleSize {
        audience,
        variants,
        per_cell,
        needed_per_cell: needed,
        enough: needed.is_some_and(|n| per_cell >= 0 && per_cell as u64 >= n),
    })
}

/// Selection data: experiment names, newest first.
pub async fn names(conn: &mut PgConnection) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as("select id, name from experiments order by created desc, id desc")
        .fetch_all(conn)
        .await
}

/// Experiments started and not finished (the dashboard's tile).
pub async fn running(conn: &mut PgConnection) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "select id, name from experiments where status not in ('draft', 'finished')
         order by started_at desc nulls last, id desc",
    )
    .fetch_all(conn)
    .await
}

/// Mailings an experiment can test: not sent, with at least two variants, without an experiment yet.
pub async fn candidate_mailings(
    conn: &mut PgConnection,
) -> Result<Vec<(i64, String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "select m.id, m.name, 1 + count(v.letter) as variants
         from mailings m join mailing_variants v on v.mailing_id = m.id
         where m.send_attempt is null and not exists (select 1 from experiments x where x.mailing_id = m.id)
         group by m.id, m.name order by m.id desc",
    )
    .fetch_all(conn)
    .await
}

/// The sample-size check of the cells as drawn (the smallest cell counts); none before they are.
pub fn drawn_sample_size(cells: &[figures::Figures], x: &Experiment) -> Option<SampleSize> {
    let per_cell = cells.iter().map(|c| c.recipients).min()?;
    let test: i64 = cells.iter().map(|c| c.recipients).sum();
    let needed = stats::sample_size_per_arm(
        x.baseline_rate,
        x.baseline_rate * (1.0 + x.expected_lift),
        x.alpha,
        x.power,
    );
    Some(SampleSize {
        audience: (test as f64 / x.test_fraction).round() as i64,
        variants: cells.len() as i64,
        per_cell,
        needed_per_cell: needed,
        enough: needed.is_some_and(|n| per_cell >= 0 && per_cell as u64 >= n),
    })
}
