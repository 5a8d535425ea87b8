import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';

// Issue 27 item 5: every dashboard tile opens its page with exactly the filter the tile counted, so the page shows
// the tile's own figure; mailings open at the spec's crm-mailing-detail route.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const psql = (...args: string[]) => execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();

let upcomingName = '';
let sentName = '';
let pausedName = '';

test.beforeAll(() => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
  const tag = `p27${Date.now()}`;
  upcomingName = `${tag} upcoming`;
  sentName = `${tag} sent`;
  pausedName = `${tag} paused`;
  // This month (client zone): two gifts on a code (one recurring), one without; a sent mailing and one due in two days.
  psql(
    '-c',
    `set search_path to ${schema};
     insert into source_codes (code, parsed) values ('${tag}_code', false);
     insert into contributions (platform, line_item_id, paid_at, amount, fee, email, refcode, source_code_id,
                                recurring_months, state)
     select 'actblue', '${tag}-' || v.n, now() - interval '1 minute', v.amount, 0.40, v.email,
            case when v.coded then '${tag}_code' end,
            case when v.coded then (select id from source_codes where code = '${tag}_code') end, v.months, 'NY'
     from (values (1, 40.00, 'p27a@example.org', true, 0), (2, 15.00, 'p27b@example.org', true, null),
                  (3, 7.00, 'p27c@example.org', false, null)) as v (n, amount, email, coded, months);
     insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery)
     values ('${sentName}', 'Sent', false, now() - interval '1 day', now() - interval '1 day', 'done'),
            ('${upcomingName}', 'Soon', false, now() + interval '2 days', null, 'idle');
     insert into mailings (name, subject_line, is_draft, delivery, delivery_message)
     values ('${pausedName}', 'Held', false, 'paused', 'the relay refused 25 in a row');
     insert into contacts (email, subscription)
     values ('${tag}.s1@example.org', 'subscribed'), ('${tag}.s2@example.org', 'subscribed'),
            ('${tag}.u1@example.org', 'unsubscribed');`,
  );
});

const figure = (tile: Locator) => tile.locator('.figure-value').first();

async function openTile(page: Page, testId: string): Promise<{ tile: Locator; value: string; hint: string }> {
  await page.goto('/dashboard');
  const tile = page.getByTestId(testId);
  await expect(figure(tile)).toBeVisible();
  const value = (await figure(tile).textContent()) ?? '';
  const hint = (await tile.locator('.small.text-body-secondary').last().textContent()) ?? '';
  await tile.getByRole('link').first().click();
  return { tile, value, hint };
}

for (const [key, label] of [
  ['today', 'Revenue today'],
  ['month', 'Month to date'],
  ['quarter', 'Quarter to date'],
  ['year', 'Year to date'],
] as const) {
  test(`"${label}" opens Contributions over its dates, showing its net and gifts`, async ({ page }) => {
    await signIn(page);
    const { value, hint } = await openTile(page, `tile-${key}`);
    await expect(page).toHaveURL(/\/revenue\/contributions\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByTestId('tile-Net')).toHaveText(value);
    await expect(page.getByTestId('tile-Gifts')).toHaveText(hint.replace(' gifts', ''));
  });
}

test('"Donors this month" opens Contributions over the month, showing its donors', async ({ page }) => {
  await signIn(page);
  const { value } = await openTile(page, 'tile-donors');
  await expect(page).toHaveURL(/\/revenue\/contributions\?from=\d{4}-\d{2}-01&to=/);
  await expect(page.getByTestId('tile-Donors')).toHaveText(value);
});

test('"Recurring this month" opens Contributions with only recurring gifts, totalling its figure', async ({ page }) => {
  await signIn(page);
  const { value } = await openTile(page, 'tile-recurring');
  await expect(page).toHaveURL(/recurring=true/);
  await expect(page.getByLabel('Recurring')).toHaveValue('true');
  // Every part of the page follows the filter: the totals, and the gift table holds only recurring gifts.
  await expect(page.getByTestId('tile-Gross')).toHaveText(value);
  const gifts = page.getByRole('table', { name: 'Contributions' });
  await expect(gifts.getByRole('row').nth(1)).toBeVisible();
  const recurringColumn = await gifts.locator('tbody tr td:nth-child(6)').allTextContents();
  expect(new Set(recurringColumn)).toEqual(new Set(['Yes']));
});

