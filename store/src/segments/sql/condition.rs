//! One condition of a rule as a SQL expression with bound values.

use super::*;

/// A gift that counts: it names a contact, is positive and is not refunded (the rule of lybunt_contacts).
pub(super) const COUNTED: &str =
    "g.contact_id is not null and g.amount > 0 and g.refunded_at is null";

pub(super) fn int(n: i64) -> SimpleExpr {
    SimpleExpr::Value(Value::BigInt(Some(n)))
}

pub(super) fn text(s: &str) -> SimpleExpr {
    SimpleExpr::Value(Value::String(Some(Box::new(s.to_owned()))))
}

/// A piece of SQL from this file with its parameters (`$1`, `$2` … number `args`).
pub(super) fn x(template: impl Into<String>, args: Vec<SimpleExpr>) -> SimpleExpr {
    Expr::cust_with_exprs(template, args)
}

/// `($1, $2, …)` for `n` parameters: the text depends only on how many there are.
pub(super) fn placeholders(n: usize) -> String {
    let marks: Vec<String> = (1..=n).map(|i| format!("${i}")).collect();
    format!("({})", marks.join(", "))
}

pub(super) fn id_list(template_before: &str, template_after: &str, ids: &[i64]) -> SimpleExpr {
    x(
        format!(
            "{template_before}{}{template_after}",
            placeholders(ids.len())
        ),
        ids.iter().map(|&i| int(i)).collect(),
    )
}

pub(super) fn word_list(
    template_before: &str,
    template_after: &str,
    words: &[String],
) -> SimpleExpr {
    x(
        format!(
            "{template_before}{}{template_after}",
            placeholders(words.len())
        ),
        words.iter().map(|w| text(w)).collect(),
    )
}

/// `column` falls in the window: the last n days (from now), or whole client days from..to.
pub(super) fn window(column: &'static str, w: Window) -> SimpleExpr {
    match w {
        Window::Days(n) => x(
            format!("{column} >= now() - make_interval(days => $1::integer)"),
            vec![int(n)],
        ),
        Window::Between(from, to) => x(
            format!(
                "{column} >= client_day_start($1::date) and {column} < client_day_start($2::date + 1)"
            ),
            vec![text(&from.to_string()), text(&to.to_string())],
        ),
    }
}

pub(super) fn opt_window(column: &'static str, w: Option<Window>) -> SimpleExpr {
    w.map_or_else(|| Expr::cust("true"), |w| window(column, w))
}

pub(super) fn cmp_sql(c: Cmp) -> &'static str {
    match c {
        Cmp::Gte => ">=",
        Cmp::Lte => "<=",
        Cmp::Eq => "=",
    }
}

/// Contacts whose aggregate `agg` over their counted gifts (in the window) compares with `bound`, where a
/// contact with no such gift has the aggregate 0 (sums and counts).
pub(super) fn aggregate_test(
    agg: &'static str,
    cmp: Cmp,
    bound: SimpleExpr,
    zero: bool,
    w: Option<Window>,
) -> SimpleExpr {
    let gifts = "select g.contact_id from contributions g where ";
    match (cmp, zero) {
        // Everyone has at least 0.
        (Cmp::Gte, true) => Expr::cust("true"),
        // = 0: no counted gift in the window.
        (Cmp::Eq, true) => x(
            format!("c.id not in ({gifts}{COUNTED} and $1)"),
            vec![opt_window("g.paid_at", w)],
        ),
        (Cmp::Gte | Cmp::Eq, false) => x(
            format!(
                "c.id in ({gifts}{COUNTED} and $1 group by g.contact_id having {agg} {} $2)",
                cmp_sql(cmp)
            ),
            vec![opt_window("g.paid_at", w), bound],
        ),
        (Cmp::Lte, _) => x(
            format!(
                "c.id not in ({gifts}{COUNTED} and $1 group by g.contact_id having {agg} > $2)"
            ),
            vec![opt_window("g.paid_at", w), bound],
        ),
    }
}

pub(super) fn amount(a: &str) -> SimpleExpr {
    x("$1::numeric", vec![text(a)])
}

pub(super) fn is_zero(a: &str) -> bool {
    a.bytes().all(|b| b == b'0' || b == b'.')
}

