// Seeds one exam's worth of submitted attempts into a results-service database for the insights
// benchmark: every attempt with its exam snapshot, saved answers, proctoring events and a
// result whose grades follow a Rasch model simulated with a fixed seed. Rows go in as multi-row
// INSERT … SELECT FROM unnest(…) batches, one round trip per few thousand rows.
import type { Sql } from 'postgres';
import { createRandom, type Random } from '../../packages/psychometrics/src/random.ts';
import { simulateRasch, spreadDifficulties } from '../../packages/psychometrics/src/simulate.ts';

export const BENCH_EXAM_ID = 'bench-insights-exam';
export const BENCH_OWNER_ID = 'bench-insights-owner';
export const RASCH_SEED = 20251122;
const OTHER_SEED = 7;
const TOPICS = ['Algebra', 'Statistics', 'Programming', 'Databases', 'Networks'];
const EXAM_DAY = Date.UTC(2025, 10, 3, 8);

/** Attempt ids are deterministic so the llm-gateway stub can serve transcripts for them. */
export const attemptIdOf = (c: number) => `att-${String(c).padStart(6, '0')}`;

export type Question = {
  id: string;
  type: 'mcq' | 'short-answer' | 'coding' | 'file-upload';
  title: string;
  content: string;
  topic: string;
  options: string[];
  correctAnswer?: string;
  acceptedAnswers: string[];
  language?: 'python';
};
/** A result's grade as results-service stores it (services/results-service/src/scoring/score.ts, StoredGrade). */
type Grade = {
  answer: string | null;
  points: number | null;
  autoScored: boolean;
  feedback: string;
  criteria: string[];
  manual: boolean;
};

/** Question j's type: 30 MCQ, 12 short answers, 4 coding and 4 file uploads in a 50-question exam. */
export function typeOf(j: number): Question['type'] {
  const k = j % 25;
  if (k < 15) return 'mcq';
  if (k < 21) return 'short-answer';
  return k < 23 ? 'coding' : 'file-upload';
}

export function benchQuestions(count: number): Question[] {
  const stem =
    'Read the scenario carefully. A small company keeps its records in a relational database and analyses them weekly; ';
  return Array.from({ length: count }, (_v, j) => {
    const type = typeOf(j);
    const base = {
      id: `q${j + 1}`,
      type,
      title: `Question ${j + 1}: ${TOPICS[j % TOPICS.length]} ${type}`,
      content: `${stem.repeat(3)}explain or choose what best answers part ${j + 1}. Show your reasoning where asked.`,
      topic: TOPICS[j % TOPICS.length]!,
      options: [] as string[],
      acceptedAnswers: [] as string[],
    };
    if (type === 'mcq') {
      const options = ['A', 'B', 'C', 'D'].map(
        (letter) => `Option ${letter}: a plausible statement about item ${j + 1}`,
      );
      return { ...base, options, correctAnswer: options[j % 4]! };
    }
    if (type === 'short-answer') return { ...base, acceptedAnswers: [`answer ${j + 1}`, `the answer ${j + 1}`] };
    return type === 'coding' ? { ...base, language: 'python' as const } : base;
  });
}

function snapshotOf(questions: Question[]) {
  return {
    title: 'Insights benchmark exam',
    ownerId: BENCH_OWNER_ID,
    timerEnabled: true,
    timerMinutes: 120,
    questions,
    codingWorkspace: {
      enabled: false,
      saveFilesInResults: false,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
    },
  };
}

/** What candidate c answered to question q, given their simulated mark (null = left blank). */
function answerOf(q: Question, mark: 0 | 1, c: number, rng: Random): string | null {
  if (mark === 0 && rng.next() < 0.05) return null;
  switch (q.type) {
    case 'mcq':
      return mark === 1
        ? q.correctAnswer!
        : (q.options.find((o) => o !== q.correctAnswer && rng.next() < 0.5) ??
            q.options.find((o) => o !== q.correctAnswer)!);
    case 'short-answer':
      return mark === 1
        ? q.acceptedAnswers[c % 2]!
        : `i think it is about ${q.topic.toLowerCase()} and the records of part ${c % 7}`;
    case 'coding':
      return `def solve(rows):\n    total = 0\n    for row in rows:\n        total += row[${c % 5}]\n    return total${mark === 1 ? '' : ' - 1'}\n`;
    default:
      return `upload-${c}-${q.id}.pdf`;
  }
}

const isManual = (q: Question) => q.type === 'coding' || q.type === 'file-upload';

