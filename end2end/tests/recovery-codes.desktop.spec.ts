import { execFileSync } from 'node:child_process';
import { test, expect, Page } from '@playwright/test';
import { expectAccessible, signIn, PASSWORD } from './helpers';
import { unique } from './field-helpers';
import { totp } from './totp';

// Issue #37, finding 18: recovery codes, shown once, can be printed (the sheet
// shows the codes alone) and copied (with a confirmation; where the browser
// has no clipboard, a box to copy them from by hand). At the desk's screen.

test.use({ viewport: { width: 1366, height: 768 } });

/** A new account (the CLI, as global setup makes them) that sets up an authenticator app. */
async function enrol(page: Page): Promise<string[]> {
  const username = unique('codes').toLowerCase().replace(/[^a-z0-9]/g, '');
  execFileSync(process.env.WELLS_SERVER_BIN!, ['user', 'add', username, '--name', 'Clerk Code Keeper', '--role', 'clerk'], {
    input: PASSWORD + '\n', env: process.env, stdio: ['pipe', 'ignore', 'inherit'],
  });
  await signIn(page, username, PASSWORD, '/account/security');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.locator('#totp-secret').textContent())!.trim();
  await page.getByLabel('The 6-digit code the app shows').fill(totp(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const shown = page.locator('#recovery-codes');
  await expect(shown.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
  const codes = (await shown.locator('code').allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  return codes;
}

test('recovery codes print alone and copy with a confirmation', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const codes = await enrol(page);
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Copy the codes' }).click();
  await expect(page.getByTestId('codes-copied')).toContainText('Copied: the 10 codes are on the clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));

  // Printed: the codes, and nothing else of the page.
  await page.emulateMedia({ media: 'print' });
  const shown = page.locator('#recovery-codes');
  for (const code of codes) await expect(shown.getByText(code, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign-in security' })).toBeHidden();
  await expect(page.getByText('An authenticator app is set up.')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print the codes' })).toBeHidden();
  await expect(page.locator('.site-header')).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByRole('button', { name: 'Print the codes' })).toBeVisible();
});

test('with no clipboard the codes are offered to copy by hand', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });
  });
  const codes = await enrol(page);
  await page.getByRole('button', { name: 'Copy the codes' }).click();
  await expect(page.getByTestId('codes-copied')).toHaveCount(0);
  const box = page.getByLabel(/does not let the page copy/);
  await expect(box).toHaveValue(codes.join('\n'));
  await expectAccessible(page);
});
