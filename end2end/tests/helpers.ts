import { expect, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { PASSWORD } from '../global-setup';

export { PASSWORD };

/** Fails the test with the list of axe-core violations on the current page. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, 'axe-core violations').toEqual([]);
}

/**
 * Waits until the Leptos app has taken over the whole server-rendered page: an
 * on-demand page's code may arrive after the header already runs, so the app
 * marks `<html data-ready>` once all of it does (app/src/on_demand.rs).
 */
export async function waitForHydration(page: Page) {
  await expect(page.locator('html[data-ready]')).toHaveCount(1);
  await expect(page.getByTestId('connection')).not.toHaveText(/Checking/);
}

/**
 * How far the page's content has jumped since it loaded (Chromium's cumulative
 * layout shift): what the server renders must already have the page's shape.
 */
export async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        const add = (entries: PerformanceEntryList) => {
          for (const e of entries as unknown as { value: number; hadRecentInput: boolean }[]) {
            if (!e.hadRecentInput) total += e.value;
          }
        };
        const observer = new PerformanceObserver((list) => add(list.getEntries()));
        observer.observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => {
          add(observer.takeRecords());
          observer.disconnect();
          resolve(total);
        }, 200);
      }),
  );
}

/** Opens the header's menu where it is folded (a phone); on a desk's screen it is always open. */
export async function openMenu(page: Page) {
  const menu = page.locator('details.site-menu');
  const summary = menu.locator('summary');
  if ((await summary.isVisible()) && !(await menu.evaluate((d) => (d as HTMLDetailsElement).open))) {
    await summary.click();
  }
}

/** Signs in through the form and waits for the page it lands on. */
export async function signIn(page: Page, username: string, password = PASSWORD, next = '/') {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await waitForHydration(page);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // On a phone the name is in the header's folded menu: there, not shown.
  await expect(page.getByTestId('signed-in-as')).toBeAttached();
  // Signing in loads the next page in full: what a test types before the app has
  // taken it over would be wiped by hydration.
  await waitForHydration(page);
}