test('"Subscribed contacts" opens Contact Search with only subscribed contacts, as many as it counted', async ({ page }) => {
  await signIn(page);
  const { value } = await openTile(page, 'tile-subscribed');
  expect(Number(value.replace(/,/g, ''))).toBeGreaterThanOrEqual(2);
  await expect(page).toHaveURL(/\/contacts\?subscription=subscribed$/);
  await expect(page.getByRole('button', { name: /Subscription: subscribed/ })).toBeVisible();
  await expect(page.getByText(`${value} contacts`, { exact: true })).toBeVisible();
});

test('"Upcoming sends" opens the mailings due in the next 7 days, and each opens its detail page', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard');
  const tile = page.getByTestId('tile-upcoming');
  const link = tile.getByRole('link', { name: upcomingName });
  await expect(link).toHaveAttribute('href', /^\/crm-mailing-detail\/\d+$/);
  const names = await tile.locator('li a').allTextContents();
  await tile.getByRole('link', { name: 'Upcoming sends (next 7 days)' }).click();
  await expect(page).toHaveURL(/\/crm-mailings\?status=confirmed&within=7$/);
  const table = page.getByRole('table', { name: 'Mailings' });
  await expect(table.getByRole('link', { name: upcomingName })).toBeVisible();
  expect((await table.locator('tbody tr td:first-child').allTextContents()).sort()).toEqual([...names].sort());
  await expect(table.getByRole('link', { name: sentName })).toHaveCount(0);
  await page.goto('/dashboard');
  await page.getByTestId('tile-upcoming').getByRole('link', { name: upcomingName }).click();
  await expect(page).toHaveURL(/\/crm-mailing-detail\/\d+$/);
  // A mailing not yet sent opens in its editor, holding its name.
  await expect
    .poll(() => page.locator('input').evaluateAll((els, n) => els.some((e) => (e as HTMLInputElement).value === n), upcomingName))
    .toBe(true);
});

test('"Last five mailings" opens the sent mailings, and each row opens its detail page', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard');
  const tile = page.getByTestId('tile-mailings');
  const link = tile.getByRole('link', { name: sentName });
  await expect(link).toHaveAttribute('href', /^\/crm-mailing-detail\/\d+$/);
  await link.click();
  await expect(page).toHaveURL(/\/crm-mailing-detail\/\d+$/);
  await expect(page.getByText(sentName).first()).toBeVisible();
  await page.goto('/dashboard');
  await page.getByTestId('tile-mailings').getByRole('link', { name: 'Last five mailings' }).click();
  await expect(page).toHaveURL(/\/crm-mailings\?status=sent$/);
  const table = page.getByRole('table', { name: 'Mailings' });
  await expect(table.getByRole('link', { name: sentName })).toBeVisible();
  await expect(table.getByRole('link', { name: upcomingName })).toHaveCount(0);
});

test('"Top source codes this month" opens Source Codes over the month, with the same net per code', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard');
  const tile = page.getByTestId('tile-codes');
  const first = tile.getByRole('row').first();
  const code = (await first.getByRole('cell').nth(0).textContent()) ?? '';
  const net = (await first.getByRole('cell').nth(2).textContent()) ?? '';
  await tile.getByRole('link', { name: 'Top source codes this month' }).click();
  await expect(page).toHaveURL(/\/revenue\?from=\d{4}-\d{2}-01&to=\d{4}-\d{2}-\d{2}$/);
  const row = page.getByRole('row').filter({ hasText: code });
  // Net is the third column (code, gross, net).
  await expect(row.getByRole('cell').nth(2)).toHaveText(net);
});

test('"Revenue and donors by state" opens Contributions over the month', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard');
  const month = await page.getByTestId('tile-month').getByRole('link').getAttribute('href');
  await page.getByTestId('tile-states').getByRole('link', { name: 'Revenue and donors by state this month' }).click();
  expect(month).toMatch(/^\/revenue\/contributions\?from=/);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === month);
});

test("A paused mailing's alert opens that mailing's page", async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard');
  const alert = page.getByRole('list', { name: 'Alerts' }).getByRole('link', { name: `${pausedName} is paused: the relay refused 25 in a row` });
  await expect(alert).toHaveAttribute('href', /^\/crm-mailing-detail\/\d+$/);
  await alert.click();
  await expect(page).toHaveURL(/\/crm-mailing-detail\/\d+$/);
  // The page names the mailing, as text or in its editor's name field.
  await expect
    .poll(() =>
      page.evaluate(
        (n) => document.body.innerText.includes(n) || [...document.querySelectorAll('input')].some((e) => e.value === n),
        pausedName,
      ),
    )
    .toBe(true);
});
