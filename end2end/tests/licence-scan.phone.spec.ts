import { expect, Page, test } from '@playwright/test';
import bwipjs from 'bwip-js';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchOptions } from '../playwright.config';
import { expectAccessible, signIn } from './helpers';
import { openNewForm, person } from './field-helpers';

// Issue #20: the barcode on the back of a licence fills the person's fields once
// the officer confirms what it says. Linux Chromium has no PDF417 BarcodeDetector,
// so the camera test exercises the decoder the app serves itself (zxing-wasm).

/** A Maine licence's barcode text as a card printer writes it (AAMVA version 10):
 *  the header, the subfile list with true offsets and lengths, the card's
 *  subfile and a jurisdiction subfile. */
function licenceText(): string {
  const elements: [string, string][] = [
    ['DCA', 'C'], ['DBA', '07042031'], ['DCS', 'PUBLIC'], ['DAC', 'JOHN'], ['DAD', 'QUINCY'],
    ['DBD', '07042023'], ['DBB', '07041980'], ['DBC', '1'], ['DAY', 'BLU'], ['DAU', '069 in'],
    ['DAG', '123 POST RD'], ['DAI', 'WELLS'], ['DAJ', 'ME'], ['DAK', '040900000  '],
    ['DAQ', '1234567'], ['DCF', '0123456789'], ['DCG', 'USA'], ['DDE', 'N'], ['DDF', 'N'], ['DDG', 'N'],
  ];
  const card = 'DL' + elements.map(([code, value]) => code + value).join('\n') + '\r';
  const own = 'ZVZVA01\r';
  const header = '@\n\x1e\rANSI 636041100002';
  const first = header.length + 20;
  const pad = (n: number) => String(n).padStart(4, '0');
  return header + `DL${pad(first)}${pad(card.length)}` + `ZV${pad(first + card.length)}${pad(own.length)}` + card + own;
}

/** A still video (YUV4MPEG2, for Chromium's fake camera) of the barcode, black
 *  on white in the middle of a 640×480 frame, drawn from bwip-js's module grid. */
function barcodeVideo(text: string): string {
  const [symbol] = (bwipjs as unknown as { raw: (id: string, t: string, o: object) => { pixs: number[]; pixx: number }[] })
    .raw('pdf417', text, { columns: 6 });
  const columns = symbol.pixx;
  const rows = symbol.pixs.length / columns;
  const [W, H, module, rowHeight] = [640, 480, 3, 9];
  const x0 = Math.floor((W - columns * module) / 2);
  const y0 = Math.floor((H - rows * rowHeight) / 2);
  const luma = Buffer.alloc(W * H, 235);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      if (!symbol.pixs[r * columns + c]) continue;
      for (let y = 0; y < rowHeight; y++) {
        luma.fill(16, (y0 + r * rowHeight + y) * W + x0 + c * module, (y0 + r * rowHeight + y) * W + x0 + (c + 1) * module);
      }
    }
  }
  const chroma = Buffer.alloc(W * H / 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const file = path.join(tmpdir(), 'wells-licence-scan.y4m');
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]));
  return file;
}

const BARCODE = licenceText();

test.use({
  permissions: ['camera'],
  launchOptions: {
    ...launchOptions,
    args: [
      ...launchOptions.args,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${barcodeVideo(BARCODE)}`,
    ],
  },
});

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
