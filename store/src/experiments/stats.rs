//! The statistics of an experiment: a two-proportion z-test for rates, Welch's t-test for revenue per recipient,
//! and the sample size per arm a test needs. The distributions come from `statrs`.
//!
//! - z-test: the statistic uses the pooled standard error (under "no difference" both cells share one rate); the
//!   95 % interval of the difference uses the unpooled one (each cell its own rate).
//! - Welch: each cell keeps its own variance; the degrees of freedom are Welch–Satterthwaite's.
//! - Sample size: n = (z₁₋α/₂ + z₁₋β)² · [p₁(1−p₁) + p₂(1−p₂)] / (p₁ − p₂)², rounded up.

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// One test of cell 1 against cell 2. `difference` is cell 1 minus cell 2, with its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub statistic: f64,
    pub p_value: f64,
    pub difference: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    /// Welch's degrees of freedom; none for the z-test.
    pub df: Option<f64>,
}

fn standard_normal() -> Normal {
    // Mean 0 and deviation 1 are always valid parameters.
    Normal::standard()
}

/// The quantile z₁₋ₚ of the standard normal distribution.
fn z(upper: f64) -> f64 {
    standard_normal().inverse_cdf(1.0 - upper)
}

/// Two-sided two-proportion z-test of `x1` successes in `n1` against `x2` in `n2`; none when a cell is empty.
pub fn two_proportions(x1: u64, n1: u64, x2: u64, n2: u64) -> Option<Comparison> {
    if n1 == 0 || n2 == 0 || x1 > n1 || x2 > n2 {
        return None;
    }
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let (p1, p2) = (x1 as f64 / n1f, x2 as f64 / n2f);
    let pooled = (x1 + x2) as f64 / (n1f + n2f);
    let se_pooled = (pooled * (1.0 - pooled) * (1.0 / n1f + 1.0 / n2f)).sqrt();
    let se = (p1 * (1.0 - p1) / n1f + p2 * (1.0 - p2) / n2f).sqrt();
    let difference = p1 - p2;
    let half = z(0.025) * se;
    // Both cells all successes or all failures: nothing varies, so nothing differs.
    let (statistic, p_value) = if se_pooled == 0.0 {
        (0.0, 1.0)
    } else {
        let s = difference / se_pooled;
        (s, 2.0 * standard_normal().sf(s.abs()))
    };
    Some(Comparison {
        statistic,
        p_value,
        difference,
        ci_low: difference - half,
        ci_high: difference + half,
        df: None,
    })
}

/// The count, mean and sample variance of one cell's values (revenue per recipient).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub n: u64,
    pub mean: f64,
    pub variance: f64,
}

impl Sample {
    /// From the count, sum and sum of squares of the values.
    pub fn from_sums(n: u64, sum: f64, sum_squares: f64) -> Self {
        if n == 0 {
            return Self {
                n,
                mean: 0.0,
                variance: 0.0,
            };
        }
        let nf = n as f64;
        let mean = sum / nf;
        let variance = if n > 1 {
            ((sum_squares - nf * mean * mean) / (nf - 1.0)).max(0.0)
        } else {
            0.0
        };
        Self { n, mean, variance }
    }
}

/// Two-sided Welch's t-test of the mean of `a` against `b`; none with fewer than two values in a cell, or when
/// neither cell varies yet their means differ (no test applies).
pub fn welch(a: Sample, b: Sample) -> Option<Comparison> {
    if a.n < 2 || b.n < 2 {
        return None;
    }
    let (va, vb) = (a.variance / a.n as f64, b.variance / b.n as f64);
    let se = (va + vb).sqrt();
    let difference = a.mean - b.mean;
    if se == 0.0 {
        return (difference == 0.0).then_some(Comparison {
            statistic: 0.0,
            p_value: 1.0,
            difference,
            ci_low: 0.0,
            ci_high: 0.0,
            df: None,
        });
    }
    let df = (va + vb).powi(2) / (va * va / (a.n as f64 - 1.0) + vb * vb / (b.n as f64 - 1.0));
    let t = StudentsT::new(0.0, 1.0, df).ok()?;
    let statistic = difference / se;
    let half = t.inverse_cdf(0.975) * se;
    Some(Comparison {
        statistic,
        p_value: 2.0 * t.sf(statistic.abs()),
        difference,
        ci_low: difference - half,
        ci_high: difference + half,
        df: Some(df),
    })
}

