import { test, expect, Page } from '@playwright/test';
import { expectAccessible, signIn, PASSWORD } from './helpers';

// Issue #37, finding 18, at the desk's screen: the users list with the form at
// the top, searchable, disabled accounts apart; the audit log by date range,
// its actions in words (a change showing only what changed: server/tests/accounts.rs).

test.use({ viewport: { width: 1366, height: 768 } });

async function create(page: Page, username: string, name: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Badge number').fill('777');
  await page.getByLabel('Initial password').fill('a long first password here');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId(`user-${username}`)).toBeVisible();
}

test('the users list: the form first, a search, disabled accounts apart', async ({ page }) => {
  const run = Date.now().toString(36);
  const [kept, gone] = [`keep${run}`, `gone${run}`];
  await signIn(page, 'admin', PASSWORD, '/admin/users');
  const form = page.getByRole('heading', { name: 'New account' });
  const inUse = page.getByRole('heading', { name: 'Accounts in use' });
  await expect(form).toBeInViewport();
  expect((await form.boundingBox())!.y).toBeLessThan((await inUse.boundingBox())!.y);
  await create(page, kept, 'Officer Wren Keeper');
  await create(page, gone, 'Officer Ash Leaver');

  // Disabled, the account moves to its own section.
  await page.getByTestId(`user-${gone}`).getByRole('button', { name: 'Disable' }).click();
  await page.getByTestId(`user-${gone}`).getByRole('button', { name: 'Yes, disable' }).click();
  await expect(page.getByTestId('user-saved')).toContainText(`Saved: ${gone} is disabled`);
  const disabled = page.getByRole('region', { name: 'Disabled accounts' });
  const active = page.getByRole('region', { name: 'Accounts in use' });
  await expect(disabled.getByTestId(`user-${gone}`)).toBeVisible();
  await expect(active.getByTestId(`user-${gone}`)).toHaveCount(0);
  await expect(active.getByTestId(`user-${kept}`)).toBeVisible();

  // Search by part of a name, a username, a role.
  const search = page.getByLabel('Find an account');
  await search.fill('wren keep');
  await expect(page.getByTestId(`user-${kept}`)).toBeVisible();
  await expect(page.getByTestId('user-chief')).toBeHidden();
  await expect(page.getByTestId('users-found')).toHaveText(/^1 of \d+ accounts match\.$/);
  await search.fill(gone);
  await expect(page.getByTestId(`user-${gone}`)).toBeVisible();
  await expect(page.getByTestId(`user-${kept}`)).toBeHidden();
  await search.fill('court clerk');
  await expect(page.getByTestId('user-clerk')).toBeVisible();
  await expect(page.getByTestId('user-chief')).toBeHidden();
  await search.fill('no such account anywhere');
  await expect(page.getByTestId('users-found')).toHaveText('No account matches.');
  await search.fill('');
  await expect(page.getByTestId('user-chief')).toBeVisible();
  await expectAccessible(page);
});

test('the audit log: a date range with its errors by field, actions in words', async ({ page }) => {
  await signIn(page, 'admin', PASSWORD, '/admin/audit');
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  // Actions in words, never their codes.
  const entries = page.getByRole('region', { name: 'Audit entries' });
  await expect(entries.getByRole('cell', { name: 'Sign-in', exact: true }).first()).toBeVisible();
  expect(await entries.innerText()).not.toContain('session.sign_in');
  await expect(page.getByLabel('Action', { exact: true }).locator('option', { hasText: 'Court settings changed' })).toHaveCount(1);

  // A range the wrong way round: the error is at the To date, naming it.
  await page.getByLabel('From (date)').fill('2026-12-07');
  await page.getByLabel('To (date)').fill('2026-12-01');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('to_date-error')).toHaveText('To (date): on or after the From date (2026-12-07).');
  await expect(page.getByLabel('To (date)')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);

  // Today's range (the Town's day, as the browser's clock gives it here) finds today's sign-ins;
  // a range that ended before the suite began finds none.
  const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA', { timeZone: 'America/New_York' }));
  await page.getByLabel('From (date)').fill(today);
  await page.getByLabel('To (date)').fill(today);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('to_date-error')).toHaveText('');
  await expect(entries.getByRole('cell', { name: 'Sign-in', exact: true }).first()).toBeVisible();
  await page.getByLabel('From (date)').fill('2020-01-01');
  await page.getByLabel('To (date)').fill('2020-01-31');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(entries.locator('tbody tr')).toHaveCount(0);
});
