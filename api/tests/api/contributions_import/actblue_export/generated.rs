//! The made-up ActBlue export the tests import.

use super::super::{Lcg, Line};

const CODES: [&str; 6] = [
    "em_20260105_winter_push_a",
    "em_20260212_valentine_b",
    "fb_20251120_gotv_a",
    "homepage",
    "sms_20260301_match_c",
    "",
];

/// About 600 line items on 420 receipts from 150 donors between November 2025 and March 2026; every tenth
/// receipt splits between candidates (two or three line items), a fifth are recurring, some fall on month ends
/// late in the evening (the next month in UTC), and comments carry commas, quotes, newlines and formulas.
pub(super) fn generate() -> Vec<Line> {
    let mut rng = Lcg(20261123);
    let mut lines = Vec::new();
    let mut line_no = 900_000;
    for receipt in 0..420 {
        let donor = rng.below(150);
        let month = [
            (2025, 11, 30),
            (2025, 12, 31),
            (2026, 1, 31),
            (2026, 2, 28),
            (2026, 3, 31),
        ][rng.below(5) as usize];
        let month_end = rng.below(4) == 0;
        let day = if month_end {
            month.2
        } else {
            1 + rng.below(month.2)
        };
        let hour = if month_end { 23 } else { rng.below(24) };
        let date = format!(
            "{}-{:02}-{:02} {:02}:{:02}:{:02}",
            month.0,
            month.1,
            day,
            hour,
            rng.below(60),
            rng.below(60)
        );
        let items = if receipt % 10 == 0 {
            2 + rng.below(2)
        } else {
            1
        };
        let recurring = rng.below(5) == 0;
        let refcode = CODES[rng.below(CODES.len() as u64) as usize].to_owned();
        for _ in 0..items {
            line_no += 1 + rng.below(3);
            let cents = match rng.below(20) {
                0 => 100_000 + rng.below(200_000) as i64,
                1 => 1 + rng.below(99) as i64,
                _ => 500 + rng.below(25_000) as i64,
            };
            let comment = match rng.below(8) {
                0 => "Keep going, you've got this!".to_owned(),
                1 => "Line one\nline \"two\", and three".to_owned(),
                2 => "=cmd|' /C calc'!A0".to_owned(),
                _ => String::new(),
            };
            lines.push(Line {
                receipt: format!("AB{}", 5_000_000 + receipt),
                line: line_no.to_string(),
                date: date.clone(),
                cents,
                fee_cents: (cents * 395 + 5000) / 10000,
                email: if donor.is_multiple_of(7) {
                    format!("Donor{donor}@Example.org")
                } else {
                    format!("donor{donor}@example.org")
                },
                first: if donor == 3 {
                    "José, Jr.".to_owned()
                } else {
                    format!("Donor{donor}")
                },
                refcode: refcode.clone(),
                recurring: if recurring {
                    "12".into()
                } else {
                    String::new()
                },
                recurrence: if recurring {
                    (1 + rng.below(12)).to_string()
                } else {
                    String::new()
                },
                refund: None,
                comment,
            });
        }
    }
    lines
}
