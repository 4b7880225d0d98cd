import { createHmac } from 'node:crypto';

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

/**
 * A code for the next 30-second step: the server accepts one step of drift and
 * each step once, so this never collides with a code already used in this step.
 */
export function nextTotp(secret: string): string {
  return totp(secret, Date.now() + 30_000);
}
