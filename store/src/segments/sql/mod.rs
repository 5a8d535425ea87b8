//! A rule becomes ONE parameterised statement, built with `sea-query`: every piece of SQL text is a literal of
//! this file; every number, date, amount, id and word from the rule is a value bound as a parameter. A small
//! adapter ([`arguments`]) hands sea-query's values to sqlx 0.9.

mod condition;

use super::rule::{
    AmountTest, Band, Cmp, Cond, DonorStatus, Group, Join, Membership, RfmDim, SourceText, Window,
};
use condition::*;
use sea_query::{
    Alias, Condition, Expr, PostgresQueryBuilder, Query, SelectStatement, SimpleExpr, Value, Values,
};
use sqlx::postgres::PgArguments;
use sqlx::Arguments;

fn group_of(join: Join) -> Condition {
    match join {
        Join::And => Condition::all(),
        Join::Or => Condition::any(),
    }
}

fn group_condition(g: &Group) -> Condition {
    let mut out = group_of(g.join);
    if g.conditions.is_empty() && g.groups.is_empty() {
        // An empty AND holds everyone, an empty OR no one.
        return out.add(Expr::cust(match g.join {
            Join::And => "true",
            Join::Or => "false",
        }));
    }
    // Tests on the same per-contact row join the group as one subquery, in the group's own AND / OR.
    let mut giving_tests = group_of(g.join);
    let mut engagement_tests = group_of(g.join);
    let (mut any_giving, mut any_engagement) = (false, false);
    for c in &g.conditions {
        match reads(c) {
            Reads::Giving(t) => {
                giving_tests = giving_tests.add(t);
                any_giving = true;
            }
            Reads::Engagement(t) => {
                engagement_tests = engagement_tests.add(t);
                any_engagement = true;
            }
            Reads::Contact(e) => out = out.add(e),
        }
    }
    if any_giving {
        out = out.add(giving(x("($1)", vec![condition_expr(giving_tests)])));
    }
    if any_engagement {
        out = out.add(engagement(x(
            "($1)",
            vec![condition_expr(engagement_tests)],
        )));
    }
    for sub in &g.groups {
        out = out.add(group_condition(sub));
    }
    out
}

/// A condition tree as one expression.
fn condition_expr(c: Condition) -> SimpleExpr {
    c.into()
}

/// `select c.id from contacts c where <rule>`.
pub fn members_select(rule: &Group) -> SelectStatement {
    Query::select()
        .expr(Expr::cust("c.id"))
        .from_as(Alias::new("contacts"), Alias::new("c"))
        .cond_where(group_condition(rule))
        .to_owned()
}

/// How many contacts the rule selects: one statement and its values.
pub fn count_statement(rule: &Group) -> (String, Values) {
    Query::select()
        .expr(Expr::cust("count(*)"))
        .from_subquery(members_select(rule), Alias::new("m"))
        .build(PostgresQueryBuilder)
}

/// The rule's members as rows `(segment_id, contact_id)` to insert into segment_members.
pub fn insert_members_statement(rule: &Group, segment_id: i64) -> (String, Values) {
    let select = Query::select()
        .expr(x("$1::bigint", vec![int(segment_id)]))
        .expr(Expr::cust("m.id"))
        .from_subquery(members_select(rule), Alias::new("m"))
        .to_owned();
    Query::insert()
        .into_table(Alias::new("segment_members"))
        .columns([Alias::new("segment_id"), Alias::new("contact_id")])
        .select_from(select)
        .map_or_else(
            |_| (String::from("select 1 where false"), Values(Vec::new())),
            |q| q.to_owned().build(PostgresQueryBuilder),
        )
}

/// The adapter from sea-query's values to sqlx 0.9 arguments. Only the kinds this module makes are accepted.
pub fn arguments(values: &Values) -> Result<PgArguments, sqlx::Error> {
    let mut args = PgArguments::default();
    for v in &values.0 {
        let added = match v {
            Value::BigInt(n) => args.add(*n),
            Value::Int(n) => args.add(*n),
            Value::Bool(b) => args.add(*b),
            Value::String(s) => args.add(s.as_deref().cloned()),
            other => {
                return Err(sqlx::Error::Protocol(format!(
                    "segment rule produced an unexpected value kind: {other:?}"
                )))
            }
        };
        added.map_err(sqlx::Error::Encode)?;
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segments::rule::parse;
    use serde_json::json;

    const MARK: &str = "x'); drop table contacts; --";

    /// Every string field of every kind carries hostile text; none of it reaches the statement text.
    #[test]
    fn no_statement_text_contains_request_input() {
        let rule = json!({ "op": "or", "conditions": [
            { "field": "state", "op": "in", "value": [MARK, "NY"] },
            { "field": "channel", "op": "in", "value": [MARK] },
            { "field": "campaign", "op": "in", "value": [MARK] },
            { "field": "zipPrefix", "op": "startsWith", "value": "1'; --" },
            { "field": "totalGiven", "op": "gte", "value": "987654.32", "window": { "days": 4321 } },
            { "field": "gave", "op": "between", "value": { "from": "2024-01-02", "to": "2024-03-04" } },
            { "field": "list", "op": "notIn", "value": [987654321] },
            { "field": "rfmCell", "op": "in", "value": ["543"] },
        ], "groups": [{ "op": "and", "conditions": [
            { "field": "giftCount", "op": "eq", "value": 77777 },
            { "field": "opened", "op": "withinDays", "value": 8888 },
        ]}]});
        let group = parse(&rule).unwrap();
        let (text, values) = count_statement(&group);
        for needle in [
            "drop table",
            "1'; --",
            "987654",
            "4321",
            "2024-01-02",
            "987654321",
            "543",
            "77777",
            "8888",
            "NY",
        ] {
            assert!(!text.contains(needle), "{needle} found in {text}");
        }
        assert!(values.0.len() >= 12);
        let (insert, _) = insert_members_statement(&group, 424242);
        assert!(!insert.contains("424242") && !insert.contains("drop table"));
    }
}
