import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('the system page edits the app settings, and the header follows', async ({ page }) => {
  await signIn(page, 'Other Committee');
  await page.goto('/system');
  const name = page.getByLabel('Client name');
  await expect(name).toHaveValue('Other Committee');
  await name.fill('Other Committee 2026');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Other Committee 2026', { exact: true }).first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Client name')).toHaveValue('Other Committee 2026');
});

test('the system page sets how revenue is read and the ActBlue webhook credentials', async ({ page }) => {
  await signIn(page);
  await page.goto('/system');
  const revenue = page.getByRole('form', { name: 'Revenue settings' });
  await revenue.getByLabel('Fiscal year starts in').selectOption({ label: 'July' });
  await revenue.getByLabel('Click attribution window (days)').fill('7');
  await revenue.getByRole('button', { name: 'Save revenue settings' }).click();
  await expect(page.getByText('Revenue settings saved')).toBeVisible();

  const webhook = page.getByRole('form', { name: 'ActBlue webhook' });
  await expect(webhook.getByLabel('Webhook address')).toHaveValue(/\/api\/webhooks\/actblue\/\w+$/);
  await webhook.getByLabel('User name').fill('actblue-e2e');
  await webhook.getByLabel('Password').fill('a-long-webhook-secret');
  await webhook.getByRole('button', { name: 'Save webhook credentials' }).click();
  await expect(page.getByText('Webhook credentials saved')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Fiscal year starts in')).toHaveValue('7');
  await expect(page.getByLabel('Click attribution window (days)')).toHaveValue('7');
  await expect(page.getByText('On: ActBlue signs in as actblue-e2e.')).toBeVisible();

  // Other specs read this client's figures by calendar year: put the defaults back, and turn the webhook off.
  await page.getByLabel('Fiscal year starts in').selectOption({ label: 'January' });
  await page.getByLabel('Click attribution window (days)').fill('3');
  await page.getByRole('button', { name: 'Save revenue settings' }).click();
  await expect(page.getByText('Revenue settings saved')).toBeVisible();
  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByText('Webhook turned off')).toBeVisible();
});

test('a background job shows its banner, then the finished dialog, and is listed on the jobs page', async ({ page }) => {
  await signIn(page);
  await page.goto('/system');
  await page.getByRole('button', { name: 'Recount list sizes' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Recount lists finished');
  await expect(dialog.getByRole('link', { name: 'View Result' })).toBeVisible();

  await page.goto('/jobs');
  await expect(page.getByRole('cell', { name: 'Recount lists' }).first()).toBeVisible();
});

test('the system page turns on the Mailgun delivery webhook, which then takes a signed bounce', async ({ page, request }) => {
  await signIn(page);
  await page.goto('/system');
  const mailgun = page.getByRole('form', { name: 'Mailgun webhook' });
  const address = await mailgun.getByLabel('Webhook address').inputValue();
  expect(address).toMatch(/\/api\/webhooks\/delivery\/mailgun\/\w+$/);
  await mailgun.getByLabel('HTTP webhook signing key').fill('key-e2e-signing-key');
  await mailgun.getByRole('button', { name: 'Turn on Mailgun webhook' }).click();
  await expect(page.getByText('Mailgun webhook on')).toBeVisible();
  await page.reload();
  await expect(mailgun.getByText('On', { exact: true })).toBeVisible();
  await expect(mailgun.getByLabel('New signing key')).toHaveValue('');

  const { createHmac } = await import('node:crypto');
  const timestamp = String(Math.floor(Date.now() / 1000));
  const token = `e2e-${Date.now()}`;
  const signature = createHmac('sha256', 'key-e2e-signing-key').update(timestamp + token).digest('hex');
  const body = {
    signature: { timestamp, token, signature },
    'event-data': {
      id: `e2e-${token}`,
      event: 'failed',
      severity: 'permanent',
      recipient: 'bounced-e2e@example.net',
      timestamp: Date.now() / 1000,
      'delivery-status': { code: 550, message: '5.1.1 The email account does not exist.' },
    },
  };
  const taken = await request.post(address, { data: body });
  expect(taken.status()).toBe(200);
  expect(await taken.json()).toEqual({ stored: 1, suppressed: 1 });
  const forged = await request.post(address, { data: { ...body, signature: { timestamp, token: 'other', signature } } });
  expect(forged.status()).toBe(401);

  await mailgun.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByText('Mailgun webhook off')).toBeVisible();
});
