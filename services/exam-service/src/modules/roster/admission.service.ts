import { timingSafeEqual } from 'node:crypto';
import { candidateKey } from '@exam/domain/candidate-key';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { ACCESS_CODE_FIELD, RosterMessages, type AdmitRequest, type AdmitResponse } from '@exam/domain/roster';
import { verifyPassword } from '../auth/password.ts';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import type { RosterRepository } from './roster.repository.ts';
import { inviteDigest, rosterAdmissionOf } from './roster.service.ts';

const refused = (message: string, field?: string) =>
  new AppError(ErrorCode.FORBIDDEN, message, field ? [{ path: field, message }] : undefined);

/** The token's digest against the entry's stored one, in constant time (both are SHA-256 hex, same length). */
function isEntryToken(storedHash: string | null, token: string): boolean {
  if (storedHash === null) return false;
  const given = Buffer.from(inviteDigest(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * Who may start a new attempt (docs/product.md#access): results-service asks before it creates one.
 * `link`: anyone. `code`: whoever gives the exam's access code, or opens their own invitation link. `roster`: a candidate whose ID is on the
 * roster, recorded under the roster's name; an invitation link, when used, must be that candidate's. In the
 * roster's 'invitation-link' mode the link is required: a typed roster ID alone is refused, so knowing (or
 * guessing) a classmate's ID is not enough to sit as them.
 */
export function createAdmissionService(repo: RosterRepository, exams: ExamsRepository) {
  return {
    async admit(examId: string, input: AdmitRequest): Promise<AdmitResponse> {
      const exam = await exams.findById(examId);
      if (!exam || exam.isDraft) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
      if (exam.access === 'code') {
        // A personal invitation link proves the invitation: it admits without the code, which no mail can carry
        // (only its hash is stored). The link must be the candidate's own, as on a roster exam.
        if (input.inviteToken) {
          const invited = await repo.findByInvite(examId, inviteDigest(input.inviteToken));
          if (!invited || invited.candidateKey !== candidateKey(input.studentId))
            throw refused(RosterMessages.inviteInvalid);
          return { name: invited.name };
        }
        const code = input.accessCode?.trim();
        if (!code) throw refused(RosterMessages.codeRequired, ACCESS_CODE_FIELD);
        const right = exam.accessCodeHash !== null && (await verifyPassword(code, exam.accessCodeHash));
        if (!right) throw refused(RosterMessages.wrongCode, ACCESS_CODE_FIELD);
        return { name: input.name };
      }
      if (exam.access === 'roster') {
        const token = input.inviteToken;
        // Before the roster is looked up, so a link-only exam does not tell a stranger which IDs are on it.
        if (!token && rosterAdmissionOf(exam) === 'invitation-link') throw refused(RosterMessages.inviteRequired);
        const entry = await repo.findByKey(examId, candidateKey(input.studentId));
        if (!entry) throw refused(RosterMessages.notOnRoster);
        if (token && !isEntryToken(entry.inviteTokenHash, token)) throw refused(RosterMessages.inviteInvalid);
        return { name: entry.name };
      }
      return { name: input.name };
    },
  };
}
export type AdmissionService = ReturnType<typeof createAdmissionService>;
