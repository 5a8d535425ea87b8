//! Reference codes (ActBlue's refcodes) read by the client's pattern, e.g.
//! `{channel}_{date:yyyymmdd}_{campaign}_{variant}`. A code that does not fit is kept whole and marked unparsed.

use chrono::NaiveDate;

/// The parts of one code; every field is `None` when the code does not fit the pattern.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedCode {
    pub parsed: bool,
    pub channel: Option<String>,
    pub date: Option<NaiveDate>,
    pub campaign: Option<String>,
    pub variant: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Channel,
    Campaign,
    Variant,
    /// A date in the given chrono format and the number of characters it takes.
    Date(String, usize),
    /// A placeholder the parser does not name (e.g. `{mailing}`): matched, not kept.
    Other,
}

/// A compiled pattern. Placeholders other than `{campaign}` take one run of letters and digits; `{campaign}` may
/// span separators, so `em_20260101_spring_push_a` gives campaign `spring_push` and variant `a`.
#[derive(Debug, Clone)]
pub struct CodePattern {
    pieces: Vec<Piece>,
}

impl CodePattern {
    pub fn new(pattern: &str) -> Self {
        let mut pieces = Vec::new();
        let mut rest = pattern;
        while !rest.is_empty() {
            match rest.find('{') {
                Some(0) => {
                    let Some(end) = rest.find('}') else {
                        pieces.push(Piece::Literal(rest.to_owned()));
                        break;
                    };
                    pieces.push(placeholder(&rest[1..end]));
                    rest = &rest[end + 1..];
                }
                Some(i) => {
                    pieces.push(Piece::Literal(rest[..i].to_owned()));
                    rest = &rest[i..];
                }
                None => {
                    pieces.push(Piece::Literal(rest.to_owned()));
                    break;
                }
            }
        }
        Self { pieces }
    }

    pub fn parse(&self, code: &str) -> ParsedCode {
        let mut found = ParsedCode::default();
        if matches(&self.pieces, code, &mut found) {
            found.parsed = true;
            found
        } else {
            ParsedCode::default()
        }
    }
}

fn placeholder(inner: &str) -> Piece {
    let (name, format) = inner.split_once(':').unwrap_or((inner, ""));
    match name.trim().to_ascii_lowercase().as_str() {
        "channel" => Piece::Channel,
        "campaign" => Piece::Campaign,
        "variant" => Piece::Variant,
        "date" => {
            let format = if format.is_empty() {
                "yyyymmdd"
            } else {
                format
            };
            let chrono = format
                .to_ascii_lowercase()
                .replace("yyyy", "%Y")
                .replace("yy", "%y")
                .replace("mm", "%m")
                .replace("dd", "%d");
            Piece::Date(chrono, format.len())
        }
        _ => Piece::Other,
    }
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

/// Backtracking match of the pieces against the whole code (codes are short, patterns have a handful of pieces).
fn matches(pieces: &[Piece], code: &str, found: &mut ParsedCode) -> bool {
    let Some((piece, rest)) = pieces.split_first() else {
        return code.is_empty();
    };
    match piece {
        Piece::Literal(lit) => code
            .strip_prefix(lit.as_str())
            .is_some_and(|tail| matches(rest, tail, found)),
        Piece::Date(format, len) => {
            let Some(head) = code.get(..*len) else {
                return false;
            };
            let Ok(date) = NaiveDate::parse_from_str(head, format) else {
                return false;
            };
            if matches(rest, &code[*len..], found) {
                found.date = Some(date);
                true
            } else {
                false
            }
        }
        Piece::Channel | Piece::Variant | Piece::Other | Piece::Campaign => {
            let spans_separators = *piece == Piece::Campaign;
            // Longest first for the campaign (it may hold separators), shortest first for the others.
            let ends: Vec<usize> = code
                .char_indices()
                .map(|(i, c)| i + c.len_utf8())
                .take_while(|&end| spans_separators || code[..end].chars().all(is_word))
                .collect();
            let ordered: Box<dyn Iterator<Item = &usize>> = if spans_separators {
                Box::new(ends.iter().rev())
            } else {
                Box::new(ends.iter())
            };
            for &end in ordered {
                if matches(rest, &code[end..], found) {
                    let value = Some(code[..end].to_owned());
                    match piece {
                        Piece::Channel => found.channel = value,
                        Piece::Campaign => found.campaign = value,
                        Piece::Variant => found.variant = value,
                        _ => {}
                    }
                    return true;
                }
            }
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: &str = "{channel}_{date:yyyymmdd}_{campaign}_{variant}";

    #[test]
    fn a_code_in_the_default_pattern_gives_its_parts() {
        let p = CodePattern::new(DEFAULT).parse("em_20260315_spring_push_b");
        assert_eq!(
            p,
            ParsedCode {
                parsed: true,
                channel: Some("em".into()),
                date: NaiveDate::from_ymd_opt(2026, 3, 15),
                campaign: Some("spring_push".into()),
                variant: Some("b".into()),
            }
        );
    }

    #[test]
    fn codes_that_do_not_fit_are_unparsed() {
        let pattern = CodePattern::new(DEFAULT);
        for code in [
            "homepage",
            "em_2026031_x_a",
            "em_20261345_x_a",
            "em_20260315_a",
            "",
        ] {
            assert_eq!(pattern.parse(code), ParsedCode::default(), "{code}");
        }
    }

    #[test]
    fn other_patterns_and_date_formats_work() {
        let p = CodePattern::new("{date:yymmdd}-{channel}-{campaign}").parse("260101-fb-gotv");
        assert!(p.parsed);
        assert_eq!(p.date, NaiveDate::from_ymd_opt(2026, 1, 1));
        assert_eq!(p.channel.as_deref(), Some("fb"));
        assert_eq!(p.campaign.as_deref(), Some("gotv"));
        assert_eq!(p.variant, None);
    }
}
