import { createHash } from 'node:crypto';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { InternalExam, WorkspaceFile } from '@exam/domain/internal';
import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import { gradedByTests, hasAnswerKey } from '@exam/domain/grading';
import type { Question, Rubric } from '@exam/domain/question';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { answerFiles, answers, attempts, results } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { assertCan } from '../../access/exam-ownership.ts';
import { answerText, isAnswered } from '@exam/domain/answer-text';
import type { StoredGrade } from '../../scoring/score.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import { codeToRun } from '../../scoring/test-code.ts';
import type { AnswerFileMeta, AnswerFileTexts } from './answer-file-text.ts';
import { candidateIndexOf } from './question-numbering.ts';

/**
 * Every submitted answer to one question of an exam, as grading by question and AI suggestions read it
 * (docs/product.md#grading-by-question). Questions are named in the exam's own numbering; each answer carries the
 * candidate's own index of it (their snapshot's order, by which grades and history are addressed).
 */

/** One result's answer to the question, with its current grade. */
export type SubmittedAnswer = {
  resultId: string;
  attemptId: string;
  examId: string;
  completedAt: Date;
  candidate: { name: string; studentId: string };
  /**
   * Everything that names the candidate (name, its parts, student ID, LMS subject): a text sent to an AI provider
   * has these masked.
   */
  identifiers: string[];
  /** The exam's own index of the question. */
  examQuestionIndex: number;
  /** The candidate's index of it (their snapshot's order). */
  candidateIndex: number;
  /** The question as the candidate's snapshot holds it (keys current after a regrade). */
  question: Question;
  rubric: Rubric | null;
  /** A grader marks it: no key and no tests decide its points. */
  humanGraded: boolean;
  /**
   * The answer as a grader reads it: the short answer's text, the chosen option(s) ('a | b'), a coding question's
   * code (the workspace file it names, else the editor's), an upload's stored answer ('File: name'); '' when blank.
   */
  answer: string;
  /** The answer exactly as saved (JSON for the structured types); null when unanswered. */
  answerValue: string | null;
  file: { fileName: string; size: number; mimeType: string } | null;
  /** The upload's readable text (ANSWER_FILE_TEXT_MAX characters at most); null without a file or readable text. */
  fileText: string | null;
  grade: { points: number | null; feedback: string; criteria: string[]; autoScored: boolean; manual: boolean };
};

/** The exam a question's answers belong to, as the grading view heads it. */
export type QuestionAnswersRead = {
  exam: InternalExam;
  examQuestionIndex: number;
  /** The question as the newest answer's snapshot holds it (what the graders' marks are checked against), else the exam's. */
  question: Question;
  rubric: Rubric | null;
  humanGraded: boolean;
  /** In submission order (oldest first): the order `number` counts in while names are hidden. */
  answers: SubmittedAnswer[];
};

/** What a grader marks: neither a key nor tests decide the points. */
export function isHumanGraded(q: Question): boolean {
  return !hasAnswerKey(q) && !gradedByTests(q);
}

/**
 * The text a mark (and a suggestion) rests on: the upload's readable text for a file question, the answer
 * otherwise; null when a file has no readable text. `answerHash` is its SHA-256 (hex): a suggestion made for
 * another hash is no longer current (grading_suggestions.answer_hash).
 */
export function textToGrade(answer: Pick<SubmittedAnswer, 'question' | 'answer' | 'fileText'>): {
  text: string | null;
  answerHash: string;
} {
  const text = answer.question.type === 'file-upload' ? answer.fileText : answer.answer;
  return {
    text,
    answerHash: createHash('sha256')
      .update(text ?? '', 'utf8')
      .digest('hex'),
  };
}

export const QuestionGradingMessages = {
  questionNotFound: 'Question not found',
  notDrawn: 'This candidate was not given that question',
} as const;

const questionNotFound = () => new AppError(ErrorCode.NOT_FOUND, QuestionGradingMessages.questionNotFound);

