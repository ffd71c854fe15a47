import type { Exam } from '@exam/domain/exam';
import type { ExamCapability } from '@exam/domain/roles';

/**
 * Whether the signed-in creator's role on the exam includes the capability (exam-service sends them with every
 * exam). It only decides which controls show: every service checks each call again. An exam read from a service
 * that sends none is the creator's own.
 */
export function examCan(exam: Pick<Exam, 'capabilities'>, capability: ExamCapability): boolean {
  return exam.capabilities ? exam.capabilities.includes(capability) : true;
}

/** Whether the exam is someone else's, shared with the creator in a role. */
export const isShared = (exam: Pick<Exam, 'role'>) => exam.role !== undefined && exam.role !== 'owner';
