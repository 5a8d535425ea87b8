import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn, untilDeliveredAgo, dateTimeLocal } from './helpers';

// Issue 15: a mailing with variants A and B is sent for real; Email › Performance shows the flight by variant,
// and the sent mailing's page shows its clicks per link (issue 17 item 16).
const MAIL_DIR = process.env.E2E_MAIL_DIR ?? '';
const STAMP = Date.now();
const ADA = `ada.flight${STAMP}@example.org`;
const BO = `bo.flight${STAMP}@example.org`;
const csv = ['First;E-mail', `Ada;${ADA}`, `Bo;${BO}`].join('\n');
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

const mailFor = (recipient: string): string[] =>
  fs
    .readdirSync(MAIL_DIR)
    .filter((name) => name.endsWith(`-${recipient}.eml`))
    .map((name) => path.join(MAIL_DIR, name));


test('a mailing split into variants A and B is sent, and Performance shows the flight by variant', async ({ page }) => {
  test.setTimeout(180_000);
  expect(MAIL_DIR, 'E2E_MAIL_DIR is set by run.sh').not.toBe('');
  await signIn(page);

  await page.goto('/system');
  const senders = page.getByRole('form', { name: 'Add sender' });
  await senders.getByLabel('Name', { exact: true }).fill(`Flight Desk ${STAMP}`);
  await senders.getByLabel('From address').fill('flights@e2e-campaign.test');
  await senders.getByRole('button', { name: 'Add sender' }).click();
  await expect(page.getByText('Sender added')).toBeVisible();

  await page.goto('/crm-list-add');
  await page.getByLabel('List name').fill(`Flight audience ${STAMP}`);
  await page.getByLabel('Upload File').check();
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'flight.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('switch', { name: 'Create new contacts' }).check();
  await page.getByRole('textbox', { name: 'Origin code' }).fill(`flight-${STAMP}`);
  await page.getByRole('button', { name: 'Create List' }).click();
  await expect(page.getByRole('dialog')).toContainText('List Upload finished');

  const name = `Flight ${STAMP}`;
  await page.goto('/crm-mailing-add');
  await page.getByLabel('Mailing name').fill(name);
  await page.getByLabel('Sender').selectOption({ label: `Flight Desk ${STAMP} <flights@e2e-campaign.test>` });
  await page.getByLabel('Subject').fill('Subject A');
  await page.getByLabel('Send time').fill(dateTimeLocal(new Date(Date.now() - 60_000)));
  await page.getByLabel('Audience list').selectOption({ label: `Flight audience ${STAMP}` });
  await page.getByRole('button', { name: 'Add variant' }).click();
  await page.getByLabel('Variant B subject').fill('Subject B');
  await page.getByRole('tab', { name: 'HTML Editor' }).click();
  await page.getByText('HTML source', { exact: true }).click();
  await page.getByLabel('Body HTML').fill('<p>Hello {{First.Name}}</p><p><a href="https://example.org/flight">Give</a></p>');
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await expect(page.getByText('A to B', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByText('Mailing confirmed')).toBeVisible();

  await expect.poll(() => mailFor(ADA).length + mailFor(BO).length, { timeout: 60_000, intervals: [500] }).toBe(2);
  const subjects = [...mailFor(ADA), ...mailFor(BO)].map((f) => /^Subject: (.*)$/m.exec(fs.readFileSync(f, 'latin1'))?.[1]?.trim());
  expect(subjects.sort()).toEqual(['Subject A', 'Subject B']);

  // Ada clicks her link (three seconds after delivery, as a person would).
  const raw = fs.readFileSync(mailFor(ADA)[0]!, 'latin1').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const click = /https?:\/\/[^"'\s<>()]*\/api\/track\/click\/[^"'\s<>()]*/.exec(raw)![0].replace(/&amp;/g, '&');
  await untilDeliveredAgo(mailFor(ADA)[0]!, 3_000);
  const clicked = await page.request.get(click, { maxRedirects: 0, headers: { 'User-Agent': BROWSER_UA } });
  expect(clicked.status()).toBe(302);

  await page.goto('/flights');
  await expect(page.getByRole('heading', { name: 'Performance' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Flights' });
  await expect(async () => {
    await page.reload();
    const flight = table.getByRole('row', { name: new RegExp(name) });
    await expect(flight).toContainText('All', { timeout: 3_000 });
    // Flight, variant, segment, then the money columns first (issue 27): revenue, gifts, average gift, response
    // rate, RPM; recipients are the ninth cell and clicks the fourteenth.
    await expect(flight.getByRole('cell').nth(8)).toHaveText('2', { timeout: 3_000 });
    await expect(flight.getByRole('cell').nth(13)).toHaveText('1', { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(table.getByRole('cell', { name: 'B', exact: true }).first()).toBeVisible();
  await table.getByRole('row', { name: new RegExp(name) }).getByRole('button', { name: 'Links' }).click();
  await expect(page.getByRole('table', { name: 'Clicks per link' })).toContainText('https://example.org/flight');

  await page.getByRole('columnheader', { name: /RPM/ }).getByRole('button').click();
  await expect(page.getByRole('columnheader', { name: /RPM/ })).toHaveAttribute('aria-sort', 'descending');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/^flights-.*\.csv$/);

  await page.goto('/crm-mailings');
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('table', { name: 'Clicks per link' })).toContainText('https://example.org/flight');
  await expect(page.getByRole('heading', { name: 'Opens and clicks, first 48 hours' })).toBeVisible();
});
