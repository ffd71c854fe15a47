/**
 * The exam page's paste guard remembers what is copied through document `copy` events, and where (the event's
 * target: inside a reply, a paste of it is recorded as the assistant's text). The Clipboard API fires none, so a
 * copy made with it is announced as one from `origin` (the reply's Copy button), carrying the copied text, and
 * pasting the reply into an answer is then allowed like any copy made inside the exam.
 */
function announceCopy(text: string, origin: EventTarget): void {
  let event: Event;
  if (typeof ClipboardEvent === 'function' && typeof DataTransfer === 'function') {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    event = new ClipboardEvent('copy', { bubbles: true, clipboardData: data });
  } else {
    event = new Event('copy', { bubbles: true });
    Object.defineProperty(event, 'clipboardData', {
      value: { getData: (type: string) => (type === 'text/plain' ? text : '') },
    });
  }
  origin.dispatchEvent(event);
}

/** The old way, for pages without the Clipboard API: a real copy event the guard sees by itself. */
function copyWithSelection(text: string, origin: Element | undefined): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  // Beside the Copy button, so the copy event's target lies inside the reply.
  (origin?.parentElement ?? document.body).appendChild(area);
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  area.focus();
  area.select();
  try {
    return typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    previous?.focus();
  }
}

/**
 * Copies a reply to the clipboard as text inside the exam; false when the browser refused. `origin` is the
 * element the copy was asked from (the reply's Copy button).
 */
export async function copyReply(text: string, origin?: Element): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      announceCopy(text, origin ?? document);
      return true;
    }
  } catch {
    // Refused (permissions, an unfocused document): try the selection-based copy.
  }
  return copyWithSelection(text, origin);
}
