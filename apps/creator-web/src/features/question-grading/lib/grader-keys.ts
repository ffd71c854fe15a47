/** What a key does on the grader's screen (the legend and docs/product.md#the-graders-keys list them). */
export type GraderAction =
  | { kind: 'next' }
  | { kind: 'previous' }
  | { kind: 'criterion'; index: number }
  | { kind: 'full' }
  | { kind: 'zero' }
  | { kind: 'accept' }
  | { kind: 'save' }
  | { kind: 'names' };

const TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/**
 * Whether keys typed here are text: shortcuts never take a letter from a field, nor from a widget whose own
 * keys (typeahead, arrows) must keep working, like the picker's and the filter's list boxes.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest('[role="listbox"], [role="combobox"], [role="option"], [role="menu"], [role="menuitem"]'))
    return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !TEXT_INPUTS.has(target.type);
}

/** Enter on a button or link activates it, as everywhere else (on a ticked checkbox it saves). */
const activatesOnEnter = (target: EventTarget | null) =>
  target instanceof HTMLElement && Boolean(target.closest('button, a[href], summary'));

type KeyEventLike = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>;

/**
 * The action of a key press, or null to leave it alone: J/↓ next, K/↑ previous, 1–9 a rubric criterion, F full
 * marks, 0 zero, A accept the suggestion, Enter save (and go to the next unmarked), N show or hide names.
 * Ctrl/Cmd+Enter saves from anywhere, the feedback box included; other keys never act while typing in a field.
 */
export function graderAction(event: KeyEventLike): GraderAction | null {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) return { kind: 'save' };
  if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (/^[1-9]$/.test(key)) return { kind: 'criterion', index: Number(key) - 1 };
  switch (key) {
    case 'j':
    case 'ArrowDown':
      return { kind: 'next' };
    case 'k':
    case 'ArrowUp':
      return { kind: 'previous' };
    case 'f':
      return { kind: 'full' };
    case '0':
      return { kind: 'zero' };
    case 'a':
      return { kind: 'accept' };
    case 'n':
      return { kind: 'names' };
    case 'Enter':
      return activatesOnEnter(event.target) ? null : { kind: 'save' };
    default:
      return null;
  }
}
