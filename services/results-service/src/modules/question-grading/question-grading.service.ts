import { answerKeyText } from '@exam/domain/answer-text';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { CommentBankEntrySchema } from '@exam/domain/question-grading';
import {
  SuggestionMessages,
  type AnswerGroups,
  type DetachAnswer,
  type QuestionAnswerRow,
  type QuestionAnswers,
  type QuestionMark,
  type QuestionMarkReport,
  type SuggestionAvailability,
} from '@exam/domain/question-grading';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../deps.ts';
import type { Grader } from '../grading/grading.service.ts';
import { withActor, type ResultWritesRepository } from '../grading/result-writes.repository.ts';
import { resultNotFound } from '../results/results.service.ts';
import { groupQuestionAnswers } from './answer-grouping.ts';
import { markResults, takesSuggestionAsIs } from './group-marks.ts';
import { toGradingSuggestion } from './latest-suggestions.ts';
import { textToGrade, type QuestionAnswersReader, type SubmittedAnswer } from './question-answers.repository.ts';
import type { QuestionGradingRepository } from './question-grading.repository.ts';

type CommentBankEntry = z.infer<typeof CommentBankEntrySchema>;

/** The comment bank keeps this many texts, most used first. */
export const COMMENT_BANK_MAX = 50;

export const MarkMessages = {
  suggestion: 'Not a suggestion for one of these answers to this question',
} as const;

/** Feedback already written for the question, each distinct text once, most used first (then alphabetically). */
export function commentBank(answers: readonly Pick<SubmittedAnswer, 'grade'>[]): CommentBankEntry[] {
  const uses = new Map<string, number>();
  for (const { grade } of answers) {
    const text = grade.feedback.trim();
    if (text) uses.set(text, (uses.get(text) ?? 0) + 1);
  }
  return [...uses]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, COMMENT_BANK_MAX)
    .map(([text, count]) => ({ text, uses: count }));
}

/**
 * Grading by question (docs/product.md#grading-by-question): one question's answers with their groups, marks,
 * decisions and suggestions, marks given to many answers at once, and answers taken out of their groups.
 */
