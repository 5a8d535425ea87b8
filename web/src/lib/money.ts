/**
 * Money arrives from the API as exact decimal strings ("1234.50"). Intl formats the string itself, so no amount
 * passes through a float on its way to the screen.
 */
const CURRENCY = 'USD';

const moneyFormat = new Intl.NumberFormat(undefined, { style: 'currency', currency: CURRENCY });

/** "1234.50" → "$1,234.50" in en-US; an empty or missing amount is a dash. */
export function formatMoney(amount: string | null | undefined): string {
  if (amount === null || amount === undefined || amount.trim() === '') return '—';
  return moneyFormat.format(amount as unknown as number);
}

/** A share (0.1266) as a percentage in the browser's locale ("12.7%"). */
export function formatPercent(share: number, digits = 1): string {
  return share.toLocaleString(undefined, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A decimal string as a number for chart axes only (charts plot, they do not add up money). */
export const chartNumber = (amount: string): number => Number(amount);
