/**
 * The client's time zone (app settings `timeZone`): every date and time on screen is shown in it, and "today" is
 * the client's today, because the server computes ranges there. The shell sets it once the settings load; until
 * then (and in tests that do not set it) the browser's zone stands in.
 */
let zone: string | undefined;

export function setClientTimeZone(next: string | undefined): void {
  zone = next && isKnownZone(next) ? next : undefined;
}

/** The zone dates are shown in: the client's, else the browser's. */
export function clientTimeZone(): string {
  return zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function isKnownZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The calendar day of `at` in the client's zone, as YYYY-MM-DD. */
export function clientIsoDate(at: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: clientTimeZone(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The client's today as a local Date at midnight (for date arithmetic on calendar days). */
export function clientToday(now: Date = new Date()): Date {
  const [y, m, d] = clientIsoDate(now).split('-').map(Number);
  return new Date(y, m - 1, d);
}

/** An instant (ISO) as a date in the client's zone. A bare YYYY-MM-DD is a calendar day and is not shifted. */
export function formatZonedDate(iso: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) {
    const [y, m, d] = iso.split('-').map(Number);
    return new Date(y, m - 1, d).toLocaleDateString();
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { timeZone: clientTimeZone() });
}

/** An instant (ISO) as a date and time in the client's zone. */
export function formatZonedDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { timeZone: clientTimeZone() });
}

const two = (n: number) => String(n).padStart(2, '0');

/** The client zone's wall-clock parts of an instant. */
function wallParts(at: Date): [number, number, number, number, number] {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: clientTimeZone(),
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return [get('year'), get('month'), get('day'), get('hour'), get('minute')];
}

/** An instant (ISO) as the client zone's `YYYY-MM-DDTHH:mm`, for a datetime-local input ("" when not a date). */
export function toZonedInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const [y, m, d, h, mi] = wallParts(at);
  return `${y}-${two(m)}-${two(d)}T${two(h)}:${two(mi)}`;
}

/** A datetime-local value read as the client zone's wall-clock time, as an ISO instant; null when not one. */
export function fromZonedInput(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const [y, m, d, h, mi] = match.slice(1).map(Number);
  const wall = Date.UTC(y, m - 1, d, h, mi);
  // The zone's offset at an instant is its wall time there minus the instant; taken twice so a guess on the other
  // side of a daylight-saving change settles.
  const offset = (t: number) => {
    const [wy, wm, wd, wh, wmi] = wallParts(new Date(t));
    return Date.UTC(wy, wm - 1, wd, wh, wmi) - t;
  };
  let at = wall - offset(wall);
  at = wall - offset(at);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}
