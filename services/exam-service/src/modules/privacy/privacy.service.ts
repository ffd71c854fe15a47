import { candidateKey as keyOf } from '@exam/domain/candidate-key';
import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  EXPORT_README_LINES,
  PRIVACY_SERVICES,
  type DataErasure,
  type ErasureServiceOutcome,
  type PrivacyExportFile,
  type PrivacyService,
} from '@exam/domain/privacy';
import { CAPABILITY_REFUSALS, checkAccess } from '@exam/domain/roles';
import { candidateKeyHash, erasedSubject } from '@exam/server-kit/candidate-data';
import { strToU8, zipSync } from 'fflate';
import type { PrivacyServices, RemotePrivacyService } from '../../adapters/privacy-services.ts';
import type { Deps } from '../../deps.ts';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import { EXAM_NOT_FOUND } from '../exams/exams.service.ts';
import type { ErasureRow, PrivacyRepository } from './privacy.repository.ts';

const DAY_MS = 24 * 3600_000;
/** What an erasure needs until it completes; dropped then (privacy.repository.ts complete()). */
type Resume = {
  candidateKey: string | null;
  attemptIds: string[];
  /** What an audit subject may say of the candidate (the ID as typed). */
  subjects: string[];
  /** A retention purge: the candidates whose mail before `before` goes too. */
  candidateKeys?: string[];
  before?: string;
  leaseUntil?: string;
};

const resumeOf = (row: ErasureRow) => row.services._resume as Resume | undefined;

/** The owner's view of a record: each service's outcome, pending until it has one. */
export function toErasureView(row: ErasureRow): DataErasure {
  const services = Object.fromEntries(
    PRIVACY_SERVICES.map((service) => {
      const outcome = row.services[service] as ErasureServiceOutcome | undefined;
      return [service, outcome ?? { status: 'pending', deleted: {} }];
    }),
  ) as Record<PrivacyService, ErasureServiceOutcome>;
  const attempts = row.services._attempts;
  return {
    id: row.id,
    examId: row.examId,
    reason: row.reason,
    candidateKeyHash: row.candidateKeyHash,
    attemptCount: typeof attempts === 'number' ? attempts : 0,
    requestedAt: row.requestedAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    status: row.completedAt ? 'complete' : 'pending',
    services,
  };
}

/**
 * Candidates' data (docs/product.md#candidate-data): erasure on request, export, and the retention job. An erasure
 * visits every service in PRIVACY_SERVICES order, results-service last (it knows the attempts, so a retry can still
 * find them); a service that fails leaves the record incomplete and the job (jobs/privacy.ts) retries it.
 */
