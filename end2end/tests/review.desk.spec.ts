import { test, expect, Browser, BrowserContext, Page } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration, PASSWORD } from './helpers';
import { unique } from './field-helpers';

// The chief's desk at desktop and tablet size (issue #6): approve one citation,
// return another (the officer corrects and resubmits, the chief approves), void a
// third; the register finds each by number.

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
const OFFICER = 'officer2';

/** A signed-in API session for the officer, in its own browser context. */
async function officerContext(browser: Browser, page: Page): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: BASE, viewport: page.viewportSize() });
  const signedIn = await context.request.post('/api/session/sign-in', {
    data: { username: OFFICER, password: PASSWORD },
    headers: { Origin: BASE },
  });
  expect(signedIn.ok(), await signedIn.text()).toBeTruthy();
  return context;
}

function uuid(): string {
  return crypto.randomUUID();
}

/** A §52-1(A)(1) refusal with one identified person, cited. */
function refusal(location: string, name: string) {
  const now = Date.now();
  return {
    report: {
      incident_id: uuid(),
      occurred_at: now - 1_800_000,
      location: { text: location, place: 'sidewalk', gps: null },
      protected_activity: 'none',
      conduct: {
        remained_in_one_location: true,
        passage: { pedestrians: true, vehicles: false },
        interference: { use_of_property: false, lawful_business: false, ingress_egress: false },
        disturbance: { disturbance_or_annoyance: false, discomfort_or_alarm: false, person_lawfully_passing: false },
        group: { persons_together: 1, obstructs_free_passage: false },
        peace: {
          loud_or_unusual_noise: false, improper_or_boisterous_songs: false, obscene_indecent_and_profane: false,
          unruly_or_boisterous_manner: false, disturbed_quiet_and_good_order: false,
        },
      },
      order: { words: 'Stop blocking the way and move on.', given_at: now - 1_200_000, move_on: true, minutes_to_comply: 2 },
      narrative: 'Stood across the sidewalk; pedestrians stepped into the road to pass.',
      subjects: [{
        subject_id: uuid(),
        identity: {
          kind: 'identified', full_name: name, date_of_birth: '1990-02-03',
          address: '12 Main Street, Wells, ME', id_type: 'driver_license', id_number: '1234567',
        },
        perceived: { age_range: '35_49', sex: 'unknown', race: 'unknown' },
        response: { kind: 'refused', at: now - 900_000, manner: 'stayed_in_place' },
        charge: { offence: '52-1(A)(1)', issue_citation: true },
      }],
    },
  };
}

async function submit(officer: BrowserContext, location: string, name: string): Promise<string> {
  const answer = await officer.request.post('/api/incidents/submit', {
    data: refusal(location, name),
    headers: { Origin: BASE },
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  const receipt = await answer.json();
  expect(receipt.citations).toHaveLength(1);
  return receipt.citations[0].number;
}

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
  const narrative = phone.getByLabel('What the person did');
  await expect(narrative).toHaveValue(/Stood across the sidewalk/);
  await narrative.fill('Stood across the sidewalk for twenty minutes; given two minutes to move, stayed.');
  await expectAccessible(phone);
  await phone.getByTestId('submit-correction').click();
  await expect(phone.getByTestId('receipt')).toContainText(returned);

  // The chief sees the new revision, with what changed, and approves it.
  await openFromQueue(page, returnAt);
  await expect(page.getByTestId('revision')).toHaveCount(2);
  await expect(page.getByTestId('diff')).toContainText('narrative');
  await expect(page.getByTestId('diff')).toContainText('for twenty minutes');
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('report-status')).toHaveText('Approved');
  await expect(page.getByTestId('report-citation')).toContainText(returned);

  // 3. Void, with a reason; the number stays, shown as void.
  await openFromQueue(page, voidAt);
  await page.getByText('Void this citation').click();
  await page.getByLabel(/Reason for voiding/).fill('Entered against the wrong person.');
  await page.getByTestId('void').click();
  await expect(page.getByTestId('citation-status')).toHaveText('Void');
  // The report itself is still the chief's to decide; approving it leaves the void as is.
  await page.getByTestId('approve').click();
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
