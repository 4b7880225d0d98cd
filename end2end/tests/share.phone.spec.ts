import { expect, test } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';
import { Inputs, openNewForm, orderGiven, refusedAndCited, submit, unique, where } from './field-helpers';

// Issue #35: the subject's copy had PDF and Print but no Share. Where the phone
// has a share sheet (Web Share), the copy's PDF goes to it as a file; where it
// has none (this desk's Chromium), no Share button is shown.

test('the subject\'s copy is shared as its PDF where the phone has a share sheet, and offers none where it has not', async ({ page }) => {
  await signIn(page, 'officer2', undefined, '/field/new');
  await openNewForm(page);
  const input = new Inputs(page);
  await where(page, input, unique('Sanford Road'), 'Sidewalk');
  await orderGiven(page, input);
  await refusedAndCited(page, input, 0, { name: 'Rowan Share', dob: '1991-01-01', address: '5 Sanford Rd, Wells, ME' });
  await page.getByLabel('What each person did').fill('Stood across the sidewalk; told to move on; stayed.');
  await submit(page, input);
  const number = (await page.getByTestId('receipt').getByTestId('citation-number').textContent())!.trim();

  // No share sheet: no button.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
  });
  await page.goto(`/citations/${number}`);
  await expect(page.locator('html[data-ready]')).toHaveCount(1);
  await expect(page.getByTestId('share-copy')).toHaveCount(0);

  // A phone's share sheet, recorded.
  const context = page.context();
  const phone = await context.newPage();
  await phone.addInitScript(() => {
    const shared: unknown[] = [];
    (window as unknown as { shared: unknown[] }).shared = shared;
    Object.defineProperty(navigator, 'canShare', { value: (d: { files?: File[] }) => !!d.files, configurable: true });
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: async (d: { title: string; files: File[] }) => {
        const f = d.files[0];
        const head = new TextDecoder().decode((await f.arrayBuffer()).slice(0, 5));
        shared.push({ title: d.title, name: f.name, type: f.type, size: f.size, head });
      },
    });
  });
  await phone.goto(`/citations/${number}`);
  await expect(phone.locator('html[data-ready]')).toHaveCount(1);
  await phone.getByTestId('share-copy').click();
  await expect
    .poll(() => phone.evaluate(() => (window as unknown as { shared: unknown[] }).shared))
    .toEqual([expect.objectContaining({ title: `Summons ${number}`, name: `${number}.pdf`, type: 'application/pdf', head: '%PDF-' })]);
  await expectAccessible(phone);
});
