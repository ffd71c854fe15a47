const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A page that posts the fields to `action` as soon as it loads (the OIDC form_post response mode). */
export function autoPostForm(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>LMS simulator</title></head><body>
<form method="post" action="${escapeHtml(action)}">${inputs}<noscript><button>Continue</button></noscript></form>
<script>document.forms[0].submit()</script></body></html>`;
}

export function messagePage(title: string, text: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
}

const unescapeHtml = (value: string) =>
  value.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );

/** The action and hidden fields of an auto-post page (this module's, or the tool's), for tests without a browser. */
export function parseAutoPostForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*\saction="([^"]*)"/i.exec(html)?.[1];
  if (action === undefined) throw new Error('No form in the page');
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input[^>]*>/gi)) {
    const name = /\sname="([^"]*)"/i.exec(match[0])?.[1];
    const value = /\svalue="([^"]*)"/i.exec(match[0])?.[1];
    if (name !== undefined) fields[unescapeHtml(name)] = unescapeHtml(value ?? '');
  }
  return { action: unescapeHtml(action), fields };
}
