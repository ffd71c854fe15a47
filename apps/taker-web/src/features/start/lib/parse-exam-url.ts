/** The exam id comes from /exam/{id}, an examId= parameter, or /exam/{alphanumeric}. */
const PATTERNS = [/\/exam\/([^/?#\s]+)/, /[?&]examId=([^&#\s]+)/i, /\/exam\/([a-z0-9]+)/i];

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The exam id a pasted URL points at, or undefined when the URL has none of these shapes. */
export function findExamId(input: string): string | undefined {
  const url = input.trim();
  for (const pattern of PATTERNS) {
    const match = pattern.exec(url);
    const id = match?.[1] ? decode(match[1]).trim() : '';
    if (id) return id;
  }
  return undefined;
}

/** The personal invitation token of a pasted invitation link (`/exam/{id}?invite=…`), if it has one. */
export function parseInviteToken(input: string): string | undefined {
  return /[?&]invite=([\w-]+)/.exec(input)?.[1];
}
