import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

// Money is shown in the browser's locale: pin it so the texts below are exact.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const META = `Reporting starts,Reporting ends,Campaign name,Ad set name,Ad name,Ad ID,Day,Amount spent (USD),Impressions,Link clicks,Results,URL parameters
2026-10-01,2026-10-02,E2E Fall Acquisition,Lookalikes,Video A,e2e-1001,2026-10-01,100.00,"20,000",200,5,refcode=e2e_video_a
2026-10-01,2026-10-02,E2E Fall Acquisition,Lookalikes,Video A,e2e-1001,2026-10-02,50.00,10000,100,2,refcode=e2e_video_a
2026-10-01,2026-10-02,E2E Fall Acquisition,Lookalikes,Static B,e2e-1002,2026-10-01,50.00,5000,50,1,
`;

test('a Meta export imports as a job and the Media page shows its figures per campaign and ad', async ({ page }) => {
  await signIn(page);
  await page.goto('/media?from=2026-10-01&to=2026-10-02');
  await expect(page.getByRole('heading', { name: 'Media' })).toBeVisible();
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Meta Ads Manager').check();
  await dialog.getByLabel('File').setInputFiles({ name: 'meta.csv', mimeType: 'text/csv', buffer: Buffer.from(META) });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('dialog').filter({ hasText: 'Media Import finished' })).toBeVisible({ timeout: 30_000 });
  await page.goto('/media?from=2026-10-01&to=2026-10-02');
  const table = page.getByRole('table', { name: 'Media performance' });
  const row = table.getByRole('row').filter({ hasText: 'E2E Fall Acquisition' });
  await expect(row).toContainText('$200.00');
  // CPM: 200 ÷ 35,000 × 1000 = 5.71; CPC: 200 ÷ 350 = 0.57.
  await expect(row).toContainText('$5.71');
  await expect(row).toContainText('$0.57');
  await expect(page.getByTestId('tile-Spend')).toHaveText('$200.00');
  await expect(page.getByRole('img', { name: 'Spend and revenue per day' })).toBeVisible();

  await page.getByLabel('Show').selectOption('ad');
  await expect(table.getByRole('row').filter({ hasText: 'Video A' })).toContainText('$150.00');
  await table.getByRole('row').filter({ hasText: 'Video A' }).click();
  const codes = page.getByRole('dialog');
  await expect(codes.getByLabel('Refcodes')).toHaveValue('e2e_video_a');
  await codes.getByRole('button', { name: 'Cancel' }).click();
});

test('the Projections page shows the year by month, saves a goal and adds a marker', async ({ page }) => {
  await signIn(page);
  await page.goto('/projections');
  await expect(page.getByRole('heading', { name: /^Projections \d{4}$/ })).toBeVisible();
  await expect(page.getByTestId('tile-Pacing')).toBeVisible();
  const months = page.getByRole('table', { name: 'Projection by month' });
  await expect(months.getByRole('row')).toHaveCount(13);
  await page.getByLabel('Goal for Jan').fill('25000');
  await months.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Goal saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Goal for Jan')).toHaveValue('25000.00');

  const markers = page.getByRole('list', { name: 'Markers' });
  await expect(markers).toContainText('Q1 end');
  const year = (await page.getByRole('heading', { name: /^Projections/ }).textContent())?.slice(-4) ?? '';
  await page.getByLabel('Date').fill(`${year}-08-15`);
  await page.getByLabel('Label').fill('Convention week');
  await page.getByRole('button', { name: 'Add marker' }).click();
  await expect(markers).toContainText('Convention week');
  await markers.getByRole('listitem').filter({ hasText: 'Convention week' }).getByRole('button', { name: 'Delete' }).click();
  await expect(markers).not.toContainText('Convention week');
});
