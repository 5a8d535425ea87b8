import { expect, test } from '@playwright/test';
import { signIn, submitWhenBound } from './helpers';

// Issue 17, item 17: the client styles a form in the editor (the preview follows) and the public page shows it.

test('a primary colour and button text set in the editor show on the public form', async ({ page }) => {
  await signIn(page);
  const name = `Styled ${Date.now()}`;
  await page.goto('/crm-form-add');
  await page.getByLabel('Form name').fill(name);
  await page.getByLabel('New origin code').fill(`${name} code`);
  await page.getByRole('tab', { name: 'Style' }).click();
  await page.getByLabel('Primary colour', { exact: true }).fill('#1a7f37');
  await page.getByLabel('Button text').fill('Count me in');
  const preview = page.frameLocator('iframe[title="Style preview"]');
  await expect(preview.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(preview.getByRole('button', { name: 'Count me in' })).toHaveCSS('background-color', 'rgb(26, 127, 55)');
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/crm-form-detail\/\d+$/);
  const link = await page.getByLabel('Public form link').inputValue();

  await page.setViewportSize({ width: 800, height: 700 });
  await page.goto(link);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(name);
  const button = page.getByRole('button', { name: 'Count me in' });
  await expect(button).toBeVisible();
  await expect(button).toHaveCSS('background-color', 'rgb(26, 127, 55)');
  // White text on the green: readable whatever colour the client picks.
  await expect(button).toHaveCSS('color', 'rgb(255, 255, 255)');
  await page.screenshot({ path: '../../docs/screens/styled-form.png', fullPage: true });

  await page.getByLabel('Email').fill('styled.visitor@example.org');
  await submitWhenBound(page, button);
  await expect(page.getByText('Thank you for signing up.')).toBeVisible();
});
