import { expect, test } from '@playwright/test';
import { EMAIL, PASSWORD } from './helpers';

// Issue 32, the portfolio: agency staff holding several clients start on it after sign-in, see every client with
// its figures and the benchmarks against the median, sort it, open a client from it, and come back from the
// Account menu.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

test('agency staff start on the portfolio, sort it and open a client from it', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/portfolio$/);
  await expect(page.getByRole('heading', { name: 'Portfolio' })).toBeVisible();

  const clients = page.getByRole('table', { name: 'Clients' });
  for (const name of ['E2E Campaign', 'Other Committee']) {
    await expect(clients.getByRole('button', { name, exact: true })).toBeVisible();
  }
  const row = clients.getByRole('row').filter({ has: page.getByRole('button', { name: 'E2E Campaign', exact: true }) });
  // Figures by column: money, a sparkline of 12 months, counts.
  await expect(row.getByRole('img', { name: 'E2E Campaign: net per month, last 12 months' })).toBeVisible();
  await expect(row.getByText(/^\$[\d,]+\.\d\d$/).first()).toBeVisible();

  // Sorting by a figure marks its header and orders the rows by it.
  const header = clients.getByRole('columnheader', { name: /This month/ });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');

  const benchmarks = page.getByRole('table', { name: 'Benchmarks' });
  await expect(benchmarks.getByText('Median of your clients')).toBeVisible();
  await expect(benchmarks.getByRole('columnheader', { name: 'Donor retention' })).toBeVisible();

  // A click switches to the client (the same client login as select-client) and opens its dashboard.
  await clients.getByRole('button', { name: 'Other Committee', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('client-name')).toHaveText('Other Committee');
  expect(await page.evaluate(() => localStorage.getItem('clientShort'))).toBe('e2eother');

  // Back to the portfolio from the Account menu.
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('link', { name: 'Portfolio' }).click();
  await expect(page).toHaveURL(/\/portfolio$/);
  await expect(clients.getByRole('button', { name: 'E2E Campaign', exact: true })).toBeVisible();
});
