import type { ProctorEvent } from '@exam/domain/attempt';
import { useEffect, useRef, useState } from 'react';
import { createPasteGuard, PASTE_MEMORY_MS, PASTE_NOTICE_MS } from '../lib/paste-guard.ts';

/** Selected text of a focused input or textarea, else of the page. */
function selectedText(): string {
  const active = document.activeElement;
  if (active instanceof HTMLTextAreaElement || (active instanceof HTMLInputElement && active.type === 'text')) {
    return active.value.slice(active.selectionStart ?? 0, active.selectionEnd ?? 0);
  }
  return window.getSelection()?.toString() ?? '';
}

/**
 * Remembers what is copied inside the exam and blocks pasting anything else (docs/product.md#proctoring-and-integrity).
 * Paste is caught in the capture phase so editors (CodeMirror) never see a blocked paste.
 */
export function usePasteGuard(enabled: boolean, onEvent: (event: ProctorEvent) => void): { noticeVisible: boolean } {
  const [noticeVisible, setNoticeVisible] = useState(false);
  const eventRef = useRef(onEvent);
  useEffect(() => {
    eventRef.current = onEvent;
  }, [onEvent]);

  useEffect(() => {
    if (!enabled) return;
    const guard = createPasteGuard();
    let noticeTimer: ReturnType<typeof setTimeout> | undefined;
    // Editors put their text on clipboardData during the event; native copies only have a selection.
    const onCopy = (event: Event) => {
      const data = (event as ClipboardEvent).clipboardData?.getData('text/plain') || selectedText();
      guard.rememberCopy(data);
      eventRef.current({ type: 'copy', detail: `${data.length} characters` });
    };
    const onPaste = (event: Event) => {
      const text = (event as ClipboardEvent).clipboardData?.getData('text/plain') ?? '';
      if (!text) return;
      if (guard.isAllowed(text)) {
        eventRef.current({ type: 'paste-allowed', detail: `${text.length} characters` });
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      eventRef.current({ type: 'paste-blocked', detail: `${text.length} characters` });
      setNoticeVisible(true);
      clearTimeout(noticeTimer);
      noticeTimer = setTimeout(() => setNoticeVisible(false), PASTE_NOTICE_MS);
    };
    const clearing = setInterval(() => guard.clear(), PASTE_MEMORY_MS);
    window.addEventListener('copy', onCopy);
    window.addEventListener('cut', onCopy);
    window.addEventListener('paste', onPaste, true);
    return () => {
      clearInterval(clearing);
      clearTimeout(noticeTimer);
      window.removeEventListener('copy', onCopy);
      window.removeEventListener('cut', onCopy);
      window.removeEventListener('paste', onPaste, true);
    };
  }, [enabled]);

  return { noticeVisible };
}
