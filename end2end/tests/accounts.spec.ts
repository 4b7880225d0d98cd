import { test, expect } from '@playwright/test';
import { expectAccessible, openMenu, signIn, waitForHydration, PASSWORD } from './helpers';

test.describe('accounts', () => {
  test('sign in, see your name, sign out', async ({ page }) => {
    await page.goto('/sign-in');
    await waitForHydration(page);
    await expectAccessible(page);
    await signIn(page, 'officer');
    await expect(page.getByTestId('signed-in-as')).toContainText('Officer Sam Price');
    await expect(page.getByTestId('signed-in-as')).toContainText('badge 117');
    await openMenu(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByText('Not signed in')).toBeVisible();
    // The session is gone on the server too: the admin API refuses the old cookie.
    const me = await page.request.post('/api/session/me', { data: {}, headers: { Origin: new URL(page.url()).origin } });
    expect(await me.json()).toBeNull();
  });

  test('five wrong passwords lock the account; the right one is then refused', async ({ page }, testInfo) => {
    const username = `lockme-${testInfo.project.name}`;
    await page.goto('/sign-in');
    await waitForHydration(page);
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password', { exact: true }).fill(`wrong password ${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toContainText('Sign-in failed');
    }
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText('Sign-in failed');
    await expect(page.getByTestId('signed-in-as')).toHaveCount(0);
    await expectAccessible(page);
  });

  test('an officer gets a 403 page, not a crash, on the admin pages', async ({ page }) => {
    await signIn(page, 'officer');
    for (const path of ['/admin/users', '/admin/audit', '/admin/settings']) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole('heading', { name: 'Not permitted' })).toBeVisible();
      await expectAccessible(page);
    }
  });

  test('a signed-out visitor is sent to sign in and then back', async ({ page }) => {
    await page.goto('/admin/audit');
    await expect(page).toHaveURL(/\/sign-in\?next=(%2F|\/)admin(%2F|\/)audit$/);
    await waitForHydration(page);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Sign-in', exact: true }).first()).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('administrator', () => {
  test('creates an account, resets its password, and the user must change it', async ({ page, browser }, testInfo) => {
    const username = `newhire-${testInfo.project.name}`;
    await signIn(page, 'admin', PASSWORD, '/admin/users');
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Full name').fill('Officer New Hire');
    await page.getByLabel('Badge number').fill('555');
    await page.getByLabel('Initial password').fill('a long first password here');
    await page.getByRole('button', { name: 'Create account' }).click();
    const row = page.getByTestId(`user-${username}`);
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: 'Reset password' }).click();
    await expect(row.getByRole('status')).toContainText('The old one stops working');
    await row.getByRole('button', { name: 'Yes, reset it' }).click();
    // Shown in the row that was reset, where the administrator is looking (issue #37, finding 13).
    const shown = row.getByTestId('temporary-password');
    await expect(shown).toBeInViewport();
    const temporary = (await shown.locator('code').textContent())!.trim();
    await expect(row).toContainText('must change password');

    const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL, ...testInfo.project.use });
    const user = await other.newPage();
    await signIn(user, username, temporary);
    await expect(user).toHaveURL(/\/account\/password/);
    // A full page load: typing before the app takes over would be wiped by hydration.
    await waitForHydration(user);
    await expect(user.getByText('An administrator reset your password')).toBeVisible();
    await expectAccessible(user);
    await user.getByLabel('Current password').fill(temporary);
    await user.getByLabel('New password', { exact: true }).fill('my own phrase for patrol');
    await user.getByLabel('New password again').fill('my own phrase for patrol');
    await user.getByRole('button', { name: 'Change password' }).click();
    await expect(user.getByText('Password changed')).toBeVisible();
    await other.close();
  });

  test('roles and disabling ask first, say what they will do, and show what was saved', async ({ page }, testInfo) => {
    const username = `rolechange-${testInfo.project.name}`;
    await signIn(page, 'admin', PASSWORD, '/admin/users');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Full name').fill('Clerk Role Change');
    await page.getByLabel('Initial password').fill('a long first password here');
    await page.getByLabel('Court clerk', { exact: true }).check();
    await page.getByLabel('Officer', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Create account' }).click();
    const row = page.getByTestId(`user-${username}`);
    await expect(row).toBeVisible();

    // One tick changes nothing until saved; saving asks, naming the change.
    const admin = row.getByLabel(`Administrator for ${username}`);
    await admin.check();
    await row.getByRole('button', { name: 'Save roles' }).click();
    await expect(row.getByRole('status')).toContainText('gives Administrator');
    await row.getByRole('button', { name: 'Cancel' }).click();
    await page.reload();
    await expect(page.getByTestId(`user-${username}`).getByLabel(`Administrator for ${username}`)).not.toBeChecked();

    const again = page.getByTestId(`user-${username}`);
    await again.getByLabel(`Administrator for ${username}`).check();
    await again.getByRole('button', { name: 'Save roles' }).click();
    await again.getByRole('button', { name: 'Yes, save' }).click();
    await expect(page.getByTestId('user-saved')).toContainText(`Saved: ${username}'s roles are now`);
    await expect(page.getByTestId('user-saved')).toContainText('Administrator');
    await expect(page.getByTestId(`user-${username}`).getByLabel(`Administrator for ${username}`)).toBeChecked();

    // A refused change (the administrator's own role) leaves the boxes as saved.
    const me = page.getByTestId('user-admin');
    await me.getByLabel('Officer for admin').check();
    await me.getByLabel('Administrator for admin').uncheck();
    await me.getByRole('button', { name: 'Save roles' }).click();
    await me.getByRole('button', { name: 'Yes, save' }).click();
    await expect(page.getByRole('alert')).toContainText('You cannot remove your own administrator role');
    await expect(page.getByTestId('user-admin').getByLabel('Administrator for admin')).toBeChecked();
    await expect(page.getByTestId('user-admin').getByLabel('Officer for admin')).not.toBeChecked();

    const target = page.getByTestId(`user-${username}`);
    await target.getByRole('button', { name: 'Disable' }).click();
    await expect(target.getByRole('status')).toContainText('their sessions end');
    await target.getByRole('button', { name: 'Yes, disable' }).click();
    await expect(page.getByTestId('user-saved')).toContainText(`Saved: ${username} is disabled`);
    await expect(page.getByTestId(`user-${username}`)).toContainText('Disabled');
    await expectAccessible(page);
  });
});
