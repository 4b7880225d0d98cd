import { test, expect, Page } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration, PASSWORD } from './helpers';
import { unique } from './field-helpers';
import { BASE, officerContext, refusal, submit } from './desk-helpers';

// The chief's desk at desktop and tablet size (issue #6): approve one citation,
// return another (the officer corrects and resubmits, the chief approves), void a
// third; the register finds each by number.

/** Opens a report from the review queue by its (unique) location. */
async function openFromQueue(page: Page, location: string) {
  await page.goto('/review');
  const card = page.getByTestId('queue-report').filter({ hasText: location });
  await expect(card).toHaveCount(1);
  await card.getByRole('link', { name: 'Review the full report' }).click();
  await expect(page.getByRole('heading', { name: 'Incident report' })).toBeVisible();
  await waitForHydration(page);
}

test('the chief approves, returns and voids; the officer corrects a returned report', async ({ page, browser }) => {
  const officer = await officerContext(browser, page);
  const run = unique('Desk');
  const [approveAt, returnAt, voidAt] = ['Approve Lane', 'Return Lane', 'Void Lane'].map((l) => `${l} ${run}`);
  const approved = await submit(officer, approveAt, 'Avery Approve');
  const returned = await submit(officer, returnAt, 'Robin Return');
  const voided = await submit(officer, voidAt, 'Val Void');

  await signIn(page, 'chief', PASSWORD, '/review');
  await page.goto('/review');
  await expect(page.getByRole('heading', { name: 'Review queue' })).toBeVisible();
  await expect(page.getByTestId('queue-report').filter({ hasText: approveAt })).toContainText(approved);
  await expectAccessible(page);

  // 1. Approve: the citation goes to the clerk.
  await openFromQueue(page, approveAt);
  await expectAccessible(page);
  await page.getByTestId('approve').click();
  await page.getByTestId('approve-confirm').click();
  await expect(page.getByTestId('report-status')).toHaveText('Approved');
  await expect(page.getByTestId('citation-status')).toHaveText('Approved — for the clerk to file');
  await expect(page.getByTestId('decisions')).toContainText('approve');

  // 2. Return: a reason is required.
  await openFromQueue(page, returnAt);
  await page.getByTestId('return').click();
  await expect(page.getByTestId('decision-error')).toContainText('Reason: required');
  await page.getByLabel('Reason for returning it to the officer').fill('Give the minutes allowed as the officer said them.');
  await page.getByTestId('return').click();
  await expect(page.getByTestId('report-status')).toHaveText('Returned for correction');

  // The officer sees the reason, corrects and resubmits.
  const phone = await officer.newPage();
  await phone.goto('/field/reports');
  const row = phone.getByTestId('report').filter({ hasText: returnAt });
  await expect(row.getByTestId('return-reason')).toContainText('Give the minutes allowed');
  await row.getByRole('link', { name: 'Correct and resubmit' }).click();
  await expect(phone.getByRole('heading', { name: 'Correct and resubmit' })).toBeVisible();
  await waitForHydration(phone);
  await expect(phone.getByTestId('return-reason')).toContainText('Give the minutes allowed');
  const narrative = phone.getByLabel('What each person did');
  await expect(narrative).toHaveValue(/Stood across the sidewalk/);
  await narrative.fill('Stood across the sidewalk for twenty minutes; given two minutes to move, stayed.');
  await expectAccessible(phone);
  await phone.getByTestId('submit-correction').click();
  await expect(phone.getByTestId('receipt')).toContainText(returned);

  // The chief sees the new revision, with what changed, and approves it.
  await openFromQueue(page, returnAt);
  await expect(page.getByTestId('revision')).toHaveCount(2);
  await expect(page.getByTestId('diff')).toContainText('Narrative');
  await expect(page.getByTestId('diff')).toContainText('for twenty minutes');
  await page.getByTestId('approve').click();
  await page.getByTestId('approve-confirm').click();
  await expect(page.getByTestId('report-status')).toHaveText('Approved');
  await expect(page.getByTestId('report-citation')).toContainText(returned);

  // 3. Void, with a reason; the number stays, shown as void.
  await openFromQueue(page, voidAt);
  await page.getByText('Void this citation').click();
  await page.getByLabel(/Reason for voiding/).fill('Entered against the wrong person.');
  await page.getByTestId('void').click();
  await page.getByTestId('void-confirm').click();
  await expect(page.getByTestId('citation-status')).toHaveText('Void');
  // The report itself is still the chief's to decide; approving it leaves the void as is.
  await page.getByTestId('approve').click();
  await page.getByTestId('approve-confirm').click();
  await expect(page.getByTestId('report-status')).toHaveText('Approved');
  await expect(page.getByTestId('citation-status')).toHaveText('Void');

  // The register finds each by number, with its status.
  for (const [number, status] of [[approved, 'Approved'], [returned, 'Approved'], [voided, 'Void']]) {
    await page.goto(`/register?text=${encodeURIComponent(number)}`);
    const rows = page.getByTestId('register-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(number);
    await expect(rows.first()).toContainText(status);
  }
  // Issue #37, finding 5: the voided citation's person no longer reads "Cited — $100.00".
  await page.goto(`/register?text=${encodeURIComponent(voided)}`);
  const voidRow = page.getByTestId('register-row').first();
  await expect(voidRow.getByTestId('outcome-badge')).toHaveText('Citation void — no fine');
  await expect(voidRow).not.toContainText('Cited — $100.00');
  await expectAccessible(page);

  // The printable report's PDF is a PDF.
  await page.goto(`/register?text=${encodeURIComponent(approved)}`);
  await page.getByTestId('register-row').getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: 'Incident report' })).toBeVisible();
  const href = await page.getByTestId('report-pdf').getAttribute('href');
  const pdf = await page.request.get(href!);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Approved reports leave the queue.
  await page.goto('/review');
  await expect(page.getByTestId('queue-report').filter({ hasText: run })).toHaveCount(0);
  await officer.close();
});

test('the queue filters by caution; an officer cannot open the desk', async ({ page, browser }) => {
  const officer = await officerContext(browser, page);
  const run = unique('Caution');
  const flagged = `Status Lane ${run}`;
  const clean = `Clean Lane ${run}`;
  const body = refusal(flagged, 'Sky Status');
  body.report.narrative = 'A homeless man stood across the sidewalk; pedestrians stepped into the road.';
  const sent = await officer.request.post('/api/incidents/submit', { data: body, headers: { Origin: BASE } });
  expect(sent.ok(), await sent.text()).toBeTruthy();
  await submit(officer, clean, 'Casey Clean');
  const phone = await officer.newPage();
  for (const path of ['/review', '/register']) {
    const response = await phone.goto(path);
    expect(response?.status()).toBe(403);
  }
  await officer.close();

  await signIn(page, 'chief', PASSWORD, '/review');
  await page.goto('/review');
  await expect(page.getByTestId('queue-report').filter({ hasText: flagged }).getByTestId('cautions'))
    .toContainText('Status words');
  // Filtering: the form puts the filter in the address; the flagged report stays, the clean one goes.
  await page.getByLabel('Caution').selectOption('status_words');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/caution=status_words/);
  await expect(page.getByTestId('queue-report').filter({ hasText: flagged })).toHaveCount(1);
  await expect(page.getByTestId('queue-report').filter({ hasText: clean })).toHaveCount(0);
  for (const card of await page.getByTestId('queue-report').all()) {
    await expect(card.getByTestId('cautions')).toContainText('Status words');
  }
  await expectAccessible(page);
});
