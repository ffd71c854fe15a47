import { candidateKey } from '@exam/domain/candidate-key';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { ACCESS_CODE_FIELD, RosterMessages, type AdmitRequest, type AdmitResponse } from '@exam/domain/roster';
import { verifyPassword } from '../auth/password.ts';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import type { RosterRepository } from './roster.repository.ts';
import { inviteDigest } from './roster.service.ts';

const refused = (message: string, field?: string) =>
  new AppError(ErrorCode.FORBIDDEN, message, field ? [{ path: field, message }] : undefined);

/**
 * Who may start a new attempt (docs/product.md#access): results-service asks before it creates one.
 * `link`: anyone. `code`: whoever gives the exam's access code. `roster`: a candidate whose ID is on the
 * roster, recorded under the roster's name; an invitation link, when used, must be that candidate's.
 */
export function createAdmissionService(repo: RosterRepository, exams: ExamsRepository) {
  return {
    async admit(examId: string, input: AdmitRequest): Promise<AdmitResponse> {
      const exam = await exams.findById(examId);
      if (!exam || exam.isDraft) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
      if (exam.access === 'code') {
        const code = input.accessCode?.trim();
        if (!code) throw refused(RosterMessages.codeRequired, ACCESS_CODE_FIELD);
        const right = exam.accessCodeHash !== null && (await verifyPassword(code, exam.accessCodeHash));
        if (!right) throw refused(RosterMessages.wrongCode, ACCESS_CODE_FIELD);
        return { name: input.name };
      }
      if (exam.access === 'roster') {
        const entry = await repo.findByKey(examId, candidateKey(input.studentId));
        if (!entry) throw refused(RosterMessages.notOnRoster);
        if (input.inviteToken && entry.inviteTokenHash !== inviteDigest(input.inviteToken)) {
          throw refused(RosterMessages.inviteInvalid);
        }
        return { name: entry.name };
      }
      return { name: input.name };
    },
  };
}
export type AdmissionService = ReturnType<typeof createAdmissionService>;
