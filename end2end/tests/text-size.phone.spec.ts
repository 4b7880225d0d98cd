import { expect, Page, test } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';
import { formReady, unique } from './field-helpers';
import { BASE, refusal } from './desk-helpers';

// Issue #35, WCAG 1.4.4 (resize text): at 150 % text the date-time fields cut
// off the time and the form overflowed to 515 px on a 390 px phone. Every
// officer page holds at 200 %: nothing wider than the screen, no field that
// hides part of its own value.

/** The browser's text size at `percent`, as a phone's accessibility setting sets it. */
async function textAt(page: Page, percent: number) {
  // Through the CSSOM: the page's policy refuses inline style sheets.
  await page.evaluate((p) => document.documentElement.style.setProperty('font-size', `${p}%`, 'important'), percent);
}

/** What is wider than the screen: the page itself, and each input cut short. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const page = document.documentElement.scrollWidth;
    const cut = [...document.querySelectorAll('input, select, textarea, button')]
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.right > width + 1 || r.left < -1;
      })
      .map((e) => e.id || e.getAttribute('name') || e.textContent?.trim().slice(0, 30) || e.tagName);
    // A date-time field does not wrap or scroll: its box must hold the widest
    // value it shows ("12/31/2026, 12:59 PM") and its calendar button.
    const measure = document.createElement('canvas').getContext('2d')!;
    const clipped = [...document.querySelectorAll('input[type="datetime-local"]')]
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .filter((e) => {
        const input = e as HTMLInputElement;
        const style = getComputedStyle(input);
        measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const text = measure.measureText('12/31/2026, 12:59 PM').width;
        const icon = 1.5 * parseFloat(style.fontSize);
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return room < text + icon;
      })
      .map((e) => e.id);
    return { width, page, cut, clipped };
  });
}

for (const [path, ready] of [
  ['/field/new', formReady],
  ['/field/gathering', async (page: Page) => { await expect(page.getByRole('heading', { level: 1 })).toBeVisible(); }],
  ['/field/reports', async (page: Page) => { await expect(page.getByRole('heading', { name: 'My reports' })).toBeVisible(); }],
] as const) {
  test(`${path} holds at 200 % text on a phone`, async ({ page }) => {
    await signIn(page, 'officer2', undefined, path);
    // A report with a citation, so My reports has rows whatever ran before (its
    // badges and numbers are what widened the page).
    const sent = await page.request.post('/api/incidents/submit', {
      data: refusal(unique('Post Road at Mile Road'), 'Alexandria Montgomery-Whitfield'),
      headers: { Origin: BASE },
    });
    expect(sent.ok(), await sent.text()).toBeTruthy();
    await page.goto(path);
    await ready(page);
    await textAt(page, 200);
    const found = await overflow(page);
    expect(found.page, `${path} is wider than the screen`).toBeLessThanOrEqual(found.width);
    expect(found.cut, 'controls past the screen edge').toEqual([]);
    expect(found.clipped, 'date and time fields that hide part of their value').toEqual([]);
    await expectAccessible(page);
  });
}

test('the sign-in page holds at 200 % text', async ({ page }) => {
  await page.goto('/sign-in');
  await textAt(page, 200);
  const found = await overflow(page);
  expect(found.page).toBeLessThanOrEqual(found.width);
  expect(found.cut).toEqual([]);
});
