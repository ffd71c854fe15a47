import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  LIVE_RECENT_SUBMITTED_MINUTES,
  type Announcement,
  type CandidateLive,
  type EndAttemptResponse,
  type ExamLive,
  type LiveAttempt,
  type LiveAttemptStatus,
  type ResultLiveLog,
} from '@exam/domain/live';
import type { Deps, PresenceStore } from '../../deps.ts';
import type { AnnouncementRow, LiveAttemptRow, LiveRepository } from './live.repository.ts';
import { recordAudit } from '../../access/audit-log.ts';
import { auditActorOf } from '../../access/exam-ownership.ts';

type Creator = { sub: string; email: string; actorId?: string };
/** The submission path every other submit takes (attempts.service.ts): scores and stores the result. */
type Submit = (attemptId: string) => Promise<{ resultId: string; answered: number; total: number }>;

const notFound = () => new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
const iso = (date: Date | null) => date?.toISOString() ?? null;
const announcementOf = (row: AnnouncementRow): Announcement => ({
  id: row.id,
  text: row.text,
  at: row.createdAt.toISOString(),
});

/**
 * Ended by the examiner; expired when time ran out (a submission at or after the deadline is the
 * finalizer's, or a save within the grace); otherwise submitted or still in progress.
 */
export function liveStatus(
  row: Pick<LiveAttemptRow, 'deadline' | 'submittedAt' | 'endedBy'>,
  now: Date,
): LiveAttemptStatus {
  if (row.endedBy) return 'ended';
  if (row.submittedAt) return row.deadline && row.submittedAt >= row.deadline ? 'expired' : 'submitted';
  return row.deadline && now > row.deadline ? 'expired' : 'in-progress';
}

