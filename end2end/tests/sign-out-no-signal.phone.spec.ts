import { test, expect } from '@playwright/test';
import { expectAccessible, openMenu, signIn } from './helpers';
import { formReady, Inputs, recordNoiseWarning, submit, unique } from './field-helpers';

// Issue #35: signing out with no signal left the browser's offline error page,
// no word of the reports waiting, and the officer still signed in when the
// signal returned. Now the phone says what waits, signs out at once, and tells
// the server (after sending what waited) when the signal returns.

// Offline is offline only when the page itself talks to the network (see
// no-signal.phone.spec.ts).
test.use({ serviceWorkers: 'block' });

test('signing out with no signal names the report waiting, signs out on the phone at once, and on the server when the signal returns', async ({ page, context }) => {
  test.setTimeout(90_000);
  await signIn(page, 'officer', undefined, '/field/new');
  await formReady(page);
  await context.setOffline(true);
  const location = unique('Wells Harbor lot');
  await recordNoiseWarning(page, new Inputs(page), location, { name: 'Kim Poe', dob: '1991-01-02', address: '5 Post Road, Wells, ME' });
  await submit(page, new Inputs(page));
  await expect(page.getByTestId('queued')).toContainText('No signal');

  await openMenu(page);
  await page.getByTestId('sign-out').click();
  await expect(page.getByRole('group', { name: 'Sign out' })).toContainText('1 report waits on this phone for signal.');
  await page.getByTestId('sign-out-confirm').click();
  await expect(page.getByTestId('signed-out-here')).toBeVisible();
  await expect(page.getByTestId('page')).toBeHidden();
  await expectAccessible(page);

  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page).toHaveURL(/\/sign-in/, { timeout: 30_000 });
  const origin = new URL(page.url()).origin;
  const ended = await page.request.post('/api/incidents/mine', { data: { before: null }, headers: { Origin: origin } });
  expect(ended.status()).toBe(401);

  // What waited was sent before the session ended.
  await signIn(page, 'officer', undefined, '/field/reports');
  const mine = await page.request.post('/api/incidents/mine', { data: { before: null }, headers: { Origin: origin } });
  const reports = (await mine.json()) as { location: string }[];
  expect(reports.filter((r) => r.location === location)).toHaveLength(1);
});
