/**
 * Posts fields to another site as a top-level form submission: how a deep-linking response returns to the LMS
 * (Deep Linking 2.0 §4.5: an auto-submitted form post carrying the signed JWT).
 */
export function postForm(action: string, fields: Record<string, string>, doc: Document = document): void {
  const form = doc.createElement('form');
  form.method = 'post';
  form.action = action;
  for (const [name, value] of Object.entries(fields)) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  doc.body.append(form);
  form.submit();
}

/** The ticket an LMS launch left in the page's fragment (`#ticket=…`), never sent to a server by the browser. */
export function ticketFromHash(hash: string): string | undefined {
  const ticket = new URLSearchParams(hash.replace(/^#/, '')).get('ticket');
  return ticket || undefined;
}
