import type { AnswerSource } from '@exam/domain/answer-operations';
import type { ProctorEvent } from '@exam/domain/attempt';
import { useCallback, useEffect, useRef, useState } from 'react';
import { copyOrigin, type CopyOrigin } from '../../../lib/copy-origin.ts';
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
 * How long after a paste or a drop the answer's change is taken to be its text: an input changes within the same
 * task as the event (CodeMirror) or the next (a textarea's input event), far below this.
 */
const INSERT_WINDOW_MS = 1_000;

/**
 * Remembers what is copied inside the exam, and where (an assistant reply or elsewhere), and blocks pasting
 * anything else (docs/product.md#proctoring-and-integrity). Paste is caught in the capture phase so editors
 * (CodeMirror) never see a blocked paste. `pasteSource` says where the text of the latest allowed paste (or drop)
 * came from, for the edit it makes.
 */
export function usePasteGuard(
  enabled: boolean,
  onEvent: (event: ProctorEvent) => void,
): { noticeVisible: boolean; pasteSource: () => AnswerSource } {
  const [noticeVisible, setNoticeVisible] = useState(false);
  const eventRef = useRef(onEvent);
  const lastInsert = useRef<{ origin: CopyOrigin; at: number } | null>(null);
  useEffect(() => {
    eventRef.current = onEvent;
  }, [onEvent]);

  useEffect(() => {
    if (!enabled) return;
    const guard = createPasteGuard();
    let noticeTimer: ReturnType<typeof setTimeout> | undefined;
    let dragOrigin: CopyOrigin = 'pasted';
    // Whether the drag under way started on this page: text dragged in from another window has no dragstart here.
    let dragFromPage = false;
    // Editors put their text on clipboardData during the event; native copies only have a selection.
    const onCopy = (event: Event) => {
      const data = (event as ClipboardEvent).clipboardData?.getData('text/plain') || selectedText();
      guard.rememberCopy(data, Date.now(), copyOrigin(event.target));
      eventRef.current({ type: 'copy', detail: `${data.length} characters` });
    };
    const refuse = (event: Event, detail: string) => {
      event.preventDefault();
      event.stopImmediatePropagation();
      eventRef.current({ type: 'paste-blocked', detail });
      setNoticeVisible(true);
      clearTimeout(noticeTimer);
      noticeTimer = setTimeout(() => setNoticeVisible(false), PASTE_NOTICE_MS);
    };
    const onPaste = (event: Event) => {
      const text = (event as ClipboardEvent).clipboardData?.getData('text/plain') ?? '';
      if (!text) return;
      const origin = guard.originOf(text);
      if (origin) {
        lastInsert.current = { origin, at: Date.now() };
        eventRef.current({ type: 'paste-allowed', detail: `${text.length} characters` });
        return;
      }
      refuse(event, `${text.length} characters`);
    };
    // A drag started on this page carries its origin to the drop; one from elsewhere has no dragstart here.
    const onDragStart = (event: Event) => {
      dragOrigin = copyOrigin(event.target);
      dragFromPage = true;
    };
    const onDragEnd = () => {
      dragFromPage = false;
    };
    // Text dropped in from another window is the same channel as an outside paste, and refused the same way; a
    // dropped file (a file question's drop zone) is not text and goes on.
    const onDrop = (event: Event) => {
      const data = (event as DragEvent).dataTransfer;
      // Some drops carry files only (and synthetic ones may lack getData): no text, nothing to refuse.
      const text = typeof data?.getData === 'function' ? data.getData('text/plain') : '';
      const hasFiles = (data?.files?.length ?? 0) > 0;
      if (!dragFromPage && text && !hasFiles) {
        refuse(event, `${text.length} characters dropped`);
        return;
      }
      lastInsert.current = { origin: dragOrigin, at: Date.now() };
      dragOrigin = 'pasted';
      dragFromPage = false;
    };
    const clearing = setInterval(() => guard.clear(), PASTE_MEMORY_MS);
    window.addEventListener('copy', onCopy);
    window.addEventListener('cut', onCopy);
    window.addEventListener('paste', onPaste, true);
    window.addEventListener('dragstart', onDragStart, true);
    window.addEventListener('drop', onDrop, true);
    window.addEventListener('dragend', onDragEnd, true);
    return () => {
      clearInterval(clearing);
      clearTimeout(noticeTimer);
      window.removeEventListener('copy', onCopy);
      window.removeEventListener('cut', onCopy);
      window.removeEventListener('paste', onPaste, true);
      window.removeEventListener('dragstart', onDragStart, true);
      window.removeEventListener('drop', onDrop, true);
      window.removeEventListener('dragend', onDragEnd, true);
    };
  }, [enabled]);

  const pasteSource = useCallback((): AnswerSource => {
    const last = lastInsert.current;
    return last && Date.now() - last.at <= INSERT_WINDOW_MS ? last.origin : 'pasted';
  }, []);

  return { noticeVisible, pasteSource };
}
