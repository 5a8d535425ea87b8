import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

// Issue 27 item 9: the client is America/New_York; a browser in Tokyo still sees every date and time in New York
// time, is told so once under the page, and its default range ends on New York's today.
test.use({ locale: 'en-US', timezoneId: 'Asia/Tokyo' });

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const psql = (...args: string[]) => execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();

test('a gift paid on the last minute of June in New York is listed at that time in a June range', async ({ page }) => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
  const line = `tz${Date.now()}`;
  psql(
    '-c',
    `set search_path to ${schema};
     insert into contributions (platform, line_item_id, paid_at, amount, email)
     values ('actblue', '${line}', timestamp '2026-06-30 23:59' at time zone 'America/New_York', 12.34,
             '${line}@example.org');`,
  );
  await signIn(page);
  await page.goto('/revenue/contributions?from=2026-06-01&to=2026-06-30');
  const row = page.getByRole('table', { name: 'Contributions' }).getByRole('row').filter({ hasText: `${line}@example.org` });
  // In Tokyo that instant is 12:59 PM on July 1; the page shows New York's June 30.
  await expect(row.getByRole('cell').first()).toHaveText('6/30/2026, 11:59:00 PM');
  await expect(page.getByTestId('time-zone-note')).toHaveText('Dates and times are in America/New_York.');
  await expect(page.getByTestId('time-zone-note')).toHaveCount(1);
});

test("the default range ends on the client's today, not the browser's", async ({ page }) => {
  await signIn(page);
  // 02:00 UTC on March 1 is already March 1 in Tokyo but still February 28 in New York.
  await page.clock.setFixedTime(new Date('2026-03-01T02:00:00Z'));
  await page.goto('/revenue/contributions');
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('2026-02-01');
  await expect(page.getByLabel('To', { exact: true })).toHaveValue('2026-02-28');
});
