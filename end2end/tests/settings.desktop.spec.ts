import { expect, test } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';

test.describe('court settings', () => {
  test('an administrator sees a field error for a bad value, then saves, and the value stays', async ({ page }) => {
    await signIn(page, 'admin', undefined, '/admin/settings');
    await expect(page.getByRole('heading', { name: 'Court settings' })).toBeVisible();
    const days = page.getByLabel('Days from issue to the answer date');
    await expect(days).toHaveValue('21');
    await expectAccessible(page);

    await days.fill('0');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Days to answer: 1 to 120.');
    await expect(page.getByTestId('settings-saved')).toHaveCount(0);

    // Saved with the suite's values unchanged in meaning, so other specs' citations agree.
    const address = page.getByLabel('Court address');
    await address.fill('York District Court, 11 Chases Pond Road, York, ME 03909 ');
    await days.fill('21');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByTestId('settings-saved')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Days from issue to the answer date')).toHaveValue('21');
    await expectAccessible(page);
  });

});
