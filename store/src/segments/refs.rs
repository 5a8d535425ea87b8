//! A rule's references: every list, segment, origin code and source code id it names must exist in the client's
//! schema. Without this check a rule naming another client's (or no) list saves fine and simply selects nobody,
//! which looks like a working segment of size 0.

use super::rule::{Cond, Group, Membership, RuleError};
use sqlx::PgConnection;

/// The first id of the rule that names nothing, as a refusal naming its place (`rule.conditions[1].value[0]:
/// list 99 does not exist`). Places are counted exactly as [`super::parse`] counts them.
pub async fn check(
    conn: &mut PgConnection,
    rule: &Group,
) -> Result<Option<RuleError>, sqlx::Error> {
    let mut named = Vec::new();
    collect(rule, "rule", &mut named);
    let mut unknown: Vec<(Kind, i64)> = Vec::new();
    for kind in [
        Kind::List,
        Kind::Segment,
        Kind::OriginCode,
        Kind::SourceCode,
    ] {
        let ids: Vec<i64> = named
            .iter()
            .filter(|n| n.kind == kind)
            .map(|n| n.id)
            .collect();
        if !ids.is_empty() {
            let missing = crate::mailings::unknown_ids(conn, kind.table(), &ids).await?;
            unknown.extend(missing.into_iter().map(|id| (kind, id)));
        }
    }
    // The first in the rule's own order, so the message points where a reader looks first.
    Ok(named
        .into_iter()
        .find(|n| unknown.contains(&(n.kind, n.id)))
        .map(|n| RuleError {
            path: n.path,
            message: format!("{} {} does not exist", n.kind.word(), n.id),
        }))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    List,
    Segment,
    OriginCode,
    SourceCode,
}

impl Kind {
    fn table(self) -> &'static str {
        match self {
            Kind::List => "crm_lists",
            Kind::Segment => "segments",
            Kind::OriginCode => "origin_codes",
            Kind::SourceCode => "source_codes",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Kind::List => "list",
            Kind::Segment => "segment",
            Kind::OriginCode => "origin code",
            Kind::SourceCode => "source code",
        }
    }
}

struct Named {
    kind: Kind,
    id: i64,
    path: String,
}

fn collect(group: &Group, path: &str, out: &mut Vec<Named>) {
    for (i, c) in group.conditions.iter().enumerate() {
        let (kind, ids) = match c {
            Cond::Member(Membership::List, ids, _) => (Kind::List, ids),
            Cond::Member(Membership::Segment, ids, _) => (Kind::Segment, ids),
            Cond::Member(Membership::OriginCode, ids, _) => (Kind::OriginCode, ids),
            Cond::SourceCode(ids, _) => (Kind::SourceCode, ids),
            _ => continue,
        };
        for (k, id) in ids.iter().enumerate() {
            out.push(Named {
                kind,
                id: *id,
                path: format!("{path}.conditions[{i}].value[{k}]"),
            });
        }
    }
    for (j, g) in group.groups.iter().enumerate() {
        collect(g, &format!("{path}.groups[{j}]"), out);
    }
}
