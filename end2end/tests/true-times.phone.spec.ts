import { test, expect } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';
import {
  did, expression, identify, Inputs, openNewForm, orderGiven, PEDESTRIANS, response, STAYED, unique, where,
} from './field-helpers';

// Issue #35, "the phone records only what happened": "Now" is the minute it is
// tapped. On today's main it filled the end of the time allowed (07:20 for an
// order at 07:15 with 5 minutes), a moment that had not yet come.

const ALEX = { name: 'Alex Morgan', dob: '1990-02-03', address: '12 Main Street, Wells, ME' };

test('"Now" for a failure to obey is this minute, and inside the time allowed the person may still comply', async ({ page }) => {
  await signIn(page, 'officer', undefined, '/field/new');
  await openNewForm(page);
  const input = new Inputs(page);
  await where(page, input, unique('Post Road at Mile Road'), 'Sidewalk');
  await orderGiven(page, input, 'Stop blocking the way and move on.', '5 min');
  await identify(page, input, 0, ALEX);
  await expression(page, input, 0);
  await did(page, input, 0, STAYED, PEDESTRIANS);
  await response(page, 0).getByLabel('Failed or refused to obey').click();
  await response(page, 0).getByLabel('Did not stop or move').click();

  const orderAt = await page.locator('#orders-0-given_at').inputValue();
  const before = await page.evaluate(() => Date.now());
  await response(page, 0).getByRole('button', { name: 'Now — Time of the response' }).click();
  const after = await page.evaluate(() => Date.now());
  const recorded = await page.locator('#subjects-0-response_at').inputValue();
  // The phone's own minute when tapped, read back the way the form writes it.
  const minuteOf = (ms: number) =>
    page.evaluate((t) => {
      const d = new Date(t);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    }, ms);
  expect([await minuteOf(before), await minuteOf(after)]).toContain(recorded);
  expect(recorded >= orderAt).toBe(true);

  await page.getByLabel('What each person did').fill('Stood across the sidewalk; did not move when told.');
  await expect(page.locator('#subjects-0-response_at-error')).toContainText(
    'inside the 5 min allowed to comply — the person may still comply',
  );
  await expect(page.locator('#subjects-0-response_at-error')).toContainText('§52-1 D');
  await expectAccessible(page);
});
