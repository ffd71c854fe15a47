import { and, eq, isNotNull } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, results } from '../../db/schema.ts';

export function createSubmissionsRepository({ db }: ResultsDatabase) {
  return {
    /** The candidate keys with a submitted attempt of the exam. */
    async submittedCandidateKeys(examId: string): Promise<string[]> {
      const rows = await db
        .selectDistinct({ key: attempts.candidateKey })
        .from(attempts)
        .where(and(eq(attempts.examId, examId), isNotNull(attempts.submittedAt)));
      return rows.map((r) => r.key);
    },

    /** The student IDs whose result of the exam is released. */
    async releasedStudentIds(examId: string): Promise<string[]> {
      const rows = await db
        .selectDistinct({ studentId: results.studentId })
        .from(results)
        .where(and(eq(results.examId, examId), isNotNull(results.releasedAt)));
      return rows.map((r) => r.studentId);
    },
  };
}
export type SubmissionsRepository = ReturnType<typeof createSubmissionsRepository>;
