//! Before a mailing is confirmed: which merge tags its recipients will see blank. The mailing is written as the
//! editor has it inside a transaction that is rolled back, so the audience is the send's own
//! (`mailing_audience_split`, variants and suppressions included), counted in one statement.

use super::input::{check_refs, preview_text, required};
use super::{audience, MailingInput};
use crate::auth::ClientSession;
use crate::error::ApiError;
use crate::state::SharedState;
use mail::{merge_tags, MERGE_TAGS};
use poem_openapi::Object;
use std::collections::HashMap;

#[derive(Debug, Object)]
pub struct MergeCheck {
    /// Recipients the mailing would go to now.
    pub recipients: i64,
    /// One per merge tag used without a default that some recipients have no value for, in the order the tags
    /// first appear.
    pub warnings: Vec<MergeWarning>,
}

#[derive(Debug, Object)]
pub struct MergeWarning {
    /// The tag as written, without braces or default, e.g. `First.Name`.
    pub tag: String,
    /// Recipients who will see it blank.
    pub missing: i64,
    /// E.g. "312 recipients have no first name: they will see it blank. Add a default: {{First.Name|friend}}".
    pub message: String,
}

/// A variant's audience: recipients, and those without a first name and without an e-mail address.
type Counts = (i64, i64, i64);

fn message(tag: &str, missing: i64) -> String {
    let who = if missing == 1 {
        "1 recipient has".to_owned()
    } else {
        format!("{missing} recipients have")
    };
    match tag {
        "First.Name" => format!(
            "{who} no first name: they will see it blank. Add a default: {{{{First.Name|friend}}}}"
        ),
        "Email" => format!(
            "{who} no e-mail address: they will see it blank. Add a default: {{{{Email|your address}}}}"
        ),
        other => format!("{{{{{other}}}}} is not a merge tag: {missing} recipients will see it blank."),
    }
}

/// The warnings for the texts of each variant (`letter`, texts) and the audience's counts by variant.
fn warnings(
    texts: &[(String, Vec<String>)],
    counts: &HashMap<String, Counts>,
) -> Vec<MergeWarning> {
    let mut order: Vec<String> = Vec::new();
    let mut missing: HashMap<String, i64> = HashMap::new();
    for (letter, parts) in texts {
        let (all, no_name, no_email) = counts.get(letter).copied().unwrap_or_default();
        let mut seen: Vec<&str> = Vec::new();
        for tag in parts.iter().flat_map(|t| merge_tags(t)) {
            if tag.default.is_some() || seen.contains(&tag.name) {
                continue;
            }
            seen.push(tag.name);
            let lacking = match tag.name {
                "First.Name" => no_name,
                "Email" => no_email,
                name if MERGE_TAGS.contains(&name) => 0,
                _ => all,
            };
            if !order.iter().any(|t| t == tag.name) {
                order.push(tag.name.to_owned());
            }
            *missing.entry(tag.name.to_owned()).or_default() += lacking;
        }
    }
    order
        .into_iter()
        .filter_map(|tag| {
            let n = missing.get(&tag).copied().unwrap_or(0);
            (n > 0).then(|| MergeWarning {
                message: message(&tag, n),
                missing: n,
                tag,
            })
        })
        .collect()
}

/// `id` is the saved mailing being confirmed (its variant seed decides who gets which variant); none for a new one.
pub(super) async fn check(
    state: &SharedState,
    session: &ClientSession,
    id: Option<i64>,
    input: &MailingInput,
) -> Result<MergeCheck, ApiError> {
    let name = required(&input.name, "Name")?;
    let subject = required(&input.subject_line, "Subject line")?;
    // By hand: the mailing is written only to be counted, so this transaction is rolled back, never committed.
    let mut tx = state.tenancy.begin(&session.client).await?;
    let preview = preview_text(input)?;
    let audience = check_refs(&mut tx, input, session).await?;
    let fields = store::mailings::Fields {
        name: &name,
        subject_line: &subject,
        sender_id: input.sender_id,
        send_time: input.send_time,
        list_id: audience.list_id,
        body_html: &input.body_html,
        // A new mailing is checked as a draft; a saved one keeps its state.
        is_draft: id.is_none().then_some(true),
        segment_id: audience.segment_id,
        preview_text: &preview,
        respect_cap: input.respect_cap.unwrap_or(true),
    };
    let id = match id {
        Some(id) => {
            if !store::mailings::update_unsent(&mut tx, id, &fields).await? {
                return Err(ApiError::NotFound(
                    "Mailing not found or already sent".to_owned(),
                ));
            }
            id
        }
        None => store::mailings::insert(&mut tx, &fields).await?,
    };
    audience::save(&mut tx, id, &audience).await?;
    // Each variant's texts as the send reads them.
    let texts = store::mailings::variant_texts(&mut tx, id).await?;
    let rows = store::mailings::merge_gaps(&mut tx, id).await?;
    // Nothing written stays: the transaction is dropped, not committed.
    drop(tx);
    let recipients = rows.iter().map(|r| r.1).sum();
    let counts: HashMap<String, Counts> = rows
        .into_iter()
        .map(|(letter, all, no_name, no_email)| (letter, (all, no_name, no_email)))
        .collect();
    let texts: Vec<(String, Vec<String>)> = texts
        .into_iter()
        .map(|(letter, subject, preview, body)| (letter, vec![subject, preview, body]))
        .collect();
    Ok(MergeCheck {
        recipients,
        warnings: warnings(&texts, &counts),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_without_a_default_are_counted_per_variant() {
        let texts = vec![
            (
                "a".to_owned(),
                vec![
                    "Hi {{First.Name}}".to_owned(),
                    "{{First.Name}} {{Email|x}}".to_owned(),
                ],
            ),
            (
                "b".to_owned(),
                vec!["Hi {{First.Name|friend}} {{Nope}}".to_owned()],
            ),
        ];
        let counts = HashMap::from([("a".to_owned(), (10, 3, 0)), ("b".to_owned(), (8, 5, 0))]);
        let w = warnings(&texts, &counts);
        assert_eq!(w.len(), 2);
        assert_eq!((w[0].tag.as_str(), w[0].missing), ("First.Name", 3));
        assert_eq!(
            w[0].message,
            "3 recipients have no first name: they will see it blank. Add a default: {{First.Name|friend}}"
        );
        assert_eq!((w[1].tag.as_str(), w[1].missing), ("Nope", 8));
        assert_eq!(
            w[1].message,
            "{{Nope}} is not a merge tag: 8 recipients will see it blank."
        );
    }
}
