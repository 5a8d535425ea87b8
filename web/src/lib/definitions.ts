/**
 * Metric definitions shown on the pages, quoted from docs/metrics.md ("E-mail revenue and RPM in a
 * period"), the only place each is defined. Change them there first.
 */
export const EMAIL_REVENUE_DEFINITION =
  'E-mail revenue is by send date: the net of the gifts credited to mailings whose send started in the period, whenever the gifts were paid. RPM = that revenue ÷ messages those mailings delivered × 1,000.';
