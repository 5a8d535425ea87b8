import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

/** Counts the answers with this status for GETs of `path` from now on. */
function countAnswers(page: Page, path: RegExp, status: number): () => number {
  let count = 0;
  page.on('response', (response) => {
    if (response.request().method() === 'GET' && path.test(new URL(response.url()).pathname) && response.status() === status) {
      count += 1;
    }
  });
  return () => count;
}

test('bug 2: deleting a template or a form goes back to the table without fetching the deleted item', async ({ page }) => {
  await signIn(page);

  await page.goto('/crm-mailing-template-add');
  await page.getByLabel('Template name').fill('Short-lived template');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/crm-mailing-template-detail\/\d+$/);
  const templateGone = countAnswers(page, /^\/api\/crm-mailing-template\/\d+$/, 404);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page).toHaveURL(/\/crm-mailing-templates$/);
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Could not load the template')).toHaveCount(0);
  expect(templateGone()).toBe(0);

  await page.goto('/crm-form-add');
  await page.getByLabel('Form name').fill('Short-lived form');
  await page.getByLabel('New origin code').fill('short-lived-form');
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/crm-form-detail\/\d+$/);
  const formGone = countAnswers(page, /^\/api\/crm-form\/\d+$/, 404);
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page).toHaveURL(/\/crm-forms$/);
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Could not load the form')).toHaveCount(0);
  expect(formGone()).toBe(0);
});

test('item 14: a list page shows its members with their subscription, searches them and removes one', async ({ page }) => {
  await signIn(page);
  const people = ['Email;First;Last', ...Array.from({ length: 27 }, (_, i) => `m${String(i).padStart(2, '0')}@members.test;Mem${i};Ber`)];
  await page.goto('/crm-list-add');
  await page.getByLabel('List name').fill('Members page list');
  await page.getByLabel('Upload File').check();
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(people.join('\n')) });
  await page.getByRole('switch', { name: 'Create new contacts' }).check();
  await page.getByRole('textbox', { name: 'Origin code' }).fill('members-page');
  await page.getByRole('button', { name: 'Create List' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('List Upload finished');
  await dialog.getByRole('link', { name: 'View Result' }).click();
  await expect(page).toHaveURL(/\/crm-list-detail\/\d+$/);

  const table = page.getByRole('table', { name: 'List members' });
  await expect(table.getByRole('row')).toHaveCount(26);
  await expect(table.getByRole('row', { name: /m00@members\.test/ })).toContainText('subscribed');
  await expect(page.getByText('27 members · page 1 of 2')).toBeVisible();
  await expect(page.getByText('Starting upload')).toBeHidden();
  await page.screenshot({ path: '../../docs/screens/list-members.png', fullPage: true });
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(table.getByRole('row')).toHaveCount(3);

  await page.getByLabel('Search members').fill('MEM12');
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('button', { name: 'Remove m12@members.test' }).click();
  await expect(page.getByText('Member removed')).toBeVisible();
  await expect(page.getByText('No member matches the search.')).toBeVisible();
  await expect(page.locator('dd').nth(1)).toHaveText('26');
});

test('item 15: the column-mapped import pre-maps matching headers and previews the first rows', async ({ page }) => {
  await signIn(page);
  await page.goto('/contacts/import');
  const file = ['E-mail;First Name;Surname;Notes', 'preview.ann@example.org;Ann;Lee;VIP', 'preview.bob@example.org;Bob;Diaz;'].join('\n');
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  const preview = page.getByRole('table', { name: 'Preview of the first rows' });
  await expect(preview).toContainText('preview.ann@example.org');
  await expect(preview.getByRole('columnheader', { name: /E-mail/ })).toContainText('→ Email');
  await expect(preview.getByRole('columnheader', { name: /First Name/ })).toContainText('→ First name');
  await expect(preview.getByRole('columnheader', { name: /Surname/ })).toContainText('→ Last name');
  await expect(preview.getByRole('columnheader', { name: /Notes/ })).toContainText('→ Not imported');
  await expect(page.getByRole('button', { name: 'Import' })).toBeEnabled();
  await page.screenshot({ path: '../../docs/screens/import-preview.png', fullPage: true });
});
