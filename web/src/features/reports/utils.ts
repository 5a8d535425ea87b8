import { formatIsoDate } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { getClientId, getClientShort, getToken } from '@/lib/session';

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

/** The name in a Content-Disposition header (plain or RFC 5987), else the fallback. */
export function dispositionName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="([^"]+)"/i.exec(header);
  return plain?.[1] ?? fallback;
}

/** Downloads a file from the API with the session's headers, named as the server names it. */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const headers = new Headers();
  const token = getToken();
  const short = getClientShort();
  const id = getClientId();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (short) headers.set('client-short', short);
  if (id) headers.set('client-id', id);
  const res = await fetch(url, { headers });
  if (!res.ok) {
    let message = `Could not download the file (${res.status})`;
    try {
      const body = (await res.json()) as { message?: string };
      if (body.message) message = body.message;
    } catch {
      // not JSON: keep the status
    }
    throw new Error(message);
  }
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = dispositionName(res.headers.get('Content-Disposition'), fallbackName);
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
