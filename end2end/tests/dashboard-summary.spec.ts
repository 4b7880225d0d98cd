import { test, expect, Page } from '@playwright/test';
import { expectAccessible, signIn, PASSWORD } from './helpers';
import { SEED, seeded } from '../global-setup';

// Issue #37, finding 17: the chief's dashboard opens on one screen of what,
// where and to whom — this month against the last, persons by named area ×
// offence × outcome, the named areas as a schematic map (its numbers in a table
// for screen readers), and the §52-1 D order's outcome by perceived group —
// above the fold on the desk (1366 × 768), in reading order on a phone; the
// detail follows, with a contents list.

/** A shown count as a number ("1,234" → 1234). */
const number = (text: string) => Number(text.replace(/[^0-9]/g, ''));

async function open(page: Page) {
  await signIn(page, 'chief', PASSWORD, '/dashboard');
  await page.goto(`/dashboard?from=${SEED.from}&to=${SEED.end}`);
  await expect(page.getByTestId('summary')).toBeVisible();
}

test('the summary answers what, where and to whom with the seeded numbers', async ({ page }) => {
  const expected = seeded();
  await open(page);

  // This month (December 2020, to the period's last day) against November.
  const months = page.getByTestId('summary-months');
  await expect(months).toContainText('Persons, 1–31 December 2020 against November 2020.');
  await expect(months.getByRole('columnheader')).toHaveText(['Persons', 'This month', 'Last month', 'Change']);
  await expect(months.locator('tbody th')).toHaveText([
    'Ordered (§52-1 D)',
    'Complied',
    'Cited',
    'Protected (§52-1 E)',
    'Warned, or left before an order',
  ]);
  for (const row of await months.locator('tbody tr').all()) {
    await expect(row.locator('td').nth(2)).toHaveText(/^(no change|[+−][\d,]+( \([+−][\d,]+ %\))?)$/);
  }

  // Every named area, once; every person of the period under one of them.
  const places = page.getByTestId('summary-places');
  await expect(places.locator('tbody tr')).toHaveCount(8);
  await expect(places.locator('tbody th').first()).toHaveText('Drakes Island');
  let persons = 0;
  for (const row of await places.locator('tbody tr').all()) {
    persons += number((await row.locator('td').first().locator('strong, .none').innerText()));
  }
  expect(persons).toBe(expected.persons);
  await expect(places.getByRole('columnheader', { name: /§52-1 A\(1\)/ })).toBeVisible();

  // The map: a drawing hidden from screen readers, its numbers in a table.
  const map = page.getByTestId('summary-map');
  await expect(map.locator('svg')).toHaveAttribute('aria-hidden', 'true');
  await expect(map.locator('svg g[data-area]')).toHaveCount(8);
  const mapped = map.locator('table tbody tr');
  await expect(mapped).toHaveCount(8);
  let onMap = 0;
  for (const row of await mapped.all()) onMap += number(await row.locator('td').first().innerText());
  expect(onMap).toBe(expected.persons);

  // Rates by perceived group: ordered, complied %, cited %; a note on small groups.
  const groups = page.getByTestId('summary-groups');
  await expect(groups.locator('tbody th[scope=colgroup]')).toHaveText(['Perceived age', 'Perceived sex', 'Perceived race']);
  const rows = groups.getByTestId('group-row');
  expect(await rows.count()).toBeGreaterThan(3);
  for (const row of await rows.all()) {
    await expect(row.locator('td').nth(1)).toHaveText(/^(\d+ %|—)$/);
    await expect(row.locator('td').nth(2)).toHaveText(/^(\d+ %|—)$/);
  }
  await expect(groups).toContainText('shares of the persons ordered');

  // The detail below, with a contents list that goes to each figure.
  const contents = page.getByTestId('contents');
  await contents.getByRole('link', { name: 'By hour of the day (Town time)' }).click();
  await expect(page).toHaveURL(/#figure-by_hour$/);
  await expect(page.getByRole('heading', { name: 'By hour of the day (Town time)' })).toBeInViewport();
  await expectAccessible(page);
});

test('on the desk the summary sits above the fold at 1366 × 768', async ({ page }, info) => {
  test.skip(info.project.name === 'phone', 'the desk’s viewport');
  await page.setViewportSize({ width: 1366, height: 768 });
  await open(page);
  const box = await page.getByTestId('summary').boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y + box!.height).toBeLessThanOrEqual(768);
  // Side by side, not one under another.
  const places = await page.getByTestId('summary-places').boundingBox();
  const groups = await page.getByTestId('summary-groups').boundingBox();
  expect(groups!.x).toBeGreaterThan(places!.x);
  await expectAccessible(page);
});

test('on a phone the summary reads in order, nothing wider than the screen', async ({ page }, info) => {
  test.skip(info.project.name !== 'phone', 'the phone’s viewport');
  await open(page);
  let last = -1;
  for (const part of ['summary-months', 'summary-places', 'summary-map', 'summary-groups']) {
    const box = (await page.getByTestId(part).boundingBox())!;
    expect(box.y, part).toBeGreaterThan(last);
    expect(box.x + box.width, part).toBeLessThanOrEqual(390);
    last = box.y;
  }
  // Nothing of the summary runs off the screen (the place table scrolls in its own region).
  const wide = await page.getByTestId('summary').evaluate((s) =>
    [...s.querySelectorAll('h3, p, svg, .table-wrap, table:not(.visually-hidden)')]
      .filter((e) => !e.closest('.table-wrap') || e.classList.contains('table-wrap'))
      .filter((e) => e.getBoundingClientRect().right > 390).map((e) => e.outerHTML.slice(0, 80)));
  expect(wide).toEqual([]);
  await expectAccessible(page);
});
