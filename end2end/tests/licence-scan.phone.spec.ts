import { expect, Page, test } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';
import { openNewForm, person } from './field-helpers';
import { BARCODE, withCamera } from './licence-barcode';

// Issue #20: the barcode on the back of a licence fills the person's fields once
// the officer confirms what it says. Linux Chromium has no PDF417 BarcodeDetector,
// so the camera test exercises the decoder the app serves itself (zxing-wasm).

test.use(withCamera as Parameters<typeof test.use>[0]);

async function filled(page: Page) {
  const first = person(page, 0);
  await expect(first.getByLabel('Full name')).toHaveValue('JOHN QUINCY PUBLIC');
  await expect(first.getByLabel('Date of birth')).toHaveValue('1980-07-04');
  await expect(first.getByLabel('Address')).toHaveValue('123 POST RD, WELLS, ME 04090');
  await expect(first.getByLabel('ID number')).toHaveValue('1234567');
  await expect(first.getByLabel("Driver's license")).toBeChecked();
}

test.describe('scanning a licence on a phone', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'officer', undefined, '/field/new');
    await openNewForm(page);
  });

  test('the camera reads the barcode; the officer checks it and the fields fill', async ({ page }) => {
    const first = person(page, 0);
    await first.getByTestId('scan-licence').click();
    await first.getByTestId('scan-camera').click();
    const found = first.getByTestId('scan-found');
    await expect(found).toBeVisible({ timeout: 30_000 });
    await expect(found).toContainText('JOHN QUINCY PUBLIC');
    await expect(found).toContainText('1980-07-04');
    await expect(found).toContainText('1234567 (ME)');
    await expect(found).toContainText('eyes blue');
    // Nothing fills before the officer confirms.
    await expect(first.getByLabel('Full name')).toHaveValue('');
    await expectAccessible(page);
    await first.getByTestId('scan-fill').click();
    await filled(page);
    await expect(first.locator('.scan-panel')).toBeHidden();
  });

  test("a barcode reader's text reads the same; a barcode that is not a licence changes nothing", async ({ page }) => {
    const first = person(page, 0);
    await first.getByLabel('Full name').fill('Typed Name');
    await first.getByTestId('scan-licence').click();
    const box = first.getByLabel("Or a barcode reader's text (or paste it)");
    await box.fill('https://example.org/ticket/123');
    await first.getByTestId('scan-read').click();
    await expect(first.getByTestId('scan-problem')).toContainText("not a driver's license or ID card");
    await expect(first.getByTestId('scan-found')).toHaveCount(0);
    await box.fill(BARCODE.slice(0, BARCODE.indexOf('DAQ') + 5));
    await first.getByTestId('scan-read').click();
    await expect(first.getByTestId('scan-problem')).toContainText('ends early');
    await expect(first.getByLabel('Full name')).toHaveValue('Typed Name');
    await box.fill(BARCODE);
    await first.getByTestId('scan-read').click();
    await expect(first.getByTestId('scan-problem')).toBeEmpty();
    await first.getByTestId('scan-fill').click();
    await filled(page);
  });
});
