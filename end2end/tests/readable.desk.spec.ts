import { test, expect, Page } from '@playwright/test';
import { expectAccessible, signIn, PASSWORD } from './helpers';
import { unique } from './field-helpers';
import { BASE, officerContext, refusal, submitReport } from './desk-helpers';
import { SEED } from '../global-setup';

// The desk read as the chief, the clerk and the administrator read it (issue #16):
// search that finds any word of a name, place or number; a register laid out
// for a wide screen and scrollable on a phone; history and audit in words; a
// dashboard whose labels, legends and count links can be read and hit.

/** How many lines an element's text takes (one box per line for inline text). */
async function lines(page: Page, selector: string): Promise<number[]> {
  return page.locator(selector).evaluateAll((nodes) => nodes.map((n) => n.getClientRects().length));
}

test('the register finds a surname, a word inside a place and part of a number', async ({ page, browser }) => {
  const officer = await officerContext(browser, page);
  const run = unique('Goodwin').replace(' ', '');
  const place = `Marketplace${run} Plaza`;
  const { number } = await submitReport(officer, place, `Travis ${run}`);
  await signIn(page, 'chief', PASSWORD, '/register');

  const search = async (text: string) => {
    await page.goto(`/register?text=${encodeURIComponent(text)}`);
    return page.getByTestId('register-row');
  };
  // A surname, a first name with the surname, a word inside the place, and the
  // number's last digits each find the one report.
  for (const text of [run, `Travis ${run}`, `place${run}`, number.slice(-6)]) {
    const rows = await search(text);
    await expect(rows, `search "${text}"`).not.toHaveCount(0);
    await expect(rows.filter({ hasText: number }), `search "${text}"`).toHaveCount(1);
  }
  // Words in another order are not the phrase typed.
  await expect(await search(`${run} Travis`)).toHaveCount(0);
  await expect(page.getByTestId('register-empty')).toBeVisible();
  await officer.close();
});

test('the register uses a wide screen and scrolls sideways on a phone with a cue', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'sizes are set here');
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, 'chief', PASSWORD, '/register');
  await page.goto(`/register?from=${SEED.from}&to=${SEED.end}`);
  const table = page.getByTestId('register');
  await expect(table).toBeVisible();
  // The table takes the screen, not a 900-pixel column in the middle of it.
  const width = (await table.boundingBox())!.width;
  expect(width).toBeGreaterThan(1200);
  // Dates and citation numbers stay on one line each.
  expect(new Set(await lines(page, '[data-testid=register-row] td.nowrap a'))).toEqual(new Set([1]));
  const numbers = await lines(page, '[data-testid=row-citation]');
  expect(numbers.length).toBeGreaterThan(0);
  expect(new Set(numbers)).toEqual(new Set([1]));
  // No cue on a screen that shows it all.
  await expect(page.locator('.scroll-hint').first()).toBeHidden();

  // On a phone the table scrolls inside its own region, which says so.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('.scroll-hint').first()).toBeVisible();
  const region = page.getByRole('region', { name: 'Incidents' });
  const { scrollWidth, clientWidth } = await region.evaluate((e) => ({ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth }));
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  // The page itself does not scroll sideways.
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(390);
  await expectAccessible(page);
});

