import { ANSWER_SOURCES, emptyShares, type SourceShares } from '@exam/domain/answer-operations';
import { ANNOUNCEMENTS_LISTED_MAX, WARNING_EVENT_TYPES, type Announcement } from '@exam/domain/live';
import { and, desc, eq, gte, lte } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { rawQuery } from '../../db/rows.ts';
import { announcements, attemptEndings, attemptPresence, attempts, results } from '../../db/schema.ts';

const epochMs = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;
const warningTypes = WARNING_EVENT_TYPES.map((type) => `'${type}'`).join(', ');

/**
 * Every attempt of the exam still open or submitted since $3, with what the live view shows, in one
 * statement. Each subquery is an index lookup per attempt: answers by its primary key (attempt_id, …),
 * events by events_attempt_idx. An answer counts once it holds more than blanks or an empty choice list.
 */
const LIVE_ATTEMPTS = `
  select a.id, a.name, a.student_id, a.question_count, a.operations_chars,
    ${epochMs('a.started_at')} as started_ms, ${epochMs('a.deadline')} as deadline_ms,
    ${epochMs('a.submitted_at')} as submitted_ms, ${epochMs('p.last_seen_at')} as last_seen_ms,
    e.ended_by,
    (select count(*)::int from results_service.answers s
      where s.attempt_id = a.id and btrim(s.answer) not in ('', '[]')) as answered,
    coalesce((select json_object_agg(w.type, w.n) from (
      select v.type, count(*)::int as n from results_service.events v
      where v.attempt_id = a.id and v.type in (${warningTypes}) group by v.type) w), '{}'::json) as warnings
  from results_service.attempts a
  left join results_service.attempt_presence p on p.attempt_id = a.id
  left join results_service.attempt_endings e on e.attempt_id = a.id
  where a.exam_id = $1 and a.owner_id = $2 and (a.submitted_at is null or a.submitted_at >= $3::timestamptz)
  order by a.started_at, a.id`;

type LiveAttemptDbRow = {
  id: string;
  name: string;
  student_id: string;
  question_count: number;
  started_ms: number;
  deadline_ms: number | null;
  submitted_ms: number | null;
  last_seen_ms: number | null;
  ended_by: string | null;
  answered: number;
  warnings: Record<string, number> | string;
  operations_chars: number[] | string;
};

/**
 * Records the candidate's page as seen unless it was seen less than `minGapMs` ago: no write while it
 * is fresh, so a burst of saves costs one index lookup each and a write every few seconds at most.
 * The NOT EXISTS matters as much as the ON CONFLICT condition: an upsert that reaches its conflict
 * row locks it even when the condition then skips the update, and a row lock makes the transaction
 * write and flush WAL at commit. Filtering a fresh row out first keeps the no-op read-only, so a save
 * does not pay a second WAL flush for presence.
 */
const TOUCH = `
  insert into results_service.attempt_presence (attempt_id, last_seen_at)
  select $1, $2::timestamptz
  where not exists (
    select 1 from results_service.attempt_presence
    where attempt_id = $1 and last_seen_at >= $2::timestamptz - make_interval(secs => $3::float8 / 1000)
  )
  on conflict (attempt_id) do update set last_seen_at = excluded.last_seen_at
    where attempt_presence.last_seen_at < excluded.last_seen_at - make_interval(secs => $3::float8 / 1000)`;

/** TOUCH for many attempts in one statement (at most one row per attempt), each with its own time. */
const TOUCH_MANY = `
  insert into results_service.attempt_presence (attempt_id, last_seen_at)
  select t.attempt_id, t.at from json_to_recordset($1::json) as t(attempt_id text, at timestamptz)
  where not exists (
    select 1 from results_service.attempt_presence p
    where p.attempt_id = t.attempt_id and p.last_seen_at >= t.at - make_interval(secs => $2::float8 / 1000)
  )
  on conflict (attempt_id) do update set last_seen_at = excluded.last_seen_at
    where attempt_presence.last_seen_at < excluded.last_seen_at - make_interval(secs => $2::float8 / 1000)`;

