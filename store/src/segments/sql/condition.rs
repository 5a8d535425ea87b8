//! One condition of a rule as a SQL expression with bound values.

use super::*;

/// A gift that counts: it names a contact, is positive and is not refunded (the rule of lybunt_contacts).
pub(super) const COUNTED: &str =
    "g.contact_id is not null and g.amount > 0 and g.refunded_at is null";

/// Every contact with a contributions row (an address may come from a refunded gift), by their row of
/// `contact_giving` (per-contact giving kept by triggers; see its migration). Callers add "<test>)".
pub(super) const GIVING_ANY: &str = "c.id in (select cg.contact_id from contact_giving cg where";

/// What a condition reads. Tests on the same per-contact row are merged by their group into ONE subquery
/// (`c.id in (select … where t1 and t2)`): exact, as the row is one per contact, and one scan instead of one
/// per condition.
pub(super) enum Reads {
    /// A test on a donor's row of `contact_giving` (alias `cg`), for donors only (counted gifts > 0).
    Giving(SimpleExpr),
    /// A test on the contact's row of `email_contact_state` (alias `s`).
    Engagement(SimpleExpr),
    /// A whole condition on the contact `c`.
    Contact(SimpleExpr),
}

/// The donors whose giving row passes `test`.
pub(super) fn giving(test: SimpleExpr) -> SimpleExpr {
    x(
        "c.id in (select cg.contact_id from contact_giving cg where cg.gifts > 0 and $1)",
        vec![test],
    )
}

/// The contacts whose engagement row passes `test`.
pub(super) fn engagement(test: SimpleExpr) -> SimpleExpr {
    x(
        "c.id in (select s.contact_id from email_contact_state s where $1)",
        vec![test],
    )
}

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
                "{column} >= (select client_day_start($1::date)) and {column} < (select client_day_start($2::date + 1))"
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

/// An aggregate of a contact's counted gifts: over all time it is a column of `contact_giving`, within a
/// window it is computed from the gifts.
#[derive(Clone, Copy)]
pub(super) enum Aggregate {
    Total,
    Count,
}

/// Contacts whose aggregate over their counted gifts (in the window) compares with `bound`, where a contact
/// with no such gift has the aggregate 0 (sums and counts). "Not" sets are anti-joins (`not exists`): a
/// `not in` over a subquery larger than work_mem is re-scanned for every contact.
pub(super) fn aggregate_test(
    agg: Aggregate,
    cmp: Cmp,
    bound: SimpleExpr,
    zero: bool,
    w: Option<Window>,
) -> Reads {
    let Some(w) = w else {
        let column = match agg {
            Aggregate::Total => "cg.total",
            Aggregate::Count => "cg.gifts",
        };
        return match (cmp, zero) {
            (Cmp::Gte, true) => Reads::Contact(Expr::cust("true")),
            (Cmp::Eq, true) => Reads::Contact(never_gave()),
            (Cmp::Gte | Cmp::Eq, false) => {
                Reads::Giving(x(format!("{column} {} $1", cmp_sql(cmp)), vec![bound]))
            }
            (Cmp::Lte, _) => Reads::Contact(x(
                format!(
                    "not exists (select 1 from contact_giving cg where cg.contact_id = c.id and cg.gifts > 0
                     and {column} > $1)"
                ),
                vec![bound],
            )),
        };
    };
    let agg = match agg {
        Aggregate::Total => "sum(g.amount)",
        Aggregate::Count => "count(*)",
    };
    let gifts = "select g.contact_id from contributions g where ";
    Reads::Contact(match (cmp, zero) {
        // Everyone has at least 0.
        (Cmp::Gte, true) => Expr::cust("true"),
        // = 0: no counted gift in the window.
        (Cmp::Eq, true) => x(
            format!(
                "not exists (select 1 from contributions g where g.contact_id = c.id and {COUNTED} and $1)"
            ),
            vec![window("g.paid_at", w)],
        ),
        (Cmp::Gte | Cmp::Eq, false) => x(
            format!(
                "c.id in ({gifts}{COUNTED} and $1 group by g.contact_id having {agg} {} $2)",
                cmp_sql(cmp)
            ),
            vec![window("g.paid_at", w), bound],
        ),
        (Cmp::Lte, _) => x(
            format!(
                "not exists (select 1 from ({gifts}{COUNTED} and $1 group by g.contact_id having {agg} > $2) t
                 where t.contact_id = c.id)"
            ),
            vec![window("g.paid_at", w), bound],
        ),
    })
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

/// The instant `months` months before the start of the client's today. Client days come from SQL functions that
/// read app_settings: each is wrapped in a scalar subquery so it runs once per statement, not once per row.
pub(super) fn months_ago(months: i64) -> SimpleExpr {
    x(
        "(select client_day_start((client_today() - make_interval(months => $1::integer))::date))",
        vec![int(months)],
    )
}

/// A recency band of a donor: a test on the giving row (`never` is not one: it holds for non-donors).
pub(super) fn band(b: Band) -> Option<SimpleExpr> {
    match b {
        Band::Active => Some(x("cg.last_gift_at >= $1", vec![months_ago(12)])),
        Band::Lapsed => Some(x(
            "cg.last_gift_at >= $1 and cg.last_gift_at < $2",
            vec![months_ago(24), months_ago(12)],
        )),
        Band::LongLapsed => Some(x("cg.last_gift_at < $1", vec![months_ago(24)])),
        Band::Never => None,
    }
}

pub(super) fn never_gave() -> SimpleExpr {
    Expr::cust(
        "not exists (select 1 from contact_giving cg where cg.contact_id = c.id and cg.gifts > 0)",
    )
}

