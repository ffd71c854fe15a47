/**
 * A numeric or calculated answer as it is saved: "<number> <unit>", or the number alone (what grading.ts's
 * parseQuantity reads). The page keeps the two apart in a field and a unit select, and reads a saved answer back
 * into them by its unit: the longest of the question's symbols the answer ends with.
 */
export function composeQuantity(number: string, unit: string): string {
  const value = number.trim();
  if (value === '') return '';
  return unit === '' ? value : `${value} ${unit}`;
}

export function splitQuantity(answer: string, symbols: readonly string[]): { number: string; unit: string } {
  const trimmed = answer.trim();
  const unit = [...symbols]
    .sort((a, b) => b.length - a.length)
    .find((symbol) => symbol !== '' && trimmed.endsWith(symbol) && trimmed.length > symbol.length);
  if (unit === undefined) return { number: answer, unit: '' };
  return { number: trimmed.slice(0, trimmed.length - unit.length).trim(), unit };
}
