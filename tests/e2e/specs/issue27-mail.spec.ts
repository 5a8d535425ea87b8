import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EMAIL, signIn } from './helpers';

// Issue 27, items 14–16, in the real app: the Confirm warning about blank merge tags, a test copy built as the
// real one, and a form with nothing to fill in that the editor will not enable.

const MAIL_DIR = process.env.E2E_MAIL_DIR ?? '';
const STAMP = Date.now().toString(36);

/** The .eml files received so far for `recipient`. */
function mailFor(recipient: string): string[] {
  return fs
    .readdirSync(MAIL_DIR)
    .filter((name) => name.endsWith(`-${recipient}.eml`))
    .map((name) => path.join(MAIL_DIR, name));
}

test('Confirm warns how many recipients will see {{First.Name}} blank, and the test copy is tracked and marked', async ({
  page,
}) => {
  test.setTimeout(180_000);
  expect(MAIL_DIR, 'E2E_MAIL_DIR is set by run.sh').not.toBe('');
  await signIn(page);

  await page.goto('/system');
  const senders = page.getByRole('form', { name: 'Add sender' });
  await senders.getByLabel('Name', { exact: true }).fill(`Merge Desk ${STAMP}`);
  await senders.getByLabel('From address').fill('merge@e2e-campaign.test');
  await senders.getByRole('button', { name: 'Add sender' }).click();
  await expect(page.getByText('Sender added')).toBeVisible();

  // Three people, two of them without a first name.
  const csv = ['First;E-mail', `Ada;ada.${STAMP}@example.org`, `;nameless.${STAMP}@example.org`, `;blank.${STAMP}@example.org`].join('\n');
  await page.goto('/crm-list-add');
  await page.getByLabel('List name').fill(`Merge audience ${STAMP}`);
  await page.getByLabel('Upload File').check();
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'merge.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('switch', { name: 'Create new contacts' }).check();
  await page.getByRole('textbox', { name: 'Origin code' }).fill(`merge-${STAMP}`);
  await page.getByRole('button', { name: 'Create List' }).click();
  await expect(page.getByRole('dialog')).toContainText('List Upload finished');

  await page.goto('/crm-mailing-add');
  await page.getByLabel('Mailing name').fill(`Merge check ${STAMP}`);
  await page.getByLabel('Sender').selectOption({ label: `Merge Desk ${STAMP} <merge@e2e-campaign.test>` });
  await page.getByLabel('Subject').fill('24 hours left');
  await page.getByLabel('Send time').fill('2030-01-15T10:00');
  await page.getByLabel('Audience list').selectOption({ label: `Merge audience ${STAMP}` });
  await page.getByRole('tab', { name: 'HTML Editor' }).click();
  await page.getByText('HTML source', { exact: true }).click();
  await page
    .getByLabel('Body HTML')
    .fill('<p>Hello {{First.Name}}, 24 hours left</p><p><a href="https://secure.actblue.com/donate/e2e">Give</a></p>');

  // The test copy: tracked, with the refcode, marked as a test.
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Send to my inbox' }).click();
  await expect(page.getByText('Draft sent')).toBeVisible();
  await expect.poll(() => mailFor(EMAIL).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const raw = fs.readFileSync(mailFor(EMAIL).at(-1)!, 'latin1').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  expect(raw).toMatch(/^X-Compass-Test: 1/m);
  expect(raw).toMatch(/^Subject: \[Test\] 24 hours left/m);
  expect(raw).toMatch(/^Message-ID: </m);
  expect(raw).toMatch(/\/api\/track\/click\/[^"]*refcode%3Dem_20300115_0_a/);
  expect(raw).not.toContain('href="https://secure.actblue.com/donate/e2e"');

  // Confirm: the warning first, with the count; then "Confirm anyway".
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(
    page.getByText('2 recipients have no first name: they will see it blank. Add a default: {{First.Name|friend}}'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Confirm anyway' }).click();
  await expect(page.getByText('Mailing confirmed')).toBeVisible();
  await expect(page).toHaveURL(/\/crm-mailings$/);
});

test('a form body with nothing to fill in cannot be enabled, and the editor says why', async ({ page }) => {
  await signIn(page);
  await page.goto('/crm-form-add');
  await page.getByLabel('Form name').fill(`Dead end ${STAMP}`);
  await page.getByRole('tab', { name: 'HTML Editor' }).click();
  await page.getByLabel('Body HTML').fill('<h2>Stand with us</h2><p>Add your name.</p>');
  const reason =
    'This form cannot be enabled: its body has no <form> with an e-mail field (an input of type email or named email), so visitors would have nothing to fill in.';
  await expect(page.getByRole('tabpanel', { name: 'HTML Editor' }).getByText(reason)).toBeVisible();
  await page.getByRole('tab', { name: 'Confirm' }).click();
  const enabled = page.getByRole('switch', { name: 'Enabled' });
  await expect(enabled).toBeDisabled();
  await expect(enabled).not.toBeChecked();
  await expect(page.getByRole('tabpanel', { name: 'Confirm' }).getByText(reason)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved')).toBeVisible();
  await page.goto('/crm-forms');
  await expect(page.getByRole('row', { name: new RegExp(`Dead end ${STAMP}`) })).toContainText('DISABLED');

  // With an e-mail field it can be enabled.
  await page.getByRole('row', { name: new RegExp(`Dead end ${STAMP}`) }).getByRole('link').first().click();
  await page.getByRole('tab', { name: 'HTML Editor' }).click();
  await page.getByLabel('Body HTML').fill('<form><input type="email" name="email"><button type="submit">Join</button></form>');
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await expect(page.getByRole('switch', { name: 'Enabled' })).toBeEnabled();
  await page.getByRole('switch', { name: 'Enabled' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved')).toBeVisible();
  await page.goto('/crm-forms');
  await expect(page.getByRole('row', { name: new RegExp(`Dead end ${STAMP}`) })).toContainText('ENABLED');
});
