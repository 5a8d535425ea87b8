import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { EMAIL, signIn, untilDeliveredAgo, dateTimeLocal } from './helpers';

// run.sh starts a local SMTP sink that keeps every message as <stamp>-<seq>-<recipient>.eml in this directory.
const MAIL_DIR = process.env.E2E_MAIL_DIR ?? '';
const ADA = 'ada.delivery@example.org';
const BO = 'bo.delivery@example.org';
const csv = ['First;E-mail', `Ada;${ADA}`, `Bo;${BO}`].join('\n');
// A browser's user agent: the tracking endpoints count proxies, scanners and unknown agents as machines.
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** The .eml files received so far for `recipient`. */
function mailFor(recipient: string): string[] {
  return fs
    .readdirSync(MAIL_DIR)
    .filter((name) => name.endsWith(`-${recipient}.eml`))
    .map((name) => path.join(MAIL_DIR, name));
}

/** Quoted-printable decoding: soft line breaks removed, =XX bytes decoded, the result read as UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The message's headers (unfolded) and its decoded text/html part. */
function readMessage(file: string): { headers: string; html: string } {
  const raw = fs.readFileSync(file, 'latin1');
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const htmlStart = raw.search(/Content-Type:\s*text\/html/i);
  expect(htmlStart, 'the message has a text/html part').toBeGreaterThan(-1);
  const part = raw.slice(htmlStart);
  const bodyStart = part.search(/\r?\n\r?\n/);
  // The part ends at the next MIME boundary.
  const body = part.slice(bodyStart).split(/\r?\n--/)[0];
  const html = /Content-Transfer-Encoding:\s*quoted-printable/i.test(part.slice(0, bodyStart)) ? decodeQuotedPrintable(body) : body;
  return { headers, html };
}

/** The first URL in `html` whose path contains `marker`, with HTML entities for & undone. */
function urlIn(html: string, marker: string): string {
  const match = html.match(new RegExp(`https?://[^"'\\s<>]*${marker.replace(/\//g, '\\/')}[^"'\\s<>]*`));
  expect(match, `a ${marker} URL in the HTML part`).not.toBeNull();
  return match![0].replace(/&amp;/g, '&');
}


// The figure's value: the <dd> right after the <dt> that names it.
const figure = (page: Page, label: string) =>
  page
    .locator('dt')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');

