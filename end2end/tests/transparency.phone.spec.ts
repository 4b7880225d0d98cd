import { test, expect } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration, PASSWORD } from './helpers';
import { BASE, officerContext, parseCsv, refusal } from './desk-helpers';
import { unique } from './field-helpers';

// What the Town publishes (issue #40), at a phone's size: the chief publishes a
// month that has ended, anyone reads it at /transparency without signing in (and
// axe finds nothing), its CSV opens in the data dictionary's columns; reports of
// that month entered late make a correction, published as revision 2 with its
// reason, and revision 1 stays readable at its own address.

const DAY = 86_400_000;

/** A month about a hundred days back: ended, and no other spec writes to it. */
function pastMonth() {
  const d = new Date(Date.now() - 100 * DAY);
  const code = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  const label = d.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  // The 15th at noon in Wells: well inside the month whatever the zone.
  const at = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 15, 16, 0, 0);
  return { code, label, at };
}

/** A cited refusal that happened at `at` (entered late, as an officer may within a year). */
function lateRefusal(location: string, name: string, at: number) {
  const body = refusal(location, name);
  const shift = at - body.report.occurred_at;
  body.report.occurred_at += shift;
  body.report.orders[0].given_at += shift;
  body.report.subjects[0].response.at += shift;
  return body;
}

test('the chief publishes a month, anyone reads it on a phone, and a correction keeps revision 1 readable', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const month = pastMonth();
  const run = unique('Open');

  // 1. The chief publishes the month (nothing was recorded in it yet).
  await signIn(page, 'chief', PASSWORD, '/transparency/publish');
  await page.goto('/transparency/publish');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: 'Publish a month' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Another month' }).fill(month.code);
  await page.getByRole('button', { name: 'Read the month' }).click();
  await expect(page.getByTestId('preview')).toContainText(`${month.label}: what would be published`);
  await expectAccessible(page);
  await page.getByRole('button', { name: `Publish ${month.label}` }).click();
  await expect(page.getByTestId('published')).toContainText(`Published: ${month.code} revision 1`);

  // 2. Anyone, not signed in, on a phone.
  const visitor = await browser.newContext({ baseURL: BASE, viewport: { width: 390, height: 844 } });
  const publicPage = await visitor.newPage();
  await publicPage.goto('/transparency');
  await expect(publicPage.getByRole('heading', { name: 'Loitering enforcement: public reports' })).toBeVisible();
  await expect(publicPage.getByTestId('dictionary')).toContainText('column_label');
  await expectAccessible(publicPage);
  await publicPage.getByTestId('published-months').getByRole('link', { name: month.label }).click();
  await expect(publicPage.getByRole('heading', { name: month.label, level: 1 })).toBeVisible();
  await expect(publicPage.getByTestId('revision')).toContainText('Revision 1');
  await expect(publicPage.getByTestId('table-perceived_race')).toBeVisible();
  const width = await publicPage.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await expectAccessible(publicPage);

  // The CSV in the data dictionary's shape.
  const href = await publicPage.getByTestId('csv').getAttribute('href');
  const csv = await publicPage.request.get(href!);
  expect(csv.headers()['content-type']).toContain('text/csv');
  const rows = parseCsv(await csv.text());
  expect(rows[0]).toEqual(['view', 'period', 'revision', 'table', 'row', 'row_label', 'column', 'column_label', 'count']);
  for (const row of rows.slice(1)) {
    expect(row).toHaveLength(9);
    expect(row[0]).toBe('month');
    expect(row[1]).toBe(month.code);
    expect(row[8]).toMatch(/^(\d+|withheld)$/);
  }
  const total = rows.find((r) => r[3] === 'section' && r[4] === 'all' && r[6] === 'all');
  expect(total?.[8]).toBe('0');

  // 3. Twelve reports of that month entered late: the month's numbers change.
  const officer = await officerContext(browser, page);
  for (let i = 0; i < 12; i++) {
    const body = lateRefusal(`Late Lane ${run} ${i}`, `Pat Late ${run} ${i}`, month.at + i * 60_000);
    const answer = await officer.request.post('/api/incidents/submit', { data: body, headers: { Origin: BASE } });
    expect(answer.ok(), await answer.text()).toBeTruthy();
  }
  await officer.close();

  // The chief publishes the correction: a reason is required, and published.
  await page.goto('/transparency/publish');
  await waitForHydration(page);
  await page.getByRole('textbox', { name: 'Another month' }).fill(month.code);
  await page.getByRole('button', { name: 'Read the month' }).click();
  await expect(page.getByTestId('preview')).toContainText(`${month.label}: correction (revision 2)`);
  await expect(page.getByTestId('changes')).toContainText('All persons (the totals)');
  await page.getByRole('button', { name: 'Publish revision 2' }).click();
  await expect(page.getByLabel('Reason for the correction (published as written)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#reason-error')).toContainText('Reason:');
  const reason = `Twelve reports of the month were entered late (${run}).`;
  await page.getByLabel('Reason for the correction (published as written)').fill(reason);
  await page.getByRole('button', { name: 'Publish revision 2' }).click();
  await expect(page.getByTestId('published')).toContainText(`Published: ${month.code} revision 2`);

  // 4. Both revisions readable; the month's own address shows the correction.
  await publicPage.goto(`/transparency/${month.code}`);
  await expect(publicPage.getByTestId('revision')).toContainText('Revision 2');
  await expect(publicPage.getByTestId('correction')).toContainText(reason);
  await expect(publicPage.getByTestId('revisions').getByRole('link')).toHaveCount(2);
  await expectAccessible(publicPage);
  await publicPage.getByTestId('revisions').getByRole('link', { name: 'Revision 1' }).click();
  await expect(publicPage).toHaveURL(new RegExp(`/transparency/${month.code}/r1$`));
  await expect(publicPage.getByTestId('revision')).toContainText('Revision 1');
  await expect(publicPage.getByTestId('revision')).toContainText('A newer revision');
  const r1 = await publicPage.request.get(`/transparency/${month.code}/r1/data.json`);
  expect((await r1.json()).revision).toBe(1);
  const latest = await publicPage.request.get(`/transparency/${month.code}/data.json`);
  expect((await latest.json()).correction.reason).toBe(reason);
  await visitor.close();
});
