import { createHash, createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** RFC 4648 base32 to bytes (authenticator secrets are written this way). */
export function base32(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const c of text.replace(/[\s=]/g, '').toUpperCase()) {
    const i = alphabet.indexOf(c);
    if (i < 0) throw new Error(`not base32: ${c}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/**
 * The six-digit RFC 6238 code (HMAC-SHA1, 30-second steps) for `at`, computed
 * here with Node's crypto, independently of the server's implementation.
 */
export function totp(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const number =
    (((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3]) % 1_000_000;
  return number.toString().padStart(6, '0');
}

/** One RFC 6238 step. */
const STEP_MS = 30_000;

/** Where this run keeps the last step it used for `secret` (tests of one run may sit in different files and processes). */
function usedStepFile(secret: string): string {
  const key = createHash('sha256').update(`${process.env.BASE_URL ?? ''} ${secret}`).digest('hex').slice(0, 16);
  return join(tmpdir(), `wells-totp-${key}`);
}

/**
 * A code the server has not yet seen for `secret`: the next 30-second step's
 * (the server accepts one step of drift), once that step is past every step an
 * earlier test of this run used. The server takes each step once, so two tests
 * signing in to one account within a step would otherwise send the same code,
 * and the second is refused as replayed (it happened: second-factor then
 * sign-in-early, 20 seconds apart).
 */
export async function nextTotp(secret: string): Promise<string> {
  const file = usedStepFile(secret);
  let last = -Infinity;
  try {
    last = Number(readFileSync(file, 'utf8'));
  } catch {
    // None used yet in this run.
  }
  // Step s + 1 is accepted from the start of step s: wait, if need be, for
  // the step whose next is past the last used.
  const wait = last * STEP_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 50));
  const step = Math.floor(Date.now() / STEP_MS) + 1;
  writeFileSync(file, String(step));
  return totp(secret, step * STEP_MS);
}
