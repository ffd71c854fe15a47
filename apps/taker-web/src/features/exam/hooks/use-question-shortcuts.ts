import { useEffect, useRef } from 'react';

/**
 * Alt+Page Down and Alt+Page Up: no browser binds them (Alt+Left/Right are Back and Forward in Chromium),
 * they type nothing in a textarea or the code editor (Alt+N and Alt+P type ñ and π on a Mac), and neither
 * the editor nor the common screen readers use them. Shown to the candidate and given as aria-keyshortcuts.
 */
export const QUESTION_SHORTCUTS = { next: 'Alt+PageDown', previous: 'Alt+PageUp' } as const;

export type QuestionShortcut = keyof typeof QUESTION_SHORTCUTS;

/** Which shortcut a key press is, if any. */
export function questionShortcutOf(
  event: Pick<KeyboardEvent, 'key' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>,
): QuestionShortcut | null {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  if (event.key === 'PageDown') return 'next';
  if (event.key === 'PageUp') return 'previous';
  return null;
}

/**
 * Listens on the whole page (in the capture phase, so an editor that stops the key press still lets it
 * through), except while a dialog is open: the shortcut must not move the page behind it.
 */
export function useQuestionShortcuts(onShortcut: (shortcut: QuestionShortcut) => void, enabled = true) {
  const handler = useRef(onShortcut);
  useEffect(() => {
    handler.current = onShortcut;
  }, [onShortcut]);

  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const shortcut = questionShortcutOf(event);
      if (!shortcut || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      event.preventDefault();
      handler.current(shortcut);
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [enabled]);
}
