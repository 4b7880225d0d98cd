import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { PDFParse } from 'pdf-parse';
import { expectAccessible, signIn, waitForHydration, PASSWORD } from './helpers';
import { unique } from './field-helpers';
import { approve, officerContext, parseCsv, submitReport } from './desk-helpers';

// The court clerk at desktop size (issue #7): the filing queue with its
// deadlines, CSV and PDF exports of three citations (the files are read back),
// marking them filed, a payment and a dismissal; no one else sees these pages.

// The clerk's computer keeps a zone 19 hours ahead of Wells, so for most of the
// day its calendar has already turned: the dates the pages offer must be the
// Town's (a filing dated by the browser's calendar would be "in the future").
test.use({ timezoneId: 'Pacific/Kiritimati' });

/** Today on the Town's calendar (the server's default zone), as YYYY-MM-DD. */
function townToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
}

test('the clerk exports, files and records what the court decided', async ({ page, browser }) => {
  // Eight page loads of the debug build, two downloads and three accessibility
  // scans: more than the default minute on a loaded 2-core machine.
  test.setTimeout(150_000);
  const officer = await officerContext(browser, page);
  const chief = await officerContext(browser, page, 'chief');
  const run = unique('Court');
  const names = ['Zoë Lévesque', "Seán O'Brien", 'Marie-Claire Thibodeau'];
  const numbers: string[] = [];
  for (const [i, name] of names.entries()) {
    const r = await submitReport(officer, `Court Lane ${i} ${run}`, name);
    await approve(chief, r.incidentId);
    numbers.push(r.number);
  }
  await officer.close();
  await chief.close();

  await signIn(page, 'clerk', PASSWORD, '/court');
  await page.goto('/court');
  await expect(page.getByRole('heading', { name: 'Filing queue' })).toBeVisible();
  await waitForHydration(page);
  for (const n of numbers) {
    const row = page.getByTestId('filing-row').filter({ hasText: n });
    await expect(row.getByTestId('days-left')).toHaveText('5 days left');
    await row.getByLabel(`Select ${n}`).check();
  }
  await expect(page.getByText('3 citation(s) selected')).toBeVisible();
  await expectAccessible(page);

  // CSV: parses, with the documented header, each number, the fine, the names byte for byte.
  // The byte-order mark for Excel is on unless turned off (issue #37, finding 15).
  await expect(page.getByLabel(/CSV for Excel/).first()).toBeChecked();
  await expect(page.getByRole('button', { name: 'Export range as JSON' })).toBeVisible();
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const csvBytes = await readFile((await csvDownload.path())!);
  expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const csv = parseCsv(csvBytes.subarray(3).toString('utf8'));
  expect(csv[0].slice(0, 4)).toEqual(['citation_number', 'status', 'amended_filing', 'issued_at']);
  expect(csv[0]).toContain('batch_id');
  expect(csv).toHaveLength(4);
  const byNumber = new Map(csv.slice(1).map((r) => [r[0], r]));
  for (const [i, n] of numbers.entries()) {
    const row = byNumber.get(n)!;
    expect(row[csv[0].indexOf('subject_name')]).toBe(names[i]);
    expect(row[csv[0].indexOf('fine')]).toBe('$100.00');
  }

  // PDF: its text, read by a PDF text extractor, names each citation and the fine.
  const [pdfDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-pdf').click()]);
  const parser = new PDFParse({ data: await readFile((await pdfDownload.path())!) });
  const text = (await parser.getText()).text;
  await parser.destroy();
  for (const n of numbers) expect(text).toContain(n);
  expect(text).toContain('$100.00');
  expect(text).toContain('DOCKET');

  // Mark filed, dated the Town's today: they leave the queue.
  await expect(page.getByLabel('Date filed')).toHaveValue(townToday());
  await page.getByLabel("Court's filing reference").fill(`YORDC-CV-${run}`);
  // Asked first, with the count and the numbers (issue #37, finding 14).
  await page.getByTestId('mark-filed').click();
  const asked = page.getByRole('group', { name: 'Mark selected filed' });
  await expect(asked).toContainText('Mark 3 citation(s) filed with the court');
  for (const n of numbers) await expect(asked).toContainText(n);
  await page.getByTestId('mark-filed-confirm').click();
  await expect(page.getByTestId('file-result')).toContainText('3 citation(s) marked filed: ');
  for (const n of numbers) await expect(page.getByTestId('file-result')).toContainText(n);
  for (const n of numbers) await expect(page.getByTestId('filing-row').filter({ hasText: n })).toHaveCount(0);

  // A payment.
  await page.goto(`/court/citations/${numbers[0]}`);
  await waitForHydration(page);
  await expect(page.getByTestId('court-status')).toHaveText('Filed with the court');
  await expect(page.getByLabel('Date of the decision or payment')).toHaveValue(townToday());
  await page.getByLabel('Paid', { exact: true }).check();
  await page.getByLabel('Amount paid ($)').fill('135.00');
  await page.getByTestId('save-disposition').click();
  await expect(page.getByText('The citation will be closed as disposed')).toBeVisible();
  await page.getByTestId('save-disposition-confirm').click();
  await expect(page.getByTestId('disposition-saved')).toContainText('Disposed by the court');
  await expect(page.getByTestId('paid')).toHaveText('$135.00');
  await expect(page.getByTestId('court-history')).toContainText('Paid');
  // The form shows what is recorded, and a change needs a reason.
  await expect(page.getByLabel('Paid', { exact: true })).toBeChecked();
  await page.getByLabel('Dismissed').check();
  await page.getByTestId('save-disposition').click();
  await expect(page.getByText('from “Paid” to “Dismissed”')).toBeVisible();
  await page.getByTestId('save-disposition-confirm').click();
  await expect(page.locator('#reason-error')).toContainText('Reason: required');
  await expect(page.getByTestId('court-disposition')).toHaveText('Paid');
  await page.getByLabel(/Reason for changing the recorded decision/).fill('Payment was entered against the wrong citation.');
  await page.getByTestId('save-disposition').click();
  await page.getByTestId('save-disposition-confirm').click();
  await expect(page.getByTestId('court-disposition')).toHaveText('Dismissed');
  await page.getByLabel('Paid', { exact: true }).check();
  await page.getByLabel('Amount paid ($)').fill('135.00');
  await page.getByLabel(/Reason for changing the recorded decision/).fill('Court corrected its notice: it was paid.');
  await page.getByTestId('save-disposition').click();
  await page.getByTestId('save-disposition-confirm').click();
  await expect(page.getByTestId('court-disposition')).toHaveText('Paid');
  await expectAccessible(page);

  // A dismissal.
  await page.goto(`/court/citations/${numbers[1]}`);
  await waitForHydration(page);
  await page.getByLabel('Dismissed').check();
  await page.getByTestId('save-disposition').click();
  await page.getByTestId('save-disposition-confirm').click();
  await expect(page.getByTestId('court-disposition')).toHaveText('Dismissed');

  // The clerk's register finds them by status.
  await page.goto('/court/register?status=disposed');
  for (const n of numbers.slice(0, 2)) await expect(page.getByTestId('court-row').filter({ hasText: n })).toHaveCount(1);
  await expect(page.getByTestId('court-row').filter({ hasText: numbers[2] })).toHaveCount(0);
  await page.goto(`/court/register?number=${numbers[2]}`);
  await expect(page.getByTestId('court-row')).toContainText('Filed with the court');
  await expectAccessible(page);
});

test('an officer or the chief cannot open the clerk pages', async ({ page }) => {
  for (const who of ['officer', 'chief']) {
    await signIn(page, who, PASSWORD, '/');
    for (const path of ['/court', '/court/register']) {
      const response = await page.goto(path);
      expect(response?.status(), `${who} at ${path}`).toBe(403);
    }
    const exported = await page.request.post('/court/export', {
      form: { format: 'csv', numbers: 'WPD-2026-000001' },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(exported.status()).toBe(403);
    await page.context().clearCookies();
  }
});
