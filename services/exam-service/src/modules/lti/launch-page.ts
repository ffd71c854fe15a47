const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page a refused LTI login or launch shows in the LMS's window: what went wrong, in words. */
export function launchErrorPage(reason: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>This LMS launch could not be completed</title>
</head><body><main><h1>This LMS launch could not be completed</h1>
<p data-testid="lti-error">${escapeHtml(reason)}</p>
<p>Open the activity from your LMS again. If it keeps failing, show this message to whoever set up the LMS link.</p>
</main></body></html>`;
}

/** Cookies of the request by name (RFC 6265 §5.4: `name=value` pairs separated by `; `). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}