function identifiersOf(name: string, studentId: string, ltiSub: string | undefined): string[] {
  const parts = name.split(/\s+/).filter((part) => part.length >= 2);
  return [...new Set([name.trim(), ...parts, studentId.trim(), ...(ltiSub ? [ltiSub] : [])].filter(Boolean))];
}

const rowColumns = {
  resultId: results.id,
  attemptId: results.attemptId,
  examId: results.examId,
  userName: results.userName,
  studentId: results.studentId,
  completedAt: results.completedAt,
  grades: results.grades,
  snapshot: attempts.examSnapshot,
  lti: attempts.lti,
};
type AnswerRow = {
  resultId: string;
  attemptId: string;
  examId: string;
  userName: string;
  studentId: string;
  completedAt: Date;
  grades: StoredGrade[];
  snapshot: ExamSnapshot;
  lti: AttemptLtiLink | null;
  workspaceFiles?: Record<string, WorkspaceFile>;
};

/**
 * An uploaded file counts while the question's answer still names it (as results.repository.ts reads files): a
 * candidate who removed their file leaves a row that is no longer their answer.
 */
const stillTheAnswer = and(
  eq(answers.attemptId, answerFiles.attemptId),
  eq(answers.questionIndex, answerFiles.questionIndex),
  sql`${answers.answer} = 'File: ' || ${answerFiles.fileName}`,
);
const fileColumns = {
  attemptId: answerFiles.attemptId,
  questionIndex: answerFiles.questionIndex,
  fileName: answerFiles.fileName,
  mimeType: answerFiles.mimeType,
  size: answerFiles.size,
  uploadedAt: answerFiles.uploadedAt,
};

/**
 * The reader of a question's answers. Owner-scoped throughout: another creator's exam or result reads as absent
 * (404 from listQuestionAnswers, undefined from findQuestionAnswer).
 */
