import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { settled, signedInPage } from './screens';

// Issue 27 item 10: at 1280 px the money columns of the wide analytics tables are in view without scrolling, the
// first column stays put while a table scrolls, and large figures never wrap mid-number.
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const psql = (...args: string[]) => execFileSync('psql', [DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qtA', ...args]).toString().trim();

let tag = '';

test.beforeAll(() => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  expect(schema).toMatch(/^[a-z0-9_]+$/);
  tag = `wide${Date.now()}`;
  // Large gifts this month on a mailing's code, from recipients of a mailing sent two days ago.
  psql(
    '-c',
    `set search_path to ${schema};
     insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery)
     values ('${tag} appeal with a long name for the flight column', 'Wide', false, now() - interval '2 days',
             now() - interval '2 days', 'done');
     insert into contacts (email, subscription) select '${tag}.' || g || '@example.org', 'subscribed'
     from generate_series(1, 4) g;
     insert into mailing_recipients (mailing_id, contact_id, email, status, sent_at)
     select (select id from mailings where name like '${tag} appeal%'), c.id, c.email, 'sent', now() - interval '2 days'
     from contacts c where c.email like '${tag}.%';
     insert into source_codes (code, parsed, channel, campaign, mailing_id)
     values ('em_${tag}_with_a_long_variant_name_a', true, 'em', '${tag}', (select id from mailings where name like '${tag} appeal%'));
     insert into contributions (platform, line_item_id, paid_at, amount, fee, contact_id, email, refcode,
                                source_code_id, mailing_id, attribution)
     select 'actblue', '${tag}-' || c.id, now() - interval '1 day', 248459.00, 10.00, c.id, c.email,
            'em_${tag}_with_a_long_variant_name_a', (select id from source_codes where code like 'em_${tag}%'),
            (select id from mailings where name like '${tag} appeal%'), 'refcode'
     from contacts c where c.email like '${tag}.%';`,
  );
});

/** Whether the element is wholly inside its scroll box as it is shown (not scrolled). */
async function inView(cell: Locator): Promise<boolean> {
  return cell.evaluate((el) => {
    const box = el.closest('.table-responsive') ?? document.documentElement;
    const a = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    return a.left >= b.left - 1 && a.right <= b.right + 1;
  });
}

async function open(browser: Parameters<typeof signedInPage>[0], baseURL: string | undefined, path: string): Promise<Page> {
  const page = await signedInPage(browser, baseURL, { viewport: { width: 1280, height: 900 } });
  await page.goto(path);
  await settled(page);
  return page;
}

test('Performance shows gifts, revenue, average gift, response rate and RPM at 1280 px', async ({ browser, baseURL }) => {
  const page = await open(browser, baseURL, '/flights');
  const table = page.getByRole('table', { name: 'Flights' });
  await expect(table.getByRole('row').filter({ hasText: tag }).first()).toBeVisible();
  for (const name of ['Revenue', 'Gifts', 'Average gift', 'Response rate', 'RPM']) {
    expect(await inView(table.getByRole('columnheader', { name: new RegExp(`^${name}`) })), name).toBe(true);
  }
  await page.context().close();
});

test('Source Codes shows the money, first and last gift and what a code is tied to at 1280 px', async ({ browser, baseURL }) => {
  const page = await open(browser, baseURL, '/revenue');
  const table = page.getByRole('table', { name: 'Contribution source codes' });
  await expect(table.getByRole('row').filter({ hasText: tag })).toBeVisible();
  for (const name of ['Gross', 'Net', 'Gifts', 'Average gift', 'First gift', 'Last gift', 'Tied to']) {
    expect(await inView(table.getByRole('columnheader', { name, exact: true })), name).toBe(true);
  }
  // Scrolled to its end, the table still names each row: the first column stays in place.
  const region = page.getByRole('region', { name: 'Contribution source codes (scrolls sideways)' });
  await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  expect(await inView(table.getByRole('columnheader', { name: 'Source code', exact: true }))).toBe(true);
  await page.context().close();
});

test('the gift table shows the amount and the mailing unclipped at 1280 px', async ({ browser, baseURL }) => {
  const page = await open(browser, baseURL, '/revenue/contributions');
  const table = page.getByRole('table', { name: 'Contributions' });
  for (const name of ['Amount', 'Mailing']) {
    expect(await inView(table.getByRole('columnheader', { name, exact: true })), name).toBe(true);
  }
  await page.context().close();
});

test('Media shows spend and the 365-day revenue and ROAS at 1280 px, its first column fixed', async ({ browser, baseURL }) => {
  const schema = psql('-c', "select schema_name from clients where short_name = 'e2e'");
  psql(
    '-c',
    `set search_path to ${schema};
     insert into ad_campaigns (platform, campaign_key, name)
     values ('meta', '${tag}', '${tag} acquisition campaign with a long name for the first column');
     insert into ad_groups (campaign_id, group_key, name)
     select id, 'g', 'Lookalikes' from ad_campaigns where campaign_key = '${tag}';
     insert into ads (group_id, platform, ad_key, name)
     select g.id, 'meta', '${tag}-ad', 'Video A' from ad_groups g join ad_campaigns c on c.id = g.campaign_id
     where c.campaign_key = '${tag}';
     insert into ad_days (ad_id, day, spend, impressions, clicks)
     select id, date '2026-09-15', 248459.00, 1234567, 23456 from ads where ad_key = '${tag}-ad';`,
  );
  const page = await open(browser, baseURL, '/media?from=2026-09-01&to=2026-09-30');
  const table = page.getByRole('table', { name: 'Media performance' });
  await expect(table.getByRole('row').filter({ hasText: tag })).toContainText('$248,459.00');
  for (const name of ['Spend', 'Revenue 365 days', 'ROAS 365 days']) {
    expect(await inView(table.getByRole('columnheader', { name, exact: true })), name).toBe(true);
  }
  const region = page.getByRole('region', { name: 'Media performance (scrolls sideways)' });
  await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  expect(await inView(table.getByRole('columnheader', { name: 'Campaign', exact: true }))).toBe(true);
  await page.context().close();
});

for (const path of ['/dashboard', '/revenue/contributions', '/projections']) {
  test(`large figures on ${path} stay on one line`, async ({ browser, baseURL }) => {
    const page = await open(browser, baseURL, path);
    const figures = page.locator('.figure-value');
    expect(await figures.count()).toBeGreaterThan(0);
    const wrapped = await figures.evaluateAll((els) =>
      els
        .filter((el) => {
          const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
          return el.getBoundingClientRect().height > lineHeight * 1.5;
        })
        .map((el) => el.textContent),
    );
    expect(wrapped).toEqual([]);
    await page.context().close();
  });
}
