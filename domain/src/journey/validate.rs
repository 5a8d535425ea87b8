//! The checks on save: each refusal names the step it is about, so the builder can point at it.

use super::{
    Action, Condition, Definition, SendVariant, Trigger, MAX_BODY_CHARS, MAX_SEND_VARIANTS,
};
use std::collections::{HashMap, HashSet};

/// At most this many steps in one journey.
pub const MAX_STEPS: usize = 200;
/// The contact's date fields a journey can start on, each year on the date: when the contact signed up and when
/// they last gave.
pub const DATE_FIELDS: [&str; 2] = ["signup_date", "last_gift_date"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidJourney(pub String);

/// The ids a definition names, and (after a look-up) which of them exist in the client.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Refs {
    pub templates: HashSet<i64>,
    pub lists: HashSet<i64>,
    pub segments: HashSet<i64>,
    pub forms: HashSet<i64>,
}

fn bad(message: String) -> Result<(), InvalidJourney> {
    Err(InvalidJourney(message))
}

impl Definition {
    /// Every template, list, segment and form the definition names.
    pub fn referenced(&self) -> Refs {
        let mut refs = Refs::default();
        for t in &self.triggers {
            match t {
                Trigger::FormSignup { form_id } => {
                    refs.forms.insert(*form_id);
                }
                Trigger::ListAdded { list_id } => {
                    refs.lists.insert(*list_id);
                }
                Trigger::SegmentEntered { segment_id } => {
                    refs.segments.insert(*segment_id);
                }
                _ => {}
            }
        }
        for s in &self.steps {
            match &s.action {
                Action::Send {
                    template_id: Some(template_id),
                    ..
                } => {
                    refs.templates.insert(*template_id);
                }
                Action::AddToList { list_id, .. } | Action::RemoveFromList { list_id, .. } => {
                    refs.lists.insert(*list_id);
                }
                Action::Branch {
                    condition: Condition::InSegment { segment_id },
                    ..
                } => {
                    refs.segments.insert(*segment_id);
                }
                _ => {}
            }
        }
        refs
    }

    /// Refuses a definition the engine could not run as drawn. `known` holds the referenced ids that exist.
    pub fn validate(&self, known: &Refs, activating: bool) -> Result<(), InvalidJourney> {
        if self.steps.is_empty() {
            return bad("A journey needs at least one step.".into());
        }
        if self.steps.len() > MAX_STEPS {
            return bad(format!("A journey has at most {MAX_STEPS} steps."));
        }
        if activating && self.triggers.is_empty() {
            return bad("A journey needs at least one trigger to be activated.".into());
        }
        self.check_triggers(known)?;
        let mut ids = HashSet::new();
        for s in &self.steps {
            if s.id.trim().is_empty() || s.id.len() > 100 {
                return bad("Every step needs an id of 1 to 100 characters.".into());
            }
            if !ids.insert(s.id.as_str()) {
                return bad(format!("Step \"{}\" is defined twice.", s.id));
            }
        }
        if !ids.contains(self.start.as_str()) {
            return bad(format!("The start step \"{}\" does not exist.", self.start));
        }
        for s in &self.steps {
            for to in s.action.exits() {
                if !ids.contains(to) {
                    return bad(format!(
                        "Step \"{}\" leads to \"{to}\", which does not exist.",
                        s.id
                    ));
                }
            }
            check_step(&s.id, &s.action, known)?;
        }
        self.check_reachable()?;
        self.check_loops()?;
        self.check_branches_after_send()
    }