/// What one condition reads, and its test.
pub(super) fn reads(c: &Cond) -> Reads {
    let gifts = "c.id in (select g.contact_id from contributions g where ";
    let contact = Reads::Contact;
    match c {
        // The latest counted gift is in the last n days exactly when some counted gift is.
        Cond::Gave(Window::Days(n)) => Reads::Giving(x(
            "cg.last_gift_at >= now() - make_interval(days => $1::integer)",
            vec![int(*n)],
        )),
        Cond::Gave(w) => contact(x(
            format!("{gifts}{COUNTED} and $1)"),
            vec![window("g.paid_at", *w)],
        )),
        Cond::NeverGave => contact(never_gave()),
        Cond::FirstGift(w) => Reads::Giving(window("cg.first_gift_at", *w)),
        Cond::TotalGiven(cmp, a, w) => {
            aggregate_test(Aggregate::Total, *cmp, amount(a), is_zero(a), *w)
        }
        Cond::GiftCount(cmp, n, w) => aggregate_test(Aggregate::Count, *cmp, int(*n), *n == 0, *w),
        Cond::Hpc(test) => Reads::Giving(amount_test("cg.hpc", test)),
        Cond::Mrc(test) => Reads::Giving(amount_test("cg.mrc", test)),
        Cond::ActiveSustainer(yes) => {
            let sustainer = "cg.last_recurring_at >= now() - interval '35 days'";
            if *yes {
                Reads::Giving(Expr::cust(sustainer))
            } else {
                contact(Expr::cust(format!(
                    "not exists (select 1 from contact_giving cg where cg.contact_id = c.id and cg.gifts > 0
                     and {sustainer})"
                )))
            }
        }
        Cond::SourceCode(ids, w) => contact(x(
            format!("{gifts}{COUNTED} and $1 and $2)"),
            vec![
                opt_window("g.paid_at", *w),
                id_list("g.source_code_id in ", "", ids),
            ],
        )),
        Cond::SourceText(kind, words, w) => {
            let column = match kind {
                SourceText::Channel => "lower(s.channel) in ",
                SourceText::Campaign => "lower(s.campaign) in ",
            };
            let lowered: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
            contact(x(
                format!(
                    "c.id in (select g.contact_id from contributions g join source_codes s on s.id = g.source_code_id
                     where {COUNTED} and $1 and $2)"
                ),
                vec![opt_window("g.paid_at", *w), word_list(column, "", &lowered)],
            ))
        }
        Cond::RecencyBand(bands) => {
            let mut tests = Condition::any();
            for b in bands.iter().filter_map(|b| band(*b)) {
                tests = tests.add(b);
            }
            let tests = x("($1)", vec![condition_expr(tests)]);
            if bands.contains(&Band::Never) {
                contact(Condition::any().add(giving(tests)).add(never_gave()).into())
            } else {
                Reads::Giving(tests)
            }
        }
        Cond::DonorStatus(DonorStatus::Lybunt) => contact(Expr::cust(
            "c.id in (select l.contact_id from lybunt_contacts((select client_today())) l)",
        )),
        Cond::DonorStatus(DonorStatus::Sybunt) => contact(Expr::cust(
            "c.id in (select s.contact_id from sybunt_contacts((select client_today())) s)",
        )),
        Cond::Rfm(dim, cmp, n) => {
            let column = match dim {
                RfmDim::Recency => "r.recency",
                RfmDim::Frequency => "r.frequency",
                RfmDim::Monetary => "r.monetary",
            };
            contact(x(
                format!(
                    "c.id in (select r.contact_id from rfm_scores r where {column} {} $1)",
                    cmp_sql(*cmp)
                ),
                vec![int(*n)],
            ))
        }
        Cond::RfmCell(cells) => contact(x(
            "c.id in (select r.contact_id from rfm_scores r where $1)",
            vec![word_list(
                "(r.recency::text || r.frequency::text || r.monetary::text) in ",
                "",
                cells,
            )],
        )),
        Cond::Opened(n) | Cond::Clicked(n) => {
            let kind = if matches!(c, Cond::Opened(_)) {
                "open"
            } else {
                "click"
            };
            Reads::Engagement(x(
                format!("s.last_{kind}_at >= now() - make_interval(days => $1::integer)"),
                vec![int(*n)],
            ))
        }
        Cond::MailingsReceived(cmp, k, n) => {
            let sent = "select r.contact_id from mailing_recipients r
                        where r.status = 'sent' and r.sent_at >= now() - make_interval(days => $1::integer)
                        group by r.contact_id having count(*)";
            contact(match cmp {
                Cmp::Gte if *k == 0 => Expr::cust("true"),
                Cmp::Lte => x(
                    format!("not exists (select 1 from ({sent} > $2) t where t.contact_id = c.id)"),
                    vec![int(*n), int(*k)],
                ),
                _ => x(format!("c.id in ({sent} >= $2)"), vec![int(*n), int(*k)]),
            })
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
            contact(id_list(before, after, ids))
        }
        Cond::State(states) => contact(x(
            format!("{GIVING_ANY} $1)"),
            vec![word_list("upper(cg.state) in ", "", states)],
        )),
        Cond::ZipPrefix(prefix) => contact(x(
            format!("{GIVING_ANY} left(cg.zip, length($1)) = $2)"),
            vec![text(prefix), text(prefix)],
        )),
        Cond::Created(w) => contact(window("c.created", *w)),
        Cond::Subscription(states) => {
            let words: Vec<String> = states.iter().map(ToString::to_string).collect();
            contact(word_list("c.subscription in ", "", &words))
        }
    }
}
