import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

// Issue 30, "Acting on it": the suppression page (add, search, lift, export, the evidence of a bounce) and a mailing
// the send guard paused, with its reason.

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const psql = (...args: string[]) => execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();

test('the suppression page adds, searches, lifts and exports addresses, and shows a bounce with its evidence', async ({ page }) => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
  const tag = `sup${Date.now()}`;
  // A hard bounce heard from a bounce message, kept as evidence.
  psql(
    '-c',
    `set search_path to ${schema};
     with ev as (insert into delivery_evidence (source, content_type, body)
                 values ('dsn', 'message/rfc822', convert_to('Status: 5.1.1', 'UTF8')) returning id),
          e as (insert into delivery_events (source, source_event_id, kind, bounce_type, status_code, diagnostic, email,
                                             occurred_at, evidence_id)
                select 'dsn', '${tag}', 'bounced', 'hard', '5.1.1', '550 5.1.1 No such user', '${tag}.gone@example.org',
                       now(), ev.id from ev returning id)
     insert into suppressions (email, reason, event_id) select '${tag}.gone@example.org', 'hard_bounce', id from e;`,
  );

  await signIn(page);
  await page.goto('/suppressions');
  await expect(page.getByRole('heading', { name: 'Suppressions', level: 1 })).toBeVisible();

  // Add two by hand; a typo is named, the rest taken.
  await page.getByRole('button', { name: 'Add addresses' }).click();
  const add = page.getByRole('dialog', { name: 'Add addresses' });
  await add.getByLabel('Addresses').fill(`${tag}.ann@example.org\n${tag}.bob@example.org\nnot-an-address`);
  await add.getByRole('button', { name: 'Suppress' }).click();
  await expect(add.getByRole('status')).toContainText('2 added');
  await expect(add.getByRole('status')).toContainText('Row 3: "not-an-address"');
  await add.getByRole('button', { name: 'Done' }).click();

  // Search.
  await page.getByLabel('Search suppressions').fill(tag);
  const table = page.getByRole('table', { name: 'Suppressions' });
  await expect(table.getByRole('row')).toHaveCount(4);
  const bounce = table.getByRole('row').filter({ hasText: `${tag}.gone@example.org` });
  await expect(bounce).toContainText('Hard bounce');
  await expect(bounce).toContainText('550 5.1.1 No such user');
  const evidence = page.waitForEvent('download');
  await bounce.getByRole('button', { name: 'Download evidence' }).click();
  const file = await (await evidence).path();
  expect(fs.readFileSync(file, 'utf8')).toBe('Status: 5.1.1');
  await page.getByLabel('Search suppressions').fill(`${tag}.ann`);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('Added by hand');

  // Lift, after confirming.
  await page.getByRole('button', { name: `Lift ${tag}.ann@example.org` }).click();
  const confirm = page.getByRole('dialog', { name: 'Lift suppression' });
  await confirm.getByRole('button', { name: 'Yes, lift' }).click();
  await expect(page.getByText(`${tag}.ann@example.org may be mailed again`)).toBeVisible();
  await expect(table).toContainText('No suppression matches the search.');

  // Export.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const exported = fs.readFileSync(await (await download).path(), 'utf8');
  expect(exported).toContain(`${tag}.bob@example.org`);
  expect(exported).toContain(`${tag}.gone@example.org`);
  expect(exported).not.toContain(`${tag}.ann@example.org`);
});

test('a mailing the guard paused says why and offers to resume', async ({ page }) => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  const tag = `guard${Date.now()}`;
  const reason = 'Paused: 0.42 % of the first 2,000 delivered complained (limit 0.3 %). Resume when you have checked the list.';
  const id = psql(
    '-c',
    `set search_path to ${schema};
     insert into mailings (name, subject_line, body_html, is_draft, send_time, send_attempt, delivery, delivery_message, guard)
     values ('${tag}', 'Hello', '<p>Hi</p>', false, now() - interval '1 hour', now() - interval '1 hour', 'paused',
             '${reason}', 'tripped') returning id;`,
  );
  await signIn(page);
  await page.goto(`/crm-mailing-detail/${id}`);
  await expect(page.getByRole('heading', { name: 'Delivery paused' })).toBeVisible();
  await expect(page.getByText(reason).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume sending' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Bounces and complaints by mailbox provider' })).toBeVisible();
});
