import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const psql = (...args: string[]) => execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();

test.beforeAll(() => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
  // Two donors whose latest gift carries the state GU (no other fixture uses it): $40 and $60 last week.
  psql(
    '-c',
    `set search_path to ${schema};
     insert into contacts (email, first_name) values ('guam1@example.org', 'Ana'), ('guam2@example.org', 'Ben')
     on conflict (email) do nothing;
     insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email, state)
     select 'actblue', v.line, now() - interval '7 days', v.amount, c.id, c.email, 'GU'
     from (values ('SEG-1', 40.00, 'guam1@example.org'), ('SEG-2', 60.00, 'guam2@example.org')) as v (line, amount, email)
     join contacts c on c.email = v.email
     on conflict (platform, line_item_id) do nothing;`,
  );
});

test('a segment built in the rule builder counts, saves, computes and shows its members', async ({ page }) => {
  await signIn(page);
  await page.goto('/segments');
  await expect(page.getByRole('heading', { name: 'Segments' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'LYBUNT' })).toBeVisible();
  await page.getByRole('link', { name: 'Create segment' }).click();
  await expect(page).toHaveURL(/\/segments\/detail$/);
  await page.getByLabel('Segment name').fill('Guam donors');
  await page.getByLabel('Field').selectOption({ label: 'State' });
  await page.getByLabel('Values, comma separated').fill('GU');
  await expect(page.getByTestId('preview-count')).toHaveText('Matching contacts: 2');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/segments\/detail\?id=\d+/);
  await expect(page.getByRole('heading', { name: 'Guam donors' })).toBeVisible();
  // The Update Segment job materialises the members; the page shows them once it is done.
  await expect(page.getByTestId('tile-Size')).toHaveText('2', { timeout: 30_000 });
  await expect(page.getByTestId('tile-Revenue last 12 months')).toHaveText('$100.00');
  await expect(page.getByTestId('tile-Average gift')).toHaveText('$50.00');
  const members = page.getByRole('table', { name: 'Members' });
  await expect(members.getByRole('link', { name: 'guam1@example.org' })).toHaveAttribute('href', /\/contacts\/\d+$/);
  await expect(page.getByRole('table', { name: 'HPC distribution' })).toContainText('$60.00, $90.00, $120.00');
  await expect(page.getByRole('link', { name: 'Use as audience' })).toHaveAttribute('href', /\/crm-mailing-add\?segment=\d+$/);
  await page.goto('/segments');
  await expect(page.getByRole('row').filter({ hasText: 'Guam donors' })).toContainText('2');
});
