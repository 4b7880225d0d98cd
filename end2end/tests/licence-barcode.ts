import bwipjs from 'bwip-js';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchOptions } from '../playwright.config';

// A license barcode for the specs that scan one (issue #20): its text, and a
// still video of it for Chromium's fake camera.

/** A Maine license's barcode text as a card printer writes it (AAMVA version 10):
 *  the header, the subfile list with true offsets and lengths, the card's
 *  subfile and a jurisdiction subfile. */
export function licenceText(): string {
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
export function barcodeVideo(text: string): string {
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

/** The text of the license every scanning spec uses. */
export const BARCODE = licenceText();

/** Launch options for a spec whose phone camera shows that license's barcode. */
export const withCamera = {
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
};
