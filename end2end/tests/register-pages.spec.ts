import { test, expect } from '@playwright/test';
import { expectAccessible, signIn, PASSWORD } from './helpers';
import { SEED, seeded } from '../global-setup';

// The register's pages (issue #37, finding 18): each page says where it stands
// among the reports its filters find, and "Previous 50" goes back the way "Next
// 50" came, page by page, to the first.
test('the register pages forward and back and says where each page stands', async ({ page }) => {
  const total = seeded().incidents;
  const pages = Math.ceil(total / 50);
  const grouped = (n: number) => n.toLocaleString('en-US');
  const placeOf = (n: number) =>
    `Reports ${grouped((n - 1) * 50 + 1)}–${grouped(Math.min(n * 50, total))} of ${grouped(total)} · page ${n} of ${pages}`;
  await signIn(page, 'chief', PASSWORD, '/register');
  // The seeded year alone: other specs add reports of their own days.
  await page.goto(`/register?from=${SEED.from}&to=${SEED.end}`);
  const place = page.getByTestId('register-place');
  // Each row by its report's address: one report, one address.
  const rows = () =>
    page.locator('[data-testid=register-row] td:first-child a').evaluateAll((links) =>
      links.map((a) => a.getAttribute('href')),
    );
  await expect(place).toHaveText(placeOf(1));
  await expect(page.getByTestId('previous-page')).toHaveCount(0);
  await expect(page.getByTestId('first-page')).toHaveCount(0);
  const seen = [await rows()];
  await expectAccessible(page);

  for (let n = 2; n <= 3; n++) {
    await page.getByTestId('next-page').click();
    await expect(place).toHaveText(placeOf(n));
    seen.push(await rows());
  }
  expect(new Set(seen.flat()).size).toBe(150);
  await expect(page.getByTestId('first-page')).toBeVisible();
  await expectAccessible(page);

  for (let n = 2; n >= 1; n--) {
    await page.getByTestId('previous-page').click();
    await expect(place).toHaveText(placeOf(n));
    expect(await rows()).toEqual(seen[n - 1]);
  }
  await expect(page.getByTestId('previous-page')).toHaveCount(0);
});