/**
 * The candidate's poll in one statement: the attempt by its primary key, its ending by its own, and the exam's
 * announcements made since the attempt started (until its submission) by announcements_exam_idx — the newest
 * ANNOUNCEMENTS_LISTED_MAX of them, those of the attempt's owner, oldest first, as a JSON array.
 */
const CANDIDATE_LIVE = `
  select ${epochMs('a.deadline')} as deadline_ms, ${epochMs('a.submitted_at')} as submitted_ms,
    ${epochMs('e.ended_at')} as ended_ms,
    (select coalesce(json_agg(json_build_object('id', n.id, 'text', n.text, 'at', n.at_ms)
        order by n.created_at, n.id), '[]'::json)
      from (select x.id, x.text, x.owner_id, x.created_at, ${epochMs('x.created_at')} as at_ms
        from results_service.announcements x
        where x.exam_id = a.exam_id and x.created_at >= a.started_at
          and (a.submitted_at is null or x.created_at <= a.submitted_at)
        order by x.created_at desc, x.id desc limit ${ANNOUNCEMENTS_LISTED_MAX}) n
      where n.owner_id = a.owner_id) as announcements
  from results_service.attempts a
  left join results_service.attempt_endings e on e.attempt_id = a.id
  where a.id = $1`;

type CandidateLiveDbRow = {
  deadline_ms: number | null;
  submitted_ms: number | null;
  ended_ms: number | null;
  announcements: { id: string; text: string; at: number }[] | string;
};

const nullableDate = (ms: number | null) => (ms === null ? null : new Date(ms));

export type LiveAttemptRow = {
  id: string;
  name: string;
  studentId: string;
  questionCount: number;
  startedAt: Date;
  deadline: Date | null;
  submittedAt: Date | null;
  lastSeenAt: Date | null;
  endedBy: string | null;
  answered: number;
  warnings: Record<string, number>;
  /** Characters inserted by the stored edit operations, by source (attempts.operations_chars). */
  insertedChars: SourceShares;
};

/** attempts.operations_chars, indexed as ANSWER_SOURCES (an array literal where the driver leaves it as text). */
function insertedChars(stored: number[] | string): SourceShares {
  const counts = typeof stored === 'string' ? stored.replace(/[{}]/g, '').split(',').map(Number) : stored;
  const shares = emptyShares();
  ANSWER_SOURCES.forEach((source, i) => (shares[source] = Number(counts[i] ?? 0)));
  return shares;
}

export type AnnouncementRow = typeof announcements.$inferSelect;

