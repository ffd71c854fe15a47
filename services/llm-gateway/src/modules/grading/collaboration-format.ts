import { CollaborationSuggestionOutputSchema, type CollaborationSuggestionReply } from '@exam/domain/collaboration';
import { z } from 'zod';
import type { ResponseFormat } from '../../adapters/providers/types.ts';
import type { ParseReply } from './sample-suggestion.ts';

type Output = Pick<CollaborationSuggestionReply, 'framing' | 'verification'>;

/**
 * The structured output a collaboration suggestion asks for: the JSON Schema of the domain's
 * CollaborationSuggestionOutputSchema, the same zod schema the reply is validated with (as suggestion-format.ts does
 * for marks). The e2e fake provider recognises the request by this name.
 */
export const COLLABORATION_FORMAT: ResponseFormat = {
  name: 'collaboration_suggestion',
  description:
    "The suggested framing and verification levels (0–4) of one candidate's work with the assistant, each with a short rationale and verbatim quotes of the candidate's own messages.",
  schema: z.toJSONSchema(CollaborationSuggestionOutputSchema) as ResponseFormat['schema'],
};

/** The reply's text read as the two judged dimensions: JSON, then the zod schema. The reason never quotes it. */
export const parseCollaboration: ParseReply<Output> = (text) => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: `the reply is not JSON (${text.length} characters)` };
  }
  const parsed = CollaborationSuggestionOutputSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, reason: `the reply does not match the collaboration schema (${issues.join('; ')})` };
};

/** Whitespace of any kind and width reads as one space, and none at the ends. */
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The quotes found in the candidate's own messages (whitespace-insensitive, as suggested marks' quotes are: a quote
 * re-wrapped is still their words); any other is dropped, never shown as the candidate's words. Duplicates once.
 */
export function quotesFromMessages(quotes: readonly string[], userMessages: readonly string[]): string[] {
  const said = userMessages.map(collapse);
  const kept: string[] = [];
  for (const quote of quotes) {
    const wanted = collapse(quote);
    if (wanted === '' || kept.some((k) => collapse(k) === wanted)) continue;
    if (said.some((message) => message.includes(wanted))) kept.push(quote.trim());
  }
  return kept;
}
