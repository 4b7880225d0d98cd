import { execFileSync } from 'node:child_process';
import { expect, Page, test } from '@playwright/test';
import { recoveryCodes, TOTP_USER } from '../global-setup';
import { expectAccessible, signIn, waitForHydration, PASSWORD } from './helpers';
import { nextTotp, totp } from './totp';

// Issue #18: a second factor for every account (CJIS IA-2). The suite's server
// runs on http://localhost (run-suite.sh): passkeys need a host name.

/** The password step; the page then asks for the second factor. */
async function password(page: Page, username: string) {
  await page.goto('/sign-in');
  await waitForHydration(page);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Your password is right')).toBeVisible();
}

async function signedIn(page: Page) {
  await expect(page.getByTestId('signed-in-as')).toBeAttached();
  await waitForHydration(page);
}

/** Signed out as a lost session is: the cookie gone. */
async function forget(page: Page) {
  await page.context().clearCookies();
}

/** Ten codes shown once after the first factor; returns them. */
async function shownRecoveryCodes(page: Page): Promise<string[]> {
  const shown = page.locator('#recovery-codes');
  await expect(shown.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
  const codes = (await shown.locator('code').allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
  return codes;
}

test.describe('second factor', () => {
  test('an officer sets up an authenticator app, then signs in with its code', async ({ page }) => {
    await signIn(page, 'enrol-app', PASSWORD, '/account/security');
    await expect(page.getByRole('heading', { name: 'Sign-in security' })).toBeVisible();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(page.getByRole('img', { name: 'QR code for the authenticator app' }).locator('svg')).toBeVisible();
    const secret = (await page.locator('#totp-secret').textContent())!.trim();
    await expectAccessible(page);

    await page.getByLabel('The 6-digit code the app shows').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('alert')).toContainText('not the code the app shows');
    await page.getByLabel('The 6-digit code the app shows').fill(totp(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await shownRecoveryCodes(page);
    await expect(page.getByText('An authenticator app is set up.')).toBeVisible();
    await expect(page.getByText('10 of 10 unused.')).toBeVisible();

    await forget(page);
    await password(page, 'enrol-app');
    await expectAccessible(page);
    await page.getByLabel(/Code from your authenticator app/).fill(nextTotp(secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await signedIn(page);
    await expect(page.getByRole('link', { name: 'New incident' }).first()).toBeVisible();
  });

  test('an officer adds a passkey, then signs in with it', async ({ page }) => {
    // Chromium's virtual authenticator stands in for the phone's fingerprint reader.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await signIn(page, 'enrol-passkey', PASSWORD, '/account/security');
    await page.getByLabel('Passkey name').fill('work phone');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await shownRecoveryCodes(page);
    await expect(page.getByRole('button', { name: 'Remove passkey work phone' })).toBeVisible();
    await expectAccessible(page);

    await forget(page);
    await password(page, 'enrol-passkey');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await signedIn(page);
    await page.goto('/account/security');
    await waitForHydration(page);
    await expect(page.getByText(/work phone — added .*, last used/)).toBeVisible();
  });

  test('a recovery code signs in once', async ({ page }) => {
    const [code] = recoveryCodes();
    await password(page, TOTP_USER.username);
    await page.getByLabel(/Code from your authenticator app/).fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await signedIn(page);

    await forget(page);
    await password(page, TOTP_USER.username);
    await page.getByLabel(/Code from your authenticator app/).fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toContainText('used already');
    // The authenticator still works (its code computed here from the known secret).
    await page.getByLabel(/Code from your authenticator app/).fill(nextTotp(TOTP_USER.secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await signedIn(page);
  });

  test('with the policy on, an account without a factor can only set one up', async ({ page, browser }) => {
    try {
      await signIn(page, 'admin', PASSWORD, '/admin/settings');
      await page.getByLabel('Require a second factor (passkey or authenticator app) for every account').check();
      await page.getByRole('button', { name: 'Save sign-in policy' }).click();
      await expect(page.getByTestId('policy-saved')).toBeVisible();

      const officer = await browser.newPage({ baseURL: process.env.BASE_URL, viewport: page.viewportSize() });
      await officer.goto('/sign-in');
      await waitForHydration(officer);
      await officer.getByLabel('Username').fill('enrol-policy');
      await officer.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await officer.getByRole('button', { name: 'Sign in' }).click();
      await expect(officer).toHaveURL(/\/account\/security$/);
      await expect(officer.getByText('sign-in policy requires a second factor')).toBeVisible();
      // Anything else sends them back.
      await officer.goto('/field/new');
      await expect(officer).toHaveURL(/\/account\/security$/);
      await waitForHydration(officer);
      await officer.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const secret = (await officer.locator('#totp-secret').textContent())!.trim();
      await officer.getByLabel('The 6-digit code the app shows').fill(totp(secret));
      await officer.getByRole('button', { name: 'Confirm' }).click();
      await shownRecoveryCodes(officer);
      await officer.goto('/field/new');
      await waitForHydration(officer);
      await expect(officer).toHaveURL(/\/field\/new$/);
      await officer.close();
    } finally {
      // The other specs sign in with passwords alone.
      execFileSync(process.env.WELLS_SERVER_BIN!, ['sign-in-policy', '--second-factor', 'optional'], {
        env: process.env,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    }
  });
});
