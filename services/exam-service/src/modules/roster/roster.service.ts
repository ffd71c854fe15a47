import { createHash, randomBytes } from 'node:crypto';
import { candidateKey } from '@exam/domain/candidate-key';
import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  RosterMessages,
  type InvitationCounts,
  type InvitationIdentity,
  type InvitationPreview,
  type InviteRequest,
  type RosterAdmission,
  type RosterEntry,
  type RosterEntryValues,
  type RosterResponse,
} from '@exam/domain/roster';
import type { Deps } from '../../deps.ts';
import { grantCan, type ExamCapability } from '@exam/domain/roles';
import type { ExamAccessCheck } from '../exams/exam-access.ts';
import type { ExamRow, ExamsRepository } from '../exams/exams.repository.ts';
import type { MailQueue } from '../../adapters/mail/mail-queue.service.ts';
import { invitationMail } from './roster-mails.ts';
import { parseRosterCsv } from './roster-csv.ts';
import type { RosterRepository, RosterRow } from './roster.repository.ts';

/** Only this digest of an invitation token is stored: a copy of the table gives no working links. */
export const inviteDigest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The admission mode in force. An exam that never chose one admits by candidate ID: existing exams keep working
 * as their candidates were told, and a roster without mailed links has no other way in. The first invitations
 * sent choose 'invitation-link' (see invite below): once every candidate holds a link the mail calls theirs alone,
 * a typed ID should no longer be enough. The creator can switch either way on the roster page at any time.
 */
export const rosterAdmissionOf = (exam: Pick<ExamRow, 'rosterAdmission'>): RosterAdmission =>
  exam.rosterAdmission ?? 'candidate-id';

export const toRosterEntry = (row: RosterRow): RosterEntry => ({
  id: row.id,
  name: row.name,
  candidateId: row.candidateId,
  email: row.email,
  invitedAt: row.invitedAt?.toISOString() ?? null,
});

/** Sending invitations turns a roster exam's unchosen mode into 'invitation-link' (invite below): the mail says so. */
const admissionAfterInviting = (exam: Pick<ExamRow, 'rosterAdmission'>): RosterAdmission =>
  exam.rosterAdmission ?? 'invitation-link';

/** Whom a preview is rendered for when no recipient is chosen, and the stand-in for a personal link's token. */
const SAMPLE_CANDIDATE = { name: 'Sample Candidate', candidateId: 'SAMPLE-ID' };
const PREVIEW_TOKEN = 'personal-link-in-each-mail';

const examNotFound = () => new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
const entryNotFound = () => new AppError(ErrorCode.NOT_FOUND, 'Roster entry not found');
const duplicate = () =>
  new AppError(ErrorCode.CONFLICT, RosterMessages.duplicate, [
    { path: 'candidateId', message: RosterMessages.duplicate },
  ]);

/**
 * An exam's roster and invitations (docs/product.md#rosters-and-invitations), for the exam's owner only:
 * another creator's exam answers 404 as if it did not exist.
 */
