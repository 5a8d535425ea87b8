import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

// Issue 32: Revenue › Retention. Money in the browser's locale and dates in the client's zone: pinned.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const psql = (...args: string[]) => execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();

const tag = `r32${Date.now()}`;

test.beforeAll(() => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
  // Years no other spec or demo gives in: 2010 has donors up and lost, 2011 has up (upgraded) and a new donor.
  psql(
    '-c',
    `set search_path to ${schema};
     insert into contacts (email, first_name) values ('${tag}.up@example.org', 'Upton'), ('${tag}.lost@example.org', 'Lola'),
                                                     ('${tag}.new@example.org', 'Nia');
     insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email)
     select 'actblue', '${tag}-' || v.n, v.at::timestamp at time zone 'America/New_York', v.amount,
            (select id from contacts where email = '${tag}.' || v.who || '@example.org'), '${tag}.' || v.who || '@example.org'
     from (values (1, '2010-03-10 12:00', 100.00, 'up'), (2, '2010-05-10 12:00', 40.00, 'lost'),
                  (3, '2011-02-10 12:00', 150.00, 'up'), (4, '2011-04-10 12:00', 25.00, 'new')) as v (n, at, amount, who);`,
  );
});

test('Retention shows the year against the last, opens the donors behind a line and makes a segment of them', async ({ page }) => {
  await signIn(page);
  await page.getByRole('button', { name: 'Revenue' }).click();
  await page.getByRole('link', { name: 'Retention' }).click();
  await expect(page).toHaveURL(/\/revenue\/retention$/);
  await expect(page.getByRole('heading', { name: 'Retention' })).toBeVisible();
  await page.getByLabel('Period').selectOption('year');
  await page.getByLabel('As of').fill('2011-06-15');
  await expect(page.getByTestId('retention-periods')).toContainText('Jan 2011 – Jun 2011 against Jan 2010 – Dec 2010');
  // 1 of 2 donors of 2010 gave again: 50%; dollars retained 150 of 140.
  await expect(page.getByTestId('tile-Donor retention')).toHaveText('50.0%');
  await expect(page.getByTestId('tile-Dollar retention')).toHaveText('107.1%');
  const report = page.getByRole('table', { name: 'Gain/loss report' });
  await expect(report.getByRole('row', { name: /^Upgraded/ })).toContainText('$100.00$150.00$50.00');
  await expect(report.getByRole('row', { name: /^Lost/ })).toContainText('$40.00$0.00-$40.00');

  await report.getByRole('button', { name: 'Lost donors: 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lost donors' });
  await expect(dialog.getByTestId('donor-count')).toHaveText('1 donors');
  await expect(dialog.getByRole('table', { name: 'Donors' })).toContainText(`${tag}.lost@example.org`);
  await dialog.getByLabel('Segment name').fill(`${tag} lost`);
  await dialog.getByRole('button', { name: 'Make a segment' }).click();
  await expect(page.getByText('Segment saved with 1 contacts')).toBeVisible();
  await dialog.getByRole('link', { name: 'Open the segment' }).click();
  await expect(page).toHaveURL(/\/segments\/detail\?id=\d+/);
});

test('Retention shows cohorts, lifetime value and sustainers with their stated methods', async ({ page }) => {
  await signIn(page);
  await page.goto('/revenue/retention');
  await expect(page.getByRole('table', { name: 'Cohort heat map' })).toBeVisible();
  await expect(page.getByTestId('value-method')).toContainText('Backtest error');
  await expect(page.getByRole('table', { name: 'Lifetime value by source' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Sustainers by month' })).toBeVisible();
  await expect(page.getByTestId('tile-EARN 3')).toBeVisible();
  await page.getByRole('button', { name: 'Refresh figures' }).click();
  await expect(page.getByText('Refresh Retention started')).toBeVisible();
});