test('history shows a change word by word in Town time; the audit log names people and actions', async ({ page, browser }) => {
  const officer = await officerContext(browser, page);
  const place = unique('History Way');
  const body = refusal(place, 'Harper History');
  const answer = await officer.request.post('/api/incidents/submit', { data: body, headers: { Origin: BASE } });
  expect(answer.ok(), await answer.text()).toBeTruthy();

  // The chief amends one word of the narrative and the time of the refusal.
  const chief = await officerContext(browser, page, 'chief');
  const amended = structuredClone(body.report);
  amended.narrative = amended.narrative.replace('pedestrians', 'walkers');
  amended.subjects[0].response.at += 60_000;
  const amend = await chief.request.post('/api/review/amend', {
    data: { report: amended, reason: 'The notebook says walkers, a minute later.' },
    headers: { Origin: BASE },
  });
  expect(amend.ok(), await amend.text()).toBeTruthy();
  await chief.close();

  await signIn(page, 'chief', PASSWORD, '/register');
  await page.goto(`/register?text=${encodeURIComponent(place)}`);
  await page.getByTestId('register-row').getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: 'Incident report' })).toBeVisible();
  const diff = page.getByTestId('diff');
  await expect(diff).toBeVisible();
  // Labels and Town time, never field paths or milliseconds.
  await expect(diff).not.toContainText('subjects.');
  await expect(diff).not.toContainText(/\d{12}/);
  await expect(diff).toContainText(/[AP]M|\d{1,2}:\d{2}/);
  // One word struck out and one put in: the rest of the narrative stands.
  const narrative = diff.getByRole('row').filter({ hasText: 'Narrative' });
  await expect(narrative.locator('del')).toHaveText(['pedestrians']);
  await expect(narrative.locator('ins')).toHaveText(['walkers']);
  await expect(narrative).toContainText('Stood across the sidewalk;');
  await expectAccessible(page);

  // The audit log: who by username, what in words, detail without raw JSON.
  await signIn(page, 'admin', PASSWORD, '/admin/audit');
  const amendRow = page.getByRole('row')
    .filter({ hasText: 'Report amended by the chief' })
    .filter({ hasText: place });
  await expect(amendRow).toHaveCount(1);
  await expect(amendRow.getByRole('cell').nth(2)).toHaveText(/^chief\b/);
  await expect(amendRow).toContainText('The notebook says walkers');
  expect(await amendRow.innerText()).not.toMatch(/"[a-z_]+":|[{}]/);
  await expectAccessible(page);
  await officer.close();
});

test('dashboard labels are cut at a word, bars have a legend, count links can be hit', async ({ page }, testInfo) => {
  await signIn(page, 'chief', PASSWORD, '/dashboard');
  await page.goto(`/dashboard?from=${SEED.from}&to=${SEED.end}`);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // Each bar label is its whole title, or the title cut where a word ends.
  const labels = await page.locator('svg.chart text:has(title)').evaluateAll((nodes) =>
    nodes.map((n) => {
      const full = n.querySelector('title')!.textContent!;
      // The element's text is its title's, then the label drawn.
      return { full, shown: n.textContent!.slice(full.length) };
    }),
  );
  expect(labels.length).toBeGreaterThan(0);
  for (const { full, shown } of labels) {
    if (shown === full) continue;
    expect(shown.endsWith('…'), `${shown} is ${full}`).toBeTruthy();
    const kept = shown.slice(0, -1);
    expect(full.startsWith(kept), `${shown} is ${full}`).toBeTruthy();
    expect(full[kept.length], `${shown} cut mid-word from ${full}`).toMatch(/[\s,;—]/);
  }
  // Figures with more than one series say which colour is which.
  const outcomes = page.getByTestId('figure-by_offence');
  await expect(outcomes.locator('.legend')).toBeVisible();
  // Hot spots are named by a place, not coordinates alone.
  const spots = page.getByTestId('figure-gps_cells').locator('tbody tr th, tbody tr td:first-child');
  for (const spot of await spots.allInnerTexts()) expect(spot).toMatch(/^Near /);

  // Count links are at least 24 px each way (WCAG 2.5.8), at this size too.
  const sizes = await page.locator('a.count').evaluateAll((nodes) =>
    nodes.map((n) => { const r = n.getBoundingClientRect(); return [r.width, r.height]; }),
  );
  expect(sizes.length).toBeGreaterThan(0);
  for (const [w, h] of sizes) {
    expect(w, `on ${testInfo.project.name}`).toBeGreaterThanOrEqual(24);
    expect(h, `on ${testInfo.project.name}`).toBeGreaterThanOrEqual(24);
  }
  await expectAccessible(page);
});