/** Proctoring events of one attempt: focus switches, blocked pastes, the odd full-screen exit. */
function eventsOf(start: number, end: number, rng: Random): { type: string; at: number }[] {
  const events: { type: string; at: number }[] = [];
  const span = end - start;
  const pairs = Math.floor(rng.next() * 4);
  for (let p = 0; p < pairs; p += 1) {
    const at = start + rng.next() * span * 0.9;
    events.push(
      { type: 'focus-lost', at },
      { type: 'focus-gained', at: Math.min(end, at + 5_000 + rng.next() * 120_000) },
    );
  }
  if (rng.next() < 0.3) events.push({ type: 'paste-blocked', at: start + rng.next() * span });
  if (rng.next() < 0.1)
    events.push(
      { type: 'fullscreen-exit', at: start + rng.next() * span },
      { type: 'fullscreen-enter', at: start + rng.next() * span },
    );
  return events.sort((a, b) => a.at - b.at);
}

type Columns = Record<string, unknown[]>;

/** One INSERT of many rows: `columns` maps column name to its SQL array type and values. */
async function insertRows(sql: Sql, table: string, columns: Record<string, [string, unknown[]]>) {
  const names = Object.keys(columns);
  // Every array travels as text[] and is cast in SQL: the driver then never has to guess element types.
  const unnest = names.map((n, i) => `$${i + 1}::text[]::${columns[n]![0]}`).join(', ');
  const params = names.map((n) => columns[n]![1].map((v) => (v === null ? null : String(v))));
  await sql.unsafe(
    `insert into results_service.${table} (${names.join(', ')}) select * from unnest(${unnest})`,
    params as never[],
  );
}

export type SeedSummary = {
  attempts: number;
  answers: number;
  events: number;
  graded: number;
  questions: number;
  snapshotBytes: number;
};

/**
 * Inserts `candidates` submitted attempts of a `questionCount`-question exam. Marks come from
 * simulateRasch(candidates, difficulties −2.5…2.5, RASCH_SEED); coding and file-upload questions wait
 * for a grader in 10% of results, so those results are not fully graded.
 */
