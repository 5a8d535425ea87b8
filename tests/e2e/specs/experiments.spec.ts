import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminClientHeaders, signIn } from './helpers';

// Issue 15: Email › Experiments. An experiment is created and started through the page (with its sample-size
// warning) and its test cells are sent by the real worker; another, judged by the worker once its wait is over,
// shows its decision with the p-value and interval, and the winner send the worker made to the rest.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const MAIL_DIR = process.env.E2E_MAIL_DIR ?? '';
const STAMP = Date.now();
const psql = (...args: string[]) => execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();
let schema = '';
const sql = (statement: string) => psql('-c', `set search_path to ${schema}; ${statement}`);

/** Messages the sink received for addresses ending in `domain`, with their subjects. */
const mailTo = (domain: string): { to: string; subject: string }[] =>
  fs
    .readdirSync(MAIL_DIR)
    .filter((name) => name.endsWith(`@${domain}.eml`))
    .map((name) => ({
      to: name.replace(/^.*?-\d+-/, '').replace(/\.eml$/, ''),
      subject: /^Subject: (.*)$/m.exec(fs.readFileSync(path.join(MAIL_DIR, name), 'latin1'))?.[1]?.trim() ?? '',
    }));

/** 80 subscribed contacts at `domain` on a list of their own; answers the list's id. */
function audience(tag: string, domain: string): number {
  const id = sql(`insert into crm_lists (name, kind) values ('E2E ${tag} list ${STAMP}', 'upload') returning id;`);
  sql(`insert into contacts (email, first_name, subscription)
       select 'p' || i || '@${domain}', 'Pat', 'subscribed' from generate_series(1, 80) i;
       insert into crm_list_members (list_id, contact_id)
       select ${id}, id from contacts where email like '%@${domain}';`);
  return Number(id);
}

