import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page, type Request } from '@playwright/test';

export const EMAIL = process.env.E2E_EMAIL ?? 'e2e@compass.test';
export const PASSWORD = process.env.E2E_PASSWORD ?? 'E2e-passw0rd';

/**
 * Signs in through the real login screen and the portfolio (agency staff holding several clients start there),
 * opening the client from it as a user does.
 */
export async function signIn(page: Page, client = 'E2E Campaign'): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  // A page asked for before signing in (a stored redirect) goes through select-client instead.
  await expect(page).toHaveURL(/\/(portfolio|auth\/select-client)$/);
  if (page.url().endsWith('/portfolio')) {
    await page.getByRole('table', { name: 'Clients' }).getByRole('button', { name: client, exact: true }).click();
  } else {
    await page.getByLabel('Client').selectOption({ label: client });
    await page.getByRole('button', { name: 'Login' }).click();
  }
  await expect(page).not.toHaveURL(/\/auth\/|\/portfolio$/);
}

// ---- Mail, SMS codes and admin calls for the auth specs ----

/** run.sh's SMTP sink keeps every message as <stamp>-<seq>-<recipient>.eml here (arrival order = name order). */
export const MAIL_DIR = process.env.E2E_MAIL_DIR ?? '';
/** The api's log: the SMS log gateway writes the texts it would send there. */
export const API_LOG = process.env.E2E_API_LOG ?? '';