export function createPrivacyService(
  repo: PrivacyRepository,
  exams: ExamsRepository,
  services: PrivacyServices,
  deps: Pick<Deps, 'clock' | 'ids'>,
  opts: { leaseMs: number; log: { warn(obj: object, msg: string): void } },
) {
  async function ownedForData(creatorId: string, examId: string) {
    const exam = await exams.findById(examId);
    const members = exam ? await exams.findMembers(examId) : [];
    const access = checkAccess(exam && { ownerId: exam.ownerId, members }, creatorId, 'candidates:data');
    if (access === 'not-found' || !exam) throw new AppError(ErrorCode.NOT_FOUND, EXAM_NOT_FOUND);
    if (access === 'forbidden') throw new AppError(ErrorCode.FORBIDDEN, CAPABILITY_REFUSALS['candidates:data']);
    return exam;
  }

  async function eraseIn(service: PrivacyService, examId: string, resume: Resume) {
    const request = { examId, candidateKey: resume.candidateKey, attemptIds: resume.attemptIds };
    if (service !== 'exam-service') return services.erase(service, request);
    if (resume.candidateKey !== null) {
      return repo.eraseCandidate({ ...request, subjects: resume.subjects });
    }
    const mail = await repo.eraseRetainedMail(examId, resume.candidateKeys ?? [], new Date(resume.before ?? 0));
    const audit = await repo.eraseCandidate({ ...request, subjects: resume.subjects });
    return { ...mail, ...audit };
  }

  /** Runs the services of a claimed record that have not succeeded yet; answers whether it completed. */
  async function run(row: ErasureRow): Promise<boolean> {
    const resume = resumeOf(row);
    if (!resume) return true;
    let complete = true;
    for (const service of PRIVACY_SERVICES) {
      const done = row.services[service] as ErasureServiceOutcome | undefined;
      if (done?.status === 'done') continue;
      // results-service last, and only once the others are done: it is how a retry finds the attempts again.
      if (service === 'results-service' && !complete) break;
      try {
        const deleted = await eraseIn(service, row.examId, resume);
        await repo.setOutcome(row.id, service, { status: 'done', deleted });
      } catch (err) {
        complete = false;
        const error = err instanceof Error ? err.message : String(err);
        opts.log.warn({ erasureId: row.id, service, err: error }, "a service has not erased a candidate's data yet");
        await repo.setOutcome(row.id, service, { status: 'failed', deleted: {}, error });
      }
    }
    if (complete) await repo.complete(row.id, deps.clock.now());
    return complete;
  }

  async function exportFrom(service: PrivacyService, examId: string, key: string, attemptIds: string[]) {
    if (service !== 'exam-service')
      return services.export(service as RemotePrivacyService, { examId, candidateKey: key, attemptIds });
    const out = await repo.exportCandidate({ examId, candidateKey: key, attemptIds });
    return { service, ...out };
  }

  return {
    async erase(creator: { id: string; email: string }, examId: string, candidateId: string): Promise<DataErasure> {
      await ownedForData(creator.id, examId);
      const key = keyOf(candidateId);
      const attempts = await services.attempts({ examId, candidateKey: key });
      const now = deps.clock.now();
      const id = deps.ids.next();
      const hash = candidateKeyHash(key);
      const resume: Resume = {
        candidateKey: key,
        attemptIds: attempts.map((a) => a.attemptId),
        subjects: [...new Set([candidateId, candidateId.trim()])],
        // Held by this request while it runs below; the job takes it over if the request dies.
        leaseUntil: new Date(now.getTime() + opts.leaseMs).toISOString(),
      };
      await repo.insertErasure({
        id,
        examId,
        candidateKeyHash: hash,
        reason: 'request',
        requestedBy: creator.id,
        requestedAt: now,
        services: { _resume: resume, _attempts: attempts.length },
      });
      await repo.audit({
        id: deps.ids.next(),
        examId,
        actorId: creator.id,
        actorEmail: creator.email,
        action: 'candidate.erased',
        // Never the candidate's name or ID: the same pseudonym their other audit entries now carry.
        subject: erasedSubject({ examId, candidateKey: key, attemptIds: [] }),
        detail: { erasureId: id, attempts: attempts.length },
        at: now,
      });
      const row = (await repo.findErasure(id))!;
      if (!(await run(row))) await repo.release(id);
      return toErasureView((await repo.findErasure(id))!);
    },

    async list(creatorId: string, examId: string): Promise<DataErasure[]> {
      await ownedForData(creatorId, examId);
      return (await repo.listErasures(examId)).map(toErasureView);
    },

    /** A ZIP of everything held about the candidate: one JSON file per service, their files, and a README. */
    async export(
      creator: { id: string; email: string },
      examId: string,
      candidateId: string,
    ): Promise<{ fileName: string; content: Buffer }> {
      await ownedForData(creator.id, examId);
      const key = keyOf(candidateId);
      const attemptIds = (await services.attempts({ examId, candidateKey: key })).map((a) => a.attemptId);
      const parts = await Promise.all(PRIVACY_SERVICES.map((s) => exportFrom(s, examId, key, attemptIds)));
      const entries: Record<string, Uint8Array> = {};
      const files: PrivacyExportFile[] = [];
      for (const part of parts) {
        entries[`${part.service}.json`] = strToU8(
          JSON.stringify({ examId, candidateId, tables: part.tables }, null, 2),
        );
        files.push(...part.files);
      }
      for (const file of files) entries[safePath(file.path)] = Buffer.from(file.base64, 'base64');
      entries['README.txt'] = strToU8(readme(examId, candidateId, deps.clock.now(), files.length));
      const now = deps.clock.now();
      await repo.audit({
        id: deps.ids.next(),
        examId,
        actorId: creator.id,
        actorEmail: creator.email,
        action: 'candidate.exported',
        subject: candidateId,
        detail: { attempts: attemptIds.length, files: files.length },
        at: now,
      });
      const name = candidateId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'candidate';
      return { fileName: `candidate-data-${name}.zip`, content: Buffer.from(zipSync(entries)) };
    },

    /**
     * One pass of the job: records a retention purge for every exam with attempts past its period (one record per
     * batch of attempts, its id derived from them so two replicas' scans record it once), then runs every
     * incomplete record it can claim. Answers how many records it completed.
     */
    async pass(): Promise<number> {
      const now = deps.clock.now();
      for (const exam of await repo.examsWithRetention()) {
        if (await repo.hasIncompleteRetention(exam.id)) continue;
        const before = new Date(now.getTime() - exam.retentionDays * DAY_MS);
        let expired: Awaited<ReturnType<PrivacyServices['attempts']>>;
        try {
          expired = await services.attempts({ examId: exam.id, before });
        } catch (err) {
          opts.log.warn({ examId: exam.id, err }, 'results-service did not list expired attempts; next pass');
          continue;
        }
        if (expired.length === 0) continue;
        const attemptIds = expired.map((a) => a.attemptId).sort();
        const id = `retention-${candidateKeyHash(`${exam.id}:${attemptIds.join(',')}`).slice(0, 32)}`;
        const resume: Resume = {
          candidateKey: null,
          attemptIds,
          subjects: [],
          candidateKeys: [...new Set(expired.map((a) => a.candidateKey))],
          before: before.toISOString(),
        };
        const inserted = await repo.insertErasure({
          id,
          examId: exam.id,
          candidateKeyHash: null,
          reason: 'retention',
          requestedBy: null,
          requestedAt: now,
          services: { _resume: resume, _attempts: attemptIds.length },
        });
        if (inserted) {
          await repo.audit({
            id: deps.ids.next(),
            examId: exam.id,
            actorId: null,
            actorEmail: null,
            action: 'retention.purged',
            subject: null,
            detail: { erasureId: id, attempts: attemptIds.length, retentionDays: exam.retentionDays },
            at: now,
          });
        }
      }
      let completed = 0;
      const tried = new Set<string>();
      for (;;) {
        const at = deps.clock.now();
        const row = await repo.claimIncomplete(at, new Date(at.getTime() + opts.leaseMs));
        if (!row || tried.has(row.id)) break;
        tried.add(row.id);
        if (await run(row)) completed++;
      }
      return completed;
    },
  };
}
export type CandidateDataService = ReturnType<typeof createPrivacyService>;

/** A path inside the archive: no absolute paths, no `..`, no backslashes. */
function safePath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.' && part !== '..')
    .join('/');
}

function readme(examId: string, candidateId: string, at: Date, fileCount: number): string {
  return [
    `Data held about candidate ${candidateId} in exam ${examId}, exported ${at.toISOString()}.`,
    '',
    'Each JSON file holds one service\'s rows of this candidate, by table ("tables"), column names as stored.',
    ...Object.entries(EXPORT_README_LINES).map(([file, what]) => `${file}  ${what}`),
    '',
    `Files in this archive besides the JSON: ${fileCount}. A row that held a file's bytes names the file instead.`,
    'Left out: the exam itself with its answer keys, and hashes of secrets (resume codes, links, editor passwords).',
    '',
  ].join('\n');
}