/** An unsent mailing with variants A ("Subject A") and B ("Subject B") to the list. */
async function mailing(request: APIRequestContext, name: string, listId: number): Promise<number> {
  const headers = await adminClientHeaders(request);
  const sender = await request.post('/api/sender', { headers, data: { name: `XP ${STAMP} ${name}`, fromAddress: 'xp@e2e-campaign.test' } });
  expect(sender.ok(), await sender.text()).toBe(true);
  const created = await request.post('/api/crm-mailing', {
    headers,
    data: {
      name,
      subjectLine: 'Subject A',
      senderId: ((await sender.json()) as { id: number }).id,
      sendTime: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
      listId,
      bodyHtml: '<p>Hello {{First.Name}}</p>',
      isDraft: true,
      variants: [{ subjectLine: 'Subject B' }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

test.beforeAll(() => {
  expect(MAIL_DIR, 'E2E_MAIL_DIR is set by run.sh').not.toBe('');
  schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
});

test('an experiment is created with its sample-size check, started, and shows each variant as it is sent', async ({ page }) => {
  test.setTimeout(120_000);
  const domain = `xp-ui-${STAMP}.example.org`;
  const name = `XP subject test ${STAMP}`;
  const mailingName = `XP mailing ${STAMP}`;
  await mailing(page.request, mailingName, audience('ui', domain));
  await signIn(page);

  await page.goto('/experiments');
  await expect(page.getByRole('heading', { name: 'Experiments' })).toBeVisible();
  const form = page.getByRole('form', { name: 'New experiment' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Mailing').selectOption({ label: `${mailingName} (2 variants)` });
  await form.getByLabel('Judged on').selectOption({ label: 'Open rate' });
  await form.getByLabel('Test share of the audience (%)').fill('50');
  // 40 of 80 in the test, 20 per cell, against the 6,507 per cell that 20 % → 22 % needs.
  await form.getByRole('button', { name: 'Check sample size' }).click();
  const warning =
    'Each test cell gets 20 recipients; telling 20.00% from 22.00% at 95% significance and 80% power needs 6507 per cell. The test is unlikely to find a difference that small.';
  await expect(form.getByRole('status')).toHaveText(warning);
  await form.getByRole('button', { name: 'Create experiment' }).click();

  await expect(page).toHaveURL(/\/experiments\?id=\d+/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByText('status: draft')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(warning);
  await page.getByRole('button', { name: 'Start test' }).click();
  await expect(page.getByText(/status: (testing|waiting)/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start test' })).toHaveCount(0);

  // The worker sends the two cells; the page's figures follow (it refreshes while the test runs).
  const variants = page.getByRole('table', { name: 'Variants' });
  for (const [index, letter] of ['A', 'B'].entries()) {
    const row = variants.getByRole('row').nth(index + 1);
    await expect(row.getByRole('rowheader')).toHaveText(letter);
    await expect(row.getByRole('cell').nth(0)).toHaveText('20');
    await expect(row.getByRole('cell').nth(1)).toHaveText('20', { timeout: 45_000 });
    await expect(row.getByRole('cell').nth(2)).toHaveText('0');
  }
  await expect(page.getByText(/The result is computed at /)).toBeVisible();
  const sent = mailTo(domain);
  expect(sent).toHaveLength(40);
  expect(sent.filter((m) => m.subject === 'Subject B')).toHaveLength(20);

  await page.getByRole('link', { name: 'All experiments' }).click();
  const listed = page.getByRole('row', { name: new RegExp(name) });
  await expect(listed).toContainText(mailingName);
  await expect(listed).toContainText('Open rate');
  // Started: no longer a draft (testing until the worker's next pass sees the cells sent, then waiting).
  await expect(listed.getByRole('cell').nth(3)).toHaveText(/^(testing|waiting)$/);
});

test('the worker judges an experiment when its wait is over and sends the winner; the page shows both', async ({ page }) => {
  test.setTimeout(150_000);
  const domain = `xp-won-${STAMP}.example.org`;
  const name = `XP judged ${STAMP}`;
  const mailingId = await mailing(page.request, `XP judged mailing ${STAMP}`, audience('won', domain));
  const headers = await adminClientHeaders(page.request);
  const created = await page.request.post('/api/experiments', {
    headers,
    data: {
      name,
      kind: 'subject',
      mailingId,
      testFraction: 0.5,
      metric: 'open_rate',
      waitHours: 1,
      autoSend: true,
      baselineRate: 0.2,
      expectedLift: 0.1,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { id: number }).id;
  const started = await page.request.post(`/api/experiments/${id}/start`, { headers, data: {} });
  expect(started.ok(), await started.text()).toBe(true);
  const status = async () =>
    ((await (await page.request.get(`/api/experiments/${id}`, { headers })).json()) as { status: string }).status;
  await expect.poll(status, { timeout: 60_000, intervals: [500] }).toBe('waiting');
  expect(mailTo(domain)).toHaveLength(40);

  // Opens arrive: 15 of B's 20 and 4 of A's. Then the hour's wait is over (the test started two hours ago).
  sql(`insert into mailing_events (mailing_id, contact_id, kind, machine)
       select ${mailingId}, contact_id, 'open', false from (
           select contact_id, variant, row_number() over (partition by variant order by contact_id) as n
           from experiment_cells where experiment_id = ${id}) c
       where n <= case variant when 'b' then 15 else 4 end;
       update experiments set started_at = now() - interval '2 hours' where id = ${id};`);
  await expect.poll(status, { timeout: 60_000, intervals: [500] }).toBe('finished');

  // The rest of the list got B, once each; nobody in the test got a second message.
  const all = mailTo(domain);
  expect(all).toHaveLength(80);
  expect(new Set(all.map((m) => m.to)).size).toBe(80);
  expect(all.filter((m) => m.subject === 'Subject B')).toHaveLength(60);

  await signIn(page);
  await page.goto(`/experiments?id=${id}`);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByText('status: finished')).toBeVisible();
  // z = 3.4829; p = 0.000496085 (two-sided normal); difference 0.55, 95 % interval 0.2916 to 0.8084.
  const decision = page.getByRole('status');
  await expect(decision).toContainText('B wins: open rate 75.00% against 20.00% for A (p = 0.0005).');
  await expect(decision).toContainText('Two-proportion z-test: p = 0.0004961; difference 0.5500 (95 % interval 0.2916 to 0.8084); decided ');
  const rows = page.getByRole('table', { name: 'Variants' }).getByRole('row');
  await expect(rows).toHaveCount(4);
  const figures = async (index: number) => (await rows.nth(index).getByRole('cell').allInnerTexts()).slice(0, 4);
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText('A');
  expect(await figures(1)).toEqual(['20', '20', '4', '20.0%']);
  await expect(rows.nth(2).getByRole('rowheader')).toHaveText('B');
  expect(await figures(2)).toEqual(['20', '20', '15', '75.0%']);
  await expect(rows.nth(3).getByRole('rowheader')).toHaveText('Winner send (B)');
  expect(await figures(3)).toEqual(['40', '40', '0', '0.0%']);
  await expect(page.getByRole('button', { name: 'Send winner' })).toHaveCount(0);

  await page.getByRole('link', { name: 'All experiments' }).click();
  const listed = page.getByRole('row', { name: new RegExp(name) });
  await expect(listed).toContainText('finished');
  await expect(listed.getByRole('cell').last()).toHaveText('B');
});
