import { test, expect } from '@playwright/test';
import { signIn } from './helpers';
import { formReady, Inputs, orderGiven, refusedAndCited, submit, unique, where } from './field-helpers';

// Issue #35: a subject's copy made on a phone with no signal printed the phone's
// zone ("07:07 UTC") where the court's copy of the same citation printed Town
// time ("02:07 EST"). A summons states Town time whatever zone the phone is in:
// this phone is set to Tokyo's.

// Offline is offline only when the page itself talks to the network (see
// no-signal.phone.spec.ts).
test.use({ serviceWorkers: 'block', timezoneId: 'Asia/Tokyo' });

test("a copy made with no signal on a phone in another zone states Town time, as the court's copy does", async ({ page, context }) => {
  test.setTimeout(90_000);
  await signIn(page, 'tokyo', undefined, '/field/new');
  await formReady(page);
  // While there is signal the phone reserves its block (an officer of its own:
  // other specs' phones hold the most blocks another officer may).
  await expect(page.getByTestId('numbers-held')).toContainText('10 left');
  await context.setOffline(true);

  const input = new Inputs(page);
  await where(page, input, unique('Wells Beach ramp'), 'Sidewalk');
  await orderGiven(page, input);
  await refusedAndCited(page, input, 0, { name: 'Alex Morgan', dob: '1990-02-03', address: '12 Main Street, Wells, ME' });
  await input.type(page.getByLabel('What each person did'), 'Stood across the ramp; did not move when told.');
  await submit(page, input);
  await expect(page.getByTestId('queued')).toContainText('No signal');
  const number = (await page.getByTestId('phone-citation-number').first().textContent())!.trim();
  await page.getByTestId('phone-copy').first().click();
  const copy = page.locator('article.summons').first();
  const onPhone = await copy.innerText();
  expect(onPhone).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} E[SD]T/);
  expect(onPhone).not.toMatch(/GMT|JST|UTC/);

  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByTestId('receipt')).toBeVisible({ timeout: 30_000 });
  const origin = new URL(page.url()).origin;
  const got = await page.request.post('/api/citations/get', { data: { number }, headers: { Origin: origin } });
  expect(got.status()).toBe(200);
  const court = await got.json();
  // The same moments, worded the same way on both copies.
  expect(onPhone).toContain(court.occurred_at_text);
  expect(court.occurred_at_text).toMatch(/E[SD]T$/);
});
