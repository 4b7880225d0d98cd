import { execFileSync } from 'node:child_process';

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
  for (const u of USERS) {
    const args = ['user', 'add', u.username, '--name', u.name];
    for (const r of u.roles) args.push('--role', r);
    if (u.badge) args.push('--badge', u.badge);
    execFileSync(bin, args, { input: PASSWORD + '\n', env: process.env, stdio: ['pipe', 'ignore', 'inherit'] });
  }
  // A fresh database requires a second factor of every account (issue #18). The
  // specs about other things sign in with the password alone, as on an upgraded
  // install; second-factor.phone.spec.ts turns the policy on and off itself.
  execFileSync(bin, ['sign-in-policy', '--second-factor', 'optional'], { env: process.env, stdio: ['ignore', 'ignore', 'inherit'] });
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
