import { test, expect, BrowserContext } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration, PASSWORD } from './helpers';
import { unique } from './field-helpers';
import { BASE, approve, officerContext, refusal } from './desk-helpers';

// The court's record (issue #33), at phone and desktop size: once filed, a
// citation is the court's — the chief's amendment of its charge withdraws it and
// a new citation replaces it, and the clerk sees both; a fine the court set
// otherwise is recorded with the court's words and shown flagged; a citation of
// a person not identified is held out of the filing queue.

/** Today on the Town's calendar (the server's default zone), as YYYY-MM-DD. */
function townToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
}

async function post(context: BrowserContext, endpoint: string, data: unknown) {
  const answer = await context.request.post(`/api/${endpoint}`, { data, headers: { Origin: BASE } });
  expect(answer.ok(), `${endpoint}: ${await answer.text()}`).toBeTruthy();
  return answer.json();
}

/** A report submitted by the officer and approved by the chief: the report and its citation. */
async function approvedReport(officer: BrowserContext, chief: BrowserContext, report: ReturnType<typeof refusal>) {
  const receipt = await post(officer, 'incidents/submit', report);
  await approve(chief, receipt.incident_id);
  return receipt.citations[0].number as string;
}

async function file(clerk: BrowserContext, number: string, run: string) {
  await post(clerk, 'court/file', { filing: { numbers: [number], filed_on: townToday(), reference: `YORDC-CV-${run}` } });
}

test("the clerk sees a withdrawal and its replacement after the chief amends a filed citation's charge", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const officer = await officerContext(browser, page);
  const chief = await officerContext(browser, page, 'chief');
  const clerk = await officerContext(browser, page, 'clerk');
  const run = unique('Record');
  const report = refusal(`Court Record Lane ${run}`, `Robin Filed ${run}`);
  const old = await approvedReport(officer, chief, report);
  await file(clerk, old, run);

  // The chief amends the charge: the loud noise was the conduct, §52-3.
  const person = report.report.subjects[0] as Record<string, unknown>;
  person.conduct = {
    remained_in_one_location: true,
    peace: {
      loud_noise: true, unusual_noise: false, improper_songs: false, boisterous_songs: false,
      obscene: false, indecent: false, profane: false, unruly_or_boisterous_manner: false,
      disturbed_quiet_and_good_order: true,
    },
  };
  person.charges = [{ offence: '52-3', issue_citation: true }];
  const reason = `The conduct seen was the noise (${run}).`;
  const receipt = await post(chief, 'review/amend', { report: report.report, reason });
  const replacement = receipt.citations.find((c: { number: string }) => c.number !== old).number as string;
  await Promise.all([officer.close(), chief.close(), clerk.close()]);

  await signIn(page, 'clerk', PASSWORD, '/court');
  await page.goto('/court');
  await waitForHydration(page);
  const withdrawal = page.getByTestId('withdrawal').filter({ hasText: old });
  await expect(withdrawal).toContainText(reason);
  await expect(withdrawal.getByTestId('replaced-by')).toHaveText(`Replaced by ${replacement}`);
  const row = page.getByTestId('filing-row').filter({ hasText: replacement });
  await expect(row.getByTestId('replaces')).toHaveText(`Replaces ${old}, withdrawn`);
  await expectAccessible(page);

  // Each citation's page says what it is: the old one withdrawn, as filed.
  await page.goto(`/court/citations/${old}`);
  await expect(page.getByTestId('court-withdrawn')).toContainText(reason);
  await expect(page.getByTestId('court-withdrawn')).toContainText(`Replaced by ${replacement}`);
  await expect(page.getByText('§52-1 A(1), D')).toBeVisible();
  await expectAccessible(page);
  await page.goto(`/court/citations/${replacement}`);
  await expect(page.getByTestId('court-replaces')).toContainText(`Replaces ${old}`);

  // Exported, the withdrawal leaves the list of those to take to the court.
  await page.goto('/court');
  await waitForHydration(page);
  await page.getByLabel(`Select ${old}`).check();
  await page.getByLabel(`Select ${replacement}`).check();
  await expect(page.getByText('2 citation(s) selected')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  expect(await download.failure()).toBeNull();
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('withdrawal').filter({ hasText: old })).toHaveCount(0);
});

test("a fine the court set otherwise is recorded with the court's words and shown flagged", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const officer = await officerContext(browser, page);
  const chief = await officerContext(browser, page, 'chief');
  const clerk = await officerContext(browser, page, 'clerk');
  const run = unique('Fine');
  const number = await approvedReport(officer, chief, refusal(`Fine Lane ${run}`, `Casey Fined ${run}`));
  await file(clerk, number, run);
  await Promise.all([officer.close(), chief.close(), clerk.close()]);

  await signIn(page, 'clerk', PASSWORD, `/court/citations/${number}`);
  await page.goto(`/court/citations/${number}`);
  await waitForHydration(page);
  await page.getByLabel('Found to have committed the violation').check();
  // The citation's own section names the fine.
  await page.getByLabel('Fine assessed ($, §52-4)').fill('50.00');
  await page.getByLabel('Costs assessed ($)').fill('35.00');
  const words = page.getByLabel(/The court's words for this fine/);
  await expect(words).toBeVisible();
  await page.getByTestId('save-disposition').click();
  await page.getByTestId('save-disposition-confirm').click();
  await expect(page.locator('#court_words-error')).toContainText('§52-4 sets it at $100.00');
  await words.fill('Judgment: fine reduced to $50.00 for hardship.');
  await page.getByTestId('save-disposition').click();
  await page.getByTestId('save-disposition-confirm').click();
  await expect(page.getByTestId('disposition-saved')).toBeVisible();
  await expect(page.getByTestId('fine-assessed')).toHaveText('$50.00');
  await expect(page.getByTestId('fine-departure')).toContainText('Differs from §52-4');
  await expect(page.getByTestId('fine-departure')).toContainText('Judgment: fine reduced to $50.00 for hardship.');
  await expectAccessible(page);
  await page.goto(`/court/register?number=${number}`);
  await expect(page.getByTestId('court-row')).toContainText('fine differs');
});

test("an unidentified person's citation is held out of the filing queue", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const officer = await officerContext(browser, page);
  const chief = await officerContext(browser, page, 'chief');
  const clerk = await officerContext(browser, page, 'clerk');
  const held = async () => (await post(clerk, 'court/queue', {})).held_unidentified as number;
  const before = await held();
  const run = unique('Held');
  const report = refusal(`Held Lane ${run}`, 'unused');
  (report.report.subjects[0] as Record<string, unknown>).identity = {
    kind: 'described', description: `Red jacket, grey beanie (${run})`,
  };
  const number = await approvedReport(officer, chief, report);
  expect(await held()).toBe(before + 1);
  await Promise.all([officer.close(), chief.close(), clerk.close()]);

  await signIn(page, 'clerk', PASSWORD, '/court');
  await page.goto('/court');
  await waitForHydration(page);
  await expect(page.getByTestId('held-unidentified')).toContainText(`${before + 1} approved citation(s) held out of this queue`);
  await expect(page.getByTestId('held-unidentified')).toContainText("a summons needs the person's name and address");
  await expect(page.getByTestId('filing-row').filter({ hasText: number })).toHaveCount(0);
  await expectAccessible(page);
});
