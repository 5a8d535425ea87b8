import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

// Money and dates in the browser's locale: pinned so the texts below are exact.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const psql = (...args: string[]) =>
  execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();

const JANUARY = 'from=2026-01-01&to=2026-01-31';

test.beforeAll(() => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
  // January 2026: 40 from Ann (NY) and 60 from Bob (CA), refunded. Today: 15 from Ann, recurring, in NY.
  psql(
    '-c',
    `set search_path to ${schema};
     insert into source_codes (code, parsed, channel, campaign) values ('em_rep_jan', true, 'em', 'jan')
     on conflict (code) do nothing;
     insert into contacts (email, first_name) values ('ann.rep@example.org', 'Ann'), ('bob.rep@example.org', 'Bob')
     on conflict (email) do nothing;
     insert into contributions (platform, line_item_id, paid_at, amount, fee, email, contact_id, source_code_id,
                                refunded_at, recurring_months, state)
     select 'actblue', v.line, v.at, v.amount, 1.00, v.email, (select id from contacts where email = v.email),
            (select id from source_codes where code = 'em_rep_jan'), v.refunded, v.months, v.state
     from (values ('REP-1', '2026-01-10 12:00-05'::timestamptz, 40.00, 'ann.rep@example.org', null::timestamptz, null::int, 'NY'),
                  ('REP-2', '2026-01-20 12:00-05'::timestamptz, 60.00, 'bob.rep@example.org', '2026-01-21 12:00-05'::timestamptz, null, 'CA'),
                  ('REP-3', now(), 15.00, 'ann.rep@example.org', null, 0, 'NY'))
          as v (line, at, amount, email, refunded, months, state)
     on conflict (platform, line_item_id) do nothing;`,
  );
});

test('the Reports page shows a report, downloads it and schedules it', async ({ page }) => {
  await signIn(page);
  await page.goto(`/reports?${JANUARY}`);
  await expect(page.getByRole('heading', { name: 'Reports', exact: true })).toBeVisible();
  const monthly = page.getByRole('table', { name: 'Monthly summary' });
  await expect(monthly.getByRole('row')).toHaveCount(3);
  // Gross 100, refunds 60 (Bob's refunded gift), net 40; two donors.
  await expect(monthly.getByRole('row').nth(1)).toContainText('2026-01');
  await expect(monthly.getByRole('row').nth(1)).toContainText('$100.00');
  await expect(monthly.getByRole('row').nth(2)).toContainText('Total');
  await expect(monthly.getByRole('row').nth(2)).toContainText('$40.00');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('monthly-summary-2026-01-01-2026-01-31.csv');
  const csv = readFileSync(await file.path(), 'utf8');
  expect(csv.split('\n')[0]).toBe(
    'Month,Gifts,Donors,New donors,Gross,Refunds,Net,Fees,Recurring gross,Average gift',
  );
  expect(csv).toContain('Total,2,2,');
  expect(csv).toContain('100.00,60.00,40.00,2.00,0.00,50.00');

  await page.getByRole('button', { name: 'Source-code performance' }).click();
  const codes = page.getByRole('table', { name: 'Source-code performance' });
  await expect(codes.getByRole('row').nth(1)).toContainText('em_rep_jan');
  await expect(codes.getByRole('row').nth(1)).toContainText('$40.00');

  await page.getByLabel('Report', { exact: true }).selectOption('monthly-summary');
  await page.getByLabel('Every').selectOption('monthly');
  await page.getByLabel(/e2e@compass\.test/).check();
  await page.getByRole('button', { name: 'Schedule' }).click();
  const schedules = page.getByRole('table', { name: 'Scheduled reports' });
  await expect(schedules.getByRole('row').nth(1)).toContainText('Monthly summary');
  await expect(schedules.getByRole('row').nth(1)).toContainText('e2e@compass.test');
  await schedules.getByRole('button', { name: 'Delete' }).click();
  await expect(schedules).toHaveCount(0);
});

test('the dashboard is the first page and its tiles link to their pages', async ({ page }) => {
  await signIn(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // Today's net as the metric defines it (other specs add gifts today too): the $15 seeded above and theirs.
  const todayNet = psql(
    '-c',
    `set search_path to ${psql('-c', "select schema_name from clients where short_name = 'e2e'")};
     select to_char(coalesce(sum(case when amount > 0 and refund_id is null and refunded_at is null then amount
                                      when amount < 0 then amount else 0 end), 0), 'FM999,999,990.00')
     from contributions
     where (paid_at at time zone (select time_zone from app_settings limit 1))::date = client_today()`,
  );
  expect(Number(todayNet.replace(/,/g, ''))).toBeGreaterThanOrEqual(15);
  await expect(page.getByTestId('tile-today')).toContainText(`$${todayNet}`);
  await expect(page.getByTestId('tile-recurring')).toContainText('active sustainers');
  await expect(page.getByTestId('tile-subscribed')).toContainText('in 30 days');
  await expect(page.getByRole('img', { name: 'Revenue by state this month' })).toBeVisible();
  // Year to date against the projection, from the projections page's own method.
  await expect(page.getByTestId('tile-pacing')).toContainText('projected');
  await page.getByRole('link', { name: 'Top source codes this month' }).click();
  // Source Codes over the month the tile counted (issue 27 item 5).
  await expect(page).toHaveURL(/\/revenue\?from=\d{4}-\d{2}-01&to=\d{4}-\d{2}-\d{2}$/);
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Revenue today' }).click();
  await expect(page).toHaveURL(/\/revenue\/contributions\?from=/);
});
