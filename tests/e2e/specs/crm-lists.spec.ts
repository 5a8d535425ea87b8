import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

const csv = [
  'First;E-mail;Last',
  'Vera;vera.volunteer@example.org;Lopez',
  'Walt;WALT@example.org;Kim',
  'Dup;vera.volunteer@example.org;Again',
  'Bad;not-an-email;X',
].join('\n');

test('a file upload becomes a list through a background job, then a query list selects the same people', async ({ page }) => {
  await signIn(page);
  await page.goto('/crm-lists');
  await page.getByRole('button', { name: 'Create List' }).or(page.getByRole('link', { name: 'Create List' })).first().click();
  await expect(page).toHaveURL(/\/crm-list-add$/);

  await page.getByLabel('List name').fill('Volunteers');
  await page.getByLabel('Upload File').check();
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'volunteers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('switch', { name: 'Create new contacts' }).check();
  await page.getByRole('textbox', { name: 'Origin code' }).fill('volunteer-form');
  await page.getByRole('button', { name: 'Create List' }).click();

  await expect(page.getByText('Starting upload')).toBeVisible();
  await expect(page).toHaveURL(/\/crm-lists$/);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('List Upload finished');
  await dialog.getByRole('link', { name: 'View Result' }).click();
  await expect(page).toHaveURL(/\/crm-list-detail\/\d+$/);
  await expect(page.getByText('Volunteers').first()).toBeVisible();
  await expect(page.locator('dd').nth(1)).toHaveText('2');

  // The people are contacts now, with the upload's origin code.
  await page.goto('/segments/origin-codes');
  await expect(
    page.getByRole('table', { name: 'Contact origin codes' }).getByRole('row', { name: /volunteer-form/ }),
  ).toContainText('2');
  await page.goto('/contacts');
  await expect(page.getByRole('link', { name: 'walt@example.org' })).toBeVisible();

  // A query list over that origin code.
  await page.goto('/crm-list-add');
  await page.getByLabel('List name').fill('Volunteer query');
  await page.getByRole('combobox', { name: 'Origin codes' }).fill('volunteer');
  await page.getByRole('option', { name: 'volunteer-form' }).click();
  await page.getByRole('button', { name: 'Create List' }).click();
  await expect(page.getByText('List created')).toBeVisible();
  await expect(page).toHaveURL(/\/crm-list-detail\/\d+$/);
  await expect(page.locator('dd').nth(1)).toHaveText('2');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  expect((await download).suggestedFilename()).toBe('Volunteer query.csv');

  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Delete this item?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page).toHaveURL(/\/crm-lists$/);
  await expect(page.getByRole('link', { name: 'Volunteer query' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Volunteers' })).toBeVisible();
});
