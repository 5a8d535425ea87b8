import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminClientHeaders, mailCount, signIn, submitWhenBound } from './helpers';

/** What the series needs that is not the journey itself, made through the API: a form, two templates, a sender. */
async function setUp(request: APIRequestContext, tag: string) {
  const headers = await adminClientHeaders(request);
  const post = async (path: string, data: unknown) => {
    const response = await request.post(path, { headers, data });
    expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
    return (await response.json()) as { id: number };
  };
  const code = await post('/api/external-origin-code/get-or-create-crm', { name: `${tag}-code` });
  const form = await post('/api/crm-form', { name: `${tag} petition`, externalOriginCodeId: code.id });
  await post('/api/crm-mailing-template', { name: `${tag} welcome`, bodyHtml: `<p>Welcome aboard ${tag}-one</p>` });
  await post('/api/crm-mailing-template', { name: `${tag} ask`, bodyHtml: `<p>Will you chip in ${tag}-two</p>` });
  await post('/api/sender', { name: `${tag} sender`, fromAddress: `${tag}@example.org` });
  return { headers, formId: form.id };
}

/** The builder with its steps and the detail page with figures: no serious or critical axe violation. */
async function expectAccessible(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.spinner-border')).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}`));
  expect(serious).toEqual([]);
}

/** Waits for the `marker` mail to `recipient`: the worker's pass (every 5 s) enrols, advances and queues the send. */
async function waitForJourneyMail(recipient: string, marker: string) {
  await expect
    .poll(() => mailCount(recipient, marker), { message: `a mail to ${recipient} containing ${marker}`, timeout: 60_000 })
    .toBe(1);
}

/** The step's row of the detail page's Steps table, reloaded until its Reached and Sent cells read `reached`/`sent`. */
async function expectStepFigures(page: Page, step: string, reached: string, sent: string) {
  await expect(async () => {
    await page.reload();
    const row = page.getByRole('table', { name: 'Step figures' }).getByRole('row', { name: new RegExp(`^${step} `) });
    await expect(row.getByRole('cell').nth(1)).toHaveText(reached, { timeout: 1000 });
    await expect(row.getByRole('cell').nth(2)).toHaveText(sent, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
}

test('a welcome series built in the builder mails a new signup, then the ask two days later', async ({ page, browser, request }) => {
  const tag = `jw${Date.now().toString(36)}`;
  const { headers, formId } = await setUp(request, tag);
  await signIn(page);

  // Email › Journeys › New journey.
  await page.getByRole('button', { name: 'Email' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Journeys' }).click();
  await expect(page).toHaveURL(/\/journeys$/);
  await page.getByRole('link', { name: 'New journey' }).click();
  await page.getByLabel('Journey name').fill(`${tag} welcome series`);

  // Trigger: a signup on the petition form.
  await page.getByRole('button', { name: 'Add trigger' }).click();
  await page.getByLabel('Form', { exact: true }).selectOption({ label: `${tag} petition` });

  // Send the welcome, wait two days, send the ask.
  await page.getByRole('button', { name: 'Add step' }).click();
  await page.getByRole('button', { name: 'Send an e-mail' }).click();
  const welcome = page.getByRole('region', { name: 'Step send1' });
  await welcome.getByLabel('Template').selectOption({ label: `${tag} welcome` });
  await welcome.getByLabel('Subject').fill('Welcome, ');
  await welcome.getByRole('button', { name: 'Insert {{First.Name}}' }).click();
  await welcome.getByLabel('Kind').selectOption('Wait');
  await welcome.getByRole('button', { name: 'Add step' }).click();
  const wait = page.getByRole('region', { name: 'Step wait1' });
  await wait.getByLabel('Hours to wait').fill('48');
  await expect(wait.getByText('2 days')).toBeVisible();
  await wait.getByRole('button', { name: 'Add step' }).click();
  const ask = page.getByRole('region', { name: 'Step send2' });
  await ask.getByLabel('Template').selectOption({ label: `${tag} ask` });
  await ask.getByLabel('Subject').fill('Will you chip in?');
  await expect(page.getByTestId('step-wait1')).toContainText('2 days');
  await expect(page.getByRole('alert', { name: 'Problems' })).toHaveCount(0);
  await page.getByTestId('step-send2').click();
  await page.screenshot({ path: '../../docs/screens/journey-builder.png', fullPage: true });
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Save journey' }).click();
  await expect(page).toHaveURL(/\/journeys\/\d+$/);
  await page.getByRole('button', { name: `Activate ${tag} welcome series` }).click();
  await expect(page.getByText('Journey activated')).toBeVisible();
  await expect(page.getByRole('button', { name: `Pause ${tag} welcome series` })).toBeVisible();

  // A visitor signs the petition on the public form.
  const email = `${tag}.signer@example.org`;
  const visitor = await browser.newContext();
  try {
    const viewer = await visitor.newPage();
    await viewer.goto(`/form-viewer;id=${formId};client=e2e`);
    await viewer.getByLabel('Email').fill(email);
    await submitWhenBound(viewer, viewer.getByRole('button', { name: 'Sign up' }));
  } finally {
    await visitor.close();
  }

  // The welcome arrives; the ask waits for its two days.
  await waitForJourneyMail(email, `${tag}-one`);
  await expectStepFigures(page, 'send1', '1', '1');
  expect(mailCount(email, `${tag}-two`)).toBe(0);

  // Two days pass on the clock the api and the worker read.
  const moved = await request.post('/api/system/test-clock', { headers, data: { advance_hours: 49 } });
  expect(moved.ok(), `test clock: ${moved.status()} ${await moved.text()}`).toBe(true);
  await waitForJourneyMail(email, `${tag}-two`);
  await expectStepFigures(page, 'send2', '1', '1');
  await expect(page.getByTestId('tile-Entered')).toHaveText('1');
  expect(mailCount(email, `${tag}-one`)).toBe(1);
  await page.screenshot({ path: '../../docs/screens/journey-detail.png', fullPage: true });
  await expectAccessible(page);

  // The signer's contact page says which journey it was in and where it ended.
  await page.goto('/contacts');
  await page.getByRole('link', { name: email }).click();
  const journeys = page.getByRole('table', { name: 'Journeys' });
  await expect(journeys.getByRole('row', { name: new RegExp(`${tag} welcome series`) })).toContainText('send2');
});
