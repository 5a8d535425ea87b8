/**
 * A small line of a client's net per month (oldest first). Plain SVG: a portfolio of 200 clients draws 200 of
 * them, which a chart library per cell would make slow. Amounts are plotted, never added up.
 */
export function Sparkline({ values, label }: { values: readonly string[]; label: string }) {
  const width = 96;
  const height = 24;
  const numbers = values.map(Number);
  if (numbers.length < 2) return null;
  const max = Math.max(...numbers, 0);
  const min = Math.min(...numbers, 0);
  const span = max - min || 1;
  const step = width / (numbers.length - 1);
  const points = numbers
    .map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - ((v - min) / span) * (height - 4)).toFixed(1)}`)
    .join(' ');
  return (
    <svg width={width} height={height} role="img" aria-label={label} className="d-block">
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} className="text-primary" />
    </svg>
  );
}