export function createQuestionAnswersReader(
  { db }: ResultsDatabase,
  deps: Pick<Deps, 'examSource'>,
  fileTexts: AnswerFileTexts,
) {
  const fileKey = (attemptId: string, questionIndex: number) => `${attemptId}:${questionIndex}`;

  async function fileContent(attemptId: string, questionIndex: number): Promise<Buffer> {
    const [row] = await db
      .select({ content: answerFiles.content })
      .from(answerFiles)
      .where(and(eq(answerFiles.attemptId, attemptId), eq(answerFiles.questionIndex, questionIndex)));
    return row?.content ?? Buffer.alloc(0);
  }

  /** The answer files of the results `where` selects (metadata only; bytes are loaded for unread files). */
  async function filesWhere(where: SQL | undefined): Promise<Map<string, AnswerFileMeta>> {
    const rows = await db
      .select(fileColumns)
      .from(answerFiles)
      .innerJoin(answers, stillTheAnswer)
      .innerJoin(results, eq(results.attemptId, answerFiles.attemptId))
      .where(where);
    return new Map(rows.map((f) => [fileKey(f.attemptId, f.questionIndex), f]));
  }

  async function toAnswer(
    row: AnswerRow,
    examQuestionIndex: number,
    files: ReadonlyMap<string, AnswerFileMeta>,
  ): Promise<SubmittedAnswer | undefined> {
    const snapshot: ExamSnapshot = row.snapshot;
    const candidateIndex = candidateIndexOf(snapshot, examQuestionIndex);
    if (candidateIndex === undefined) return undefined;
    const question = snapshot.questions[candidateIndex]!;
    const stored = row.grades[candidateIndex];
    const raw = stored?.answer ?? null;
    const file = question.type === 'file-upload' ? files.get(fileKey(row.attemptId, candidateIndex)) : undefined;
    const answer =
      question.type === 'coding'
        ? codeToRun(snapshot, question, raw, row.workspaceFiles ?? {})
        : raw?.trim()
          ? answerText(question, raw)
          : '';
    return {
      resultId: row.resultId,
      attemptId: row.attemptId,
      examId: row.examId,
      completedAt: row.completedAt,
      candidate: { name: row.userName, studentId: row.studentId },
      identifiers: identifiersOf(row.userName, row.studentId, row.lti?.sub),
      examQuestionIndex,
      candidateIndex,
      question,
      rubric: rubricOf(snapshot, question),
      humanGraded: isHumanGraded(question),
      answer,
      answerValue: isAnswered(question, raw) ? raw : null,
      file: file ? { fileName: file.fileName, size: file.size, mimeType: file.mimeType } : null,
      fileText: file ? await fileTexts.textOf(file, () => fileContent(file.attemptId, file.questionIndex)) : null,
      grade: {
        points: stored?.points ?? null,
        feedback: stored?.feedback ?? '',
        criteria: stored?.criteria ?? [],
        autoScored: stored?.autoScored ?? false,
        manual: stored?.manual ?? false,
      },
    };
  }

  const selectRows = (withWorkspace: boolean) =>
    db
      .select({ ...rowColumns, ...(withWorkspace ? { workspaceFiles: results.workspaceFiles } : {}) })
      .from(results)
      .innerJoin(attempts, eq(attempts.id, results.attemptId));

  return {
    /**
     * Every submitted result's answer to the exam's question `examQuestionIndex`, oldest submission first. Results
     * whose candidate did not draw the question (pools) have none. 404 when the exam is not the owner's or has no
     * such question.
     */
    async listQuestionAnswers(
      examId: string,
      ownerId: string,
      examQuestionIndex: number,
    ): Promise<QuestionAnswersRead> {
      const exam = await assertCan(deps, examId, ownerId, 'results:read');
      const examQuestion = exam.questions[examQuestionIndex];
      if (!examQuestion) throw questionNotFound();
      const owned = and(eq(results.examId, examId), eq(results.ownerId, ownerId));
      const [rows, files] = await Promise.all([
        selectRows(examQuestion.type === 'coding')
          .where(owned)
          .orderBy(asc(results.completedAt), asc(results.id)) as Promise<AnswerRow[]>,
        examQuestion.type === 'file-upload' ? filesWhere(owned) : new Map<string, AnswerFileMeta>(),
      ]);
      const read: SubmittedAnswer[] = [];
      // One at a time: a file's text may need the extraction, which runs a bounded number at once anyway.
      for (const row of rows) {
        const answer = await toAnswer(row, examQuestionIndex, files);
        if (answer) read.push(answer);
      }
      const newest = read.at(-1);
      const question = newest?.question ?? examQuestion;
      return {
        exam,
        examQuestionIndex,
        question,
        rubric: newest ? newest.rubric : (exam.rubrics.find((r) => r.id === question.rubricId) ?? null),
        humanGraded: isHumanGraded(question),
        answers: read,
      };
    },

    /**
     * One result's answer to the exam's question `examQuestionIndex` (the suggestion route's read); undefined when
     * the owner has no such result or its candidate was not given that question.
     */
    async findQuestionAnswer(
      resultId: string,
      ownerId: string,
      examQuestionIndex: number,
    ): Promise<SubmittedAnswer | undefined> {
      const owned = and(eq(results.id, resultId), eq(results.ownerId, ownerId));
      const [row] = (await selectRows(true).where(owned).limit(1)) as AnswerRow[];
      if (!row) return undefined;
      const candidateIndex = candidateIndexOf(row.snapshot, examQuestionIndex);
      const isUpload = candidateIndex !== undefined && row.snapshot.questions[candidateIndex]?.type === 'file-upload';
      const files = isUpload ? await filesWhere(owned) : new Map<string, AnswerFileMeta>();
      return toAnswer(row, examQuestionIndex, files);
    },
  };
}
export type QuestionAnswersReader = ReturnType<typeof createQuestionAnswersReader>;

function rubricOf(snapshot: ExamSnapshot, question: Question): Rubric | null {
  return question.rubricId === null ? null : (snapshot.rubrics.find((r) => r.id === question.rubricId) ?? null);
}
