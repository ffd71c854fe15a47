/**
 * Where on the exam page a copy was made, for the provenance of what is pasted (docs/product.md#proctoring-and-integrity):
 * inside an assistant reply, or anywhere else in the exam. The assistant panel's messages are ChatMessage bubbles
 * (@exam/ui/chat-message), each marked with its speaker's role.
 */
const ASSISTANT_REPLY = '[data-role="assistant"]';

export type CopyOrigin = 'pasted' | 'assistant';

/** The node (an element, or a text node of a selection) lies inside an assistant reply. */
export function isInAssistantReply(node: unknown): boolean {
  const element = node instanceof Element ? node : node instanceof Node ? node.parentElement : null;
  return Boolean(element?.closest(ASSISTANT_REPLY));
}

const isEditable = (node: unknown) =>
  node instanceof HTMLTextAreaElement ||
  node instanceof HTMLInputElement ||
  (node instanceof HTMLElement && node.isContentEditable);

/**
 * A copy event's origin: its target (an input or an editor copies its own selection), else either end of the page's
 * selection, or the target, inside a reply.
 */
export function copyOrigin(target: EventTarget | null): CopyOrigin {
  if (isEditable(target)) return isInAssistantReply(target) ? 'assistant' : 'pasted';
  const selection = typeof window.getSelection === 'function' ? window.getSelection() : null;
  return [target, selection?.anchorNode, selection?.focusNode].some(isInAssistantReply) ? 'assistant' : 'pasted';
}
