import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

// Money is shown in the browser's locale: pin it so the texts below are exact.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const psql = (...args: string[]) => execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();

const MARCH = 'from=2026-03-01&to=2026-03-31';

test.beforeAll(() => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
  // Three gifts in March 2026 (New York time): 10 and 25 by an e-mail code, 100 by another code and refunded.
  psql(
    '-c',
    `set search_path to ${schema};
     insert into source_codes (code, parsed, channel, code_date, campaign, variant)
     values ('em_20260310_spring_a', true, 'em', '2026-03-10', 'spring', 'a'), ('fbpromo', false, null, null, null, null)
     on conflict (code) do nothing;
     insert into contributions (platform, line_item_id, paid_at, amount, fee, email, refcode, source_code_id, refund_id)
     select 'actblue', v.line, v.at::timestamp at time zone 'America/New_York', v.amount, 0.40, v.email, v.code,
            (select id from source_codes where code = v.code), v.refund
     from (values ('E2E-1', '2026-03-10 09:00', 10.00, 'ann@example.org', 'em_20260310_spring_a', null),
                  ('E2E-2', '2026-03-12 18:30', 25.00, 'bob@example.org', 'em_20260310_spring_a', null),
                  ('E2E-3', '2026-03-31 23:30', 100.00, 'cy@example.org', 'fbpromo', 'R-1'))
          as v (line, at, amount, email, code, refund)
     on conflict (platform, line_item_id) do nothing;`,
  );
});

test('the Contributions page totals the range and lists its gifts', async ({ page }) => {
  await signIn(page);
  await page.goto(`/revenue/contributions?${MARCH}`);
  await expect(page.getByRole('heading', { name: 'Contributions' })).toBeVisible();
  await expect(page.getByTestId('tile-Gross')).toHaveText('$135.00');
  await expect(page.getByTestId('tile-Refunds')).toHaveText('$100.00');
  await expect(page.getByTestId('tile-Net')).toHaveText('$35.00');
  await expect(page.getByTestId('tile-Gifts')).toHaveText('3');
  await expect(page.getByTestId('tile-Donors')).toHaveText('3');
  await expect(page.getByTestId('tile-Median gift')).toHaveText('$25.00');
  const gifts = page.getByRole('table', { name: 'Contributions' });
  await expect(gifts.getByRole('row')).toHaveCount(4);
  await expect(gifts.getByRole('row').nth(1)).toContainText('cy@example.org');
  await expect(page.getByText('Page 1 of 1 · 3 rows')).toBeVisible();
  await page.getByLabel('Refunded').selectOption('true');
  await expect(gifts.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('img', { name: 'Daily net revenue and the previous period' })).toBeVisible();
});

test('the source codes page shows each code and opens its gifts', async ({ page }) => {
  await signIn(page);
  await page.goto(`/revenue?${MARCH}`);
  await expect(page.getByRole('heading', { name: 'Contribution Source Codes' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'em_20260310_spring_a' });
  await expect(row).toContainText('spring');
  await expect(row).toContainText('$35.00');
  await expect(page.getByRole('row').filter({ hasText: 'fbpromo' })).toContainText('unparsed');
  await row.click();
  await expect(page).toHaveURL(/\/revenue\/contributions\?.*sourceCodeId=\d+/);
  await expect(page.getByRole('table', { name: 'Contributions' }).getByRole('row')).toHaveCount(3);
  // Issue 27 item 6: the filter narrows the whole page, and its chip names the code.
  await expect(page.getByTestId('source-code-chip')).toHaveText('Source code: em_20260310_spring_a ×');
  await expect(page.getByTestId('tile-Gross')).toHaveText('$35.00');
  await expect(page.getByTestId('tile-Gifts')).toHaveText('2');
  const codes = page.getByRole('table', { name: 'By source code' });
  await expect(codes.getByRole('row')).toHaveCount(2);
  await expect(codes.getByRole('row').nth(1)).toContainText('em_20260310_spring_a');
  await expect(page.getByRole('table', { name: 'By fundraising page' }).getByRole('row').nth(1)).toContainText('$35.00');
  await page.getByTestId('source-code-chip').click();
  await expect(page).not.toHaveURL(/sourceCodeId/);
  await expect(page.getByTestId('tile-Gross')).toHaveText('$135.00');
});

test('Contact Origin Codes rows open the contacts they counted', async ({ page }) => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  const tag = `oc${Date.now()}`;
  psql(
    '-c',
    `set search_path to ${schema};
     insert into origin_codes (name) values ('${tag}');
     insert into contacts (email, origin_code_id, created)
     select '${tag}.' || g || '@example.org', (select id from origin_codes where name = '${tag}'),
            timestamp '2026-03-15 12:00' at time zone 'America/New_York'
     from generate_series(1, 3) g;`,
  );
  await signIn(page);
  await page.goto(`/segments/origin-codes?${MARCH}`);
  const row = page.getByRole('table', { name: 'Origin code value' }).getByRole('row').filter({ hasText: tag });
  await expect(row).toContainText('3');
  await row.click();
  await expect(page).toHaveURL(/\/contacts\?originCodeId=\d+&originCode=.*&createdFrom=2026-03-01&createdTo=2026-03-31/);
  await expect(page.getByRole('button', { name: `Origin code: ${tag} ×` })).toBeVisible();
  await expect(page.getByText('3 contacts', { exact: true })).toBeVisible();
  const emails = await page.getByRole('table', { name: 'Contacts' }).locator('tbody tr td:first-child').allTextContents();
  expect(emails.sort()).toEqual([1, 2, 3].map((g) => `${tag}.${g}@example.org`));
});
