import { expect, Page, test } from '@playwright/test';
import { TOTP_USER } from '../global-setup';
import { expectAccessible, waitForHydration, PASSWORD } from './helpers';
import { nextTotp } from './totp';

// Issue #35: sign-in tapped about a second after a cold load did nothing and
// cleared the fields. The form must work before the app starts, as a plain form
// post, and what was typed while the app loaded must still be there when it starts.

/** Holds the browser app's WASM back until `release()`: the page stays server-rendered. */
async function holdTheApp(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/*.wasm', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function type(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
}

test.describe('signing in before the app has started', () => {
  test('a tap before the app starts signs in by a plain form post, to the page asked for', async ({ page }) => {
    const release = await holdTheApp(page);
    await page.goto('/sign-in?next=%2Faccount%2Fsecurity');
    await expect(page.locator('html[data-ready]')).toHaveCount(0);
    await type(page, 'officer2', PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/account/security');
    release();
    await expect(page.getByTestId('signed-in-as')).toBeAttached();
    await waitForHydration(page);
  });

  test('a refused plain post says why on the sign-in page, as the app would', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await type(page, 'nobody-by-this-name', 'not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/sign-in\?refused=refused/);
    await expect(page.getByRole('alert')).toContainText('After 5 failed attempts');
    await expect(page.getByLabel('Username')).toBeVisible();
    await context.close();
  });

  test('the second factor follows a plain post, and the app takes over for the code', async ({ page }) => {
    const release = await holdTheApp(page);
    await page.goto('/sign-in');
    await type(page, TOTP_USER.username, PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/sign-in\?second=/);
    await expect(page.getByText('Your password is right')).toBeVisible();
    release();
    await waitForHydration(page);
    await expectAccessible(page);
    await page.getByLabel(/Code from your authenticator app/).fill(await nextTotp(TOTP_USER.secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('signed-in-as')).toBeAttached();
  });

  test('what was typed while the app loaded is still there when it starts, and sent', async ({ page }) => {
    const release = await holdTheApp(page);
    await page.goto('/sign-in?next=%2Faccount%2Fsecurity');
    await type(page, 'officer2', PASSWORD);
    release();
    await waitForHydration(page);
    await expect(page.getByLabel('Username')).toHaveValue('officer2');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/account/security');
    await expect(page.getByTestId('signed-in-as')).toBeAttached();
  });
});
