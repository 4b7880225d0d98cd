import { test, expect, Page } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';
import {
  AT_ONCE, charge, chargeWith, did, expression, identify, Inputs, openNewForm, orderGiven, PEDESTRIANS, person,
  respondedNow, response, STAYED, submit, unique, where,
} from './field-helpers';

// Issue #33, "the law, second reading", on the officer's form at 390 × 844:
// no citation without a chance to obey, one §52-1 violation per refusal, coming
// back is not refusing, each person's own place, §52-1 E's proviso, minors.

const ALEX = { name: 'Alex Morgan', dob: '1990-02-03', address: '12 Main Street, Wells, ME' };

/** The verdict shown under person `i`'s charge of the offence whose reference starts the label. */
function verdictOf(page: Page, i: number, reference: string) {
  return charge(page, i).locator('.offence').filter({ hasText: reference }).getByRole('status');
}

/** A person who stood across the sidewalk and was ordered to move on: the standard §52-1 A(1) facts. */
async function blockedTheSidewalk(page: Page, input: Inputs, minutes: string) {
  await where(page, input, unique('Post Road at Mile Road'), 'Sidewalk');
  await orderGiven(page, input, 'Stop blocking the way and move on.', minutes);
  await identify(page, input, 0, ALEX);
  await expression(page, input, 0);
  await did(page, input, 0, STAYED, PEDESTRIANS);
}

