/**
 * What a candidate typed into the prerendered start page (vite.config.ts writes its HTML) before the script came.
 * Hydrating keeps the typed text in the field, where the form reads it on mount; a page that opens in another
 * language than the prerender's is drawn afresh instead, so main.tsx keeps the fields' values here first.
 */
const carried = new Map<string, string>();

/** Keeps the value of every named field under `root` that has one (before `root` is drawn afresh). */
export function carryTypedValues(root: ParentNode): void {
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[name], textarea[name]')) {
    if (field.value) carried.set(field.name, field.value);
  }
}

/** The value typed into the prerendered field `name` before the page was drawn afresh, if any. */
export function carriedValue(name: string): string | undefined {
  return carried.get(name);
}

/** Once the form has taken it: a later visit to the page starts empty. */
export function forgetCarriedValue(name: string): void {
  carried.delete(name);
}
