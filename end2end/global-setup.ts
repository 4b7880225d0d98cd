import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDayClockOffset, townDate, townOpenOnOrBefore } from './tests/town-days';

export const PASSWORD = 'correct horse battery staple';

/** Accounts every spec can use, made with the server's own CLI (`server user add`). */
export const USERS: { username: string; roles: string[]; name: string; badge?: string }[] = [
  { username: 'admin', roles: ['admin'], name: 'Ada Admin' },
  { username: 'chief', roles: ['chief'], name: 'Chief Carla Reyes' },
  { username: 'clerk', roles: ['clerk'], name: 'Clerk Dana Moss' },
  { username: 'officer', roles: ['officer'], name: 'Officer Sam Price', badge: '117' },
  { username: 'officer2', roles: ['officer'], name: 'Officer Lee Tran', badge: '204' },
  // Both on patrol and at the desk: the split build's on-demand spec goes from the
  // field form to the review queue in one session.
  { username: 'sergeant', roles: ['officer', 'chief'], name: 'Sergeant Pat Kim', badge: '150' },
  // Works without signal (no-signal.phone.spec.ts): holds its own block of numbers.
  { username: 'beach', roles: ['officer'], name: 'Officer Dana Reyes', badge: '118' },
  // A phone set to another zone (town-time.phone.spec.ts): holds its own block too.
  { username: 'tokyo', roles: ['officer'], name: 'Officer Kai Mori', badge: '119' },
  { username: 'lockme-phone', roles: ['officer'], name: 'Officer Lock Phone', badge: '301' },
  { username: 'lockme-desktop', roles: ['officer'], name: 'Officer Lock Desktop', badge: '302' },
  // Enrol a second factor in second-factor.phone.spec.ts.
  { username: 'enrol-app', roles: ['officer'], name: 'Officer App Enrol', badge: '402' },
  { username: 'enrol-passkey', roles: ['officer'], name: 'Officer Key Enrol', badge: '403' },
  { username: 'enrol-policy', roles: ['officer'], name: 'Officer Policy Enrol', badge: '404' },
  // Article II (permits.phone.spec.ts): the Town Clerk and a member of the Board of Selectmen.
  { username: 'townclerk', roles: ['town_clerk'], name: 'Town Clerk Nora Bates' },
  { username: 'selectman', roles: ['selectman'], name: 'Selectman Hal Greene' },
];

export default async function globalSetup() {
  const bin = process.env.WELLS_SERVER_BIN;
  if (!bin) throw new Error('WELLS_SERVER_BIN is not set: run the suite through end2end/run-suite.sh');
  addUsers(bin, process.env);
  // An officer with a known authenticator secret and the recovery codes the CLI printed.
  const out2fa = execFileSync(
    bin,
    ['user', 'add', TOTP_USER.username, '--name', TOTP_USER.name, '--role', 'officer', '--badge', '401', '--totp-secret', TOTP_USER.secret],
    { input: PASSWORD + '\n', env: process.env, encoding: 'utf8' },
  );
  const codes = out2fa.match(/recovery codes: (.+)/);
  if (!codes) throw new Error(`unexpected user add output: ${out2fa}`);
  process.env.WELLS_TOTP_RECOVERY_CODES = codes[1].trim();
  // A year of synthetic incidents in 2020, a period no spec writes to: the
  // dashboard spec checks the figures against what the seeder reports it wrote.
  const out = execFileSync(bin, ['seed', '--incidents', String(SEED.incidents), '--seed', String(SEED.seed), '--end', SEED.end], {
    env: process.env,
    encoding: 'utf8',
  });
  const m = out.match(/seeded (\d+) incidents \((\d+) persons, (\d+) citations, (\d+) returned, (\d+) voided\)/);
  if (!m) throw new Error(`unexpected seed output: ${out}`);
  const [incidents, persons, citations, returned, voided] = m.slice(1).map(Number);
  process.env.WELLS_SEEDED = JSON.stringify({ incidents, persons, citations, returned, voided });
  return startOpenDayServer(bin);
}

/** The accounts of USERS, signing in with the password alone. */
function addUsers(bin: string, env: NodeJS.ProcessEnv) {
  for (const u of USERS) {
    const args = ['user', 'add', u.username, '--name', u.name];
    for (const r of u.roles) args.push('--role', r);
    if (u.badge) args.push('--badge', u.badge);
    execFileSync(bin, args, { input: PASSWORD + '\n', env, stdio: ['pipe', 'ignore', 'inherit'] });
  }
  // A fresh database requires a second factor of every account (issue #18). The
  // specs about other things sign in with the password alone, as on an upgraded
  // install; second-factor.phone.spec.ts turns the policy on and off itself.
  execFileSync(bin, ['sign-in-policy', '--second-factor', 'optional'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * A second server, on a database of its own (a server holds its database's
 * lock) with the accounts of USERS, whose clock reads the Town's most recent
 * open day (tests/town-days.ts says why): the specs of the Board's meetings use it,
 * so they hold on a weekend or a holiday. Returns the teardown that stops it.
 */
async function startOpenDayServer(bin: string): Promise<() => Promise<void>> {
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const free = (probe.address() as { port: number }).port;
      probe.close(() => resolve(free));
    });
  });
  const url = `http://localhost:${port}`;
  const today = townDate();
  const dir = mkdtempSync(path.join(tmpdir(), 'wells-open-day-'));
  // Plain HTTP on loopback whatever the suite's own server serves (the secure
  // project's certificate settings are the suite server's, not this one's).
  const { WELLS_TLS_CERT: _cert, WELLS_TLS_KEY: _key, ...inherited } = process.env;
  const env = { ...inherited, WELLS_DATABASE: path.join(dir, 'wells.db') };
  addUsers(bin, env);
  const child = spawn(bin, ['serve'], {
    env: {
      ...env,
      WELLS_LISTEN: `127.0.0.1:${port}`,
      WELLS_PUBLIC_ORIGIN: url,
      WELLS_TEST_CLOCK_OFFSET_DAYS: String(openDayClockOffset()),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) {
        process.env.WELLS_OPEN_DAY_URL = url;
        process.env.WELLS_OPEN_DAY = townOpenOnOrBefore(today);
        return stop;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error('the open-day server did not start');
}

/** An officer whose authenticator secret the specs know (base32, RFC 4648). */
export const TOTP_USER = { username: 'twofactor', name: 'Officer Tess Factor', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' };

/** The recovery codes `server user add --totp-secret` printed for TOTP_USER. */
export function recoveryCodes(): string[] {
  const text = process.env.WELLS_TOTP_RECOVERY_CODES;
  if (!text) throw new Error('WELLS_TOTP_RECOVERY_CODES is not set: global setup did not enrol');
  return text.split(/\s+/);
}

/** What global setup seeds. */
export const SEED = { incidents: 400, seed: 11, end: '2020-12-31', from: '2020-01-01' };

/** The seeder's own account of what it wrote (set by global setup). */
export function seeded(): { incidents: number; persons: number; citations: number; returned: number; voided: number } {
  const text = process.env.WELLS_SEEDED;
  if (!text) throw new Error('WELLS_SEEDED is not set: global setup did not seed');
  return JSON.parse(text);
}