export function createRosterService(
  repo: RosterRepository,
  exams: ExamsRepository,
  access: ExamAccessCheck,
  deps: Pick<Deps, 'clock' | 'ids'> & { mail: Pick<MailQueue, 'enqueue' | 'notify'> },
  opts: { takerOrigin: string },
) {
  /** The exam when the caller's role allows it (exam-access.ts); changing a roster or inviting is editing. */
  async function ownedExam(creatorId: string, examId: string, capability: ExamCapability = 'exam:edit') {
    return (await access.require(creatorId, examId, capability)).row;
  }
  const listEntries = async (examId: string) => (await repo.list(examId)).map(toRosterEntry);
  const rosterOf = async (exam: ExamRow): Promise<RosterResponse> => ({
    entries: await listEntries(exam.id),
    rosterAdmission: rosterAdmissionOf(exam),
  });
  const inviteLink = (examId: string, token: string) =>
    `${opts.takerOrigin.replace(/\/$/, '')}/exam/${encodeURIComponent(examId)}?invite=${token}`;
  const entryFields = (input: RosterEntryValues) => ({ ...input, candidateKey: candidateKey(input.candidateId) });

  /** Every entry with an e-mail, or the chosen ones: 404 for an unknown id, 400 naming those without e-mail. */
  async function recipients(examId: string, entryIds: string[] | undefined): Promise<RosterRow[]> {
    const all = await repo.list(examId);
    if (!entryIds) return all.filter((e) => e.email);
    const wanted = new Set(entryIds);
    const unknown = entryIds.filter((id) => !all.some((e) => e.id === id));
    if (unknown.length) throw entryNotFound();
    const selected = all.filter((e) => wanted.has(e.id));
    const withoutEmail = selected.filter((e) => !e.email);
    if (withoutEmail.length) {
      const message = `${RosterMessages.noEmail}: ${withoutEmail.map((e) => e.candidateId).join(', ')}`;
      throw new AppError(ErrorCode.VALIDATION, message, [{ path: 'entryIds', message }]);
    }
    return selected;
  }

  return {
    /**
     * Every role sees who is on the roster (a grader marks them, a proctor watches them); candidates' e-mails only a
     * role that may edit the exam, who is the one to invite them.
     */
    async list(creatorId: string, examId: string): Promise<RosterResponse> {
      const { row, grant } = await access.require(creatorId, examId, 'exam:view');
      const roster = await rosterOf(row);
      if (grantCan(grant, 'exam:edit')) return roster;
      return { ...roster, entries: roster.entries.map((e) => ({ ...e, email: null })) };
    },

    /** The creator's choice of admission mode (owner only); it applies to the next start or briefing. */
    async setAdmission(ownerId: string, examId: string, mode: RosterAdmission): Promise<RosterResponse> {
      await ownedExam(ownerId, examId);
      const exam = await exams.updateById(examId, { rosterAdmission: mode });
      if (!exam) throw examNotFound();
      return rosterOf(exam);
    },

    async add(ownerId: string, examId: string, input: RosterEntryValues): Promise<RosterEntry> {
      await ownedExam(ownerId, examId);
      const row = await repo.insert({ id: deps.ids.next(), examId, ...entryFields(input) }, deps.clock.now());
      if (!row) throw duplicate();
      return toRosterEntry(row);
    },

    async update(ownerId: string, examId: string, entryId: string, input: RosterEntryValues): Promise<RosterEntry> {
      await ownedExam(ownerId, examId);
      const row = await repo.update(examId, entryId, entryFields(input));
      if (row === 'duplicate') throw duplicate();
      if (!row) throw entryNotFound();
      return toRosterEntry(row);
    },

    async remove(ownerId: string, examId: string, entryId: string): Promise<void> {
      await ownedExam(ownerId, examId);
      if (!(await repo.remove(examId, entryId))) throw entryNotFound();
    },

    /** All rows or none: any bad row refuses the whole file (400 listing every bad row). */
    async importCsv(ownerId: string, examId: string, csv: string): Promise<RosterResponse & { imported: number }> {
      const exam = await ownedExam(ownerId, examId);
      const rows = parseRosterCsv(csv);
      const now = deps.clock.now();
      await repo.transaction((tx) =>
        repo.upsertMany(
          rows.map((r) => ({ id: deps.ids.next(), examId, ...r, candidateKey: candidateKey(r.candidateId) })),
          now,
          tx,
        ),
      );
      return { ...(await rosterOf(exam)), imported: rows.length };
    },

    /**
     * Queues one invitation per candidate (every entry with an e-mail, or the chosen ones) with a personal
     * link and the creator's message, if any; a new invitation replaces the candidate's earlier link. The tokens
     * and the mails are written in one transaction; sending happens later (the mail queue), so an SMTP failure
     * never fails this.
     */
    async invite(
      ownerId: string,
      examId: string,
      request: InviteRequest = {},
    ): Promise<RosterResponse & { invited: number }> {
      let exam = await ownedExam(ownerId, examId);
      const chosen = await recipients(examId, request.entryIds);
      const now = deps.clock.now();
      const invitations = chosen.map((entry) => ({ entry, token: randomBytes(24).toString('base64url') }));
      await repo.transaction(async (tx) => {
        await repo.setInvited(
          invitations.map(({ entry, token }) => ({ id: entry.id, tokenHash: inviteDigest(token) })),
          now,
          tx,
        );
        await deps.mail.enqueue(
          invitations.map(({ entry, token }) =>
            invitationMail({
              exam,
              entry,
              link: inviteLink(examId, token),
              to: entry.email ?? '',
              message: request.message,
              admission: admissionAfterInviting(exam),
            }),
          ),
          tx,
        );
      });
      deps.mail.notify();
      // Mailed links make the link the way in, unless the creator has chosen a mode (rosterAdmissionOf says why).
      if (exam.rosterAdmission === null && invitations.length > 0) {
        exam = (await exams.updateById(examId, { rosterAdmission: 'invitation-link' })) ?? exam;
      }
      return { ...(await rosterOf(exam)), invited: invitations.length };
    },

    /**
     * The mail the same request would queue, rendered for its first recipient (a sample candidate when there is
     * none), with a stand-in for the personal link: nothing is queued and no token is made.
     */
    async previewInvitation(ownerId: string, examId: string, request: InviteRequest = {}): Promise<InvitationPreview> {
      const exam = await ownedExam(ownerId, examId);
      const chosen = await recipients(examId, request.entryIds);
      const first = chosen[0];
      const candidate = first ? { name: first.name, candidateId: first.candidateId } : null;
      const mail = invitationMail({
        exam,
        entry: candidate ?? SAMPLE_CANDIDATE,
        link: inviteLink(examId, PREVIEW_TOKEN),
        to: first?.email ?? '',
        message: request.message,
        admission: admissionAfterInviting(exam),
      });
      return {
        candidate,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? '',
        recipients: chosen.length,
        alreadyInvited: chosen.filter((e) => e.invitedAt).length,
      };
    },

    /** Invitations sent (roster entries with invitedAt) per exam of this creator's; exams with none are left out. */
    async invitationCounts(ownerId: string): Promise<InvitationCounts> {
      return { exams: await repo.countInvitedByOwner(ownerId) };
    },

    /** The identity an invitation link fills in on the start page; 404 for a link not of this exam. */
    async invitation(examId: string, token: string): Promise<InvitationIdentity> {
      const exam = await exams.findById(examId);
      const entry = exam && !exam.isDraft ? await repo.findByInvite(examId, inviteDigest(token)) : undefined;
      if (!entry) throw new AppError(ErrorCode.NOT_FOUND, RosterMessages.inviteInvalid);
      return { name: entry.name, studentId: entry.candidateId };
    },
  };
}
export type RosterService = ReturnType<typeof createRosterService>;
