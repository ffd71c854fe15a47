/**
 * Per-key timing in the compact form, as one string: each interval (ms) as two base-64 digits (`0-9A-Za-z-_`, most
 * significant first) when under 4,096 ms, else `~` and five digits. About two bytes a key where a JSON array of
 * numbers takes four ("130,"), and a string where PostgreSQL's jsonb stores each number as a numeric of eight
 * bytes or more: an hour of fast typing stays under 100 KB (bench/timeline/storage.ts).
 */
const KEY_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
const KEY_DIGIT_VALUES = new Map(Array.from(KEY_DIGITS, (digit, value) => [digit, value]));
const KEY_LONG = '~';

export function encodeKeys(keys: ReadonlyArray<number>): string {
  let out = '';
  for (const key of keys) {
    const width = key < 4096 ? 2 : 5;
    if (width === 5) out += KEY_LONG;
    for (let i = width - 1; i >= 0; i--) out += KEY_DIGITS[Math.floor(key / 64 ** i) % 64];
  }
  return out;
}

/** The intervals of an encoded string, or null when it is not one encodeKeys writes. */
export function decodeKeys(text: string): number[] | null {
  const keys: number[] = [];
  let i = 0;
  while (i < text.length) {
    const width = text[i] === KEY_LONG ? 5 : 2;
    if (width === 5) i++;
    if (i + width > text.length) return null;
    let key = 0;
    for (const digit of text.slice(i, i + width)) {
      const value = KEY_DIGIT_VALUES.get(digit);
      if (value === undefined) return null;
      key = key * 64 + value;
    }
    keys.push(key);
    i += width;
  }
  return keys;
}
