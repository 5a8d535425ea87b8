import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

const csv = ['First;E-mail', 'Mara;mara.mailing@example.org', 'Otto;otto.mailing@example.org'].join('\n');

test('a sender, a template and a list make a mailing: saved as a draft, then confirmed', async ({ page }) => {
  await signIn(page);

  // A sender on the System page.
  await page.goto('/system');
  const senders = page.getByRole('form', { name: 'Add sender' });
  await senders.getByLabel('Name', { exact: true }).fill('Campaign HQ');
  await senders.getByLabel('From address').fill('hq@e2e-campaign.test');
  await senders.getByRole('button', { name: 'Add sender' }).click();
  await expect(page.getByText('Sender added')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Senders' })).toContainText('hq@e2e-campaign.test');

  // A template.
  await page.goto('/crm-mailing-templates');
  await page.getByRole('button', { name: 'Create Template' }).click();
  await expect(page).toHaveURL(/\/crm-mailing-template-add$/);
  await page.getByLabel('Template name').fill('Welcome template');
  await page.getByLabel('Body HTML').fill('<h1>Welcome aboard</h1><p>Hello {{First.Name}}</p>');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Template created')).toBeVisible();
  await expect(page).toHaveURL(/\/crm-mailing-template-detail\/\d+$/);
  await page.goto('/crm-mailing-templates');
  await expect(page.getByRole('link', { name: 'Welcome template' })).toBeVisible();

  // An audience list from an uploaded file.
  await page.goto('/crm-list-add');
  await page.getByLabel('List name').fill('Mailing audience');
  await page.getByLabel('Upload File').check();
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'audience.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('switch', { name: 'Create new contacts' }).check();
  await page.getByRole('textbox', { name: 'Origin code' }).fill('mailing-audience');
  await page.getByRole('button', { name: 'Create List' }).click();
  await expect(page.getByText('Starting upload')).toBeVisible();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('List Upload finished');
  await dialog.getByRole('link', { name: 'View Result' }).click();
  await expect(page).toHaveURL(/\/crm-list-detail\/\d+$/);

  // The mailing.
  await page.goto('/crm-mailings');
  await page.getByRole('button', { name: 'Send Mailing' }).click();
  await expect(page).toHaveURL(/\/crm-mailing-add$/);
  await page.getByLabel('Mailing name').fill('E2E June appeal');
  await page.getByLabel('Sender').selectOption({ label: 'Campaign HQ <hq@e2e-campaign.test>' });
  await page.getByLabel('Subject').fill('Rivers need you');
  await page.getByLabel('Send time').fill('2030-01-15T10:00');
  await page.getByLabel('Audience list').selectOption({ label: 'Mailing audience' });
  await expect(page.getByRole('link', { name: 'Create a list' })).toHaveAttribute('href', '/crm-list-add');

  await page.getByRole('tab', { name: 'HTML Editor' }).click();
  await page.getByLabel('Template').selectOption({ label: 'Welcome template' });
  await expect(page.getByRole('textbox', { name: 'Body', exact: true })).toContainText('Welcome aboard');

  await page.getByRole('tab', { name: 'Confirm' }).click();
  await expect(page.getByTitle('Mailing preview')).toHaveAttribute('sandbox', '');
  await expect(page.frameLocator('iframe[title="Mailing preview"]').getByRole('heading', { name: 'Welcome aboard' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send to my inbox' })).toBeEnabled();
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Draft saved')).toBeVisible();
  await expect(page).toHaveURL(/\/crm-mailings$/);
  const row = page.getByRole('row', { name: /E2E June appeal/ });
  await expect(row).toContainText('DRAFT');
  await expect(row).toContainText('Rivers need you');
  await expect(row).toContainText('0.000');

  // Reopen the draft and confirm it.
  await row.getByRole('link', { name: 'E2E June appeal' }).click();
  await expect(page).toHaveURL(/\/crm-mailing-detail\/\d+$/);
  await expect(page.getByLabel('Mailing name')).toHaveValue('E2E June appeal');
  await expect(page.getByLabel('Send time')).toHaveValue('2030-01-15T10:00');
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByText('Mailing confirmed')).toBeVisible();
  await expect(page).toHaveURL(/\/crm-mailings$/);
  await expect(page.getByRole('row', { name: /E2E June appeal/ })).toContainText('CONFIRMED');
});
