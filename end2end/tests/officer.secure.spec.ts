import { expect, Page, test } from '@playwright/test';
import { PASSWORD } from '../global-setup';
import { secureLaunchOptions } from '../playwright.config';
import { expectAccessible, signIn, waitForHydration } from './helpers';
import { formReady, Inputs, openNewForm, person, recordNoiseWarning, submit, unique } from './field-helpers';
import { withCamera } from './licence-barcode';

// Issue #38: the officer's phone on a true secure context — the app served by
// the server's own HTTPS on https://wells.test, its certificate trusted as a
// phone trusts the Town's (an authority in the browser's store), not waved
// through. Everything the field depends on is then the browser's to give:
// the service worker, the camera, GPS and passkeys.

// The fake camera shows a licence's barcode; GPS answers with Wells Beach.
test.use({
  permissions: ['camera', 'geolocation'],
  geolocation: { latitude: 43.3221, longitude: -70.5806, accuracy: 12 },
  launchOptions: {
    ...secureLaunchOptions,
    args: [
      ...secureLaunchOptions.args,
      ...withCamera.launchOptions.args.filter((a) => a.startsWith('--use-')),
    ],
  },
});

async function workerControls(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 20_000 }).toBe(true);
}

test('on https://wells.test the page is a secure context, the worker controls it, and the form opens and queues with no signal', async ({ page, context, baseURL }) => {
  expect(baseURL).toMatch(/^https:\/\/wells\.test:\d+$/);
  await signIn(page, 'officer', undefined, '/field/new');
  await formReady(page);
  expect(await page.evaluate(() => [window.isSecureContext, location.protocol])).toEqual([true, 'https:']);
  await workerControls(page);
  await expectAccessible(page);

  // No signal: the worker opens the form; the report waits, then goes once.
  await context.setOffline(true);
  await page.goto('/field/new');
  await formReady(page);
  const input = new Inputs(page);
  const location = unique('Secure Context Road');
  await recordNoiseWarning(page, input, location, { name: 'Kit Secure', dob: '1990-01-01', address: '1 Main St, Wells, ME' });
  await submit(page, input);
  await expect(page.getByTestId('queued')).toContainText('No signal');
  await context.setOffline(false);
  await expect(page.getByTestId('receipt')).toBeVisible({ timeout: 30_000 });
  await page.goto('/field/reports');
  await waitForHydration(page);
  await expect(page.getByText(location)).toHaveCount(1);
});

test('GPS fills the place and the licence scan reads the fake camera', async ({ page }) => {
  await signIn(page, 'officer', undefined, '/field/new');
  await openNewForm(page);
  await page.getByRole('button', { name: 'Add GPS location' }).click();
  await expect(page.getByText(/GPS 43\.32210, -70\.58060 \(±12 m\)/)).toBeVisible();

  const first = person(page, 0);
  await first.getByTestId('scan-licence').click();
  await first.getByTestId('scan-camera').click();
  const found = first.getByTestId('scan-found');
  await expect(found).toBeVisible({ timeout: 30_000 });
  await expect(found).toContainText('JOHN QUINCY PUBLIC');
  await first.getByTestId('scan-fill').click();
  await expect(first.getByLabel('Full name')).toHaveValue('JOHN QUINCY PUBLIC');
});

test('a passkey for wells.test enrols and signs in', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
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
  await page.getByLabel('Passkey name').fill('patrol phone');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('button', { name: 'Remove passkey patrol phone' })).toBeVisible();
  // The relying party is the Town's name, as the phone saw it.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials.map((c) => c.rpId)).toEqual(['wells.test']);

  await page.context().clearCookies();
  await page.goto('/sign-in');
  await waitForHydration(page);
  await page.getByLabel('Username').fill('enrol-passkey');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Your password is right')).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeAttached();
});

test('a certificate for another name does not load', async ({ page, baseURL }) => {
  const elsewhere = baseURL!.replace('wells.test', 'other.test');
  const error = await page.goto(elsewhere).then(() => null, (e: Error) => e.message);
  expect(error).toMatch(/ERR_CERT_COMMON_NAME_INVALID/);
});
