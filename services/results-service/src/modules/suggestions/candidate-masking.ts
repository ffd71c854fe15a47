/**
 * What an AI provider must never read about a candidate (docs/product.md#ai-suggested-marks): their name, candidate
 * ID and e-mail. The request to llm-gateway carries no field naming them; this masks them where the answer itself
 * contains them (a signed essay, an ID typed into a header comment of code).
 */

export const CANDIDATE_MASK = '[candidate]';

/**
 * Any e-mail address (a pragmatic form of RFC 5322's addr-spec: local part, @, a dotted domain). results-service
 * holds no candidate's e-mail (exam-service's roster does), so every address in an answer is masked: in an answer
 * it is almost always the writer's own, and the rare example address a question asks for is not worth the risk.
 */
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;

/** A run of this many digits in a candidate ID is masked on its own too ("S-0012345" written as "0012345"). */
const ID_DIGITS_MIN = 5;
/** Name parts shorter than this are masked only as written (capitalised): "Li" the name, not "li" inside a sentence. */
const CASE_FREE_MIN = 4;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORD = /[\p{L}\p{N}_]/u;

/**
 * A pattern for one identifier: inner whitespace of any width, and not inside a longer word (JavaScript's \b knows
 * ASCII only, so the edges are Unicode lookarounds).
 */
function patternOf(identifier: string, caseFree: boolean): RegExp {
  const body = identifier.split(/\s+/).map(escape).join('\\s+');
  const start = WORD.test(identifier[0]!) ? '(?<![\\p{L}\\p{N}_])' : '';
  const end = WORD.test(identifier[identifier.length - 1]!) ? '(?![\\p{L}\\p{N}_])' : '';
  return new RegExp(`${start}${body}${end}`, caseFree ? 'giu' : 'gu');
}

/** Everything that names the candidate: the whole name, each part of it, the candidate ID and its long digit runs. */
export function candidateIdentifiers(candidate: { name: string; studentId: string }, extra: readonly string[] = []) {
  const name = candidate.name.trim().replace(/\s+/g, ' ');
  const parts = name.split(' ').filter((part) => part.length >= 2);
  const id = candidate.studentId.trim();
  const digits = id.match(new RegExp(`\\d{${ID_DIGITS_MIN},}`, 'g')) ?? [];
  return [...new Set([name, ...parts, id, ...digits, ...extra.map((e) => e.trim())].filter((s) => s.length >= 2))];
}

/** The text with every identifier and every e-mail address replaced by CANDIDATE_MASK; longest identifiers first. */
export function maskCandidate(text: string, identifiers: readonly string[]): string {
  let masked = text.replace(EMAIL, CANDIDATE_MASK);
  const longestFirst = [...identifiers].sort((a, b) => b.length - a.length);
  for (const identifier of longestFirst) {
    masked = masked.replace(patternOf(identifier, identifier.length >= CASE_FREE_MIN), CANDIDATE_MASK);
  }
  return masked;
}
