/**
 * Text copied inside the exam is remembered for 10 s (docs/product.md#proctoring-and-integrity); a plain-text paste is
 * allowed only when it overlaps something remembered.
 */
export const PASTE_MEMORY_MS = 10_000;
export const PASTE_NOTICE_MS = 3_000;

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

export type PasteGuard = {
  rememberCopy: (text: string, now?: number) => void;
  isAllowed: (pasted: string, now?: number) => boolean;
  clear: () => void;
};

export function createPasteGuard(memoryMs: number = PASTE_MEMORY_MS): PasteGuard {
  let copies: Array<{ text: string; at: number }> = [];
  return {
    rememberCopy(text, now = Date.now()) {
      const value = normalise(text);
      if (value) copies.push({ text: value, at: now });
    },
    isAllowed(pasted, now = Date.now()) {
      const value = normalise(pasted);
      if (!value) return true;
      copies = copies.filter((copy) => now - copy.at <= memoryMs);
      return copies.some((copy) => copy.text.includes(value) || value.includes(copy.text));
    },
    clear() {
      copies = [];
    },
  };
}
