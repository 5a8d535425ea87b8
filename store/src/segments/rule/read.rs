//! Reading the groups and conditions of a rule, key by key.

use super::*;

pub(super) fn object<'a>(
    value: &'a Value,
    path: &str,
) -> Result<&'a Map<String, Value>, RuleError> {
    value
        .as_object()
        .map_or_else(|| err(path, "must be an object"), Ok)
}

pub(super) fn only_keys(
    obj: &Map<String, Value>,
    path: &str,
    allowed: &[&str],
) -> Result<(), RuleError> {
    for key in obj.keys() {
        if !allowed.contains(&key.as_str()) {
            // The key is request text: it goes into the message (as data), never into SQL.
            return err(&format!("{path}.{}", printable(key)), "unknown field");
        }
    }
    Ok(())
}

/// A key as shown in an error: at most 40 characters, control characters dropped.
pub(super) fn printable(key: &str) -> String {
    key.chars().filter(|c| !c.is_control()).take(40).collect()
}

pub(super) fn parse_group(
    value: &Value,
    path: &str,
    depth: usize,
    count: &mut usize,
) -> Result<Group, RuleError> {
    if depth > MAX_DEPTH {
        return err(path, format!("groups nest at most {MAX_DEPTH} deep"));
    }
    let obj = object(value, path)?;
    only_keys(obj, path, &["op", "conditions", "groups"])?;
    let join = match obj.get("op") {
        None => Join::And,
        Some(Value::String(s)) if s == "and" => Join::And,
        Some(Value::String(s)) if s == "or" => Join::Or,
        Some(_) => return err(&format!("{path}.op"), "must be \"and\" or \"or\""),
    };
    let list = |key: &str| -> Result<&[Value], RuleError> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(items)) => Ok(items.as_slice()),
            Some(_) => err(&format!("{path}.{key}"), "must be an array"),
        }
    };
    let mut conditions = Vec::new();
    for (i, c) in list("conditions")?.iter().enumerate() {
        *count += 1;
        if *count > MAX_CONDITIONS {
            return err(
                &format!("{path}.conditions[{i}]"),
                format!("a rule holds at most {MAX_CONDITIONS} conditions"),
            );
        }
        conditions.push(parse_condition(c, &format!("{path}.conditions[{i}]"))?);
    }
    let mut groups = Vec::new();
    for (i, g) in list("groups")?.iter().enumerate() {
        groups.push(parse_group(
            g,
            &format!("{path}.groups[{i}]"),
            depth + 1,
            count,
        )?);
    }
    Ok(Group {
        join,
        conditions,
        groups,
    })
}

