import { candidateKey } from '@exam/domain/candidate-key';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { LmsMember, LmsRosterImportResponse, LmsRosterPreview, LmsRosterSource } from '@exam/domain/lti-ags';
import { RosterEntryInputSchema, type RosterEntryValues } from '@exam/domain/roster';
import type { MembershipsClient, NrpsMember } from '../../adapters/lti-nrps.ts';
import { LtiServiceError } from '../../adapters/lti-service-token.ts';
import type { Deps } from '../../deps.ts';
import type { ExamAccessCheck } from '../exams/exam-access.ts';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import type { RosterRepository } from '../roster/roster.repository.ts';
import { rosterAdmissionOf, toRosterEntry } from '../roster/roster.service.ts';
import type { AdvantageRepository } from './advantage.repository.ts';
import { isRegisteredOrigin } from './platform-origins.ts';

/** NRPS 2.0 §2.2 roles: the LIS context role, as a full URI or the short form the spec also allows. */
const LEARNER_ROLES = new Set(['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner', 'Learner']);

const isActiveLearner = (m: NrpsMember) =>
  // §2.2: status is Active when absent.
  (m.status ?? 'Active') === 'Active' && m.roles.some((role) => LEARNER_ROLES.has(role));

/** A member as a roster entry, or undefined when the roster cannot hold it (no usable id or name). */
function toEntry(m: NrpsMember): RosterEntryValues | undefined {
  const name = m.name?.trim() || [m.given_name, m.family_name].filter(Boolean).join(' ').trim() || m.user_id;
  const parsed = RosterEntryInputSchema.safeParse({
    name: name.slice(0, 200),
    candidateId: m.user_id,
    email: m.email ?? '',
  });
  if (parsed.success) return parsed.data;
  // An address the roster refuses is left out, not the learner.
  const withoutEmail = RosterEntryInputSchema.safeParse({
    name: name.slice(0, 200),
    candidateId: m.user_id,
    email: '',
  });
  return withoutEmail.success ? withoutEmail.data : undefined;
}

/**
 * The exam's roster from the LMS course it is placed in (Names and Role Provisioning Services 2.0): the course's
 * active learners, with the LMS user id (the launch's `sub`) as candidate ID, so a learner who launches later is
 * the roster's candidate. A role that edits the exam only (exam-access.ts): a creator with no role on it gets 404.
 */
export function createLmsRosterService(
  repo: AdvantageRepository,
  roster: RosterRepository,
  exams: ExamsRepository,
  access: ExamAccessCheck,
  memberships: MembershipsClient,
  deps: Pick<Deps, 'clock' | 'ids'>,
) {
  /**
   * The exam's LMS courses whose roster may be read: through a registration that is not suspended, at a memberships
   * URL on the registration's own origins (a link stored before origins were checked at the launch may name another
   * LMS's course: it is never read).
   */
  async function sources(ownerId: string, examId: string) {
    await access.require(ownerId, examId, 'exam:edit');
    const found = await repo.membershipSources(examId, ownerId);
    return found.filter((s) => s.tokenOrigin !== null && isRegisteredOrigin(s, s.membershipsUrl!));
  }

  /** The course's learners, each once (an exam placed in two courses gets both), and how many were left out. */
  async function learners(ownerId: string, examId: string) {
    const found = await sources(ownerId, examId);
    if (found.length === 0)
      throw new AppError(ErrorCode.CONFLICT, 'This exam is not placed in an LMS course that shares its roster');
    const byUrl = new Map(found.map((s) => [s.membershipsUrl!, s]));
    const entries = new Map<string, RosterEntryValues>();
    let skipped = 0;
    for (const [url, source] of byUrl) {
      let members: NrpsMember[];
      try {
        members = await memberships.members(
          { id: source.platformId, clientId: source.clientId, authTokenUrl: source.authTokenUrl },
          url,
        );
      } catch (err) {
        if (err instanceof LtiServiceError)
          throw new AppError(err.retryable ? ErrorCode.UNAVAILABLE : ErrorCode.UPSTREAM, err.message);
        throw err;
      }
      for (const member of members) {
        const entry = isActiveLearner(member) ? toEntry(member) : undefined;
        if (!entry) skipped++;
        else entries.set(candidateKey(entry.candidateId), entry);
      }
    }
    return { entries: [...entries.values()], skipped };
  }

  return {
    async source(ownerId: string, examId: string): Promise<LmsRosterSource> {
      const found = await sources(ownerId, examId);
      return {
        linked: found.length > 0,
        courses: found.map((s) => ({ platformName: s.platformName, contextId: s.contextId, title: s.title })),
      };
    },

    async preview(ownerId: string, examId: string): Promise<LmsRosterPreview> {
      const { entries, skipped } = await learners(ownerId, examId);
      const onRoster = new Set((await roster.list(examId)).map((r) => r.candidateKey));
      const members: LmsMember[] = entries.map((e) => ({
        candidateId: e.candidateId,
        name: e.name,
        email: e.email,
        onRoster: onRoster.has(candidateKey(e.candidateId)),
      }));
      return { members, skipped };
    },

    /** Adds the learners, updating the name and e-mail of those already on the roster (as the CSV import does). */
    async import(ownerId: string, examId: string): Promise<LmsRosterImportResponse> {
      const { entries, skipped } = await learners(ownerId, examId);
      const now = deps.clock.now();
      await roster.transaction((tx) =>
        roster.upsertMany(
          entries.map((e) => ({ id: deps.ids.next(), examId, ...e, candidateKey: candidateKey(e.candidateId) })),
          now,
          tx,
        ),
      );
      const exam = await exams.findById(examId);
      return {
        entries: (await roster.list(examId)).map(toRosterEntry),
        rosterAdmission: exam ? rosterAdmissionOf(exam) : 'candidate-id',
        imported: entries.length,
        skipped,
      };
    },
  };
}
export type LmsRosterService = ReturnType<typeof createLmsRosterService>;
