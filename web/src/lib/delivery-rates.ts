/** A rate as the API sends it (a decimal string, 0.0042 for 0.42 %) in percent with two places; "—" when none. */
export function formatRate(rate: string | null | undefined): string {
  if (rate === null || rate === undefined || rate === '') return '—';
  const value = Number(rate) * 100;
  if (!Number.isFinite(value)) return '—';
  return `${value.toFixed(2)} %`;
}

const PROVIDERS: Record<string, string> = {
  gmail: 'Gmail',
  yahoo: 'Yahoo / AOL',
  microsoft: 'Microsoft',
  other: 'Other',
};

/** The mailbox provider's name as people know it. */
export const providerName = (group: string): string => PROVIDERS[group] ?? group;