pub(super) fn amount_test(value_sql: &'static str, test: &AmountTest) -> SimpleExpr {
    match test {
        AmountTest::Cmp(cmp, a) => x(format!("{value_sql} {} $1", cmp_sql(*cmp)), vec![amount(a)]),
        AmountTest::Between(lo, hi) => x(
            format!("{value_sql} between $1 and $2"),
            vec![amount(lo), amount(hi)],
        ),
    }
}

/// The instant `months` months before the start of the client's today.
pub(super) fn months_ago(months: i64) -> SimpleExpr {
    x(
        "client_day_start((client_today() - make_interval(months => $1::integer))::date)",
        vec![int(months)],
    )
}

pub(super) fn band(b: Band) -> SimpleExpr {
    let last = "c.id in (select g.contact_id from contributions g where ";
    match b {
        Band::Active => x(
            format!("{last}{COUNTED} and g.paid_at >= $1)"),
            vec![months_ago(12)],
        ),
        Band::Lapsed => x(
            format!(
                "{last}{COUNTED} group by g.contact_id having max(g.paid_at) >= $1 and max(g.paid_at) < $2)"
            ),
            vec![months_ago(24), months_ago(12)],
        ),
        Band::LongLapsed => x(
            format!("{last}{COUNTED} group by g.contact_id having max(g.paid_at) < $1)"),
            vec![months_ago(24)],
        ),
        Band::Never => never_gave(),
    }
}

pub(super) fn never_gave() -> SimpleExpr {
    Expr::cust(format!(
        "not exists (select 1 from contributions g where g.contact_id = c.id and {COUNTED})"
    ))
}

/// Each contact's latest gift row with a value in `column` (state or zip), refunded or not: where they live.
pub(super) fn latest_address(column: &'static str) -> String {
    format!(
        "select distinct on (g.contact_id) g.contact_id, g.{column} as v from contributions g
         where g.contact_id is not null and g.{column} is not null and g.{column} <> ''
         order by g.contact_id, g.paid_at desc, g.id desc"
    )
}