export async function seedInsights(
  sql: Sql,
  candidates: number,
  questionCount: number,
  batch = 1000,
): Promise<SeedSummary> {
  const questions = benchQuestions(questionCount);
  const snapshot = JSON.stringify(snapshotOf(questions));
  const { marks } = simulateRasch(candidates, spreadDifficulties(questionCount, -2.5, 2.5), RASCH_SEED);
  const rng = createRandom(OTHER_SEED);
  const summary: SeedSummary = {
    attempts: 0,
    answers: 0,
    events: 0,
    graded: 0,
    questions: questionCount,
    snapshotBytes: Buffer.byteLength(snapshot),
  };

  for (let from = 0; from < candidates; from += batch) {
    const a: Columns = { id: [], student: [], name: [], started: [], deadline: [], submitted: [], result: [] };
    const r: Columns = {
      id: [],
      attempt: [],
      name: [],
      student: [],
      answered: [],
      pending: [],
      score: [],
      status: [],
      gradedAt: [],
      time: [],
      started: [],
      completed: [],
      grades: [],
    };
    const ans: Columns = { attempt: [], index: [], answer: [], seq: [], at: [] };
    const ev: Columns = { attempt: [], type: [], detail: [], at: [] };
    for (let c = from; c < Math.min(candidates, from + batch); c += 1) {
      const attemptId = attemptIdOf(c);
      const resultId = `res-${String(c).padStart(6, '0')}`;
      const start = EXAM_DAY + Math.floor(rng.next() * 8 * 3600_000);
      const seconds = 1200 + Math.floor(rng.next() * 5400);
      const end = start + seconds * 1000;
      const pendingManual = rng.next() < 0.1;
      const grades: Grade[] = questions.map((q, j) => {
        const answer = answerOf(q, marks[c]![j]!, c, rng);
        const waiting = isManual(q) && pendingManual;
        // Every question is worth 1 point (the snapshot's default).
        return {
          answer,
          points: waiting ? null : marks[c]![j]!,
          autoScored: !isManual(q),
          feedback: isManual(q) && !waiting ? 'Checked by the grader.' : '',
          criteria: [],
          manual: isManual(q) && !waiting,
        };
      });
      grades.forEach((g, j) => {
        if (g.answer === null) return;
        ans.attempt!.push(attemptId);
        ans.index!.push(j);
        ans.answer!.push(g.answer);
        ans.seq!.push(j + 1);
        ans.at!.push(new Date(start + ((j + 1) * (end - start)) / (questionCount + 1)).toISOString());
      });
      for (const e of eventsOf(start, end, rng)) {
        ev.attempt!.push(attemptId);
        ev.type!.push(e.type);
        ev.detail!.push(e.type === 'paste-blocked' ? 'pasted 120 characters' : null);
        ev.at!.push(new Date(e.at).toISOString());
      }
      const pending = grades.filter((g) => g.points === null).length;
      const score = grades.reduce((sum, g) => sum + (g.points ?? 0), 0);
      const isGraded = pending === 0;
      summary.graded += isGraded ? 1 : 0;
      a.id!.push(attemptId);
      a.student!.push(`S${String(c).padStart(6, '0')}`);
      a.name!.push(`Candidate ${c}`);
      a.started!.push(new Date(start).toISOString());
      a.deadline!.push(new Date(start + 120 * 60_000).toISOString());
      a.submitted!.push(new Date(end).toISOString());
      a.result!.push(resultId);
      r.id!.push(resultId);
      r.attempt!.push(attemptId);
      r.name!.push(`Candidate ${c}`);
      r.student!.push(`S${String(c).padStart(6, '0')}`);
      r.answered!.push(grades.filter((g) => g.answer !== null).length);
      r.pending!.push(pending);
      r.score!.push(score);
      r.status!.push(isGraded ? 'graded' : 'pending');
      r.gradedAt!.push(isGraded ? new Date(end + 86_400_000).toISOString() : null);
      r.time!.push(seconds);
      r.started!.push(new Date(start).toISOString());
      r.completed!.push(new Date(end).toISOString());
      r.grades!.push(JSON.stringify(grades));
    }
    const n = a.id!.length;
    const same = <T>(value: T) => Array<T>(n).fill(value);
    await sql.begin(async (tx) => {
      await tx.unsafe(
        `insert into results_service.attempts (id, exam_id, owner_id, name, student_id, candidate_key, started_at, deadline, submitted_at, result_id, exam_snapshot, question_count, answers_version)
         select id, $8, $9, name, student, lower(student), started, deadline, submitted, result, $10::jsonb, $11, $12
         from unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[], $7::text[]) as t(id, student, name, started, deadline, submitted, result)`,
        [
          a.id,
          a.student,
          a.name,
          a.started,
          a.deadline,
          a.submitted,
          a.result,
          BENCH_EXAM_ID,
          BENCH_OWNER_ID,
          snapshot,
          questionCount,
          questionCount,
        ] as never[],
      );
      await insertRows(tx as unknown as Sql, 'results', {
        id: ['text[]', r.id!],
        attempt_id: ['text[]', r.attempt!],
        exam_id: ['text[]', same(BENCH_EXAM_ID)],
        owner_id: ['text[]', same(BENCH_OWNER_ID)],
        exam_title: ['text[]', same('Insights benchmark exam')],
        user_name: ['text[]', r.name!],
        student_id: ['text[]', r.student!],
        total_questions: ['int[]', same(questionCount)],
        answered_count: ['int[]', r.answered!],
        pending_count: ['int[]', r.pending!],
        score: ['numeric[]', r.score!],
        max_score: ['numeric[]', same(questionCount)],
        status: ['text[]', r.status!],
        graded_at: ['timestamptz[]', r.gradedAt!],
        time_spent: ['int[]', r.time!],
        started_at: ['timestamptz[]', r.started!],
        completed_at: ['timestamptz[]', r.completed!],
        grades: ['jsonb[]', r.grades!],
        workspace_files: ['jsonb[]', same('{}')],
      });
      await insertRows(tx as unknown as Sql, 'answers', {
        attempt_id: ['text[]', ans.attempt!],
        question_index: ['int[]', ans.index!],
        answer: ['text[]', ans.answer!],
        seq: ['bigint[]', ans.seq!],
        updated_at: ['timestamptz[]', ans.at!],
      });
      await insertRows(tx as unknown as Sql, 'events', {
        attempt_id: ['text[]', ev.attempt!],
        type: ['text[]', ev.type!],
        detail: ['text[]', ev.detail!],
        recorded_at: ['timestamptz[]', ev.at!],
        client_at: ['text[]', ev.at!],
      });
    });
    summary.attempts += n;
    summary.answers += ans.attempt!.length;
    summary.events += ev.attempt!.length;
  }
  await sql.unsafe(
    'analyze results_service.attempts, results_service.results, results_service.answers, results_service.events',
  );
  return summary;
}
