import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

// run.sh starts a local SMTP sink that keeps every message as <stamp>-<seq>-<recipient>.eml in this directory.
const MAIL_DIR = process.env.E2E_MAIL_DIR ?? '';
const ROLE = 'Contacts only';
const CASEY = 'casey.roles@e2e-agency.test';
const CASEY_PASSWORD = 'Casey-passw0rd';
const CASEY_NEW_PASSWORD = 'Casey-passw0rd-2';
const LOGIN_CODE_SUBJECT = 'Your Compass login code';

/** Quoted-printable decoding: soft line breaks removed, =XX bytes decoded, the result read as UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

interface Mail {
  subject: string;
  html: string;
}

/** A message's subject and decoded text/html part. */
function readMail(file: string): Mail {
  const raw = fs.readFileSync(file, 'latin1');
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^Subject:\s*(.*)$/im.exec(headers)?.[1].trim() ?? '';
  const htmlStart = raw.search(/Content-Type:\s*text\/html/i);
  const part = htmlStart >= 0 ? raw.slice(htmlStart) : raw.slice(split);
  const bodyStart = part.search(/\r?\n\r?\n/);
  const body = part.slice(bodyStart).split(/\r?\n--/)[0];
  const html = /Content-Transfer-Encoding:\s*quoted-printable/i.test(part.slice(0, bodyStart))
    ? decodeQuotedPrintable(body)
    : body;
  return { subject, html };
}

/** The messages received so far for `recipient` with `subject`, oldest first. */
function mailsFor(recipient: string, subject: string): Mail[] {
  return fs
    .readdirSync(MAIL_DIR)
    .filter((name) => name.endsWith(`-${recipient}.eml`))
    .sort()
    .map((name) => readMail(path.join(MAIL_DIR, name)))
    .filter((mail) => mail.subject === subject);
}

/** Waits for the `count`-th message for `recipient` with `subject` and returns it. */
async function waitForMail(recipient: string, subject: string, count = 1): Promise<Mail> {
  await expect
    .poll(() => mailsFor(recipient, subject).length, { timeout: 20_000, intervals: [250] })
    .toBeGreaterThanOrEqual(count);
  return mailsFor(recipient, subject)[count - 1];
}

/** RFC 6238 code (SHA-1, 6 digits, 30-second steps) of a base32 secret at `secs`. */
function totp(secretB32: string, secs: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of secretB32.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(secs / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

/** The 6-digit code in a login-code mail. */
function codeIn(mail: Mail): string {
  const code = /(\d{6})/.exec(mail.html.replace(/<[^>]*>/g, ' '))?.[1];
  expect(code, 'a 6-digit code in the login-code mail').toBeDefined();
  return code!;
}

/** Signs in through the login screens: password, the one-time code from `code()`, then the client. */
async function signInAs(page: Page, email: string, password: string, code: () => Promise<string>) {
  await page.goto('/auth/logout');
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByLabel('Login code')).toBeVisible();
  await page.getByLabel('Login code').fill(await code());
  await page.getByLabel('Login code').press('Enter');
  await expect(page).toHaveURL(/\/auth\/select-client/);
  const client = page.getByLabel('Client');
  await expect(client.locator('option', { hasText: 'Other Committee' })).toHaveCount(0);
  await client.selectOption({ label: 'E2E Campaign' });
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL(/\/auth\//);
}

/** Picks `option` in the searchable multi-select labelled `label`. */
async function pick(page: Page, label: string, option: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: label }).fill(option.slice(0, 4));
  await dialog.getByRole('option', { name: option }).click();
  await expect(dialog.getByRole('list', { name: `Selected ${label.toLowerCase()}` })).toContainText(option);
}

// The second test goes on with the user the first one made.
test.describe.configure({ mode: 'serial' });

