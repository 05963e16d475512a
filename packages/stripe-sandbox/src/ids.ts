import { randomBytes } from 'node:crypto';

/**
 * Stripe-like ids (`cus_…`, `cs_test_…`). The part after the prefix starts with the time
 * and a per-process counter, so ids of one type sort in creation order (events are
 * delivered in that order), followed by random characters.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let lastMs = 0;
let counter = 0;

function base62(n: number, width: number): string {
  let s = '';
  for (let i = 0; i < width; i++) {
    s = ALPHABET[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return s;
}

function random(len: number): string {
  const bytes = randomBytes(len);
  let s = '';
  for (const b of bytes) s += ALPHABET[b % 62];
  return s;
}

export function newId(prefix: string): string {
  const ms = Date.now();
  if (ms === lastMs) counter++;
  else {
    lastMs = ms;
    counter = 0;
  }
  // 8 base-62 chars of milliseconds last well past the year 9999; 3 of counter.
  return `${prefix}_${base62(ms, 8)}${base62(counter, 3)}${random(10)}`;
}

export function secret(len = 24): string {
  return random(len);
}
