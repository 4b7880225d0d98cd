import { expect, Page, test } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';
import { charge, Inputs, openNewForm, orderGiven, refusedAndCited, submit, unique, where } from './field-helpers';

// Issue #20: the officer's signature, drawn once, and the person's, drawn on the
// officer's phone at issue, both print on the summons.

/** Two strokes across the pad with the pointer, as a finger draws them. */
async function sign(page: Page, testid: string) {
  const pad = page.getByTestId(testid);
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  for (const [from, to] of [[0.75, 0.2], [0.35, 0.65]]) {
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * from);
    await page.mouse.down();
    for (let k = 1; k <= 8; k++) {
      await page.mouse.move(box.x + box.width * (0.1 + 0.1 * k), box.y + box.height * (from + ((to - from) * k) / 8));
    }
    await page.mouse.up();
  }
}

test('the officer signs once; the person signs on the phone; both print on the summons', async ({ page }) => {
  await signIn(page, 'officer', undefined, '/account/signature');
  await expect(page.getByRole('heading', { name: 'My signature' })).toBeVisible();
  const save = page.getByRole('button', { name: 'Save signature' });
  await expect(save).toBeDisabled();
  await sign(page, 'officer-signature');
  await save.click();
  await expect(page.getByText('Saved. Summonses you issue from now on carry it.')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Your signature on file' })).toBeVisible();
  await expectAccessible(page);

  await openNewForm(page);
  const input = new Inputs(page);
  await where(page, input, unique('Post Road at Mile Road'), 'Sidewalk');
  await orderGiven(page, input);
  await refusedAndCited(page, input, 0, { name: 'Robin Hale', dob: '1991-03-04', address: '3 Main Street, Wells, ME' });
  const signature = charge(page, 0);
  await expect(signature.getByLabel('Not asked')).toBeChecked();
  await signature.getByLabel('Signs on this phone').click();
  await sign(page, 'person-signature');
  await page.getByLabel('What each person did').fill('Stood across the sidewalk; pedestrians stepped into the road. Told to move on; stayed.');
  await expectAccessible(page);
  await submit(page, input);
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toBeVisible();
  const number = (await receipt.getByTestId('citation-number').textContent())!.trim();

  const pdf = await page.request.get(`/citations/${number}/pdf`);
  expect(pdf.status()).toBe(200);
  const bytes = (await pdf.body()).toString('latin1');
  expect(bytes).toContain('/OfficerSignature BMC');
  expect(bytes).toContain('/DefendantSignature BMC');
});
