import { z } from 'zod';
import type { ResponseFormat } from '../../adapters/providers/types.ts';
import type { ParseReply } from '../grading/sample-suggestion.ts';

/**
 * What the provider is asked to reply: the questions, each naming the answer it probes. Text length is not limited
 * here (a long question is cut, not refused: generate-follow-ups.ts), so one wordy question does not void the reply.
 */
export const FollowUpOutputSchema = z.object({
  questions: z.array(
    z.object({
      questionIndex: z.number().int().min(0),
      text: z.string(),
    }),
  ),
});
export type FollowUpOutput = z.infer<typeof FollowUpOutputSchema>;

/** The structured output asked of every provider (structured-output.ts makes it each one's dialect). */
export const FOLLOW_UP_FORMAT: ResponseFormat = {
  name: 'follow_up_questions',
  description:
    "Short follow-up questions about the candidate's own answers, each with the questionIndex of the answer it asks about.",
  schema: z.toJSONSchema(FollowUpOutputSchema) as ResponseFormat['schema'],
};

/** The reply's text read as questions: JSON, then the zod schema. The reason never quotes the reply. */
export const parseFollowUps: ParseReply<FollowUpOutput> = (text) => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: `the reply is not JSON (${text.length} characters)` };
  }
  const parsed = FollowUpOutputSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, reason: `the reply does not match the follow-up schema (${issues.join('; ')})` };
};
