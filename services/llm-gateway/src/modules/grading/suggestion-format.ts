import { SuggestionSampleSchema, type SuggestionSample } from '@exam/domain/question-grading';
import { z } from 'zod';
import type { ResponseFormat } from '../../adapters/providers/types.ts';

/**
 * The structured output every provider is asked for: the JSON Schema of the domain's SuggestionSampleSchema, the
 * same zod schema each reply is validated with, so the two cannot drift apart. The adapters make it into their
 * provider's dialect (adapters/providers/structured-output.ts).
 */
export const SUGGESTION_FORMAT: ResponseFormat = {
  name: 'grading_suggestion',
  description:
    'The suggested mark for one answer: total points, points per rubric criterion, a short rationale and a verbatim quote of the answer.',
  schema: z.toJSONSchema(SuggestionSampleSchema) as ResponseFormat['schema'],
};

export type ParsedSample = { ok: true; sample: SuggestionSample } | { ok: false; reason: string };

/** One reply's text read as a sample: JSON, then the zod schema. The reason never quotes the reply (it holds answer text). */
export function parseSample(text: string): ParsedSample {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: `the reply is not JSON (${text.length} characters)` };
  }
  const parsed = SuggestionSampleSchema.safeParse(value);
  if (parsed.success) return { ok: true, sample: parsed.data };
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, reason: `the reply does not match the suggestion schema (${issues.join('; ')})` };
}
