import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('a sender domain is added, shows the DKIM record to publish, and its domain check runs', async ({ page }) => {
  const domain = `mail-${Date.now()}.e2e.test`;
  await signIn(page);
  await page.goto('/system');
  const add = page.getByRole('form', { name: 'Add sender domain' });
  await add.getByLabel('Domain', { exact: true }).fill(domain);
  await add.getByLabel('DKIM key').selectOption({ label: 'Ed25519' });
  await add.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByText(`${domain} added: publish its DKIM record`)).toBeVisible();

  const record = page.getByLabel(`DKIM record of ${domain}`, { exact: true });
  await expect(record).toHaveValue(new RegExp(`^compass\\._domainkey\\.${domain.replace(/\./g, '\\.')}  TXT  "v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]+=*"$`));
  await expect(page.getByRole('button', { name: `Copy the DKIM record of ${domain}` })).toBeVisible();
  const row = page.getByRole('table', { name: 'Sender domains' }).getByRole('row').filter({ hasText: domain });
  await expect(row).toContainText('Ed25519, selector compass');
  await expect(row).toContainText('No warm-up');

  await page.getByRole('button', { name: `Check ${domain}` }).click();
  // The runner's resolver answers nothing, so no lookup leaves the machine: each record shows as unanswered.
  const check = page.getByRole('region', { name: `Domain check of ${domain}` });
  await expect(check).toBeVisible({ timeout: 30_000 });
  await expect(check.getByRole('row').filter({ hasText: `compass._domainkey.${domain}` })).toContainText('DKIM');
  await expect(check.getByRole('row').filter({ hasText: `_dmarc.${domain}` })).toContainText('DMARC');
  await expect(check).toContainText('Not aligned');
  await expect(check.getByRole('list', { name: 'What to change' })).toContainText(`Mail from ${domain}`);

  await page.getByRole('button', { name: `Warm-up of ${domain}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Start date').fill(new Date().toISOString().slice(0, 10));
  await dialog.getByLabel("First day's cap (messages)").fill('500');
  await dialog.getByRole('button', { name: 'Save plan' }).click();
  await expect(page.getByText('Warm-up plan saved')).toBeVisible();
  await expect(row).toContainText('500');

  await page.getByRole('button', { name: `Delete ${domain}` }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByLabel(`DKIM record of ${domain}`, { exact: true })).toHaveCount(0);
});