pub(super) fn parse_condition(value: &Value, path: &str) -> Result<Cond, RuleError> {
    let obj = object(value, path)?;
    only_keys(obj, path, &["field", "op", "value", "window"])?;
    let field = match obj.get("field") {
        Some(Value::String(s)) if FIELDS.contains(&s.as_str()) => s.as_str(),
        Some(Value::String(_)) => return err(&format!("{path}.field"), "unknown field"),
        _ => return err(&format!("{path}.field"), "must be a field name"),
    };
    let op = match obj.get("op") {
        Some(Value::String(s)) => s.as_str(),
        _ => return err(&format!("{path}.op"), "must be an operator"),
    };
    let vpath = format!("{path}.value");
    let value = obj.get("value").unwrap_or(&Value::Null);
    let window = match obj.get("window") {
        None | Some(Value::Null) => None,
        Some(w) => Some(parse_window_object(w, &format!("{path}.window"))?),
    };
    let no_window = |c: Cond| {
        if window.is_some() {
            err(&format!("{path}.window"), "this field takes no window")
        } else {
            Ok(c)
        }
    };
    let bad_op = || err(&format!("{path}.op"), format!("not an operator of {field}"));
    let op_error = || RuleError {
        path: format!("{path}.op"),
        message: format!("not an operator of {field}"),
    };
    match field {
        "gave" | "firstGift" | "created" => {
            let w = match op {
                "withinDays" => Window::Days(days(value, &vpath)?),
                "between" => parse_window_object(value, &vpath)?,
                "never" if field == "gave" => return no_window(Cond::NeverGave),
                _ => return bad_op(),
            };
            no_window(match field {
                "gave" => Cond::Gave(w),
                "firstGift" => Cond::FirstGift(w),
                _ => Cond::Created(w),
            })
        }
        "totalGiven" => {
            let cmp = cmp(op, false).ok_or_else(op_error)?;
            Ok(Cond::TotalGiven(cmp, amount(value, &vpath)?, window))
        }
        "giftCount" => {
            let cmp = cmp(op, true).ok_or_else(op_error)?;
            Ok(Cond::GiftCount(
                cmp,
                integer(value, &vpath, 0, 1_000_000)?,
                window,
            ))
        }
        "hpc" | "mrc" => {
            let test = if op == "between" {
                let o = object(value, &vpath)?;
                only_keys(o, &vpath, &["min", "max"])?;
                let min = amount(
                    o.get("min").unwrap_or(&Value::Null),
                    &format!("{vpath}.min"),
                )?;
                let max = amount(
                    o.get("max").unwrap_or(&Value::Null),
                    &format!("{vpath}.max"),
                )?;
                AmountTest::Between(min, max)
            } else {
                AmountTest::Cmp(cmp(op, false).ok_or_else(op_error)?, amount(value, &vpath)?)
            };
            no_window(if field == "hpc" {
                Cond::Hpc(test)
            } else {
                Cond::Mrc(test)
            })
        }
        "activeSustainer" => {
            if op != "is" {
                return bad_op();
            }
            match value {
                Value::Bool(b) => no_window(Cond::ActiveSustainer(*b)),
                _ => err(&vpath, "must be true or false"),
            }
        }
        "sourceCode" => {
            if op != "in" {
                return bad_op();
            }
            Ok(Cond::SourceCode(ids(value, &vpath)?, window))
        }
        "channel" | "campaign" => {
            if op != "in" {
                return bad_op();
            }
            let kind = if field == "channel" {
                SourceText::Channel
            } else {
                SourceText::Campaign
            };
            Ok(Cond::SourceText(kind, words(value, &vpath)?, window))
        }
        "recencyBand" => {
            if op != "in" {
                return bad_op();
            }
            let bands = words(value, &vpath)?
                .iter()
                .enumerate()
                .map(|(i, w)| match w.as_str() {
                    "active" => Ok(Band::Active),
                    "lapsed" => Ok(Band::Lapsed),
                    "longLapsed" => Ok(Band::LongLapsed),
                    "never" => Ok(Band::Never),
                    _ => err(
                        &format!("{vpath}[{i}]"),
                        "must be active, lapsed, longLapsed or never",
                    ),
                })
                .collect::<Result<Vec<_>, _>>()?;
            no_window(Cond::RecencyBand(bands))
        }
        "donorStatus" => {
            if op != "is" {
                return bad_op();
            }
            match value.as_str() {
                Some("lybunt") => no_window(Cond::DonorStatus(DonorStatus::Lybunt)),
                Some("sybunt") => no_window(Cond::DonorStatus(DonorStatus::Sybunt)),
                _ => err(&vpath, "must be lybunt or sybunt"),
            }
        }
        "rfmRecency" | "rfmFrequency" | "rfmMonetary" => {
            let cmp = cmp(op, true).ok_or_else(op_error)?;
            let dim = match field {
                "rfmRecency" => RfmDim::Recency,
                "rfmFrequency" => RfmDim::Frequency,
                _ => RfmDim::Monetary,
            };
            no_window(Cond::Rfm(dim, cmp, integer(value, &vpath, 1, 5)?))
        }
        "rfmCell" => {
            if op != "in" {
                return bad_op();
            }
            let cells = words(value, &vpath)?;
            for (i, c) in cells.iter().enumerate() {
                if c.len() != 3 || !c.bytes().all(|b| (b'1'..=b'5').contains(&b)) {
                    return err(
                        &format!("{vpath}[{i}]"),
                        "must be three scores 1-5, e.g. \"545\"",
                    );
                }
            }
            no_window(Cond::RfmCell(cells))
        }
        "opened" | "clicked" => {
            if op != "withinDays" {
                return bad_op();
            }
            let n = days(value, &vpath)?;
            no_window(if field == "opened" {
                Cond::Opened(n)
            } else {
                Cond::Clicked(n)
            })
        }
        "mailingsReceived" => {
            let cmp = cmp(op, false).ok_or_else(op_error)?;
            let k = integer(value, &vpath, 0, 1_000_000)?;
            match window {
                Some(Window::Days(n)) => Ok(Cond::MailingsReceived(cmp, k, n)),
                _ => err(&format!("{path}.window"), "must be {\"days\": N}"),
            }
        }
        "originCode" | "list" | "segment" => {
            let negate = match op {
                "in" => false,
                "notIn" => true,
                _ => return bad_op(),
            };
            let kind = match field {
                "originCode" => Membership::OriginCode,
                "list" => Membership::List,
                _ => Membership::Segment,
            };
            no_window(Cond::Member(kind, ids(value, &vpath)?, negate))
        }
        "state" => {
            if op != "in" {
                return bad_op();
            }
            let states = words(value, &vpath)?
                .into_iter()
                .map(|s| s.to_uppercase())
                .collect();
            no_window(Cond::State(states))
        }
        "zipPrefix" => {
            if op != "startsWith" {
                return bad_op();
            }
            match value.as_str() {
                Some(s) if !s.is_empty() && s.chars().count() <= 10 => {
                    no_window(Cond::ZipPrefix(s.to_owned()))
                }
                _ => err(&vpath, "must be 1 to 10 characters"),
            }
        }
        "subscription" => {
            if op != "in" {
                return bad_op();
            }
            let mut states = Vec::new();
            for (i, s) in words(value, &vpath)?.iter().enumerate() {
                match domain::SubscriptionStatus::parse(s) {
                    Some(state) => states.push(state),
                    None => {
                        return err(
                            &format!("{vpath}[{i}]"),
                            "must be subscribed, unsubscribed or bounced",
                        )
                    }
                }
            }
            no_window(Cond::Subscription(states))
        }
        _ => err(&format!("{path}.field"), "unknown field"),
    }
}
