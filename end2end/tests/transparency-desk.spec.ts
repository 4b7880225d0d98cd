import { test, expect, Page } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration } from './helpers';
import { BASE, officerContext, refusal } from './desk-helpers';
import { unique } from './field-helpers';

// The chief's own tables (issue #40, never public), at the desk's screen
// (1366 × 768) and a phone's (390 × 844): from "Publish a month" the chief opens
// the tables of a month, sees each officer's persons by what happened to them
// beside the Town's, one officer's tables, and the disparity view with its note
// on small numbers (exact small counts: nothing is withheld here); a period
// that ends before it starts is named at the field; no other role reaches the
// page, and the public pages do not lead to it.

const DAY = 86_400_000;

/** A month `days` back (ended; no other spec writes to it), and a moment in it. */
function pastMonth(days: number) {
  const d = new Date(Date.now() - days * DAY);
  const code = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  const at = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 15, 16, 0, 0);
  return { code, at };
}

/** A cited refusal that happened at `at` (entered late). */
function lateRefusal(location: string, name: string, at: number) {
  const body = refusal(location, name);
  const shift = at - body.report.occurred_at;
  body.report.occurred_at += shift;
  body.report.orders[0].given_at += shift;
  body.report.subjects[0].response.at += shift;
  return body;
}

async function fitsTheScreen(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test('the chief reads each officer and each group beside the Town, and no one else can', async ({ page, browser }, info) => {
  test.setTimeout(180_000);
  const desk = info.project.name !== 'phone';
  if (desk) await page.setViewportSize({ width: 1366, height: 768 });
  // Each project a month of its own: the suite runs this spec at both sizes.
  const month = pastMonth(desk ? 220 : 160);
  const run = unique('Desk');

  // Three cited refusals by Officer Lee Tran in that month.
  const officer = await officerContext(browser, page);
  for (let i = 0; i < 3; i++) {
    const body = lateRefusal(`Desk Lane ${run} ${i}`, `Pat Desk ${run} ${i}`, month.at + i * 60_000);
    const answer = await officer.request.post('/api/incidents/submit', { data: body, headers: { Origin: BASE } });
    expect(answer.ok(), await answer.text()).toBeTruthy();
  }
  // The officer's own session cannot read the chief's tables.
  const denied = await officer.request.post('/api/transparency/desk/officers', {
    data: { from: month.code, to: month.code, officer: null },
    headers: { Origin: BASE },
  });
  expect(denied.status()).toBe(403);
  const page403 = await officer.newPage();
  const response = await page403.goto('/transparency/desk');
  expect(response?.status()).toBe(403);
  await expect(page403.getByRole('heading', { name: 'Not permitted' })).toBeVisible();
  await expect(page403.getByTestId('officers')).toHaveCount(0);
  await officer.close();

  // The chief, from the publishing page.
  await signIn(page, 'chief', undefined, '/transparency/publish');
  await page.goto('/transparency/publish');
  await waitForHydration(page);
  await page.getByTestId('chief-tables').click();
  await expect(page).toHaveURL(/\/transparency\/desk$/);
  await expect(page.getByRole('heading', { name: "The chief's tables", level: 1 })).toBeVisible();
  await expect(page.getByTestId('never-public')).toContainText('none of this is published');
  await waitForHydration(page);

  // A period that ends before it starts: named at the To field.
  await page.getByLabel('From', { exact: true }).fill(month.code);
  await page.getByLabel('To', { exact: true }).fill('2000-01');
  await page.getByRole('button', { name: 'Show the period' }).click();
  await expect(page.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#to-error')).toContainText('To: the same month as From, or a later one.');

  await page.getByLabel('To', { exact: true }).fill(month.code);
  await page.getByRole('button', { name: 'Show the period' }).click();
  await expect(page.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByTestId('period-shown')).toHaveText(`Showing ${month.code}.`);

  // By officer: exact small counts, the Town's row beside.
  const officers = page.getByTestId('officers');
  const tran = officers.locator('tr', { hasText: 'Officer Lee Tran (badge 204)' });
  await expect(tran).toBeVisible();
  // complied, refused & cited, refused not cited, cited without order, protected,
  // no order; all; ordered; refused; cited; per 100.
  await expect(tran.locator('td')).toHaveText(['0', '3', '0', '0', '0', '0', '3', '3', '3', '3', '100.0']);
  await expect(officers.locator('tr[data-officer="all"] th')).toHaveText('The Town (every officer)');

  // The disparity view with its note on small numbers.
  await expect(page.getByTestId('town-rate')).toHaveText('The Town: 3 given an order, 3 cited after refusing, 100.0 per 100.');
  await expect(page.getByTestId('small-numbers')).toContainText('fewer than 30 persons given an order');
  const race = page.getByTestId('disparity-perceived_race');
  await expect(race.locator('tr', { hasText: 'Cannot tell' })).toContainText('few');
  await fitsTheScreen(page);
  await expectAccessible(page);

  // One officer's tables.
  await page.getByRole('button', { name: 'Tables of Officer Lee Tran (badge 204)' }).click();
  const chosen = page.getByTestId('chosen-officer');
  await expect(chosen.getByRole('heading', { name: 'Officer Lee Tran (badge 204): tables' })).toBeVisible();
  await expect(chosen.getByTestId('officer-table-perceived_race')).toBeVisible();
  await expect(chosen.getByTestId('officer-table-section').locator('tr[data-row="all"] td').nth(6)).toHaveText('3');
  await fitsTheScreen(page);
  await expectAccessible(page);

  // The public pages do not lead there, and a visitor is sent to sign in.
  const visitor = await browser.newContext({ baseURL: BASE, viewport: page.viewportSize() });
  const publicPage = await visitor.newPage();
  await publicPage.goto('/transparency');
  await expect(publicPage.locator('a[href^="/transparency/desk"]')).toHaveCount(0);
  await publicPage.goto('/transparency/desk');
  await expect(publicPage).toHaveURL(/\/sign-in\?next=/);
  await expect(publicPage.getByTestId('officers')).toHaveCount(0);
  await visitor.close();
});