/** The .eml files received so far for `recipient`, oldest first. */
export function mailFilesFor(recipient: string): string[] {
  return fs
    .readdirSync(MAIL_DIR)
    .filter((name) => name.toLowerCase().endsWith(`-${recipient.toLowerCase()}.eml`))
    .sort()
    .map((name) => path.join(MAIL_DIR, name));
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** HTML entities in attribute values (&amp;, &quot;, &#47; …) undone. */
export function decodeEntities(html: string): string {
  return html
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A message's decoded text/html part (quoted-printable, base64 or plain). */
export function mailHtml(file: string): string {
  const raw = fs.readFileSync(file, 'latin1');
  const start = raw.search(/Content-Type:\s*text\/html/i);
  const part = start >= 0 ? raw.slice(start) : raw;
  const split = part.search(/\r?\n\r?\n/);
  const partHeaders = part.slice(0, split);
  const body = part.slice(split).split(/\r?\n--/)[0];
  if (/Content-Transfer-Encoding:\s*quoted-printable/i.test(partHeaders)) return decodeQuotedPrintable(body);
  if (/Content-Transfer-Encoding:\s*base64/i.test(partHeaders)) {
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return Buffer.from(body, 'latin1').toString('utf8');
}

/**
 * Waits for a message to `recipient` whose HTML contains `marker`, beyond the first `skip` such messages (count
 * them before the action that sends it), and returns its HTML.
 */
export async function waitForMail(recipient: string, marker: string, skip = 0): Promise<string> {
  let found: string[] = [];
  await expect
    .poll(
      () => {
        found = mailFilesFor(recipient).map(mailHtml).filter((html) => html.includes(marker));
        return found.length;
      },
      { message: `a mail to ${recipient} containing ${marker}`, timeout: 20_000 },
    )
    .toBeGreaterThan(skip);
  return found[skip];
}

/** How many messages to `recipient` contain `marker` so far. */
export const mailCount = (recipient: string, marker: string): number =>
  mailFilesFor(recipient).map(mailHtml).filter((html) => html.includes(marker)).length;

/** The first link in `html` whose path is `pathname`, entities undone, as a path + query for page.goto. */
export function linkIn(html: string, pathname: string): string {
  const text = decodeEntities(html);
  const match = text.match(new RegExp(`https?://[^"'\\s<>]*${pathname.replace(/[/]/g, '\\/')}[^"'\\s<>]*`));
  expect(match, `a link to ${pathname}`).not.toBeNull();
  const url = new URL(match![0]);
  return url.pathname + url.search;
}

/** The 6-digit code of a "Your Compass login code" e-mail. */
export function loginCodeIn(html: string): string {
  const match = html.match(/login code is(?:\s|<[^>]*>)*(\d{6})/i);
  expect(match, 'a 6-digit login code').not.toBeNull();
  return match![1];
}

/** The login codes the SMS log gateway "sent" to `phone` so far, oldest first. */
export function smsCodesFor(phone: string): string[] {
  if (!fs.existsSync(API_LOG)) return [];
  return fs
    .readFileSync(API_LOG, 'utf8')
    .split('\n')
    .filter((line) => line.includes('sms (log gateway, not sent)') && line.includes(phone))
    .map((line) => line.match(/Your Compass login code is (\d{6})/)?.[1])
    .filter((code): code is string => Boolean(code));
}

/** Waits for login code number `skip + 1` texted to `phone`. */
export async function waitForSmsCode(phone: string, skip = 0): Promise<string> {
  await expect.poll(() => smsCodesFor(phone).length, { message: `an SMS code to ${phone}`, timeout: 20_000 }).toBeGreaterThan(skip);
  return smsCodesFor(phone)[skip];
}

/** Headers of an /api call made as the e2e administrator acting for the client `short` (through the API). */
export async function adminClientHeaders(request: APIRequestContext, short = 'e2e'): Promise<Record<string, string>> {
  const login = await request.post('/auth-api/auth/login', { data: { username: EMAIL, password: PASSWORD } });
  expect(login.ok(), 'admin login').toBe(true);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const clients = await request.get('/auth-api/session/clients', { headers: { Authorization: `Bearer ${accessToken}` } });
  const client = ((await clients.json()) as { id: number; short: string }[]).find((c) => c.short === short);
  expect(client, `the admin may use ${short}`).toBeTruthy();
  const chosen = await request.post('/auth-api/session/client-login', {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: { clientId: client!.id },
  });
  expect(chosen.ok(), 'admin client login').toBe(true);
  const pair = (await chosen.json()) as { accessToken: string };
  return { Authorization: `Bearer ${pair.accessToken}`, 'client-short': short, 'client-id': String(client!.id) };
}

/** Enables a registered client user through the API (what an administrator does in Manage Users). */
export async function enableClientUser(request: APIRequestContext, email: string, short = 'e2e'): Promise<void> {
  const headers = await adminClientHeaders(request, short);
  const users = await request.get('/api/users', { headers });
  expect(users.ok(), 'list users').toBe(true);
  const user = ((await users.json()) as { kind: string; id: number; email: string }[]).find(
    (u) => u.kind === 'client' && u.email === email,
  );
  expect(user, `client user ${email}`).toBeTruthy();
  const enabled = await request.patch(`/api/users/client/${user!.id}`, { headers, data: { enabled: true } });
  expect(enabled.ok(), `enable ${email}: ${enabled.status()}`).toBe(true);
}

/**
 * Submits a public form once its submit handler is bound (the viewer binds it 1 s after the body renders, so bots
 * that post at once find none): clicks until the submission is on its way, instead of sleeping past the delay.
 */
export async function submitWhenBound(page: Page, button: Locator): Promise<void> {
  let posted = false;
  const onRequest = (request: Request) => {
    if (request.method() === 'POST' && /\/api\/crm-form\/\d+\/submit$/.test(request.url())) posted = true;
  };
  page.on('request', onRequest);
  try {
    await expect(async () => {
      if (!posted) await button.click({ timeout: 2_000 });
      expect(posted).toBe(true);
    }).toPass({ intervals: [250], timeout: 10_000 });
  } finally {
    page.off('request', onRequest);
  }
}

/**
 * Waits until `ms` have passed since the message in `file` was delivered: the server counts opens and clicks within
 * two seconds of delivery as a mail scanner's, not the recipient's.
 */
export async function untilDeliveredAgo(file: string, ms: number): Promise<void> {
  const arrived = fs.statSync(file).mtimeMs;
  await expect.poll(() => Date.now() - arrived, { timeout: ms + 10_000, intervals: [250] }).toBeGreaterThanOrEqual(ms);
}

/** The send-time input's value for an instant: the client's (America/New_York) wall-clock time (issue 27 item 9). */
export function dateTimeLocal(date: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}
