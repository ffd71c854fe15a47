/**
 * The all-questions view's runs of questions (docs/product.md#shared-passages): consecutive questions of one
 * section that share a passage form one run, shown once beside them; every other question is a run of its own.
 * A passage's id the exam does not carry (a view cached before passages existed) counts as none.
 */
export type QuestionRun = { passageId: string | null; indexes: number[] };

export function passageRuns(
  questions: ReadonlyArray<{ passageId?: string | null | undefined; sectionId?: string | null | undefined }>,
  passageIds: ReadonlySet<string>,
): QuestionRun[] {
  const runs: QuestionRun[] = [];
  questions.forEach((q, index) => {
    const passageId = q.passageId && passageIds.has(q.passageId) ? q.passageId : null;
    const last = runs.at(-1);
    const previous = last ? questions[last.indexes.at(-1)!] : undefined;
    if (
      last &&
      passageId !== null &&
      last.passageId === passageId &&
      (previous?.sectionId ?? null) === (q.sectionId ?? null)
    )
      last.indexes.push(index);
    else runs.push({ passageId, indexes: [index] });
  });
  return runs;
}