test.describe('Article I on the form, second reading', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'officer', undefined, '/field/new');
    await openNewForm(page);
  });

  test("the order's time to comply starts unset and must be chosen", async ({ page }) => {
    await page.getByRole('button', { name: 'Stop blocking the way and move on.' }).click();
    const times = page.getByRole('group', { name: 'Time allowed to comply' });
    await expect(times.getByRole('radio')).toHaveCount(5);
    for (const radio of await times.getByRole('radio').all()) await expect(radio).not.toBeChecked();
    await expect(times.getByLabel(AT_ONCE)).toBeVisible();
    await page.getByTestId('submit-report').click();
    const error = page.locator('#orders-0-minutes_to_comply-error');
    await expect(error).toContainText('§52-1 D: choose the time allowed to comply');
    await expect(page.getByTestId('form-errors')).toContainText('§52-1 D: choose the time allowed to comply');
    await expectAccessible(page);
    await times.getByLabel(AT_ONCE).click();
    await expect(error).toBeEmpty();
    await expect(page.getByTestId('form-errors')).not.toContainText('choose the time allowed to comply');
  });

  test('a "Did not stop or move" in the order\'s minute is refused with §52-1 D named', async ({ page }) => {
    const input = new Inputs(page);
    await blockedTheSidewalk(page, input, AT_ONCE);
    await response(page, 0).getByLabel('Failed or refused to obey').click();
    await response(page, 0).getByLabel('Did not stop or move').click();
    const orderAt = await page.locator('#orders-0-given_at').inputValue();
    const at = page.locator('#subjects-0-response_at');
    await at.fill(orderAt);
    // Leaving the time shows its problem (and the list at the top grows): tap
    // on only once it has.
    await page.getByLabel('What each person did').fill('Stood across the sidewalk; did not move when told.');
    await expect(page.locator('#subjects-0-response_at-error')).toContainText(
      '§52-1 D: recorded in the minute the order was given',
    );
    await chargeWith(page, input, 0, '§52-1 A(1), D');
    const verdict = verdictOf(page, 0, '§52-1 A(1), D');
    await expect(verdict).toContainText('§52-1 A(1), D: not citable');
    await expect(verdict).toContainText('§52-1 D: recorded in the minute the order was given');
    await expect(charge(page, 0).getByLabel(/^Issue citation/)).toHaveCount(0);
    await expect(at).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page);
    // An outright refusal counts at once, even in the order's minute.
    await at.fill(orderAt);
    await response(page, 0).getByLabel('Refused out loud').click();
    await expect(verdict).toContainText('citable — $100.00 plus costs');
  });

  test('one refusal is one §52-1 violation: ticking a second §52-1 citation unticks the first, saying why', async ({ page }) => {
    const input = new Inputs(page);
    await blockedTheSidewalk(page, input, '2 min');
    await did(
      page, input, 0,
      'Created a disturbance or annoyance',
      'It caused a person discomfort or alarm',
      'That person was lawfully going in, to or from a building, dwelling or public place',
    );
    await response(page, 0).getByLabel('Failed or refused to obey').click();
    await response(page, 0).getByLabel('Refused out loud').click();
    await respondedNow(page, input, 0);
    await chargeWith(page, input, 0, '§52-1 A(1), D');
    await chargeWith(page, input, 0, '§52-1 A(3), D');
    const citeA1 = charge(page, 0).getByLabel('Issue citation — §52-1 A(1), D $100.00 plus costs (§52-4)');
    const citeA3 = charge(page, 0).getByLabel('Issue citation — §52-1 A(3), D $100.00 plus costs (§52-4)');
    await citeA1.click();
    await expect(citeA1).toBeChecked();
    await citeA3.click();
    await expect(citeA3).toBeChecked();
    await expect(citeA1).not.toBeChecked();
    const why = charge(page, 0).getByTestId('one-section-52-1-citation');
    await expect(why).toContainText(
      '§52-1 D: one refusal of one order is one violation of §52-1 — the citation for §52-1 A(1), D was unticked for §52-1 A(3), D',
    );
    // Both stay charged; A(3) carries the "annoyance" caution for the chief.
    await expect(charge(page, 0).getByLabel(/^§52-1 A\(1\), D /)).toBeChecked();
    await expect(verdictOf(page, 0, '§52-1 A(3), D')).toContainText('Coates v. Cincinnati, 402 U.S. 611 (1971)');
    await expect(page.getByTestId('outcome')).toContainText('Cited — $100.00 plus costs');
    await expectAccessible(page);
  });

  test('coming back is a refusal only with the conduct resumed; "Left, then came back" is not offered', async ({ page }) => {
    const input = new Inputs(page);
    await blockedTheSidewalk(page, input, '5 min');
    await response(page, 0).getByLabel('Failed or refused to obey').click();
    const manners = response(page, 0).getByRole('group', { name: 'How they failed or refused' });
    await expect(manners.getByLabel('Left, then came back')).toHaveCount(0);
    await manners.getByLabel('Came back and resumed the conduct the order stopped').click();
    await expect(manners).toContainText('Coming back peacefully is not a refusal.');
    // Resuming the conduct is acting against the order: a refusal at once,
    // inside the five minutes allowed.
    await page.locator('#subjects-0-response_at').fill(await page.locator('#orders-0-given_at').inputValue());
    await chargeWith(page, input, 0, '§52-1 A(1), D');
    await expect(verdictOf(page, 0, '§52-1 A(1), D')).toContainText('citable — $100.00 plus costs');
    await expectAccessible(page);
  });

  test('each person is judged where they were: one on a porch, one in the street', async ({ page }) => {
    const input = new Inputs(page);
    await where(page, input, unique('Sea Road'), 'Street');
    await page.getByRole('button', { name: 'Add another person' }).click();
    for (const [i, who] of [[0, ALEX], [1, { name: 'Sam Roe', dob: '1992-04-05', address: '2 Sea Road, Wells, ME' }]] as const) {
      await identify(page, input, i, who);
      await expression(page, input, i);
      await did(page, input, i, 'Made a loud noise', '…and it disturbed the quiet and good order of the Town');
      await response(page, i).getByLabel('No order given to this person').click();
      await chargeWith(page, input, i, '§52-3');
    }
    // No tap when the person was where the incident was.
    const place = person(page, 1).getByTestId('person-place');
    await expect(place.locator('summary')).toHaveText('Where was this person? Same place as the incident — Street');
    const porch = person(page, 0).getByTestId('person-place');
    await porch.locator('summary').click();
    await porch.getByLabel('In, about or next to a building or dwelling').click();
    await expect(porch.locator('summary')).toHaveText('Where was this person? In, about or next to a building or dwelling');
    await expect(verdictOf(page, 0, '§52-3')).toContainText('§52-3: not citable');
    await expect(verdictOf(page, 0, '§52-3')).toContainText(
      '§52-3: applies in a street or public place (§52-1 C); the place recorded for this person is a building or dwelling',
    );
    await expect(verdictOf(page, 1, '§52-3')).toContainText('§52-3: citable — $100.00 plus costs');
    await expectAccessible(page);
  });

  test("§52-1 E's proviso: expression contravening another law names the law and goes to the chief", async ({ page }) => {
    const input = new Inputs(page);
    await where(page, input, unique('Post Road at Mile Road'), 'Sidewalk');
    await orderGiven(page, input);
    await identify(page, input, 0, ALEX);
    await expect(person(page, 0).getByLabel('No — not expressing an opinion')).toBeVisible();
    await expression(page, input, 0, 'Expressing an opinion, but in contravention of another Town ordinance or a State or Federal law');
    await expect(person(page, 0).getByTestId('contravening-notice')).toBeVisible();
    await did(page, input, 0, STAYED, PEDESTRIANS);
    await response(page, 0).getByLabel('Failed or refused to obey').click();
    await response(page, 0).getByLabel('Refused out loud').click();
    await respondedNow(page, input, 0);
    // §52-1 is still offered: the expression is not shielded.
    await chargeWith(page, input, 0, '§52-1 A(1), D');
    await page.getByLabel('What each person did').fill('Blocked the sidewalk with an amplifier after 10 p.m.; refused to move.');
    await submit(page, input);
    const law = page.getByLabel('The law the expression contravened (ordinance or statute, with its section)');
    await expect(page.locator('#subjects-0-contravenes-error')).toContainText('§52-1 E: name the Town ordinance');
    await expect(law).toHaveAttribute('aria-invalid', 'true');
    await law.fill('Wells Code §86-3 (amplified sound after 10 p.m.)');
    const verdict = verdictOf(page, 0, '§52-1 A(1), D');
    await expect(verdict).toContainText('citable — $100.00 plus costs');
    await expect(verdict).toContainText("For the chief's review:");
    await expect(verdict).toContainText('contravened Wells Code §86-3 (amplified sound after 10 p.m.)');
    await expectAccessible(page);
  });

  test('a person under 18 is cautioned for the chief; a date of birth under 10 is refused', async ({ page }) => {
    const input = new Inputs(page);
    await blockedTheSidewalk(page, input, '2 min');
    const dob = person(page, 0).getByLabel('Date of birth');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await dob.fill(yesterday);
    await person(page, 0).getByLabel('Address', { exact: true }).focus();
    await expect(page.locator('#subjects-0-date_of_birth-error')).toContainText('younger than 10 — check the date');
    const sixteen = new Date();
    sixteen.setFullYear(sixteen.getFullYear() - 16);
    await dob.fill(sixteen.toISOString().slice(0, 10));
    await expect(page.locator('#subjects-0-date_of_birth-error')).toBeEmpty();
    await response(page, 0).getByLabel('Failed or refused to obey').click();
    await response(page, 0).getByLabel('Refused out loud').click();
    await respondedNow(page, input, 0);
    await chargeWith(page, input, 0, '§52-1 A(1), D');
    await charge(page, 0).getByLabel(/^Issue citation/).click();
    const cautions = charge(page, 0).getByTestId('person-cautions');
    await expect(cautions).toContainText('Person 1 is under 18');
    await expect(page.getByTestId('outcome')).toContainText('Cited — $100.00 plus costs');
    await expectAccessible(page);
  });

  test("the order's words and the location are screened for status words, as the narrative is", async ({ page }) => {
    const input = new Inputs(page);
    await where(page, input, 'Behind the store where the unhoused sleep', 'Sidewalk');
    await orderGiven(page, input);
    await page.getByLabel('Words of the order').fill('You kids stop hanging around here.');
    const notices = page.getByTestId('status-words');
    await expect(notices.filter({ hasText: 'The location uses status words: unhoused.' })).toHaveCount(1);
    await expect(
      notices.filter({ hasText: 'The words of the order uses status words: kids, hanging around.' }),
    ).toHaveCount(1);
    await expectAccessible(page);
  });
});
