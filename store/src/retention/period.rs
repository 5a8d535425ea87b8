//! The periods retention compares: whole client months (the rollup's grain) grouped into a month, a quarter of
//! the fiscal year, a calendar year or a fiscal year.

use chrono::{Datelike, Months, NaiveDate};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PeriodKind {
    Month,
    /// A quarter of the client's fiscal year (with a January start, the calendar quarters).
    Quarter,
    Year,
    FiscalYear,
}

impl PeriodKind {
    pub fn months(self) -> u32 {
        match self {
            Self::Month => 1,
            Self::Quarter => 3,
            Self::Year | Self::FiscalYear => 12,
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Self::Month => "month",
            Self::Quarter => "quarter",
            Self::Year => "year",
            Self::FiscalYear => "fiscal_year",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "month" => Self::Month,
            "quarter" => Self::Quarter,
            "year" => Self::Year,
            "fiscal_year" => Self::FiscalYear,
            _ => return None,
        })
    }
}

/// The period containing a day and the one before it, as first days of months. The current period counts its
/// months up to and including the month of the day (to date); the previous period is whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Periods {
    pub kind: PeriodKind,
    /// First month of the current period.
    pub from: NaiveDate,
    /// Last month counted in the current period (the month of `as_of`).
    pub to: NaiveDate,
    /// First month of the previous period; it ends the month before `from`.
    pub previous_from: NaiveDate,
}

pub(crate) fn first_of(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}

impl Periods {
    /// `fiscal_year_start` is the month (1–12) the client's fiscal year starts in.
    pub fn containing(kind: PeriodKind, as_of: NaiveDate, fiscal_year_start: u32) -> Self {
        let month = first_of(as_of);
        // Months since the start of the year the period's grid is anchored to.
        let anchor = match kind {
            PeriodKind::Month => 1,
            PeriodKind::Year => 1,
            PeriodKind::Quarter | PeriodKind::FiscalYear => fiscal_year_start.clamp(1, 12),
        };
        let since_anchor = (month.month() + 12 - anchor) % 12;
        let into_period = since_anchor % kind.months();
        let from = month - Months::new(into_period);
        Self {
            kind,
            from,
            to: month,
            previous_from: from - Months::new(kind.months()),
        }
    }

    /// The same kind of period, `n` periods earlier.
    pub fn earlier(self, n: u32) -> Self {
        let back = Months::new(self.kind.months() * n);
        let full_to = self.from + Months::new(self.kind.months() - 1);
        Self {
            kind: self.kind,
            from: self.from - back,
            to: if n == 0 { self.to } else { full_to - back },
            previous_from: self.previous_from - back,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn periods_follow_the_calendar_and_the_fiscal_year() {
        let p = Periods::containing(PeriodKind::Year, d(2026, 11, 26), 7);
        assert_eq!(
            (p.from, p.to, p.previous_from),
            (d(2026, 1, 1), d(2026, 11, 1), d(2025, 1, 1))
        );
        let p = Periods::containing(PeriodKind::FiscalYear, d(2026, 11, 26), 7);
        assert_eq!(
            (p.from, p.to, p.previous_from),
            (d(2026, 7, 1), d(2026, 11, 1), d(2025, 7, 1))
        );
        let p = Periods::containing(PeriodKind::FiscalYear, d(2026, 3, 2), 7);
        assert_eq!((p.from, p.previous_from), (d(2025, 7, 1), d(2024, 7, 1)));
        let p = Periods::containing(PeriodKind::Quarter, d(2026, 11, 26), 1);
        assert_eq!((p.from, p.previous_from), (d(2026, 10, 1), d(2026, 7, 1)));
        let p = Periods::containing(PeriodKind::Quarter, d(2026, 11, 26), 2);
        assert_eq!((p.from, p.previous_from), (d(2026, 11, 1), d(2026, 8, 1)));
        let p = Periods::containing(PeriodKind::Month, d(2026, 1, 31), 7);
        assert_eq!(
            (p.from, p.to, p.previous_from),
            (d(2026, 1, 1), d(2026, 1, 1), d(2025, 12, 1))
        );
        let e = Periods::containing(PeriodKind::Year, d(2026, 11, 26), 1).earlier(1);
        assert_eq!(
            (e.from, e.to, e.previous_from),
            (d(2025, 1, 1), d(2025, 12, 1), d(2024, 1, 1))
        );
    }
}
