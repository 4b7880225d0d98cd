import { test, expect } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration, PASSWORD } from './helpers';
import { unique } from './field-helpers';
import { BASE, officerContext, submitReport } from './desk-helpers';

// Issue #37, finding 12: a session that ends while the chief types a reason
// loses nothing. The error says the session ended and offers a sign-in that
// comes back to the same page; the header stops naming the chief; after
// signing in the reason is back in its field. At the desk's screen.

test.use({ viewport: { width: 1366, height: 768 } });

/** The drafts this tab keeps. */
async function drafts(page: import('@playwright/test').Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('wells.draft.')));
}

test('a return reason typed when the session ends comes back after signing in', async ({ page, browser }) => {
  const officer = await officerContext(browser, page);
  const run = unique('Ended');
  const { incidentId } = await submitReport(officer, `Ended Lane ${run}`, 'Sam Session');
  await officer.close();

  await signIn(page, 'chief', PASSWORD, `/reports/${incidentId}`);
  await expect(page).toHaveURL(new RegExp(`/reports/${incidentId}$`));
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  const reason = page.getByLabel('Reason for returning it to the officer');
  await reason.pressSequentially('Give the minutes allowed ');

  // The chief signs out in another page of the same browser: this page's session is gone.
  const other = await page.context().newPage();
  await other.goto('/');
  await waitForHydration(other);
  await other.getByTestId('sign-out').click();
  await expect(other).toHaveURL(/\/sign-in$/);
  await other.close();

  await reason.pressSequentially('as the officer said them.');
  await page.getByTestId('return').click();
  const error = page.getByTestId('decision-error');
  await expect(error).toContainText('Your session has ended');
  await expect(error).toContainText('What you typed is kept');
  // The header no longer names the chief; its sign-in comes back here too.
  await expect(page.getByTestId('signed-in-as')).toHaveCount(0);
  await expect(page.getByTestId('not-signed-in')).toContainText('Not signed in');
  await expect(page.getByTestId('not-signed-in').getByRole('link', { name: 'Sign in' }))
    .toHaveAttribute('href', `/sign-in?next=/reports/${incidentId}`);
  await expectAccessible(page);

  await error.getByRole('link', { name: 'Sign in again' }).click();
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=/reports/${incidentId}$`));
  await waitForHydration(page);
  await page.getByLabel('Username').fill('chief');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/reports/${incidentId}$`));
  await waitForHydration(page);
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  await expect(page.getByLabel('Reason for returning it to the officer'))
    .toHaveValue('Give the minutes allowed as the officer said them.');
  await expectAccessible(page);

  // Recorded: the draft is forgotten.
  await page.getByTestId('return').click();
  await expect(page.getByTestId('report-status')).toHaveText('Returned for correction');
  await expect(page.getByTestId('decisions')).toContainText('Give the minutes allowed as the officer said them.');
  expect(await drafts(page)).toEqual([]);
});

test('a void reason typed when the session ends comes back, its section open', async ({ page, browser }) => {
  const officer = await officerContext(browser, page);
  const run = unique('EndedVoid');
  const { incidentId } = await submitReport(officer, `Void Ended Lane ${run}`, 'Vic Void');
  await officer.close();

  await signIn(page, 'chief', PASSWORD, `/reports/${incidentId}`);
  await page.getByText('Void this citation').click();
  await page.getByLabel(/Reason for voiding/).fill('Entered against the wrong person.');
  // The session cookie goes (as when the session times out).
  await page.context().clearCookies();
  await page.getByTestId('void').click();
  await page.getByTestId('void-confirm').click();
  await expect(page.getByTestId('void-error')).toContainText('Your session has ended');
  await expect(page.getByTestId('not-signed-in')).toBeVisible();

  await page.getByTestId('void-error').getByRole('link', { name: 'Sign in again' }).click();
  await waitForHydration(page);
  await page.getByLabel('Username').fill('chief');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/reports/${incidentId}$`));
  await waitForHydration(page);
  await expect(page.getByLabel(/Reason for voiding/)).toBeVisible();
  await expect(page.getByLabel(/Reason for voiding/)).toHaveValue('Entered against the wrong person.');
  await page.getByTestId('void').click();
  await page.getByTestId('void-confirm').click();
  await expect(page.getByTestId('citation-status')).toHaveText('Void');
  expect(await drafts(page)).toEqual([]);
});

test('the sign-in comes back only to a page of this site', async ({ page }) => {
  for (const outside of ['https://other.example/', '//other.example/', '/\t/other.example', '/\\other.example']) {
    await page.context().clearCookies();
    await signIn(page, 'chief', PASSWORD, outside);
    await expect(page).toHaveURL(`${BASE}/`);
  }
});
