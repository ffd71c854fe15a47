import type { InternalExam } from '@exam/domain/internal';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { SuggestionMessages, type SuggestionAvailability } from '@exam/domain/question-grading';
import { buildInternalExam } from '@exam/domain/testing';
import { eq } from 'drizzle-orm';
import { attempts } from '../db/schema.ts';
import type { GradingSuggester } from '../deps.ts';
import { startAttempt, type TestApp } from './app.ts';
import { multipart } from './multipart.ts';

/**
 * An exam graded by question: a keyless 2-point short answer (0), a 1-point short answer with a key (1), a
 * 4-point file upload marked with a rubric (2: thesis 1.5, sources 2.5), and a keyless case-sensitive short
 * answer (3). Unanswered questions wait for a grader (unansweredPolicy 'grader'), as in makeExam.
 */
export function makeQuestionGradingExam(overrides: Partial<Record<keyof InternalExam, unknown>> = {}): InternalExam {
  return buildInternalExam({
    unansweredPolicy: 'grader',
    questions: [
      { id: 'why', type: 'short-answer', title: 'Why is the sky blue?', points: 2 },
      { id: 'capital', type: 'short-answer', title: 'Capital of France', acceptedAnswers: ['Paris'] },
      { id: 'essay', type: 'file-upload', title: 'Essay', points: 4, rubricId: 'essay-rubric' },
      {
        id: 'symbol',
        type: 'short-answer',
        title: 'Symbol of sodium',
        matching: { caseSensitive: true, numeric: null },
      },
    ],
    rubrics: [
      {
        id: 'essay-rubric',
        title: 'Essay',
        criteria: [
          { id: 'thesis', description: 'States a thesis', points: 1.5 },
          { id: 'sources', description: 'Cites sources', points: 2.5 },
        ],
      },
    ],
    ...overrides,
  });
}

/**
 * Sits an exam answering by the EXAM's numbering (the candidate's own order is read from their snapshot, so a
 * shuffled exam is answered right), with optional uploads (exam index → file); returns the result and attempt ids.
 */
export async function sitByExamIndex(
  app: TestApp,
  examId: string,
  byExamIndex: Record<number, string>,
  opts: {
    name?: string;
    studentId?: string;
    files?: Record<number, { name: string; content: Buffer; mime?: string }>;
  } = {},
) {
  const attempt = await startAttempt(app, examId, opts);
  const [row] = await app.db
    .select({ snapshot: attempts.examSnapshot })
    .from(attempts)
    .where(eq(attempts.id, attempt.attemptId));
  const toCandidate = (examIndex: number) => {
    const sources = row!.snapshot.arrangement?.sourceIndices;
    const at = sources ? sources.indexOf(examIndex) : examIndex;
    if (at < 0) throw new Error(`the candidate did not draw question ${examIndex}`);
    return at;
  };
  for (const [examIndex, answer] of Object.entries(byExamIndex)) {
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/${toCandidate(Number(examIndex))}`,
      headers: attempt.headers,
      payload: { answer, seq: 1 },
    });
    if (saved.statusCode !== 200) throw new Error(`save failed: ${saved.statusCode} ${saved.body}`);
  }
  for (const [examIndex, file] of Object.entries(opts.files ?? {})) {
    const body = multipart(file.name, file.content, file.mime);
    const uploaded = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/files/${toCandidate(Number(examIndex))}`,
      headers: { ...attempt.headers, ...body.headers },
      payload: body.payload,
    });
    if (uploaded.statusCode !== 200) throw new Error(`upload failed: ${uploaded.statusCode} ${uploaded.body}`);
  }
  const submitted = await app.inject({
    method: 'POST',
    url: `/api/attempts/${attempt.attemptId}/submit`,
    headers: attempt.headers,
  });
  if (submitted.statusCode !== 200) throw new Error(`submit failed: ${submitted.statusCode} ${submitted.body}`);
  return { resultId: submitted.json<{ resultId: string }>().resultId, attemptId: attempt.attemptId };
}

/**
 * llm-gateway's grading routes: the availability a test put per exam (no provider by default), or down when `down`
 * is set; suggestions are refused as without a provider (suggestion tests pass a fake gateway of their own).
 */
export function fakeGradingUsage() {
  const byExam = new Map<string, SuggestionAvailability>();
  const usage: GradingSuggester & { down: boolean; put(examId: string, availability: SuggestionAvailability): void } = {
    down: false,
    put: (examId, availability) => void byExam.set(examId, availability),
    suggest: async () => {
      throw new AppError(ErrorCode.CONFLICT, SuggestionMessages.noProvider);
    },
    /** Refused as without a provider unless a test sets its own (collaboration tests do). */
    suggestCollaboration: async () => {
      throw new AppError(ErrorCode.CONFLICT, SuggestionMessages.noProvider);
    },
    async availability(examId) {
      if (usage.down) throw new Error('connect ECONNREFUSED 127.0.0.1:4003');
      return (
        byExam.get(examId) ?? {
          available: false,
          reason: SuggestionMessages.noProvider,
          provider: null,
          model: null,
          budgetTokens: 0,
          usedTokens: 0,
        }
      );
    },
  };
  return usage;
}
