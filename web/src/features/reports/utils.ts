import { formatIsoDate } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { formatMoney } from '@/lib/money';

/** A report cell as the page shows it, by its column's kind (the API sends every cell as a string). */
export function formatCell(kind: string, value: string): string {
  if (value === '') return '';
  switch (kind) {
    case 'money':
      return formatMoney(value);
    case 'integer': {
      const n = Number(value);
      return Number.isFinite(n) ? formatCount(n) : value;
    }
    case 'rate': {
      const n = Number(value);
      return Number.isFinite(n) ? `${(n * 100).toFixed(2)}%` : value;
    }
    case 'ratio': {
      const n = Number(value);
      return Number.isFinite(n) ? n.toFixed(2) : value;
    }
    case 'date':
      return formatIsoDate(value);
    default:
      return value;
  }
}
