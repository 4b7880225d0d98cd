import { defineConfig } from '@playwright/test';

// The server is started by ../end2end/run-suite.sh (make test) on a free port with a
// fresh database; it passes the address in BASE_URL.
const baseURL = process.env.BASE_URL ?? 'http://127.0.0.1:3000';

// Debian's Chromium, never a downloaded browser. The flags keep it from calling out
// to Google's services, which this network refuses.
export const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

const phone = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
};

// The secure project (end2end/run-suite.sh --secure, issue #38): the app on
// https://wells.test:<port>, its test authority trusted through the NSS
// database in WELLS_NSS_HOME (Chromium reads $HOME/.pki/nssdb), wells.test and
// other.test mapped to this machine. Never ignoreHTTPSErrors: Chromium then
// refuses to register service workers.
const secureOrigin = process.env.SECURE_BASE_URL;
export const secureLaunchOptions = {
  ...launchOptions,
  args: [...launchOptions.args, '--host-resolver-rules=MAP wells.test 127.0.0.1, MAP other.test 127.0.0.1'],
  env: { ...process.env, HOME: process.env.WELLS_NSS_HOME ?? process.env.HOME ?? '' } as Record<string, string>,
};

const tablet = {
  viewport: { width: 820, height: 1180 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel Tablet) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
};

export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  // Specs share one server and database; each makes its own users and records,
  // but running them one at a time keeps a 2-core machine predictable.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    launchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    // Specs named *.phone.spec.ts run at phone size; *.desktop.spec.ts at desktop
    // size; *.desk.spec.ts at desktop and tablet size; plain *.spec.ts at phone and
    // desktop.
    { name: 'phone', use: { ...phone }, testIgnore: /\.(desktop|desk|secure)\.spec\.ts$/ },
    {
      name: 'desktop',
      use: { viewport: { width: 1280, height: 900 } },
      testIgnore: /\.(phone|secure)\.spec\.ts$/,
    },
    // The chief's desk (*.desk.spec.ts) also runs at tablet size.
    { name: 'tablet', use: { ...tablet }, testMatch: /\.desk\.spec\.ts$/ },
    // *.secure.spec.ts: the phone on https://wells.test (run-suite.sh --secure only).
    ...(secureOrigin
      ? [{
          name: 'secure',
          use: { ...phone, baseURL: secureOrigin, launchOptions: secureLaunchOptions },
          testMatch: /\.secure\.spec\.ts$/,
        }]
      : []),
  ],
});
