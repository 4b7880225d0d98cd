import { test, expect } from '@playwright/test';
import { expectAccessible, layoutShift, waitForHydration } from './helpers';

test.describe('start page', () => {
  test('renders on the server: content is there with JavaScript disabled', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Loitering enforcement log');
    // Without the browser app nothing can know the connection state yet.
    await expect(page.getByTestId('connection')).toHaveText('Checking…');
    await context.close();
  });

  test('hydrates: the connection indicator only works once the app runs', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    await expect(page.getByTestId('connection')).toHaveText('Online');
    await page.context().setOffline(true);
    await expect(page.getByTestId('connection')).toHaveText(/Offline/);
    await page.context().setOffline(false);
    await expect(page.getByTestId('connection')).toHaveText('Online');
  });

  test('nothing on the sign-in page jumps when the app starts', async ({ page }) => {
    await page.goto('/sign-in');
    await waitForHydration(page);
    expect(await layoutShift(page)).toBeLessThan(0.01);
  });

  test('passes an axe-core accessibility check', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    await expectAccessible(page);
  });

  test('an unknown address answers 404 with a page', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  });
});
