import { test, expect } from '@playwright/test';
import { expectAccessible, signIn, PASSWORD } from './helpers';

// Issue #37, finding 16: each desk's start page says where its work is. The
// chief sees how many reports wait (as the queue counts them: "200 or more"
// once it is full) and the way to the queue, register, dashboard and the
// month's publication; the court clerk the filing queue, register and
// calendar; the administrator users, audit log and court settings.

test.use({ viewport: { width: 1366, height: 768 } });

test('the chief starts from the queue count and the desk links', async ({ page }) => {
  await signIn(page, 'chief', PASSWORD, '/');
  await expect(page).toHaveURL(/\/$/);
  const waiting = page.getByTestId('queue-waiting');
  const count = await page.request.post('/api/review/queue', {
    data: { filter: {} },
    headers: { Origin: new URL(page.url()).origin },
  });
  const rows = (await count.json()).length as number;
  await expect(waiting).toHaveText(rows >= 200 ? '200 or more reports wait for review.'
    : rows === 0 ? 'Nothing is waiting for review.'
      : rows === 1 ? '1 report waits for review.' : `${rows} reports wait for review.`);
  const desks = page.locator('ul.desks');
  for (const [name, href] of [
    ['Review queue', '/review'], ['Register', '/register'], ['Dashboard', '/dashboard'],
    ['Publish a month', '/transparency/publish'],
  ]) {
    await expect(desks.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await expectAccessible(page);
  await desks.getByRole('link', { name: 'Review queue', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Review queue' })).toBeVisible();
});

test('the court clerk and the administrator start from their own work', async ({ page }) => {
  await signIn(page, 'clerk', PASSWORD, '/');
  const desks = page.locator('ul.desks');
  for (const [name, href] of [['Filing queue', '/court'], ['Clerk\'s register', '/court/register']]) {
    await expect(desks.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await expect(page.getByTestId('queue-waiting')).toHaveCount(0);
  await expectAccessible(page);

  await page.context().clearCookies();
  await signIn(page, 'admin', PASSWORD, '/');
  for (const [name, href] of [['Users', '/admin/users'], ['Audit log', '/admin/audit'], ['Court settings', '/admin/settings']]) {
    await expect(page.locator('ul.desks').getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await expectAccessible(page);
});
