import type { CopyOrigin } from '../../../lib/copy-origin.ts';

/**
 * Text copied inside the exam is remembered for 10 s (docs/product.md#proctoring-and-integrity); a plain-text paste is
 * allowed only when it overlaps something remembered. Each copy keeps where it was made (an assistant reply, or
 * elsewhere in the exam), so an allowed paste is recorded with that source.
 */
export const PASTE_MEMORY_MS = 10_000;
export const PASTE_NOTICE_MS = 3_000;

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

export type PasteGuard = {
  rememberCopy: (text: string, now?: number, origin?: CopyOrigin) => void;
  isAllowed: (pasted: string, now?: number) => boolean;
  /** Where the latest remembered copy the paste overlaps was made; null when it overlaps none. */
  originOf: (pasted: string, now?: number) => CopyOrigin | null;
  clear: () => void;
};

export function createPasteGuard(memoryMs: number = PASTE_MEMORY_MS): PasteGuard {
  let copies: Array<{ text: string; at: number; origin: CopyOrigin }> = [];
  const originOf = (pasted: string, now = Date.now()): CopyOrigin | null => {
    const value = normalise(pasted);
    copies = copies.filter((copy) => now - copy.at <= memoryMs);
    const match = copies.findLast((copy) => copy.text.includes(value) || value.includes(copy.text));
    return match?.origin ?? null;
  };
  return {
    rememberCopy(text, now = Date.now(), origin = 'pasted') {
      const value = normalise(text);
      if (value) copies.push({ text: value, at: now, origin });
    },
    isAllowed: (pasted, now = Date.now()) => !normalise(pasted) || originOf(pasted, now) !== null,
    originOf,
    clear() {
      copies = [];
    },
  };
}