    fn check_triggers(&self, known: &Refs) -> Result<(), InvalidJourney> {
        for t in &self.triggers {
            match t {
                Trigger::FormSignup { form_id } if !known.forms.contains(form_id) => {
                    return bad(format!("The trigger's form {form_id} does not exist."));
                }
                Trigger::ListAdded { list_id } if !known.lists.contains(list_id) => {
                    return bad(format!("The trigger's list {list_id} does not exist."));
                }
                Trigger::SegmentEntered { segment_id } if !known.segments.contains(segment_id) => {
                    return bad(format!(
                        "The trigger's segment {segment_id} does not exist."
                    ));
                }
                Trigger::OriginCodeSignup { origin_code } if origin_code.trim().is_empty() => {
                    return bad("The origin code trigger needs an origin code.".into());
                }
                Trigger::GiftOver { amount_cents } if *amount_cents < 0 => {
                    return bad("The gift amount of a trigger cannot be negative.".into());
                }
                Trigger::DateField { field } if !DATE_FIELDS.contains(&field.as_str()) => {
                    return bad(format!(
                        "The date field trigger needs one of the contact's date fields: {}.",
                        DATE_FIELDS.join(", ")
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn successors(&self) -> HashMap<&str, Vec<&str>> {
        self.steps
            .iter()
            .map(|s| (s.id.as_str(), s.action.exits()))
            .collect()
    }

    fn check_reachable(&self) -> Result<(), InvalidJourney> {
        let next = self.successors();
        let mut seen = HashSet::from([self.start.as_str()]);
        let mut todo = vec![self.start.as_str()];
        while let Some(id) = todo.pop() {
            for to in next.get(id).into_iter().flatten() {
                if seen.insert(to) {
                    todo.push(to);
                }
            }
        }
        match self.steps.iter().find(|s| !seen.contains(s.id.as_str())) {
            Some(s) => bad(format!("Step \"{}\" cannot be reached.", s.id)),
            None => Ok(()),
        }
    }

    /// A loop must pass through a wait, or one contact would spin through it (and mail) without end.
    fn check_loops(&self) -> Result<(), InvalidJourney> {
        let waits: HashSet<&str> = self
            .steps
            .iter()
            .filter(|s| s.action.is_wait())
            .map(|s| s.id.as_str())
            .collect();
        let next = self.successors();
        // Colours of a depth-first search over the steps that are not waits: 1 on the path, 2 done.
        let mut colour: HashMap<&str, u8> = HashMap::new();
        for s in &self.steps {
            if waits.contains(s.id.as_str()) || colour.contains_key(s.id.as_str()) {
                continue;
            }
            let mut stack: Vec<(&str, usize)> = vec![(s.id.as_str(), 0)];
            colour.insert(s.id.as_str(), 1);
            while let Some((id, i)) = stack.pop() {
                let outs = next.get(id).map(Vec::as_slice).unwrap_or(&[]);
                match outs.get(i) {
                    None => {
                        colour.insert(id, 2);
                    }
                    Some(&to) => {
                        stack.push((id, i + 1));
                        if waits.contains(to) {
                            continue;
                        }
                        match colour.get(to) {
                            Some(1) => {
                                return bad(format!(
                                    "Step \"{to}\" is in a loop without a wait step."
                                ))
                            }
                            Some(_) => {}
                            None => {
                                colour.insert(to, 1);
                                stack.push((to, 0));
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A branch on an open or a click needs an e-mail sent before it on every path from the start.
    fn check_branches_after_send(&self) -> Result<(), InvalidJourney> {
        let index: HashMap<&str, usize> = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.as_str(), i))
            .collect();
        // sent_before[i]: every path from the start to step i passes a send step before reaching it. The
        // greatest fixed point: start from "true" everywhere but the start and only ever lower.
        let mut sent_before: Vec<bool> = self.steps.iter().map(|s| s.id != self.start).collect();
        loop {
            let mut changed = false;
            for s in &self.steps {
                let from = index[s.id.as_str()];
                let after = sent_before[from] || matches!(s.action, Action::Send { .. });
                for to in s.action.exits() {
                    let to = index[to];
                    if sent_before[to] && !after {
                        sent_before[to] = false;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for (i, s) in self.steps.iter().enumerate() {
            if let Action::Branch {
                condition: Condition::Opened {} | Condition::Clicked {},
                ..
            } = s.action
            {
                if !sent_before[i] {
                    return bad(format!(
                        "Step \"{}\" branches on an e-mail that may not have been sent yet.",
                        s.id
                    ));
                }
            }
        }
        Ok(())
    }
}

fn check_step(id: &str, action: &Action, known: &Refs) -> Result<(), InvalidJourney> {
    match action {
        Action::Send {
            template_id,
            subject,
            body_html,
            variants,
            ..
        } => check_send(
            id,
            *template_id,
            subject,
            body_html.as_deref(),
            variants,
            known,
        )?,
        Action::Wait { hours, .. } if *hours > 24 * 366 => {
            return bad(format!("Step \"{id}\" waits more than a year."));
        }
        Action::WaitUntil { weekday, hour, .. } if *weekday > 6 || *hour > 23 => {
            return bad(format!(
                "Step \"{id}\" needs a weekday from 0 (Monday) to 6 and an hour from 0 to 23."
            ));
        }
        Action::Split { percent, .. } if *percent > 100 => {
            return bad(format!("Step \"{id}\" splits by a percentage above 100."));
        }
        Action::AddToList { list_id, .. } | Action::RemoveFromList { list_id, .. }
            if !known.lists.contains(list_id) =>
        {
            return bad(format!(
                "Step \"{id}\" uses list {list_id}, which does not exist."
            ));
        }
        Action::SetOriginCode { origin_code, .. }
            if origin_code.trim().is_empty() || origin_code.len() > 200 =>
        {
            return bad(format!("Step \"{id}\" needs an origin code."));
        }
        Action::Branch {
            condition: Condition::InSegment { segment_id },
            ..
        } if !known.segments.contains(segment_id) => {
            return bad(format!(
                "Step \"{id}\" uses segment {segment_id}, which does not exist."
            ));
        }
        _ => {}
    }
    Ok(())
}

fn check_send(
    id: &str,
    template_id: Option<i64>,
    subject: &str,
    body_html: Option<&str>,
    variants: &[SendVariant],
    known: &Refs,
) -> Result<(), InvalidJourney> {
    let subject_ok = |s: &str| !s.trim().is_empty() && s.chars().count() <= 300;
    let body_ok = |b: &str| !b.trim().is_empty() && b.chars().count() <= MAX_BODY_CHARS;
    match (template_id, body_html) {
        (Some(_), Some(_)) => {
            return bad(format!(
                "Step \"{id}\" has both a template and its own body: keep one."
            ))
        }
        (None, None) => return bad(format!("Step \"{id}\" needs a template or its own body.")),
        (Some(t), None) if !known.templates.contains(&t) => {
            return bad(format!(
                "Step \"{id}\" uses template {t}, which does not exist."
            ))
        }
        (None, Some(b)) if !body_ok(b) => {
            return bad(format!(
                "Step \"{id}\" needs a body of at most {MAX_BODY_CHARS} characters."
            ))
        }
        _ => {}
    }
    if !subject_ok(subject) {
        return bad(format!(
            "Step \"{id}\" needs a subject of at most 300 characters."
        ));
    }
    if variants.len() > MAX_SEND_VARIANTS {
        return bad(format!(
            "Step \"{id}\" has more than {MAX_SEND_VARIANTS} variants besides A."
        ));
    }
    for (v, letter) in variants.iter().zip('B'..) {
        let bad_subject = v.subject.as_deref().is_some_and(|s| !subject_ok(s));
        let bad_body = v.body_html.as_deref().is_some_and(|b| !body_ok(b));
        if (v.subject.is_none() && v.body_html.is_none()) || bad_subject || bad_body {
            return bad(format!(
                "Variant {letter} of step \"{id}\" needs its own subject (at most 300 characters) or body."
            ));
        }
    }
    Ok(())
}
