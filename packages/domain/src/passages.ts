import { z } from 'zod';

/**
 * Shared passages (docs/product.md#shared-passages): a text several questions refer to (a reading, a case, a
 * table, a formula sheet, a code listing), written once on the exam and shown beside each question that names it
 * (`passageId`), in the exam room's all-questions view and one question at a time alike. Content is Markdown,
 * as question content is (tables, fenced code, $…$ formulas render the same way). Imported from QTI
 * assessment stimuli and Moodle "description" questions, exported as QTI stimuli.
 */
export const PassageSchema = z.object({
  id: z.string().min(1).max(64),
  title: z.string().max(300).default(''),
  content: z.string().max(100_000).min(1, 'Write the passage'),
});
export type Passage = z.infer<typeof PassageSchema>;

/** What the candidate receives of a passage: all of it (a passage holds no key). */
export const PublicPassageSchema = z.object({ id: z.string(), title: z.string(), content: z.string() });
export type PublicPassage = z.infer<typeof PublicPassageSchema>;

export const MAX_PASSAGES = 50;

/** Each passage id once; each question's passageId one of them. */
export function passageIssues(
  questions: ReadonlyArray<{ passageId: string | null }>,
  passages: ReadonlyArray<{ id: string }>,
): Array<{ path: Array<string | number>; message: string }> {
  const issues: Array<{ path: Array<string | number>; message: string }> = [];
  const ids = new Set<string>();
  passages.forEach((p, i) => {
    if (ids.has(p.id)) issues.push({ path: ['passages', i, 'id'], message: 'Each passage has its own id' });
    ids.add(p.id);
  });
  questions.forEach((q, i) => {
    if (q.passageId !== null && !ids.has(q.passageId))
      issues.push({
        path: ['questions', i, 'passageId'],
        message: 'The passage this question refers to is not in the exam',
      });
  });
  return issues;
}

/** The passages the given questions refer to, in the exam's order: what a candidate's view carries. */
export function passagesFor<P extends { id: string }>(
  passages: readonly P[],
  questions: ReadonlyArray<{ passageId?: string | null | undefined }>,
): P[] {
  const used = new Set(questions.map((q) => q.passageId).filter((id): id is string => Boolean(id)));
  return passages.filter((p) => used.has(p.id));
}
