import { expect, Page, test } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration } from './helpers';

// Issue #35 on `/field/gathering` at 390 × 844: what the screen shows is what is
// sent. On the main this issue started from, a failed save redrew the form and
// every select snapped back to its first option while the entry kept the earlier
// choice, so a citation was issued for what the screen no longer showed; its
// errors were only at the top of the page; and with no signal it said "Not
// saved" with none of the Article I form's queue.

/** A §52-7 gathering on the beach, counted at the gate, sponsored by Dana Doe. */
async function recordBeachGathering(page: Page, where: string, persons: string) {
  await page.getByLabel('No permit covers this gathering').check();
  for (const why of await page.getByLabel(/^Why this is not MG-/).all()) {
    await why.fill('That permit is another event on another field.');
  }
  await page.getByLabel('Where', { exact: true }).fill(where);
  await page.getByLabel('Kind of place').selectOption('beach');
  await page.getByLabel('Persons at count 1').fill(persons);
  await page.getByLabel('How count 1 was made').selectOption('gate_count');
  await page.getByLabel(/^What shows it/).selectOption('tickets_sold');
  await page.getByLabel('Where it is shown').fill("The promoter's ticket list, shown on scene");
  await page.getByLabel('Hours advertised or ticketed').fill('5');
  await page.getByLabel('What you saw').fill('A ticketed concert on the beach; the gate counter showed the crowd.');
  await page.getByLabel('Full name').fill('Dana Doe');
  await page.getByLabel('Date of birth').fill('1980-05-06');
  await page.getByLabel('Address', { exact: true }).fill('4 Mile Road, Wells, ME');
  await page.getByLabel('Their part (§52-7)').selectOption('sponsor');
  await page.getByLabel('Issue a §52-12 citation').check();
}

async function choicesHold(page: Page) {
  await expect(page.getByLabel('Kind of place')).toHaveValue('beach');
  await expect(page.getByLabel('How count 1 was made')).toHaveValue('gate_count');
  await expect(page.getByLabel(/^What shows it/)).toHaveValue('tickets_sold');
  await expect(page.getByLabel('Their part (§52-7)')).toHaveValue('sponsor');
  await expect(page.getByLabel('Outdoors')).toBeChecked();
}

test('after a failed save every choice stays as chosen, the errors are beside Save, and the citation reads what the screen showed', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'officer', undefined, '/field/gathering');
  await waitForHydration(page);
  await recordBeachGathering(page, `Beach lot ${Date.now()}`, '');
  await page.getByRole('button', { name: 'Save' }).click();
  // The officer is at the Save button: the list is there, and the field says what it needs.
  const summary = page.getByRole('alert').filter({ hasText: 'Not saved.' });
  await expect(summary).toContainText('a mass gathering is 500 or more');
  await expect(summary).toBeInViewport();
  await choicesHold(page);
  await expectAccessible(page);

  await page.getByLabel('Persons at count 1').fill('2400');
  await page.getByRole('button', { name: 'Save' }).click();
  const saved = page.getByTestId('gathering-saved');
  await expect(saved).toBeVisible({ timeout: 30_000 });
  const number = (await saved.getByRole('link', { name: /^WPD-/ }).textContent())?.trim() ?? '';
  const origin = new URL(page.url()).origin;
  const got = await page.request.post('/api/citations/get', { data: { number }, headers: { Origin: origin } });
  expect(got.status()).toBe(200);
  const doc = await got.json();
  const printed = JSON.stringify(doc);
  expect(doc.place, printed).toBe('Beach');
  expect(printed).toContain('Sponsors it');
  expect(printed).not.toContain('Operates or otherwise conducts it');
});

test('with no signal a gathering report waits on the phone and is sent once when the signal returns', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(page, 'officer', undefined, '/field/gathering');
  await waitForHydration(page);
  const where = `Dune field ${Date.now()}`;
  await recordBeachGathering(page, where, '2400');
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Save' }).click();
  const waiting = page.getByTestId('queued');
  await expect(waiting).toContainText('No signal.');
  await expect(page.getByText('Not saved.')).toHaveCount(0);
  // What waits is what the screen shows: the form stays, read-only, as chosen.
  await choicesHold(page);
  await expectAccessible(page);

  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  const saved = page.getByTestId('gathering-saved');
  await expect(saved).toBeVisible({ timeout: 30_000 });
  await expect(saved.getByRole('link', { name: /^WPD-/ })).toHaveCount(1);
  const origin = new URL(page.url()).origin;
  const mine = await page.request.post('/api/incidents/mine', { data: { before: null }, headers: { Origin: origin } });
  const reports = (await mine.json()) as { location: string }[];
  expect(reports.filter((r) => r.location === where)).toHaveLength(1);
});