export function createQuestionGradingService(
  reader: QuestionAnswersReader,
  repo: QuestionGradingRepository,
  writes: ResultWritesRepository,
  deps: Pick<Deps, 'clock' | 'gradingSuggester'>,
  log: FastifyBaseLogger,
) {
  /** Whether suggestions can be asked for: the gateway's answer; the page works without it (gatewayDown). */
  async function availability(examId: string, humanGraded: boolean): Promise<SuggestionAvailability> {
    let usage: SuggestionAvailability;
    try {
      usage = await deps.gradingSuggester.availability(examId);
    } catch (error) {
      log.warn({ err: error, examId }, 'llm-gateway did not answer the grading usage; suggestions are unavailable');
      const reason = SuggestionMessages.gatewayDown;
      return { available: false, reason, provider: null, model: null, budgetTokens: 0, usedTokens: 0 };
    }
    if (usage.available && !humanGraded)
      return { ...usage, available: false, reason: SuggestionMessages.notHumanGraded };
    return usage;
  }

  async function groups(examId: string, ownerId: string, examQuestionIndex: number): Promise<AnswerGroups> {
    const [read, detached] = await Promise.all([
      reader.listQuestionAnswers(examId, ownerId, examQuestionIndex),
      repo.detachedResults(examId, examQuestionIndex),
    ]);
    return { examId, questionIndex: examQuestionIndex, groups: groupQuestionAnswers(read.answers, detached).groups };
  }

  return {
    /** Every answer to the question with its mark; candidates named only with `names` (anonymous grading). */
    async answers(
      examId: string,
      ownerId: string,
      examQuestionIndex: number,
      names: boolean,
    ): Promise<QuestionAnswers> {
      const read = await reader.listQuestionAnswers(examId, ownerId, examQuestionIndex);
      const ids = read.answers.map((a) => a.resultId);
      const [detached, decisions, suggestions, suggestionUse] = await Promise.all([
        repo.detachedResults(examId, examQuestionIndex),
        repo.latestDecisions(ids),
        repo.latestSuggestions(examQuestionIndex, ids),
        availability(examId, read.humanGraded),
      ]);
      const { groups: answerGroups, groupOf } = groupQuestionAnswers(read.answers, detached);
      const rows = read.answers.map((a, at): QuestionAnswerRow => {
        const stored = suggestions.get(a.resultId);
        const suggestion = stored ? toGradingSuggestion(stored, textToGrade(a).answerHash) : null;
        return {
          resultId: a.resultId,
          number: at + 1,
          candidate: names ? a.candidate : null,
          answer: a.answer,
          answerValue: a.answerValue,
          // Each candidate's own question: a calculated question's key and values differ per candidate.
          correctAnswer: answerKeyText(a.question),
          ...(a.question.type === 'calculated' ? { calculatedValues: a.question.calculated?.values ?? null } : {}),
          file: a.file ? { fileName: a.file.fileName, size: a.file.size } : null,
          fileText: a.fileText,
          points: a.grade.points,
          maxPoints: a.question.points,
          autoScored: a.grade.autoScored,
          feedback: a.grade.feedback,
          criteria: a.grade.criteria,
          groupId: groupOf.get(a.resultId)!,
          detached: detached.has(a.resultId),
          suggestion,
          flagged: Boolean(suggestion?.current && suggestion.uncertain && !a.grade.manual),
          decision: decisions.get(`${a.resultId}:${a.candidateIndex}`) ?? null,
        };
      });
      return {
        examId,
        examTitle: read.exam.title,
        questionIndex: examQuestionIndex,
        questionCount: read.exam.questions.length,
        title: read.question.title,
        content: read.question.content,
        type: read.question.type,
        maxPoints: read.question.points,
        rubric: read.rubric,
        humanGraded: read.humanGraded,
        answers: rows,
        groups: answerGroups,
        progress: { marked: rows.filter((r) => r.points !== null).length, total: rows.length },
        commentBank: commentBank(read.answers),
        suggestions: suggestionUse,
      };
    },

    groups,

    /**
     * One mark for every listed result, in one transaction: all or none. The same mark twice changes nothing the
     * second time (`unchanged`). With `suggestionId`, the history says whether the grader accepted or edited it.
     */
    async mark(
      examId: string,
      grader: Grader,
      examQuestionIndex: number,
      mark: QuestionMark,
    ): Promise<QuestionMarkReport> {
      const resultIds = [...new Set(mark.resultIds)];
      let suggestion: { id: string; verdict: 'accepted' | 'edited' } | undefined;
      if (mark.suggestionId) {
        const row = await repo.findSuggestion(mark.suggestionId, grader.sub);
        if (
          !row ||
          row.examId !== examId ||
          row.questionIndex !== examQuestionIndex ||
          !resultIds.includes(row.resultId)
        )
          throw new AppError(ErrorCode.VALIDATION, MarkMessages.suggestion, [
            { path: 'suggestionId', message: MarkMessages.suggestion },
          ]);
        suggestion = { id: row.id, verdict: takesSuggestionAsIs(mark, row) ? 'accepted' : 'edited' };
      }
      const now = deps.clock.now();
      const report = await writes.changeResults(examId, grader.sub, resultIds, (locked) =>
        withActor(
          markResults(locked, { ...mark, resultIds }, { examQuestionIndex, by: grader.email, now, suggestion }),
          grader,
        ),
      );
      if (!report) throw resultNotFound();
      return report;
    },

    /** Takes an answer out of its group (or puts it back); answers the groups as they are now. */
    async detach(
      examId: string,
      ownerId: string,
      examQuestionIndex: number,
      body: DetachAnswer,
    ): Promise<AnswerGroups> {
      const answer = await reader.findQuestionAnswer(body.resultId, ownerId, examQuestionIndex);
      if (!answer || answer.examId !== examId) throw resultNotFound();
      await repo.setDetached(examId, examQuestionIndex, body.resultId, body.detached, deps.clock.now());
      return groups(examId, ownerId, examQuestionIndex);
    },
  };
}
export type QuestionGradingService = ReturnType<typeof createQuestionGradingService>;
