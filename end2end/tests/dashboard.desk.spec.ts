import { test, expect } from '@playwright/test';
import { expectAccessible, signIn, PASSWORD } from './helpers';
import { SEED, seeded } from '../global-setup';

// The chief's dashboard over the year global setup seeded (issue #6): the totals
// are what the seeder says it wrote, each figure opens the register behind it,
// each table downloads as CSV, and the page passes axe.

test('the dashboard shows the seeded year and links to the register', async ({ page }) => {
  const expected = seeded();
  await signIn(page, 'chief', PASSWORD, '/dashboard');
  await page.goto(`/dashboard?from=${SEED.from}&to=${SEED.end}`);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  const total = (label: string) =>
    page.getByTestId('totals').locator('li').filter({ hasText: label }).getByTestId('total');
  await expect(total('Incidents')).toHaveText(String(expected.incidents));
  await expect(total('Persons')).toHaveText(String(expected.persons));
  // Each article's citations under its own penalty section (issue #33): the
  // seeded year is Article I's alone.
  await expect(total('Citations issued — Article I (§52-4)')).toHaveText(String(expected.citations - expected.voided));
  await expect(total('Citations issued — Article II (§52-12)')).toHaveText('0');
  await expect(total('Citations voided')).toHaveText(String(expected.voided));
  const returns = page.getByTestId('figure-returns_voids').getByRole('row', { name: /Returned to the officer/ });
  await expect(returns).toContainText(String(expected.returned));

  // Twelve months, each drawn and tabled; the months add up to the total.
  const months = page.getByTestId('figure-over_time').locator('tbody tr');
  await expect(months).toHaveCount(12);
  let sum = 0;
  for (const row of await months.all()) sum += Number(await row.locator('td').first().innerText());
  expect(sum).toBe(expected.incidents);
  await expect(page.getByTestId('figure-over_time').locator('svg rect')).not.toHaveCount(0);
  await expectAccessible(page);

  // A figure's count opens the register filtered the same way.
  const saturday = page.getByTestId('figure-by_weekday').getByRole('row', { name: /Saturday/ });
  const count = Number(await saturday.locator('td').first().innerText());
  expect(count).toBeGreaterThan(0);
  await saturday.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/register\?.*weekday=5/);
  await expect(page.getByTestId('narrowed')).toContainText('weekday = 5');
  let listed = await page.getByTestId('register-row').count();
  while (await page.getByTestId('next-page').isVisible()) {
    await page.getByTestId('next-page').click();
    await expect(page.getByTestId('register')).toBeVisible();
    listed += await page.getByTestId('register-row').count();
  }
  expect(listed).toBe(count);
  await expectAccessible(page);

  // CSV of a table: the documented header, one record per row.
  await page.goto(`/dashboard?from=${SEED.from}&to=${SEED.end}`);
  const href = await page.getByTestId('figure-by_hour').getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  const csv = await page.request.get(href!);
  expect(csv.headers()['content-type']).toContain('text/csv');
  const lines = (await csv.text()).trim().split(/\r?\n/);
  expect(lines[0]).toBe('Hour,Incidents');
  expect(lines).toHaveLength(25);
  expect(lines.slice(1).reduce((n, l) => n + Number(l.split(',')[1]), 0)).toBe(expected.incidents);
});

test('a period the wrong way round is refused with the field named', async ({ page }) => {
  await signIn(page, 'chief', PASSWORD, '/dashboard');
  await page.goto('/dashboard?from=2020-12-31&to=2020-01-01');
  await expect(page.getByRole('alert')).toContainText('on or after the from date');
});
