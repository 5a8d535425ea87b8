//! Starting an experiment, moving it on as its sends finish, judging it and starting the winner send.

use super::{figures, get, testable_mailing, ExperimentError};
use sqlx::PgConnection;

/// Starts the test: draws the cells from the audience the programme's frequency cap lets through now, writes
/// them as the mailing's recipients and marks the mailing as being sent. The caller queues the mailing's send in
/// the same transaction. Answers the mailing's id.
pub async fn start(conn: &mut PgConnection, id: i64) -> Result<i64, ExperimentError> {
    let x = get(conn, id).await?;
    if x.status != "draft" {
        return Err(ExperimentError::Conflict(
            "The experiment has already started".to_owned(),
        ));
    }
    let letters = testable_mailing(conn, x.mailing_id).await?;
    // The journeys' clock, so the cap counts the same day as the journeys and regular sends do.
    let at = crate::journeys::clock::now(&mut *conn).await?;
    let cells: Vec<(String, i64)> = sqlx::query_as(
        "with c as (insert into experiment_cells (experiment_id, contact_id, variant)
                    select $1, contact_id, variant from experiment_test_cells($2, $3::numeric, $4)
                    returning variant)
         select variant, count(*) from c group by 1",
    )
    .bind(id)
    .bind(x.mailing_id)
    .bind(x.test_fraction)
    .bind(at)
    .fetch_all(&mut *conn)
    .await?;
    if cells.len() < letters.len() {
        return Err(ExperimentError::Invalid(
            "The test would leave a variant without recipients: the audience is too small"
                .to_owned(),
        ));
    }
    // The mailing's send finds its recipients written and mails only them: the test cells.
    sqlx::query(
        "insert into mailing_recipients (mailing_id, contact_id, email, first_name, variant, segment_id)
         select $2, c.id, c.email, c.first_name, x.variant,
                coalesce((select m.segment_id from mailings m where m.id = $2), 0)
         from experiment_cells x join contacts c on c.id = x.contact_id
         where x.experiment_id = $1",
    )
    .bind(id)
    .bind(x.mailing_id)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "update mailings set is_draft = false, send_time = least(coalesce(send_time, now()), now()),
                send_attempt = now(), delivery = 'sending', delivery_message = null
         where id = $1",
    )
    .bind(x.mailing_id)
    .execute(&mut *conn)
    .await?;
    sqlx::query("update experiments set status = 'testing', started_at = now() where id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(x.mailing_id)
}

/// Moves experiments on as their sends finish: `testing` → `waiting` once the test cells are sent,
/// `winner_sending` → `finished` once the remainder is.
pub async fn advance(conn: &mut PgConnection) -> Result<u64, sqlx::Error> {
    let moved = sqlx::query(
        "update experiments x
         set status = case x.status when 'testing' then 'waiting' else 'finished' end,
             finished_at = case x.status when 'testing' then null else now() end
         from mailings m
         where m.id = x.mailing_id and m.delivery = 'done' and x.status in ('testing', 'winner_sending')",
    )
    .execute(conn)
    .await?;
    Ok(moved.rows_affected())
}

/// Claims one experiment whose wait is over, judges it and stores the decision; answers its id and whether
/// its winner is to be sent now (auto-send with a winner). Runs in the caller's transaction: two workers never
/// judge the same experiment.
pub async fn decide_next(conn: &mut PgConnection) -> Result<Option<(i64, bool)>, sqlx::Error> {
    let due: Option<(i64, i64, String, f64, bool)> = sqlx::query_as(
        "select id, mailing_id, metric, alpha, auto_send from experiments
         where status = 'waiting' and started_at + make_interval(hours => wait_hours) <= now()
         order by id limit 1 for update skip locked",
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some((id, mailing_id, metric, alpha, auto_send)) = due else {
        return Ok(None);
    };
    let cells = figures::test_figures(conn, id, mailing_id).await?;
    let decision = figures::judge(&metric, &cells, alpha);
    let winner = decision.as_ref().and_then(|d| d.winner.clone());
    sqlx::query(
        "update experiments set status = $2, decided_at = now(), winner = $3, result = $4 where id = $1",
    )
    .bind(id)
    .bind(if winner.is_some() { "decided" } else { "no_difference" })
    .bind(&winner)
    .bind(decision.map(|d| serde_json::to_value(d).unwrap_or_default()))
    .execute(&mut *conn)
    .await?;
    Ok(Some((id, auto_send && winner.is_some())))
}

/// Starts the winner send: the mailing's audience not yet mailed gets the winning variant (or, after no
/// significant difference, the one a person chose). The caller queues the mailing's send in the same
/// transaction. Answers the mailing's id.
pub async fn begin_winner_send(
    conn: &mut PgConnection,
    id: i64,
    chosen: Option<&str>,
) -> Result<i64, ExperimentError> {
    let x = get(conn, id).await?;
    let letter = match (x.status.as_str(), &x.winner, chosen) {
        ("decided", Some(w), None) => w.clone(),
        ("decided", Some(w), Some(c)) if c == w => w.clone(),
        ("decided", _, Some(_)) => {
            return Err(ExperimentError::Invalid(
                "The test picked another variant".to_owned(),
            ))
        }
        ("no_difference", _, Some(c)) => c.to_owned(),
        ("no_difference", _, None) => {
            return Err(ExperimentError::Invalid(
                "No variant won: choose the one to send".to_owned(),
            ))
        }
        _ => {
            return Err(ExperimentError::Conflict(
                "The experiment is not waiting for its winner to be sent".to_owned(),
            ))
        }
    };
    let known: bool = sqlx::query_scalar(
        "select $2 = 'a' or exists (select 1 from mailing_variants where mailing_id = $1 and letter = $2)",
    )
    .bind(x.mailing_id)
    .bind(&letter)
    .fetch_one(&mut *conn)
    .await?;
    if !known {
        return Err(ExperimentError::Invalid("Unknown variant".to_owned()));
    }
    // Everyone the mailing reaches now who has no recipient row yet: the test cells already have theirs, so
    // nobody is written (or mailed) twice. Whoever the frequency cap holds back now is left out and recorded,
    // as a regular send does (the cap never counts this mailing's own test e-mails).
    let at = crate::journeys::clock::now(&mut *conn).await?;
    sqlx::query(
        "with rest as (
             select a.contact_id from mailing_audience($1) a
             where not exists (select 1 from mailing_recipients r
                               where r.mailing_id = $1 and r.contact_id = a.contact_id)
         ),
         held as (
             insert into mailing_held_back (mailing_id, contact_id)
             select $1, k.contact_id from mailing_capped($1, $3) k
             where k.contact_id in (select contact_id from rest)
             on conflict do nothing
             returning contact_id
         )
         insert into mailing_recipients (mailing_id, contact_id, email, first_name, variant, segment_id)
         select $1, c.id, c.email, c.first_name, $2,
                coalesce((select m.segment_id from mailings m where m.id = $1), 0)
         from rest join contacts c on c.id = rest.contact_id
         where not exists (select 1 from held h where h.contact_id = rest.contact_id)
         on conflict (mailing_id, contact_id) do nothing",
    )
    .bind(x.mailing_id)
    .bind(&letter)
    .bind(at)
    .execute(&mut *conn)
    .await?;
    sqlx::query("update mailings set delivery = 'sending', delivery_message = null where id = $1")
        .bind(x.mailing_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "update experiments set status = 'winner_sending', winner = $2, winner_sent_at = now() where id = $1",
    )
    .bind(id)
    .bind(&letter)
    .execute(&mut *conn)
    .await?;
    Ok(x.mailing_id)
}
