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
    // Enrolment on the phone itself (#35): the app opens the key from a link, the
    // key is copied with a button or typed in groups of four, and the keyboard
    // for the code is numeric and open at once.
    const link = page.getByTestId('otpauth-link');
    await expect(link).toHaveAttribute('href', /^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    const shown = (await page.locator('#totp-secret').textContent())!.trim();
    expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    const secret = shown.replace(/ /g, '');
    expect((await link.getAttribute('href'))!).toContain(`secret=${secret}`);
    const code = page.getByLabel('The 6-digit code the app shows');
    await expect(code).toBeFocused();
    await expect(code).toHaveAttribute('inputmode', 'numeric');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('copy-key').click();
    await expect(page.getByText('Key copied: paste it into the app.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
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
    const appCode = page.getByLabel('Code from your authenticator app');
    await expect(appCode).toBeFocused();
    await expect(appCode).toHaveAttribute('inputmode', 'numeric');
    await appCode.fill(await nextTotp(secret));
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
    // A recovery code has its own link (#35): letters, not the app's six digits.
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    const recovery = page.getByLabel('Recovery code');
    await expect(recovery).toBeFocused();
    await expect(recovery).toHaveAttribute('inputmode', 'text');
    await recovery.fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await signedIn(page);

    await forget(page);
    await password(page, TOTP_USER.username);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toContainText('used already');
    // The authenticator still works (its code computed here from the known secret).
    await page.getByRole('button', { name: 'Use the code from the app instead' }).click();
    await page.getByLabel('Code from your authenticator app').fill(await nextTotp(TOTP_USER.secret));
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
      // Set up: the policy's banner is gone (#35: it stayed).
      await expect(officer.getByText('sign-in policy requires a second factor')).toHaveCount(0);
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
