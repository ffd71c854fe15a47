import type { GenerateFollowUpsRequest } from '@exam/domain/follow-up';
import { answerText, isAnswered } from '@exam/domain/answer-text';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import { candidateIndexOf, examIndexOf } from '../question-grading/question-numbering.ts';

/** An answer is cut to this many characters for the gateway: a follow-up needs the gist, not a whole program. */
export const ANSWER_REQUEST_MAX = 4000;

/**
 * What the gateway is told about the candidate's own work (docs/product.md#follow-up-questions): each answered
 * question's title, statement, type and language with the answer's text or code, in the exam's own order and
 * numbered so. Never a key, an accepted answer, a test or an option list marked correct; file uploads (the gateway
 * cannot read them) and questions left blank are left out.
 */
export function followUpAnswers(
  snapshot: ExamSnapshot,
  saved: ReadonlyMap<number, string>,
): GenerateFollowUpsRequest['answers'] {
  return snapshot.questions
    .flatMap((question, candidateIndex) => {
      const answer = saved.get(candidateIndex);
      if (question.type === 'file-upload' || !isAnswered(question, answer)) return [];
      return [
        {
          questionIndex: examIndexOf(snapshot, candidateIndex),
          title: question.title,
          text: question.content,
          type: question.type,
          answer: answerText(question, answer).slice(0, ANSWER_REQUEST_MAX),
          ...(question.language ? { language: question.language } : {}),
        },
      ];
    })
    .sort((a, b) => a.questionIndex - b.questionIndex)
    .slice(0, 500);
}

/** The probed question as the candidate numbers it (1-based in their own arrangement), with its title. */
export function probedQuestion(snapshot: ExamSnapshot, examIndex: number): { questionNumber: number; title: string } {
  const candidateIndex = candidateIndexOf(snapshot, examIndex);
  if (candidateIndex === undefined) return { questionNumber: examIndex + 1, title: '' };
  return { questionNumber: candidateIndex + 1, title: snapshot.questions[candidateIndex]?.title ?? '' };
}
