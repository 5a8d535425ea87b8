//! The columns of a contact file: what each feeds, how they are found, and dates as files write them.

use super::*;

pub(super) fn normalize_header(h: &str) -> String {
    h.trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

/// Column index of each field, from the header row.
pub(super) fn resolve_columns(
    columns: &Columns,
    header: &[String],
) -> Result<BTreeMap<Field, usize>, JobError> {
    let normalized: Vec<String> = header.iter().map(|h| normalize_header(h)).collect();
    let find = |names: &[&str]| normalized.iter().position(|h| names.contains(&h.as_str()));
    let mut found = BTreeMap::new();
    match columns {
        Columns::Contacts => {
            let email = find(&["email", "emailaddress", "email1"])
                .ok_or_else(|| JobError::BadFile("The file has no 'Email' column".to_owned()))?;
            found.insert(Field::Email, email);
            if let Some(i) = find(&["first", "firstname", "fname"]) {
                found.insert(Field::FirstName, i);
            }
            if let Some(i) = find(&["last", "lastname", "lname", "surname"]) {
                found.insert(Field::LastName, i);
            }
        }
        Columns::Ngp => {
            let required = [
                (Field::Vanid, "vanid", "VANID"),
                (Field::FirstName, "first", "First"),
                (Field::LastName, "last", "Last"),
                (Field::DateCreated, "datecreated", "Date Created"),
                (Field::OriginCode, "origincodename", "OriginCodeName"),
                (Field::Email, "preferredemail", "PreferredEmail"),
            ];
            let missing: Vec<&str> = required
                .iter()
                .filter(|(_, key, _)| find(&[key]).is_none())
                .map(|(_, _, label)| *label)
                .collect();
            if !missing.is_empty() {
                return Err(JobError::BadFile(format!(
                    "Missing required columns: {}",
                    missing.join(", ")
                )));
            }
            for (field, key, _) in required {
                if let Some(i) = find(&[key]) {
                    found.insert(field, i);
                }
            }
        }
        Columns::Mapped { mapping } => {
            for (column, field) in mapping {
                let key = normalize_header(column);
                let i = normalized.iter().position(|h| *h == key).ok_or_else(|| {
                    JobError::BadFile(format!("The file has no column '{column}'"))
                })?;
                found.insert(*field, i);
            }
            if !found.contains_key(&Field::Email) {
                return Err(JobError::BadFile("Map a column to Email".to_owned()));
            }
        }
    }
    Ok(found)
}

pub(super) fn parse_date(raw: &str) -> Option<NaiveDateTime> {
    let raw = raw.trim();
    for f in [
        "%Y-%m-%d %H:%M:%S",
        "%m/%d/%Y %H:%M:%S",
        "%m/%d/%Y %H:%M",
        "%Y-%m-%dT%H:%M:%S",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(raw, f) {
            return Some(d);
        }
    }
    for f in ["%Y-%m-%d", "%m/%d/%Y", "%m/%d/%y"] {
        if let Ok(d) = NaiveDate::parse_from_str(raw, f) {
            return d.and_hms_opt(0, 0, 0);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(cols: &[&str]) -> Vec<String> {
        cols.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn the_email_column_is_found_whatever_its_case_and_spacing() {
        let found = resolve_columns(
            &Columns::Contacts,
            &header(&["\u{feff}First", " E-Mail ", "Last Name"]),
        )
        .unwrap();
        assert_eq!(found[&Field::Email], 1);
        assert_eq!(found[&Field::FirstName], 0);
        assert_eq!(found[&Field::LastName], 2);
        assert!(resolve_columns(&Columns::Contacts, &header(&["Name", "Phone"])).is_err());
    }

    #[test]
    fn ngp_needs_every_required_column_and_names_the_missing_ones() {
        let err = resolve_columns(
            &Columns::Ngp,
            &header(&["VANID", "First", "Last", "PreferredEmail"]),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "Missing required columns: Date Created, OriginCodeName"
        );
    }

    #[test]
    fn dates_in_the_usual_export_formats_parse() {
        for raw in [
            "2026-03-01",
            "2026-03-01 10:20:30",
            "3/1/2026",
            "03/01/2026 10:20",
        ] {
            assert!(parse_date(raw).is_some(), "{raw}");
        }
        assert!(parse_date("yesterday").is_none());
    }
}
