//! The forecast itself, a pure function of the revenue history: pacing curves, growth and the backtest band.

use super::*;

pub(super) fn first_of(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}

pub(super) fn month_len(first: NaiveDate) -> u32 {
    let next = first + Months::new(1);
    (next - first).num_days() as u32
}

pub(super) fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    Some(if !n.is_multiple_of(2) {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The revenue history arranged by month.
pub(super) struct History {
    /// (first of month) → daily totals (all channels), index = day − 1.
    pub(super) days: BTreeMap<NaiveDate, Vec<f64>>,
    /// (first of month) → totals per channel.
    pub(super) months: BTreeMap<NaiveDate, [f64; 4]>,
}

impl History {
    pub(super) fn new(rows: &[DayRevenue]) -> Self {
        let mut days: BTreeMap<NaiveDate, Vec<f64>> = BTreeMap::new();
        let mut months: BTreeMap<NaiveDate, [f64; 4]> = BTreeMap::new();
        for r in rows {
            let m = first_of(r.day);
            let v = days
                .entry(m)
                .or_insert_with(|| vec![0.0; month_len(m) as usize]);
            v[r.day.day0() as usize] += r.net;
            months.entry(m).or_insert([0.0; 4])[r.channel.index()] += r.net;
        }
        Self { days, months }
    }

    pub(super) fn total(&self, m: NaiveDate) -> f64 {
        self.months.get(&m).map(|c| c.iter().sum()).unwrap_or(0.0)
    }

    /// Revenue of month `m` through day `d` (1-based, inclusive).
    pub(super) fn through(&self, m: NaiveDate, d: u32) -> f64 {
        self.days
            .get(&m)
            .map(|v| v.iter().take(d as usize).sum())
            .unwrap_or(0.0)
    }

    /// Share of month `k`'s revenue by the day that leaves `left` days in it (aligned on the month's end).
    pub(super) fn share_left(&self, k: NaiveDate, left: u32) -> Option<f64> {
        let total = self.total(k);
        if total <= 0.0 {
            return None;
        }
        let len = month_len(k);
        let d = len.saturating_sub(left);
        Some((self.through(k, d) / total).clamp(0.0, 1.0))
    }

    /// The pacing curve's share by day `d` of month `m`: the median over the reference months before `m`.
    pub(super) fn curve(&self, m: NaiveDate, d: u32) -> Option<f64> {
        let len = month_len(m);
        if d >= len {
            return Some(1.0);
        }
        let left = len - d;
        let quarter_end = m.month().is_multiple_of(3);
        let prior = |n: u32| (1..=n).map(move |i| m - Months::new(i));
        let shares = |months: Vec<NaiveDate>| {
            months
                .into_iter()
                .filter_map(|k| self.share_left(k, left))
                .collect::<Vec<f64>>()
        };
        if quarter_end {
            // Quarter-end months: the prior eight quarter ends (two years), when at least two have revenue.
            let q = shares(prior(24).filter(|k| k.month().is_multiple_of(3)).collect());
            if q.len() >= 2 {
                return median(q);
            }
        }
        median(shares(prior(12).collect()))
    }

    /// last 3 complete months before `m` ÷ the same three a year earlier.
    pub(super) fn growth(&self, m: NaiveDate) -> f64 {
        let recent: f64 = (1..=3).map(|i| self.total(m - Months::new(i))).sum();
        let before: f64 = (13..=15).map(|i| self.total(m - Months::new(i))).sum();
        if before <= 0.0 || recent <= 0.0 {
            1.0
        } else {
            (recent / before).clamp(0.25, 4.0)
        }
    }

    /// Month-end forecast for month `m` from its first `d` days.
    pub(super) fn forecast(&self, m: NaiveDate, d: u32) -> Option<f64> {
        let share = self.curve(m, d)?;
        (share >= 0.01).then(|| self.through(m, d) / share)
    }
}

/// Mean absolute percentage error of (predicted, actual) pairs whose actual is positive.
pub(super) fn mape(pairs: impl Iterator<Item = (f64, f64)>) -> Option<f64> {
    let errors: Vec<f64> = pairs
        .filter(|(_, a)| *a > 0.0)
        .map(|(p, a)| ((p - a) / a).abs())
        .collect();
    (!errors.is_empty()).then(|| errors.iter().sum::<f64>() / errors.len() as f64)
}

/// The whole projection of `today`'s year from the revenue history (which should reach three years back).
pub fn build(rows: &[DayRevenue], today: NaiveDate, goals: &BTreeMap<u32, String>) -> Projection {
    let h = History::new(rows);
    let year = today.year();
    let this_month = first_of(today);
    // Completed days of the current month: today is still arriving.
    let done = today.day() - 1;
    let growth = h.growth(this_month);
    let mut months = Vec::new();
    for month in 1..=12 {
        let m = NaiveDate::from_ymd_opt(year, month, 1).unwrap_or(this_month);
        let last_year = h
            .months
            .get(&(m - Months::new(12)))
            .copied()
            .unwrap_or([0.0; 4]);
        let mut actual = h.months.get(&m).copied().unwrap_or([0.0; 4]);
        if m == this_month {
            // Only completed days count as actual for pacing; today's gifts are in tomorrow's figures.
            let partial: Vec<DayRevenue> = rows
                .iter()
                .filter(|r| first_of(r.day) == m && r.day.day() <= done)
                .copied()
                .collect();
            actual = [0.0; 4];
            for r in partial {
                actual[r.channel.index()] += r.net;
            }
        } else if m > this_month {
            actual = [0.0; 4];
        }
        months.push(MonthPlan {
            month,
            projection: last_year.map(|v| v * growth),
            actual,
            goal: goals.get(&month).cloned(),
        });
    }
    let curve: Vec<f64> = (1..=month_len(this_month))
        .map(|d| {
            h.curve(this_month, d)
                .unwrap_or(d as f64 / month_len(this_month) as f64)
        })
        .collect();
    let share_done = if done == 0 {
        0.0
    } else {
        curve[done as usize - 1]
    };
    let current = &months[this_month.month0() as usize];
    let month_projection: f64 = current.projection.iter().sum();
    let month_to_date: f64 = current.actual.iter().sum();
    let before: Vec<&MonthPlan> = months.iter().filter(|p| p.month < today.month()).collect();
    let actual_to_date = before
        .iter()
        .map(|p| p.actual.iter().sum::<f64>())
        .sum::<f64>()
        + month_to_date;
    let month_projection_to_date = month_projection * share_done;
    let projection_to_date = before
        .iter()
        .map(|p| p.projection.iter().sum::<f64>())
        .sum::<f64>()
        + month_projection_to_date;

    // Backtests over the last 12 complete months.
    let past: Vec<NaiveDate> = (1..=12).map(|i| this_month - Months::new(i)).collect();
    let forecast_mape = mape(past.iter().filter_map(|&k| {
        let d = done.clamp(1, month_len(k) - 1);
        Some((h.forecast(k, d)?, h.total(k)))
    }));
    let projection_mape = mape(past.iter().filter_map(|&k| {
        let base = h.total(k - Months::new(12));
        (base > 0.0).then(|| (base * h.growth(k), h.total(k)))
    }));
    let band = |value: f64, err: Option<f64>, fixed: f64| Forecast {
        value,
        low: err.map(|e| fixed + ((value - fixed) * (1.0 - e)).max(0.0)),
        high: err.map(|e| fixed + (value - fixed) * (1.0 + e)),
    };
    let eom_value = if done == 0 {
        month_projection
    } else {
        h.forecast(this_month, done).unwrap_or(month_projection)
    };
    let end_of_month = if done == 0 {
        band(eom_value, projection_mape, 0.0)
    } else {
        band(eom_value, forecast_mape, 0.0)
    };
    let quarter_first = (today.month0() / 3) * 3 + 1;
    let quarter_months = quarter_first..quarter_first + 3;
    let done_in_quarter: f64 = months
        .iter()
        .filter(|p| quarter_months.contains(&p.month) && p.month < today.month())
        .map(|p| p.actual.iter().sum::<f64>())
        .sum();
    let remaining: f64 = months
        .iter()
        .filter(|p| quarter_months.contains(&p.month) && p.month > today.month())
        .map(|p| p.projection.iter().sum::<f64>())
        .sum();
    let end_of_quarter = Forecast {
        value: done_in_quarter + end_of_month.value + remaining,
        low: match (end_of_month.low, projection_mape) {
            (Some(l), Some(e)) => Some(done_in_quarter + l + remaining * (1.0 - e).max(0.0)),
            _ => None,
        },
        high: match (end_of_month.high, projection_mape) {
            (Some(hi), Some(e)) => Some(done_in_quarter + hi + remaining * (1.0 + e)),
            _ => None,
        },
    };
    Projection {
        year,
        today,
        months,
        growth,
        actual_to_date,
        projection_to_date,
        month_to_date,
        month_projection_to_date,
        end_of_month,
        end_of_quarter,
        forecast_mape,
        projection_mape,
        curve,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every month has the same known shape, aligned on its end: nothing until its last ten days, then 1, 2, …,
    /// 10 units (the last day 10), scaled by 100 + 10 × months since January 2023.
    fn known_curve(until: NaiveDate) -> Vec<DayRevenue> {
        let mut rows = Vec::new();
        let mut m = NaiveDate::from_ymd_opt(2023, 1, 1).unwrap();
        let mut i = 0.0;
        while m <= until {
            let len = month_len(m);
            for d in 1..=len {
                let day = NaiveDate::from_ymd_opt(m.year(), m.month(), d).unwrap();
                let left = len - d;
                if day > until || left >= 10 {
                    continue;
                }
                let w = (10 - left) as f64;
                rows.push(DayRevenue {
                    day,
                    channel: Channel::Email,
                    net: w * (100.0 + i),
                });
            }
            m = m + Months::new(1);
            i += 10.0;
        }
        rows
    }

    #[test]
    fn a_known_curve_backtests_to_zero_error_and_forecasts_exactly() {
        let today = NaiveDate::from_ymd_opt(2026, 5, 27).unwrap();
        let p = build(&known_curve(today), today, &BTreeMap::new());
        // The shape is the same every month, so the curve and the month-end forecast are exact.
        assert!(p.forecast_mape.unwrap() < 1e-9, "{:?}", p.forecast_mape);
        // May 2026 is month 40 from Jan 2023: 55 units of 500.
        let scale = 100.0 + 10.0 * 40.0;
        assert!(
            (p.end_of_month.value - 55.0 * scale).abs() < 1e-6,
            "{}",
            p.end_of_month.value
        );
        // Through the 26th (5 days left): 1 + 2 + 3 + 4 + 5 = 15 units.
        assert!((p.month_to_date - 15.0 * scale).abs() < 1e-6);
        assert!((p.curve[25] - 15.0 / 55.0).abs() < 1e-9);
        assert!(p.curve[10] < 1e-12);
        // Growth: Feb–Apr 2026 (months 37–39) over Feb–Apr 2025 (25–27).
        let g = (3.0 * 100.0 + 10.0 * (37.0 + 38.0 + 39.0))
            / (3.0 * 100.0 + 10.0 * (25.0 + 26.0 + 27.0));
        assert!((p.growth - g).abs() < 1e-9);
        // June's projection: June 2025 (month 29) × growth.
        assert!((p.months[5].projection[0] - 55.0 * (100.0 + 290.0) * g).abs() < 1e-6);
        // The projection backtest is not exact (growth is linear, not a constant ratio) but small.
        assert!(p.projection_mape.unwrap() < 0.05, "{:?}", p.projection_mape);
        // The band is the forecast ± its MAPE (zero here).
        assert!((p.end_of_month.high.unwrap() - p.end_of_month.value).abs() < 1e-6);
    }

    #[test]
    fn no_history_projects_nothing_and_has_no_band() {
        let today = NaiveDate::from_ymd_opt(2026, 2, 10).unwrap();
        let p = build(&[], today, &BTreeMap::new());
        assert_eq!(p.growth, 1.0);
        assert_eq!(p.forecast_mape, None);
        assert_eq!(p.end_of_month.low, None);
        assert_eq!(p.months.len(), 12);
    }
}
