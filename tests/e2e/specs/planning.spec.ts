import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';

// Money is shown in the browser's locale: pin it so the texts below are exact.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const psql = (...args: string[]) => execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();
let schema = '';
const sql = (statement: string) => psql('-c', `set search_path to ${schema}; ${statement}`);

test.beforeAll(() => {
  schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
  // A mailing sent on 4 March 2030 (New York time), with 3 recipients: 2 delivered, 1 bounced; one human click.
  sql(`delete from mailings where name like 'E2E plan%';
       delete from planned_sends where name like 'E2E plan%';
       delete from external_mailings where name = 'E2E partner blast';
       insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery)
       values ('E2E plan sent', 'Sent', false, '2030-03-04 14:00Z', '2030-03-04 14:00Z', 'done');
       insert into contacts (email) values ('e2e-plan-1@gmail.com'), ('e2e-plan-2@yahoo.com'), ('e2e-plan-3@example.org')
       on conflict (email) do nothing;
       insert into mailing_recipients (mailing_id, contact_id, email, status, sent_at)
       select m.id, c.id, c.email, case when c.email like '%example.org' then 'bounced' else 'sent' end,
              case when c.email like '%example.org' then null else timestamptz '2030-03-04 14:01Z' end
       from mailings m, contacts c where m.name = 'E2E plan sent' and c.email like 'e2e-plan-%';
       insert into mailing_events (mailing_id, contact_id, kind, machine, url, created)
       select r.mailing_id, r.contact_id, 'click', false, 'https://example.org', '2030-03-04 15:00Z'
       from mailing_recipients r join mailings m on m.id = r.mailing_id
       where m.name = 'E2E plan sent' and r.email = 'e2e-plan-1@gmail.com';
       insert into external_mailings (source, name, sent_on, recipients, delivered, bounces, opens, clicks, unsubscribes, revenue)
       values ('lemlist', 'E2E partner blast', '2030-03-10', 100, 98, 2, 40, 10, 1, 250.00);`);
});

const dayCell = (page: Page, day: number): Locator =>
  page.locator('.rbc-month-row').filter({ has: page.locator('.rbc-date-cell', { hasText: new RegExp(`^${day}$`) }) }).first();

/** Drags an event onto the background of the month cell showing `day`, as a person does with the mouse. */
async function dragTo(page: Page, event: Locator, day: number) {
  const row = dayCell(page, day);
  const cells = row.locator('.rbc-date-cell');
  const index = await cells.evaluateAll((els, d) => els.findIndex((e) => e.textContent?.trim() === String(d)), day);
  const target = await row.locator('.rbc-day-bg').nth(index).boundingBox();
  const source = await event.boundingBox();
  if (!target || !source) throw new Error('calendar not laid out');
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2 + 10, source.y + source.height / 2 + 5, { steps: 5 });
  await page.mouse.move(target.x + target.width / 2, target.y + target.height - 10, { steps: 15 });
  await page.mouse.up();
}