test('an administrator makes a role and a universal user; that user sees only what the role allows', async ({ page }) => {
  test.setTimeout(180_000);
  expect(MAIL_DIR, 'E2E_MAIL_DIR is set by run.sh').not.toBe('');
  await signIn(page);

  // Manage Roles: a role with the Contacts page permission only.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Manage Roles' }).click();
  await expect(page).toHaveURL(/\/users\/roles$/);
  await page.getByRole('button', { name: 'Create Role' }).click();
  const roleDialog = page.getByRole('dialog');
  await roleDialog.getByLabel('Name').fill(ROLE);
  await roleDialog.getByRole('checkbox', { name: 'Contacts', exact: true }).check();
  await roleDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Role created')).toBeVisible();
  const roleRow = page.getByRole('table', { name: 'Roles' }).getByRole('row').filter({ hasText: ROLE });
  await expect(roleRow).toContainText('Contacts');
  await expect(roleRow).not.toContainText('Media');

  // Manage Universal Users: a new user with access to E2E Campaign only; the server e-mails an invitation.
  await page.goto('/users/universal');
  await page.getByRole('button', { name: 'Create Universal User' }).click();
  const userDialog = page.getByRole('dialog');
  await userDialog.getByLabel('Email').fill(CASEY);
  await userDialog.getByLabel('First name').fill('Casey');
  await userDialog.getByLabel('Last name').fill('Roles');
  await pick(page, 'Clients', 'E2E Campaign');
  await userDialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(`Invitation sent to ${CASEY}`)).toBeVisible();
  const caseyRow = page.getByRole('table', { name: 'Universal users' }).getByRole('row').filter({ hasText: CASEY });
  await expect(caseyRow).toContainText('E2E Campaign');
  await expect(caseyRow).not.toContainText('Other Committee');

  // The invitation links to the reset-password page; the password is set through the API it calls.
  const invitation = await waitForMail(CASEY, 'You have been invited to Compass');
  const link = /https?:\/\/[^"'\s<>]*\/auth\/reset-password\?[^"'\s<>]+/.exec(invitation.html);
  expect(link, 'a reset-password link in the invitation').not.toBeNull();
  const params = new URL(link![0].replace(/&amp;/g, '&')).searchParams;
  expect(params.get('email')).toBe(CASEY);
  const reset = await page.request.post('/auth-api/auth/reset-password', {
    data: { password: CASEY_PASSWORD, token: params.get('token'), email: params.get('email') },
  });
  expect(reset.ok(), `reset-password answered ${reset.status()}`).toBe(true);

  // Manage Users: the new user is listed for E2E Campaign; give them the role.
  await page.goto('/users/manage');
  const usersTable = page.getByRole('table', { name: 'Users' });
  const managedRow = usersTable.getByRole('row').filter({ hasText: CASEY });
  await expect(managedRow).toContainText('Universal');
  await expect(managedRow).toContainText('Enabled');
  await expect(managedRow).toContainText('None');
  await managedRow.getByRole('button', { name: `Edit roles of ${CASEY}` }).click();
  await pick(page, 'Roles', ROLE);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Roles saved')).toBeVisible();
  await expect(managedRow).toContainText(ROLE);
  await expect(page.getByRole('table', { name: 'Recent activity' })).toContainText('roles assigned');

  // The new user signs in: password, then the code e-mailed to them, then the client.
  await signInAs(page, CASEY, CASEY_PASSWORD, async () => codeIn(await waitForMail(CASEY, LOGIN_CODE_SUBJECT, 1)));

  // The menus follow the role: Contacts, but no Media, Reports or Settings.
  const header = page.getByRole('navigation', { name: 'Main' });
  await expect(header.getByRole('button', { name: 'Account' })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Contacts' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Media' })).toHaveCount(0);
  await expect(header.getByRole('link', { name: 'Reports' })).toHaveCount(0);
  await expect(header.getByRole('button', { name: 'Revenue' })).toHaveCount(0);
  await expect(header.getByRole('button', { name: 'Settings' })).toHaveCount(0);
  await header.getByRole('button', { name: 'Contacts' }).click();
  await header.getByRole('link', { name: 'Contact Search' }).click();
  await expect(page.getByRole('heading', { name: 'Contact Search' })).toBeVisible();

  // Typing the address of a page the role does not allow shows the notice, and the server refuses its calls.
  await page.goto('/users/roles');
  await expect(page.getByText('You do not have permission to view this page')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Manage Roles' })).toHaveCount(0);
  await page.goto('/users/manage');
  await expect(page.getByText('You do not have permission to view this page')).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const [clientId, clientShort] = await page.evaluate(() => [localStorage.getItem('clientId'), localStorage.getItem('clientShort')]);
  const refused = await page.request.get('/api/roles', {
    headers: { Authorization: `Bearer ${token}`, 'client-id': clientId ?? '', 'client-short': clientShort ?? '' },
  });
  expect(refused.status()).toBe(403);

  // The profile is open to every signed-in user.
  await page.goto('/users/profile');
  await expect(page.getByRole('form', { name: 'Profile' }).getByLabel('First name')).toHaveValue('Casey');
});

test('the new user sets a phone, enrols an authenticator app, changes the password and signs in with both', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, CASEY, CASEY_PASSWORD, async () => codeIn(await waitForMail(CASEY, LOGIN_CODE_SUBJECT, 2)));
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/users\/profile$/);

  // Details: the phone rule, then a valid phone makes the phone method available.
  const details = page.getByRole('form', { name: 'Profile' });
  await expect(details.getByRole('radio', { name: 'Email' })).toBeChecked();
  await expect(details.getByRole('radio', { name: 'Phone' })).toBeDisabled();
  await expect(details.getByRole('radio', { name: 'Authenticator app' })).toBeDisabled();
  await details.getByRole('textbox', { name: 'Phone' }).fill('555-1234');
  await expect(details.getByText('Phone number should include only digits')).toBeVisible();
  await details.getByRole('textbox', { name: 'Phone' }).fill('5551234567');
  await expect(details.getByRole('radio', { name: 'Phone' })).toBeEnabled();
  await details.getByRole('textbox', { name: 'First name' }).fill('Casey Q.');
  await details.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Profile' }).getByRole('textbox', { name: 'Phone' })).toHaveValue('5551234567');

  // The authenticator app: the QR code is an image, the secret is shown for typing in, a code from it confirms.
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const secret = (await page.getByTestId('authenticator-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  const confirmForm = page.getByRole('form', { name: 'Confirm authenticator app' });
  const now = Date.now() / 1000;
  await confirmForm.getByLabel('Code').fill(totp(secret, now));
  await confirmForm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Authenticator app enabled')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Profile' }).getByRole('radio', { name: 'Authenticator app' })).toBeChecked();

  // The password: the confirmation must match.
  const passwordForm = page.getByRole('form', { name: 'Change password' });
  await passwordForm.getByLabel('Current password').fill(CASEY_PASSWORD);
  await passwordForm.getByLabel('New password', { exact: true }).fill(CASEY_NEW_PASSWORD);
  await passwordForm.getByLabel('Confirm new password').fill(`${CASEY_NEW_PASSWORD}x`);
  await expect(passwordForm.getByText('Password does not match')).toBeVisible();
  await expect(passwordForm.getByRole('button', { name: 'Change password' })).toBeDisabled();
  await passwordForm.getByLabel('Confirm new password').fill(CASEY_NEW_PASSWORD);
  await passwordForm.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed')).toBeVisible();

  // Signing in again takes the new password and a code from the app (the next step's: each code works once).
  await signInAs(page, CASEY, CASEY_NEW_PASSWORD, () => Promise.resolve(totp(secret, now + 30)));
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Contacts' })).toBeVisible();
});
