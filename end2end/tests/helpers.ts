import { expect, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

/** Fails the test with the list of axe-core violations on the current page. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, 'axe-core violations').toEqual([]);
}

/** Waits until the Leptos app has taken over the server-rendered page. */
export async function waitForHydration(page: Page) {
  await expect(page.getByTestId('connection')).not.toHaveText(/Checking/);
}