export function createLiveService(
  repo: LiveRepository,
  presence: PresenceStore,
  deps: Pick<Deps, 'clock' | 'ids' | 'examSource' | 'database'>,
  submit: Submit,
) {
  /** Another creator's exam, or one exam-service does not know, looks exactly like a missing one. */
  async function assertOwner(examId: string, ownerId: string): Promise<void> {
    const exam = await deps.examSource.findExam(examId);
    if (!exam || exam.ownerId !== ownerId) throw notFound();
  }

  function liveAttempt(row: LiveAttemptRow, now: Date): LiveAttempt {
    const status = liveStatus(row, now);
    const secondsLeft =
      status === 'in-progress' && row.deadline
        ? Math.max(0, Math.floor((row.deadline.getTime() - now.getTime()) / 1000))
        : null;
    return {
      attemptId: row.id,
      name: row.name,
      studentId: row.studentId,
      startedAt: row.startedAt.toISOString(),
      lastSeenAt: iso(row.lastSeenAt),
      answered: Math.min(row.answered, row.questionCount),
      total: row.questionCount,
      warnings: row.warnings,
      deadline: iso(row.deadline),
      secondsLeft,
      status,
      submittedAt: iso(row.submittedAt),
      endedBy: row.endedBy,
      shares: {
        typed: row.insertedChars.typed,
        pasted: row.insertedChars.pasted,
        assistant: row.insertedChars.assistant,
      },
    };
  }

  /** When this replica last recorded each attempt as seen (epoch ms); entries older than the gap are pruned. */
  const recorded = new Map<string, number>();
  let lastPruned = 0;

  return {
    /**
     * Two indexed queries, in parallel. Only when the exam has no attempt to show is exam-service asked
     * whether the caller owns it (the attempts carry their owner).
     */
    async examLive(examId: string, ownerId: string): Promise<ExamLive> {
      const now = deps.clock.now();
      const since = new Date(now.getTime() - LIVE_RECENT_SUBMITTED_MINUTES * 60_000);
      const [rows, announced] = await Promise.all([
        repo.listLiveAttempts(examId, ownerId, since).then((listed) => presence.withLastSeen(listed)),
        repo.listAnnouncements(examId),
      ]);
      if (rows.length === 0) await assertOwner(examId, ownerId);
      return {
        examId,
        serverNow: now.toISOString(),
        attempts: rows.map((row) => liveAttempt(row, now)),
        announcements: announced.filter((a) => a.ownerId === ownerId).map(announcementOf),
      };
    },

    async announce(examId: string, creator: Creator, text: string): Promise<Announcement> {
      await assertOwner(examId, creator.sub);
      const row: AnnouncementRow = {
        id: deps.ids.next(),
        examId,
        ownerId: creator.sub,
        text,
        createdBy: creator.email,
        createdAt: deps.clock.now(),
      };
      await repo.insertAnnouncement(row);
      await recordAudit(deps.database.db, auditActorOf(creator), row.createdAt, [
        { examId, action: 'announcement.sent', subject: row.id, detail: { text } },
      ]);
      return announcementOf(row);
    },

    /**
     * Ends an attempt in progress: records who ended it, then submits it the way a candidate's submit
     * does (its saved answers scored). An attempt already submitted answers 409; when the submission
     * fails the ending is taken back, so the attempt stays as it was.
     */
    async end(examId: string, attemptId: string, creator: Creator): Promise<EndAttemptResponse> {
      const attempt = await repo.findAttempt(attemptId);
      if (!attempt || attempt.examId !== examId || attempt.ownerId !== creator.sub)
        throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
      if (attempt.submittedAt) throw new AppError(ErrorCode.CONFLICT, 'This attempt has already been submitted');
      const endedAt = deps.clock.now();
      if (!(await repo.insertEnding({ attemptId, endedBy: creator.email, endedAt })))
        throw new AppError(ErrorCode.CONFLICT, 'This attempt has already been ended');
      try {
        const submitted = await submit(attemptId);
        return { ...submitted, endedAt: endedAt.toISOString(), endedBy: creator.email };
      } catch (err) {
        await repo.deleteEnding(attemptId);
        throw err;
      }
    },

    /**
     * The candidate's poll: deadline, submission, ending, and the exam's announcements during the attempt, in one
     * indexed statement (prepared once per connection).
     */
    async candidateLive(attemptId: string): Promise<CandidateLive> {
      const live = await repo.findCandidateLive(attemptId);
      if (!live) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
      return {
        serverNow: deps.clock.now().toISOString(),
        deadline: iso(live.deadline),
        submittedAt: iso(live.submittedAt),
        endedAt: iso(live.endedAt),
        announcements: live.announcements,
      };
    },

    /** The creator's result detail: announcements made while the attempt was open, and its ending. */
    async resultLog(resultId: string, ownerId: string): Promise<ResultLiveLog> {
      const result = await repo.findResult(resultId);
      if (!result || result.ownerId !== ownerId) throw new AppError(ErrorCode.NOT_FOUND, 'Result not found');
      const [ending, announced] = await Promise.all([
        repo.findEnding(result.attemptId),
        repo.listAnnouncementsBetween(result.examId, result.startedAt, result.completedAt),
      ]);
      return {
        announcements: announced.filter((a) => a.ownerId === ownerId).map(announcementOf),
        endedBy: ending?.endedBy ?? null,
        endedAt: iso(ending?.endedAt ?? null),
      };
    },

    /**
     * Records the candidate's page as seen, at most every `minGapMs` per attempt. This replica remembers when it last
     * recorded each attempt and skips the store until the gap has passed, so the many requests in between cost
     * nothing; the store keeps its own throttle for the other replicas' touches.
     */
    touch(attemptId: string, minGapMs: number): Promise<void> {
      const now = deps.clock.now();
      const at = now.getTime();
      if (at - lastPruned >= minGapMs) {
        for (const [id, recordedAt] of recorded) if (at - recordedAt >= minGapMs) recorded.delete(id);
        lastPruned = at;
      }
      const last = recorded.get(attemptId);
      if (last !== undefined && at - last < minGapMs && at >= last) return Promise.resolve();
      recorded.set(attemptId, at);
      return presence.touch(attemptId, now, minGapMs);
    },
  };
}
export type LiveService = ReturnType<typeof createLiveService>;
