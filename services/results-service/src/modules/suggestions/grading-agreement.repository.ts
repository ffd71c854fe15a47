import type { WorkspaceFile } from '@exam/domain/internal';
import type { Question } from '@exam/domain/question';
import type { RatingPair } from '@exam/psychometrics/agreement';
import { sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import type { StoredGrade } from '../../scoring/score.ts';
import { answerText } from '@exam/domain/answer-text';
import { codeToRun } from '../../scoring/test-code.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import { textToGrade } from '../question-grading/question-answers.repository.ts';

/**
 * Every answer of the owner's exam that has a suggestion, in one statement: its suggestions newest first (hash and
 * points), and from the result and the candidate's snapshot what deciding the pair needs: the grade, the question
 * as the candidate had it at their own index (the exam's index mapped through arrangement.sourceIndices, as
 * question-grading/question-numbering.ts does), and for a coding question the one workspace file it names. The
 * snapshot and the workspace stay in the database; only those parts leave it. An index on grading_suggestions
 * (exam_id, question_index) finds the suggestions; results and attempts are read by primary key.
 */
const ANSWERS_WITH_SUGGESTIONS = (examId: string, ownerId: string) => sql`
  with suggested as (
    select s.result_id, s.question_index,
      json_agg(json_build_array(s.answer_hash, s.points) order by s.created_at desc, s.id desc) as suggestions
    from results_service.grading_suggestions s
    where s.exam_id = ${examId} and s.owner_id = ${ownerId}
    group by s.result_id, s.question_index
  ),
  placed as (
    select g.result_id, g.question_index, g.suggestions, r.grades, r.workspace_files, t.exam_snapshot as snapshot,
      case when jsonb_typeof(t.exam_snapshot -> 'arrangement') = 'object' then (
        select (o.ord - 1)::int
        from jsonb_array_elements(t.exam_snapshot -> 'arrangement' -> 'sourceIndices') with ordinality as o(v, ord)
        where o.v = to_jsonb(g.question_index)
        limit 1)
      else g.question_index end as ci
    from suggested g
    join results_service.results r on r.id = g.result_id and r.owner_id = ${ownerId} and r.exam_id = ${examId}
    join results_service.attempts t on t.id = r.attempt_id
  ),
  questioned as (
    select p.*, p.snapshot -> 'questions' -> p.ci as question,
      regexp_replace(coalesce(p.snapshot -> 'questions' -> p.ci ->> 'workspaceFile', ''), '^(\\./)+', '') as wanted
    from placed p
  )
  select q.result_id, q.question_index, q.suggestions, q.grades -> q.ci as grade, q.question,
    coalesce((q.snapshot -> 'codingWorkspace' ->> 'enabled')::boolean, false) as workspace,
    case when q.question ->> 'type' = 'coding' and q.wanted <> ''
      then coalesce(q.workspace_files -> q.wanted, q.workspace_files -> ('./' || q.wanted)) end as workspace_file,
    q.wanted
  from questioned q`;

type Row = {
  result_id: string;
  question_index: number;
  suggestions: Array<[string, number | string]> | string;
  grade: StoredGrade | string | null;
  question: Question | string | null;
  workspace: boolean;
  workspace_file: WorkspaceFile | string | null;
  wanted: string;
};

/** Drivers differ in whether json comes back parsed (db/rows.ts). */
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * The hash of the text a mark of this answer rests on, as question-grading's reader computes it (its toAnswer and
 * textToGrade), from the row alone. An upload's text is read from its file, which an attempt cannot change after
 * submission: null here, and its newest suggestion is taken as current.
 */
function answerHashOf(row: Row, question: Question, grade: StoredGrade): string | null {
  if (question.type === 'file-upload') return null;
  const raw = grade.answer ?? null;
  const file = row.workspace_file === null ? undefined : parsed(row.workspace_file);
  // codeToRun reads only whether the workspace is enabled; the query reads no more of it.
  const snapshot = { codingWorkspace: { enabled: row.workspace } } as Pick<ExamSnapshot, 'codingWorkspace'>;
  const answer =
    question.type === 'coding'
      ? codeToRun(snapshot, question, raw, file ? { [row.wanted]: file } : {})
      : raw?.trim()
        ? answerText(question, raw)
        : '';
  return textToGrade({ question, answer, fileText: null }).answerHash;
}

/** The (suggested, human) pairs of the owner's exam by the exam's question index, read with one query. */
export function createGradingAgreementRepository({ db }: ResultsDatabase) {
  return {
    /**
     * Per question (the exam's numbering) with at least one suggestion, the pairs of the newest current suggestion's
     * points and the grader's points, for the answers a grader marked (not scored by a key or tests), ordered by
     * their points. A question with suggestions and no marked answer yet is present with no pairs.
     */
    async pairsOf(examId: string, ownerId: string): Promise<Map<number, RatingPair[]>> {
      const rows = await queryRows<Row>(db, ANSWERS_WITH_SUGGESTIONS(examId, ownerId));
      const byQuestion = new Map<number, RatingPair[]>();
      for (const row of rows) {
        const pairs = byQuestion.get(row.question_index) ?? [];
        byQuestion.set(row.question_index, pairs);
        const grade = row.grade === null ? null : parsed(row.grade);
        const question = row.question === null ? null : parsed(row.question);
        if (!grade || !question || !grade.manual || grade.points === null) continue;
        const hash = answerHashOf(row, question, grade);
        const suggestion = parsed(row.suggestions).find(([answerHash]) => hash === null || answerHash === hash);
        if (suggestion) pairs.push({ suggested: Number(suggestion[1]), human: Number(grade.points) });
      }
      // The bootstrap interval resamples pairs by position: in a fixed order, the figures are a function of the
      // pairs alone, whatever order the rows came in.
      for (const pairs of byQuestion.values()) pairs.sort((a, b) => a.suggested - b.suggested || a.human - b.human);
      return byQuestion;
    },
  };
}
export type GradingAgreementRepository = ReturnType<typeof createGradingAgreementRepository>;
