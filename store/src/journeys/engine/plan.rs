//! Where a due contact goes: the steps it takes now, in memory, from what the batch read. Pure: the times that
//! depend on the client's zone (and its daylight saving) come precomputed in [`Times`].

use chrono::{DateTime, NaiveDate, Utc};
use domain::journey::{Action, Condition, Definition, OnCap};
use std::collections::{HashMap, HashSet};

/// A contact never takes more steps than this in one pass (a loop always has a wait, so this is a safety net).
const MAX_STEPS_PER_PASS: usize = 64;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Row {
    pub id: i64,
    pub journey_id: i64,
    pub version: i32,
    pub contact_id: i64,
    pub step_id: String,
    pub seq: i32,
    pub in_wait: bool,
    /// Why the contact must leave now, if it must: unsubscribed, bounced, complained or gave.
    pub exit: Option<String>,
    pub opened: bool,
    pub clicked: bool,
    pub gave_cents: i64,
}

/// The batch's clock and the zone-dependent times, computed once by the database.
#[derive(Debug, Default)]
pub struct Times {
    pub now: DateTime<Utc>,
    pub weekday_hour: HashMap<(u8, u8), DateTime<Utc>>,
    pub dates: HashMap<NaiveDate, DateTime<Utc>>,
    /// When quiet hours hold now: when they end.
    pub quiet_until: Option<DateTime<Utc>>,
    pub day_start: DateTime<Utc>,
    pub week_start: DateTime<Utc>,
    pub next_day: DateTime<Utc>,
    pub next_week: DateTime<Utc>,
    pub per_day: Option<i64>,
    pub per_week: Option<i64>,
}

/// A contact's e-mails so far today and this week (client's zone), counted up as this pass sends.
#[derive(Debug, Default, Clone, Copy)]
pub struct Sent {
    pub day: i64,
    pub week: i64,
}

#[derive(Debug)]
pub struct Record {
    pub seq: i32,
    pub step_id: String,
    pub outcome: &'static str,
}

#[derive(Debug)]
pub struct Plan {
    pub records: Vec<Record>,
    pub step_id: String,
    pub state: &'static str,
    pub due_at: Option<DateTime<Utc>>,
    pub in_wait: bool,
    pub seq: i32,
    pub exit_reason: Option<String>,
    pub list_adds: Vec<i64>,
    pub list_removes: Vec<i64>,
    pub origin_code: Option<String>,
}

/// Walks `row` through `def` from its current step until it waits, ends or leaves.
pub fn walk(
    row: &Row,
    def: &Definition,
    times: &Times,
    sent: &mut Sent,
    segments: &HashSet<(i64, i64)>,
) -> Plan {
    let mut plan = Plan {
        records: Vec::new(),
        step_id: row.step_id.clone(),
        state: "waiting",
        due_at: None,
        in_wait: false,
        seq: row.seq,
        exit_reason: None,
        list_adds: Vec::new(),
        list_removes: Vec::new(),
        origin_code: None,
    };
    if let Some(reason) = &row.exit {
        plan.state = "exited";
        plan.exit_reason = Some(reason.clone());
        return plan;
    }
    let mut current = Some(row.step_id.clone());
    // A contact due in a wait step has waited: it goes on to the wait's next step.
    if row.in_wait {
        current = def
            .step(&row.step_id)
            .and_then(|s| s.action.exits().first().map(|n| (*n).to_owned()));
    }
    for _ in 0..MAX_STEPS_PER_PASS {
        let Some(step) = current.as_deref().and_then(|id| def.step(id)) else {
            plan.state = "finished";
            return plan;
        };
        plan.step_id = step.id.clone();
        let next = |n: &Option<String>| n.clone();
        let record = |plan: &mut Plan, outcome: &'static str| {
            plan.seq += 1;
            plan.records.push(Record {
                seq: plan.seq,
                step_id: step.id.clone(),
                outcome,
            });
        };
        current = match &step.action {
            Action::Send {
                on_cap, next: n, ..
            } => {
                let capped = times.quiet_until.is_some()
                    || times.per_day.is_some_and(|cap| sent.day >= cap)
                    || times.per_week.is_some_and(|cap| sent.week >= cap);
                if capped && *on_cap == OnCap::Wait {
                    plan.due_at = Some(allowed_again(times, sent));
                    return plan;
                }
                if capped {
                    record(&mut plan, "skipped");
                } else {
                    sent.day += 1;
                    sent.week += 1;
                    record(&mut plan, "sent");
                }
                next(n)
            }
            Action::Wait { hours, .. } => {
                record(&mut plan, "reached");
                return waiting(plan, times.now + chrono::Duration::hours(i64::from(*hours)));
            }
            Action::WaitUntil { weekday, hour, .. } => {
                record(&mut plan, "reached");
                let due = times
                    .weekday_hour
                    .get(&(*weekday, *hour))
                    .copied()
                    .unwrap_or(times.now);
                return waiting(plan, due);
            }
            Action::WaitDate { date, next: n } => {
                record(&mut plan, "reached");
                match times.dates.get(date) {
                    Some(due) if *due > times.now => return waiting(plan, *due),
                    _ => next(n),
                }
            }
            Action::Branch { condition, yes, no } => {
                record(&mut plan, "reached");
                let holds = match condition {
                    Condition::Opened {} => row.opened,
                    Condition::Clicked {} => row.clicked,
                    Condition::Gave {} => row.gave_cents > 0,
                    Condition::GaveAtLeast { amount_cents } => row.gave_cents >= *amount_cents,
                    Condition::InSegment { segment_id } => {
                        segments.contains(&(*segment_id, row.contact_id))
                    }
                };
                if holds {
                    next(yes)
                } else {
                    next(no)
                }
            }
            Action::Split { percent, a, b } => {
                record(&mut plan, "reached");
                if split_draw(row.id, &step.id) < u64::from(*percent) {
                    next(a)
                } else {
                    next(b)
                }
            }
            Action::AddToList { list_id, next: n } => {
                record(&mut plan, "reached");
                plan.list_adds.push(*list_id);
                next(n)
            }
            Action::RemoveFromList { list_id, next: n } => {
                record(&mut plan, "reached");
                plan.list_removes.push(*list_id);
                next(n)
            }
            Action::SetOriginCode {
                origin_code,
                next: n,
            } => {
                record(&mut plan, "reached");
                plan.origin_code = Some(origin_code.clone());
                next(n)
            }
            Action::End {} => {
                record(&mut plan, "reached");
                None
            }
        };
    }
    // Only a definition the validation would refuse gets here: the contact waits an hour rather than spin.
    plan.due_at = Some(times.now + chrono::Duration::hours(1));
    plan
}

fn waiting(mut plan: Plan, due: DateTime<Utc>) -> Plan {
    plan.in_wait = true;
    plan.due_at = Some(due);
    plan
}

/// The next time a capped e-mail may go: after the quiet hours, and past the day or week whose cap is full.
fn allowed_again(times: &Times, sent: &Sent) -> DateTime<Utc> {
    let mut at = times.quiet_until.unwrap_or(times.now);
    if times.per_week.is_some_and(|cap| sent.week >= cap) {
        at = at.max(times.next_week);
    } else if times.per_day.is_some_and(|cap| sent.day >= cap) {
        at = at.max(times.next_day);
    }
    at
}

/// A stable draw in 0..100 for an enrolment at a split step: the same contact always takes the same path.
fn split_draw(enrolment: i64, step: &str) -> u64 {
    // FNV-1a: small, stable across releases (unlike the standard hasher).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in enrolment.to_le_bytes().iter().chain(step.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h % 100
}
