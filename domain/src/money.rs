//! Money: an amount exact to the cent, read once where it comes in. Never a float: it is held as whole cents and
//! written as decimal text (`-1234.50`), which Postgres casts to `numeric` without loss.

use std::fmt;
use thiserror::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money {
    cents: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0:?} is not an amount")]
pub struct InvalidMoney(pub String);

impl Money {
    /// Digits before the point: the `numeric(14, 2)` money columns' limit.
    pub const MAX_WHOLE_DIGITS: usize = 12;

    pub fn from_cents(cents: i64) -> Self {
        Self { cents }
    }

    pub fn cents(self) -> i64 {
        self.cents
    }

    pub fn is_negative(self) -> bool {
        self.cents < 0
    }

    pub fn is_zero(self) -> bool {
        self.cents == 0
    }

    pub fn abs(self) -> Self {
        Self::from_cents(self.cents.abs())
    }

    /// The whole dollars (cents dropped), for limits stated in dollars.
    pub fn whole(self) -> i64 {
        self.cents / 100
    }

    /// An amount as a form sends it: digits, and optionally a point with one or two decimals (`2500`, `2500.5`,
    /// `2500.00`). No sign, currency symbol or separator: the screens send the number itself.
    pub fn parse(raw: &str) -> Result<Self, InvalidMoney> {
        let invalid = || InvalidMoney(raw.to_owned());
        let (whole, frac) = match raw.split_once('.') {
            Some((_, "")) => return Err(invalid()),
            Some(parts) => parts,
            None => (raw, ""),
        };
        if whole.is_empty() {
            return Err(invalid());
        }
        Self::from_digits(whole, frac, false).ok_or_else(invalid)
    }

    /// An amount as exports and people write it: whitespace anywhere, a `$`, thousands separators in groups of
    /// three, a minus sign or accounting parentheses for a negative (`(1,234.50)`), and `.99` for 0.99. `12.`,
    /// `1,23` and three decimals are not amounts.
    pub fn parse_written(raw: &str) -> Result<Self, InvalidMoney> {
        let invalid = || InvalidMoney(raw.to_owned());
        let compact: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
        let mut s = compact.as_str();
        let mut negative = false;
        if let Some(inner) = s.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            negative = true;
            s = inner;
        }
        for sign_or_symbol in ['-', '$', '-'] {
            if let Some(rest) = s.strip_prefix(sign_or_symbol) {
                negative ^= sign_or_symbol == '-';
                s = rest;
            }
        }
        let (grouped, frac) = match s.split_once('.') {
            Some((_, "")) => return Err(invalid()),
            Some(parts) => parts,
            None => (s, ""),
        };
        let groups: Vec<&str> = grouped.split(',').collect();
        let grouped_ok = groups.len() == 1
            || (!groups[0].is_empty()
                && groups[0].len() <= 3
                && groups[1..].iter().all(|g| g.len() == 3));
        let whole = groups.concat();
        if !grouped_ok || (whole.is_empty() && frac.is_empty()) {
            return Err(invalid());
        }
        Self::from_digits(&whole, frac, negative).ok_or_else(invalid)
    }

    /// `whole` (possibly empty: `.99`) and up to two decimals, all ASCII digits.
    fn from_digits(whole: &str, frac: &str, negative: bool) -> Option<Self> {
        let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if whole.len() > Self::MAX_WHOLE_DIGITS || frac.len() > 2 || !digits(whole) || !digits(frac)
        {
            return None;
        }
        let dollars: i64 = if whole.is_empty() {
            0
        } else {
            whole.parse().ok()?
        };
        let cents: i64 = match frac.len() {
            0 => 0,
            1 => frac.parse::<i64>().ok()? * 10,
            _ => frac.parse().ok()?,
        };
        let cents = dollars * 100 + cents;
        Some(Self::from_cents(if negative { -cents } else { cents }))
    }
}

impl fmt::Display for Money {
    /// Two decimals, a leading `-` when negative: `1234.50`, `-3.00`, `0.99`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.is_negative() { "-" } else { "" };
        let cents = self.cents.unsigned_abs();
        write!(f, "{sign}{}.{:02}", cents / 100, cents % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(raw: &str) -> Option<String> {
        Money::parse_written(raw).ok().map(|m| m.to_string())
    }

    #[test]
    fn written_amounts_forgive_dollar_signs_separators_and_accounting_negatives_only() {
        for (raw, want) in [
            ("12.5", Some("12.50")),
            ("$1,234.56", Some("1234.56")),
            (" $ 5 ", Some("5.00")),
            ("-$3.00", Some("-3.00")),
            ("$-3.00", Some("-3.00")),
            ("(7.25)", Some("-7.25")),
            (".99", Some("0.99")),
            ("-0", Some("0.00")),
            ("999,999,999,999.99", Some("999999999999.99")),
            ("1,000,000", Some("1000000.00")),
            ("12.345", None),
            ("1,23", None),
            (",123", None),
            ("ten", None),
            ("", None),
            ("$", None),
            ("12.", None),
            ("=1+1", None),
            ("1e3", None),
            ("1234567890123", None),
        ] {
            assert_eq!(written(raw).as_deref(), want, "{raw:?}");
        }
    }

    #[test]
    fn typed_amounts_are_digits_with_up_to_two_decimals() {
        for (ok, cents) in [
            ("0", 0),
            ("12", 1200),
            ("12.5", 1250),
            ("12.50", 1250),
            ("999999999999.99", 99_999_999_999_999),
        ] {
            assert_eq!(Money::parse(ok).map(Money::cents), Ok(cents), "{ok}");
        }
        for bad in [
            "",
            "-1",
            "1.",
            ".5",
            "1.234",
            "1e3",
            "$5",
            "1,000",
            " 5",
            "1000000000000",
        ] {
            assert!(Money::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sums_and_signs_are_exact() {
        let a = Money::parse_written("(0.10)").expect("amount");
        assert!(a.is_negative());
        assert_eq!(a.abs().to_string(), "0.10");
        assert_eq!(Money::from_cents(a.cents() * 3).to_string(), "-0.30");
        assert_eq!(Money::parse("2500.00").map(Money::whole), Ok(2500));
        assert!(Money::parse_written("0.00").is_ok_and(Money::is_zero));
    }
}
