import type { AttemptTranscript } from '../../deps.ts';
import type { Question } from '@exam/domain/question';
import { answerBefore, operationsByQuestion } from '../timeline/timeline-answers.ts';
import type { InsightsGrade, InsightsRepository } from './insights.repository.ts';
import { adviceOf, caseOf, type CandidateCases } from './reliance-figures.ts';

type Submitted = {
  attemptId: string;
  result: { id: string; grades: readonly InsightsGrade[] };
  places: ReadonlyArray<number | undefined>;
};

/**
 * Every submitted candidate's reliance cases (reliance-figures.ts): the advice from their transcript, the submitted
 * answer from their grades, and their first decision — the answer as it stood just before the first assistant turn
 * about the question — replayed from the stored answer operations as the attempt's timeline replays them. Only the
 * answers the assistant advised on are read.
 */
export async function relianceCasesOf(
  repo: Pick<InsightsRepository, 'answerHistoriesOf'>,
  examId: string,
  ownerId: string,
  questions: readonly Question[],
  submitted: readonly Submitted[],
  transcripts: ReadonlyMap<string, AttemptTranscript>,
): Promise<CandidateCases[]> {
  const advised = submitted.map((s) => ({
    s,
    ...adviceOf(questions, s.places, transcripts.get(s.attemptId)?.messages ?? []),
  }));
  const pairs = advised.flatMap(({ s, advice }) =>
    advice.map((a) => ({ attemptId: s.attemptId, questionIndex: a.candidateIndex })),
  );
  const histories = await repo.answerHistoriesOf(examId, ownerId, pairs);
  const attempts = new Map(histories.startedAt.map((a) => [a.attemptId, a]));
  const savedAt = new Map(histories.savedAt.map((a) => [`${a.attemptId}:${a.questionIndex}`, a.updatedAt]));
  const chunksOf = new Map<string, typeof histories.chunks>();
  for (const chunk of histories.chunks) {
    const list = chunksOf.get(chunk.attemptId);
    if (list) list.push(chunk);
    else chunksOf.set(chunk.attemptId, [chunk]);
  }

  return advised.map(({ s, advice, planted }) => {
    const attempt = attempts.get(s.attemptId);
    const recorded = attempt
      ? operationsByQuestion(chunksOf.get(s.attemptId) ?? [], attempt.startedAt.getTime())
      : null;
    const finalAt = (candidateIndex: number) => s.result.grades[candidateIndex]?.answer ?? null;
    const cases = advice.map((a) => {
      const final = finalAt(a.candidateIndex);
      // As the timeline: operations that fall short of the stored answer are closed at its last save.
      const gapAt =
        savedAt.get(`${s.attemptId}:${a.candidateIndex}`) ?? attempt?.submittedAt ?? new Date(a.firstTurnAt);
      const before = recorded
        ? answerBefore({
            final: final ?? '',
            recorded: recorded.get(a.candidateIndex) ?? [],
            gapAt: gapAt.toISOString(),
            before: a.firstTurnAt,
          })
        : null;
      return caseOf(questions[a.examIndex]!, before, a.advice, final);
    });
    return {
      resultId: s.result.id,
      cases,
      planted: planted.map((p) => ({ ...p, submitted: finalAt(p.candidateIndex) })),
    };
  });
}