test('a planned send becomes a draft in one click and moves by drag, a sent one stays put', async ({ page }) => {
  await signIn(page);
  await page.goto('/planning?date=2030-03-15');
  await expect(page.getByRole('heading', { name: 'Planning' })).toBeVisible();
  await expect(page.getByText('Quarter end')).toBeVisible();
  await expect(page.getByText('Month end').first()).toBeVisible();
  await expect(page.getByText('Sent: E2E plan sent')).toBeVisible();
  // Actual is the month's e-mail revenue by the one definition, which the page states.
  await expect(page.getByTestId('email-revenue-note')).toContainText('E-mail revenue is by send date');

  await page.getByRole('button', { name: 'Plan a send' }).click();
  await page.getByLabel('Date').fill('2030-03-12');
  await page.getByLabel('Name').fill('E2E plan pi day');
  await page.getByLabel('Revenue goal').fill('1500.00');
  await page.getByRole('button', { name: 'Add planned send' }).click();
  await expect(page.getByText('Planned: E2E plan pi day')).toBeVisible();
  await expect(page.getByTestId('tile-Planned')).toHaveText('$1,500.00');

  await page.getByLabel('Month goal').fill('20000');
  await page.getByRole('button', { name: 'Set goal' }).click();
  await expect(page.getByTestId('tile-Goal')).toHaveText('$20,000.00');

  await page.getByText('Planned: E2E plan pi day').click();
  await page.getByRole('button', { name: 'Make draft mailing' }).click();
  await expect(page.getByText('Draft mailing created.')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).last().click();
  const draft = page.getByText('Draft: E2E plan pi day');
  await expect(draft).toBeVisible();
  expect(sql("select to_char(send_time at time zone 'America/New_York', 'YYYY-MM-DD HH24:MI') from mailings where name = 'E2E plan pi day' and is_draft")).toBe('2030-03-12 10:00');

  // The dialog fades out and the calendar redraws with the new draft: a drag begun meanwhile is lost (the CI run
  // of stop 25 saw no move request at all), so drag once nothing covers the calendar, and again if no move landed.
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(async () => {
    await dragTo(page, draft, 20);
    await expect
      .poll(() => sql("select to_char(send_time at time zone 'America/New_York', 'YYYY-MM-DD HH24:MI') from mailings where name = 'E2E plan pi day'"), { timeout: 3000 })
      .toBe('2030-03-20 10:00');
  }).toPass({ timeout: 20_000 });

  await dragTo(page, page.getByText('Sent: E2E plan sent'), 21);
  await expect(page.getByText('Sent: E2E plan sent')).toBeVisible();
  expect(sql("select to_char(send_time at time zone 'UTC', 'YYYY-MM-DD HH24:MI') from mailings where name = 'E2E plan sent'")).toBe('2030-03-04 14:00');
});

test('E-mail Analytics shows the month, the heat map, the providers and external mailings', async ({ page }) => {
  await signIn(page);
  await page.goto('/email-analytics?from=2030-03-01&to=2030-03-31&grain=month');
  await expect(page.getByRole('heading', { name: 'E-mail Analytics' })).toBeVisible();
  // Own send: 3 sent, 2 delivered, 1 bounced, 1 clicker; lemlist: 100 sent, 98 delivered, 2 bounces, 10 clicks.
  // Delivery 100 / 103 = 97.1 %; click rate 11 / 100 = 11.0 %; revenue $250.00 over 100 delivered: RPM $2,500.00.
  await expect(page.getByTestId('tile-Delivery rate')).toHaveText('97.1%');
  await expect(page.getByTestId('tile-Click rate')).toHaveText('11.0%');
  await expect(page.getByTestId('tile-Bounces')).toHaveText('3');
  await expect(page.getByTestId('tile-Revenue')).toHaveText('$250.00');
  await expect(page.getByTestId('tile-RPM')).toHaveText('$2,500.00');
  // The page names the definition and what it adds to it (external mailings).
  const note = page.getByTestId('email-revenue-note');
  await expect(note).toContainText('E-mail revenue is by send date');
  await expect(note).toContainText('adds the revenue and deliveries of external mailings');
  await expect(page.getByRole('img', { name: 'Click rate by send hour and weekday' })).toBeVisible();
  const providers = page.getByRole('table', { name: 'By mailbox provider', exact: true });
  await expect(providers.getByRole('row').filter({ hasText: 'Gmail' })).toContainText('100.0%');
  const external = page.getByRole('table', { name: 'External mailings' });
  await expect(external.getByRole('row').filter({ hasText: 'E2E partner blast' })).toContainText('lemlist');
  await page.getByText('By week').click();
  await expect(page).toHaveURL(/grain=week/);
  await expect(page.getByRole('table', { name: 'Programme by week' })).toBeVisible();
});