test('a confirmed mailing is delivered by the worker, and opens, clicks and unsubscribes come back as figures', async ({ page }) => {
  test.setTimeout(180_000);
  expect(MAIL_DIR, 'E2E_MAIL_DIR is set by run.sh').not.toBe('');
  await signIn(page);

  // A sender.
  await page.goto('/system');
  const senders = page.getByRole('form', { name: 'Add sender' });
  await senders.getByLabel('Name', { exact: true }).fill('Delivery Desk');
  await senders.getByLabel('From address').fill('desk@e2e-campaign.test');
  await senders.getByRole('button', { name: 'Add sender' }).click();
  await expect(page.getByText('Sender added')).toBeVisible();

  // A list of two people.
  await page.goto('/crm-list-add');
  await page.getByLabel('List name').fill('Delivery audience');
  await page.getByLabel('Upload File').check();
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'delivery.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('switch', { name: 'Create new contacts' }).check();
  await page.getByRole('textbox', { name: 'Origin code' }).fill('delivery-audience');
  await page.getByRole('button', { name: 'Create List' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('List Upload finished');
  await dialog.getByRole('link', { name: 'View Result' }).click();
  await expect(page).toHaveURL(/\/crm-list-detail\/\d+$/);
  await expect(page.locator('dd').nth(1)).toHaveText('2');

  // The mailing, first as a test send to the signed-in user.
  await page.goto('/crm-mailing-add');
  await page.getByLabel('Mailing name').fill('E2E delivery run');
  await page.getByLabel('Sender').selectOption({ label: 'Delivery Desk <desk@e2e-campaign.test>' });
  await page.getByLabel('Subject').fill('Rivers need you now');
  await page.getByLabel('Send time').fill('2030-01-15T10:00');
  await page.getByLabel('Audience list').selectOption({ label: 'Delivery audience' });
  await page.getByRole('tab', { name: 'HTML Editor' }).click();
  await page.getByText('HTML source', { exact: true }).click();
  await page
    .getByLabel('Body HTML')
    .fill('<h1>June appeal</h1><p>Hello {{First.Name}}</p><p><a href="https://example.org/donate">Donate today</a></p>');

  await page.getByRole('tab', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Send to my inbox' }).click();
  await expect(page.getByText('Draft sent')).toBeVisible();
  await expect.poll(() => mailFor(EMAIL).length, { timeout: 20_000 }).toBeGreaterThan(0);

  // Due a minute ago, so the worker's scheduler (every 5 s) sends it right away.
  await page.getByRole('tab', { name: 'Mailing Setup' }).click();
  await page.getByLabel('Send time').fill(dateTimeLocal(new Date(Date.now() - 60_000)));
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByText('Mailing confirmed')).toBeVisible();
  await expect(page).toHaveURL(/\/crm-mailings$/);

  await expect.poll(() => mailFor(ADA).length + mailFor(BO).length, { timeout: 60_000, intervals: [500] }).toBe(2);
  const file = mailFor(ADA)[0];
  const { headers, html } = readMessage(file);
  expect(html).toContain('Hello Ada');
  expect(html).not.toContain('{{First.Name}}');
  expect(headers).toMatch(/^List-Unsubscribe: /m);
  expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);

  const openUrl = urlIn(html, '/api/track/open/');
  const clickUrl = urlIn(html, '/api/track/click/');
  const unsubscribeUrl = urlIn(html, '/api/unsubscribe/');

  // Opens within two seconds of delivery are a scanner's: wait that out before "reading" the message.
  await untilDeliveredAgo(file, 3_000);
  const open = await page.request.get(openUrl, { headers: { 'User-Agent': BROWSER_UA } });
  expect(open.ok()).toBe(true);

  const click = await page.request.get(clickUrl, { maxRedirects: 0, headers: { 'User-Agent': BROWSER_UA } });
  expect(click.status()).toBe(302);
  expect(click.headers()['location']).toBe('https://example.org/donate');

  const unsubscribe = await page.request.post(unsubscribeUrl, {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': BROWSER_UA },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(unsubscribe.ok()).toBe(true);

  // The app: SENT in the table, and the figures in the read-only summary (events are written within a second).
  await page.goto('/crm-mailings');
  const row = page.getByRole('row', { name: /E2E delivery run/ });
  await expect(row).toContainText('SENT');
  await row.getByRole('link', { name: 'E2E delivery run' }).click();
  await expect(page).toHaveURL(/\/crm-mailing-detail\/\d+$/);
  await expect(async () => {
    await page.reload();
    await expect(figure(page, 'Recipients')).toHaveText('2', { timeout: 3_000 });
    await expect(figure(page, 'Delivered')).toHaveText('2', { timeout: 3_000 });
    await expect(figure(page, 'Unique opens')).toHaveText(/^1( \(\+\d+ machine\))?$/, { timeout: 3_000 });
    await expect(figure(page, 'Unsubscribes')).toHaveText('1', { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(figure(page, 'Clicks')).toContainText('1');

  // Issue 17, item 16: clicks per link and the first 48 hours' chart, kept as the README's screen.
  const links = page.getByRole('table', { name: 'Clicks per link' });
  await expect(links.getByRole('row', { name: /example\.org\/donate/ })).toContainText('1');
  await expect(page.getByRole('img', { name: /opens and clicks per hour/i })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByText('Opens and clicks, first 48 hours').scrollIntoViewIfNeeded();
  // The chart's entry animation is over once its drawing stops changing between two looks.
  const chart = page.getByRole('img', { name: /opens and clicks per hour/i });
  let drawn = '';
  await expect
    .poll(
      async () => {
        const now = await chart.innerHTML();
        const still = now === drawn;
        drawn = now;
        return still;
      },
      { intervals: [200] },
    )
    .toBe(true);
  await page.screenshot({ path: '../../docs/screens/mailing-charts.png' });
});