pub(super) fn condition(c: &Cond) -> SimpleExpr {
    let gifts = "c.id in (select g.contact_id from contributions g where ";
    match c {
        Cond::Gave(w) => x(
            format!("{gifts}{COUNTED} and $1)"),
            vec![window("g.paid_at", *w)],
        ),
        Cond::NeverGave => never_gave(),
        Cond::FirstGift(w) => x(
            format!("{gifts}{COUNTED} group by g.contact_id having $1)"),
            vec![window("min(g.paid_at)", *w)],
        ),
        Cond::TotalGiven(cmp, a, w) => {
            aggregate_test("sum(g.amount)", *cmp, amount(a), is_zero(a), *w)
        }
        Cond::GiftCount(cmp, n, w) => aggregate_test("count(*)", *cmp, int(*n), *n == 0, *w),
        Cond::Hpc(test) => x(
            format!("{gifts}{COUNTED} group by g.contact_id having $1)"),
            vec![amount_test("max(g.amount)", test)],
        ),
        Cond::Mrc(test) => x(
            format!(
                "c.id in (select m.contact_id from (select distinct on (g.contact_id) g.contact_id, g.amount
                 from contributions g where {COUNTED} order by g.contact_id, g.paid_at desc, g.id desc) m where $1)"
            ),
            vec![amount_test("m.amount", test)],
        ),
        Cond::ActiveSustainer(yes) => {
            let set = format!(
                "(select g.contact_id from contributions g where {COUNTED}
                  and g.recurring_months is not null and g.paid_at >= now() - interval '35 days')"
            );
            Expr::cust(if *yes {
                format!("c.id in {set}")
            } else {
                format!("c.id not in {set}")
            })
        }
        Cond::SourceCode(ids, w) => x(
            format!("{gifts}{COUNTED} and $1 and $2)"),
            vec![
                opt_window("g.paid_at", *w),
                id_list("g.source_code_id in ", "", ids),
            ],
        ),
        Cond::SourceText(kind, words, w) => {
            let column = match kind {
                SourceText::Channel => "lower(s.channel) in ",
                SourceText::Campaign => "lower(s.campaign) in ",
            };
            let lowered: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
            x(
                format!(
                    "c.id in (select g.contact_id from contributions g join source_codes s on s.id = g.source_code_id
                     where {COUNTED} and $1 and $2)"
                ),
                vec![opt_window("g.paid_at", *w), word_list(column, "", &lowered)],
            )
        }
        Cond::RecencyBand(bands) => {
            let mut any = Condition::any();
            for b in bands {
                any = any.add(band(*b));
            }
            x("($1)", vec![condition_expr(any)])
        }
        Cond::DonorStatus(DonorStatus::Lybunt) => {
            Expr::cust("c.id in (select l.contact_id from lybunt_contacts(client_today()) l)")
        }
        Cond::DonorStatus(DonorStatus::Sybunt) => {
            Expr::cust("c.id in (select s.contact_id from sybunt_contacts(client_today()) s)")
        }
        Cond::Rfm(dim, cmp, n) => {
            let column = match dim {
                RfmDim::Recency => "r.recency",
                RfmDim::Frequency => "r.frequency",
                RfmDim::Monetary => "r.monetary",
            };
            x(
                format!(
                    "c.id in (select r.contact_id from rfm_scores r where {column} {} $1)",
                    cmp_sql(*cmp)
                ),
                vec![int(*n)],
            )
        }
        Cond::RfmCell(cells) => x(
            "c.id in (select r.contact_id from rfm_scores r where $1)",
            vec![word_list(
                "(r.recency::text || r.frequency::text || r.monetary::text) in ",
                "",
                cells,
            )],
        ),
        Cond::Opened(n) | Cond::Clicked(n) => {
            let kind = if matches!(c, Cond::Opened(_)) {
                "open"
            } else {
                "click"
            };
            x(
                format!(
                    "c.id in (select e.contact_id from mailing_events e where e.kind = '{kind}' and not e.machine
                     and e.created >= now() - make_interval(days => $1::integer))"
                ),
                vec![int(*n)],
            )
        }
        Cond::MailingsReceived(cmp, k, n) => {
            let sent = "select r.contact_id from mailing_recipients r
                        where r.status = 'sent' and r.sent_at >= now() - make_interval(days => $1::integer)
                        group by r.contact_id having count(*)";
            match cmp {
                Cmp::Gte if *k == 0 => Expr::cust("true"),
                Cmp::Lte => x(
                    format!("c.id not in ({sent} > $2)"),
                    vec![int(*n), int(*k)],
                ),
                _ => x(
                    format!("c.id in ({sent} >= $2)"),
                    vec![int(*n), int(*k)],
                ),
            }
        }
        Cond::Member(kind, ids, negate) => {
            let (before, after) = match (kind, negate) {
                (Membership::OriginCode, false) => ("c.origin_code_id in ", ""),
                (Membership::OriginCode, true) => ("coalesce(c.origin_code_id, 0) not in ", ""),
                (Membership::List, false) => (
                    "c.id in (select lc.contact_id from crm_list_contacts lc where lc.list_id in ",
                    ")",
                ),
                (Membership::List, true) => (
                    "not exists (select 1 from crm_list_contacts lc where lc.contact_id = c.id and lc.list_id in ",
                    ")",
                ),
                (Membership::Segment, false) => (
                    "c.id in (select sm.contact_id from segment_members sm where sm.segment_id in ",
                    ")",
                ),
                (Membership::Segment, true) => (
                    "not exists (select 1 from segment_members sm where sm.contact_id = c.id and sm.segment_id in ",
                    ")",
                ),
            };
            id_list(before, after, ids)
        }
        Cond::State(states) => x(
            format!("c.id in (select a.contact_id from ({}) a where $1)", latest_address("state")),
            vec![word_list("upper(a.v) in ", "", states)],
        ),
        Cond::ZipPrefix(prefix) => x(
            format!(
                "c.id in (select a.contact_id from ({}) a where left(a.v, length($1)) = $2)",
                latest_address("zip")
            ),
            vec![text(prefix), text(prefix)],
        ),
        Cond::Created(w) => window("c.created", *w),
        Cond::Subscription(states) => word_list("c.subscription in ", "", states),
    }
}