/// Recipients needed per arm to tell rate `p1` from `p2` at significance `alpha` (two-sided) with `power`; none
/// when the rates are equal or out of range.
pub fn sample_size_per_arm(p1: f64, p2: f64, alpha: f64, power: f64) -> Option<u64> {
    let valid = |p: f64| p > 0.0 && p < 1.0;
    if !valid(p1) || !valid(p2) || !valid(alpha) || !valid(power) || p1 == p2 {
        return None;
    }
    let zs = z(alpha / 2.0) + z(1.0 - power);
    let n = zs * zs * (p1 * (1.0 - p1) + p2 * (1.0 - p2)) / (p1 - p2).powi(2);
    Some(n.ceil() as u64)
}

#[cfg(test)]
mod tests {
    //! Expected numbers computed independently with SciPy 1.x (`scipy.stats.norm`, `scipy.stats.ttest_ind` with
    //! `equal_var=False`, `scipy.stats.t`) and written in by hand.
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not {expected} ± {tolerance}"
        );
    }

    #[test]
    fn sample_sizes_match_the_domain_figures() {
        assert_eq!(sample_size_per_arm(0.20, 0.22, 0.05, 0.8), Some(6507));
        assert_eq!(sample_size_per_arm(0.020, 0.024, 0.05, 0.8), Some(21106));
        assert_eq!(sample_size_per_arm(0.005, 0.006, 0.05, 0.8), Some(85859));
        assert_eq!(sample_size_per_arm(0.2, 0.2, 0.05, 0.8), None);
    }

    #[test]
    fn two_proportion_z_test_matches_scipy() {
        // 220 of 1000 against 200 of 1000.
        let c = two_proportions(220, 1000, 200, 1000).unwrap();
        close(c.statistic, Z1_STAT, 1e-9);
        close(c.p_value, Z1_P, 1e-9);
        close(c.difference, 0.02, 1e-12);
        close(c.ci_low, Z1_LOW, 1e-9);
        close(c.ci_high, Z1_HIGH, 1e-9);
        // 130 of 2000 against 90 of 2000: significant.
        let c = two_proportions(130, 2000, 90, 2000).unwrap();
        close(c.statistic, Z2_STAT, 1e-9);
        close(c.p_value, Z2_P, 1e-12);
        close(c.ci_low, Z2_LOW, 1e-9);
        close(c.ci_high, Z2_HIGH, 1e-9);
        assert_eq!(two_proportions(0, 10, 0, 10).unwrap().p_value, 1.0);
        assert!(two_proportions(1, 0, 1, 10).is_none());
    }

    #[test]
    fn welch_t_test_matches_scipy() {
        // Revenue per recipient: cell a = [0 × 96, 10, 25, 50, 100], cell b = [0 × 98, 10, 20].
        let a = Sample::from_sums(100, 185.0, 100.0 + 625.0 + 2500.0 + 10000.0);
        let b = Sample::from_sums(100, 30.0, 100.0 + 400.0);
        let c = welch(a, b).unwrap();
        close(c.statistic, W1_STAT, 1e-9);
        close(c.p_value, W1_P, 1e-9);
        close(c.df.unwrap(), W1_DF, 1e-9);
        close(c.difference, 1.55, 1e-12);
        close(c.ci_low, W1_LOW, 1e-9);
        close(c.ci_high, W1_HIGH, 1e-9);
        assert!(welch(Sample::from_sums(1, 5.0, 25.0), b).is_none());
        assert_eq!(
            welch(
                Sample::from_sums(5, 0.0, 0.0),
                Sample::from_sums(5, 0.0, 0.0)
            )
            .unwrap()
            .p_value,
            1.0
        );
    }

    const Z1_STAT: f64 = 1.097_973_364_587_218_3;
    const Z1_P: f64 = 0.272_216_120_143_502_4;
    const Z1_LOW: f64 = -0.015_690_723_513_851_22;
    const Z1_HIGH: f64 = 0.055_690_723_513_851_2;
    const Z2_STAT: f64 = 2.774_167_928_588_264;
    const Z2_P: f64 = 0.005_534_310_236_183;
    const Z2_LOW: f64 = 0.005_883_496_313_764_246;
    const Z2_HIGH: f64 = 0.034_116_503_686_235_76;
    const W1_STAT: f64 = 1.333_591_120_669_564;
    const W1_P: f64 = 0.185_182_176_262_758_43;
    const W1_DF: f64 = 106.535_424_194_326_23;
    const W1_LOW: f64 = -0.754_190_103_790_548_3;
    const W1_HIGH: f64 = 3.854_190_103_790_548_6;
}
