//! Reading a file of sends made elsewhere (another e-mail platform's campaign report, a lemlist export): which
//! column feeds which field — by the user's mapping, else by header name with common synonyms — and one data row
//! turned into one send. Pure functions; the worker's job reads the file and hands the sends to [`super::upsert`].

mod field;
mod row;
mod source;

pub use field::{resolve, MailingField};
pub use row::{parse_row, ExternalSend};
pub use source::Source;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn strings(s: &str) -> Vec<String> {
        s.split(',').map(str::to_owned).collect()
    }

    #[test]
    fn headers_are_found_by_synonyms() {
        let header = strings("Campaign Name,Sent At,Emails Sent,Unique Opens,Unique Clicks,Unsubscribed,Amount Raised,Tool");
        let cols = resolve(&BTreeMap::new(), &header).unwrap();
        assert_eq!(cols[&MailingField::Name], 0);
        assert_eq!(cols[&MailingField::SentOn], 1);
        assert_eq!(cols[&MailingField::Recipients], 2);
        assert_eq!(cols[&MailingField::Revenue], 6);
        let row = strings("Fall,2026-11-03T14:00:00.000Z,1000,300,40,2,125.50,lemlist");
        let send = parse_row(&cols, &header, &row, 2, Source::Esp)
            .unwrap()
            .unwrap();
        assert_eq!(send.source, Source::Lemlist);
        assert_eq!(
            (send.recipients, send.delivered, send.opens),
            (1000, 1000, 300)
        );
        assert_eq!(send.key(), "name:Fall|2026-11-03");
    }

    #[test]
    fn a_bad_cell_names_its_row_and_column() {
        let header = strings("Name,Date,Recipients,Delivered,Opens");
        let cols = resolve(&BTreeMap::new(), &header).unwrap();
        let err = parse_row(
            &cols,
            &header,
            &strings("A,2026-11-03,10,5,many"),
            4,
            Source::Esp,
        )
        .unwrap_err();
        assert_eq!(err, "Row 4, column 'Opens': \"many\" is not a whole number");
        let err = parse_row(
            &cols,
            &header,
            &strings("A,2026-11-03,10,12,1"),
            5,
            Source::Esp,
        )
        .unwrap_err();
        assert_eq!(
            err,
            "Row 5, column 'Delivered': 12 delivered is more than the 10 recipients"
        );
        assert!(resolve(&BTreeMap::new(), &strings("Email,Opens"))
            .unwrap_err()
            .contains("'Name' and 'Send date'"));
    }
}