/** The live view's storage: presence, endings and announcements, and the one query over an exam's attempts. */
export function createLiveRepository({ db }: ResultsDatabase) {
  return {
    async listLiveAttempts(examId: string, ownerId: string, submittedSince: Date): Promise<LiveAttemptRow[]> {
      const rows = await rawQuery<LiveAttemptDbRow>(db, LIVE_ATTEMPTS, [examId, ownerId, submittedSince.toISOString()]);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        studentId: row.student_id,
        questionCount: row.question_count,
        startedAt: new Date(row.started_ms),
        deadline: nullableDate(row.deadline_ms),
        submittedAt: nullableDate(row.submitted_ms),
        lastSeenAt: nullableDate(row.last_seen_ms),
        endedBy: row.ended_by,
        answered: Number(row.answered),
        // postgres.js hands json back as text when it is not told the column type.
        warnings:
          typeof row.warnings === 'string' ? (JSON.parse(row.warnings) as Record<string, number>) : row.warnings,
        insertedChars: insertedChars(row.operations_chars),
      }));
    },

    async touch(attemptId: string, now: Date, minGapMs: number): Promise<void> {
      await rawQuery(db, TOUCH, [attemptId, now.toISOString(), minGapMs]);
    },

    /** `touch` for several attempts at once (at most one entry per attempt), all with the same gap. */
    async touchMany(list: { attemptId: string; now: Date }[], minGapMs: number): Promise<void> {
      const rows = list.map((t) => ({ attempt_id: t.attemptId, at: t.now.toISOString() }));
      await rawQuery(db, TOUCH_MANY, [JSON.stringify(rows), minGapMs]);
    },

    async findLastSeen(attemptId: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ at: attemptPresence.lastSeenAt })
        .from(attemptPresence)
        .where(eq(attemptPresence.attemptId, attemptId));
      return row?.at;
    },

    async findAttempt(attemptId: string) {
      const [row] = await db
        .select({
          id: attempts.id,
          examId: attempts.examId,
          ownerId: attempts.ownerId,
          startedAt: attempts.startedAt,
          deadline: attempts.deadline,
          submittedAt: attempts.submittedAt,
        })
        .from(attempts)
        .where(eq(attempts.id, attemptId))
        .limit(1);
      return row;
    },

    /** What the candidate's poll shows of an attempt; undefined when there is no such attempt. */
    async findCandidateLive(attemptId: string) {
      const [row] = await rawQuery<CandidateLiveDbRow>(db, CANDIDATE_LIVE, [attemptId]);
      if (!row) return undefined;
      const listed = typeof row.announcements === 'string' ? JSON.parse(row.announcements) : row.announcements;
      return {
        deadline: nullableDate(row.deadline_ms),
        submittedAt: nullableDate(row.submitted_ms),
        endedAt: nullableDate(row.ended_ms),
        announcements: (listed as { id: string; text: string; at: number }[]).map((a): Announcement => ({
          id: a.id,
          text: a.text,
          at: new Date(a.at).toISOString(),
        })),
      };
    },

    async findResult(resultId: string) {
      const [row] = await db
        .select({
          attemptId: results.attemptId,
          examId: results.examId,
          ownerId: results.ownerId,
          startedAt: results.startedAt,
          completedAt: results.completedAt,
        })
        .from(results)
        .where(eq(results.id, resultId))
        .limit(1);
      return row;
    },

    async findEnding(attemptId: string) {
      const [row] = await db.select().from(attemptEndings).where(eq(attemptEndings.attemptId, attemptId));
      return row;
    },

    /** False when the attempt was already ended (the first ending stays). */
    async insertEnding(row: typeof attemptEndings.$inferInsert): Promise<boolean> {
      const inserted = await db
        .insert(attemptEndings)
        .values(row)
        .onConflictDoNothing()
        .returning({ id: attemptEndings.attemptId });
      return inserted.length > 0;
    },

    async deleteEnding(attemptId: string): Promise<void> {
      await db.delete(attemptEndings).where(eq(attemptEndings.attemptId, attemptId));
    },

    async insertAnnouncement(row: AnnouncementRow): Promise<void> {
      await db.insert(announcements).values(row);
    },

    /** The exam's newest announcements first. */
    async listAnnouncements(examId: string): Promise<AnnouncementRow[]> {
      return db
        .select()
        .from(announcements)
        .where(eq(announcements.examId, examId))
        .orderBy(desc(announcements.createdAt), desc(announcements.id))
        .limit(ANNOUNCEMENTS_LISTED_MAX);
    },

    /** The exam's announcements made between `from` and `until` (open-ended without it), oldest first. */
    async listAnnouncementsBetween(examId: string, from: Date, until: Date | null): Promise<AnnouncementRow[]> {
      const newest = await db
        .select()
        .from(announcements)
        .where(
          and(
            eq(announcements.examId, examId),
            gte(announcements.createdAt, from),
            until ? lte(announcements.createdAt, until) : undefined,
          ),
        )
        .orderBy(desc(announcements.createdAt), desc(announcements.id))
        .limit(ANNOUNCEMENTS_LISTED_MAX);
      return newest.reverse();
    },
  };
}
export type LiveRepository = ReturnType<typeof createLiveRepository>;
