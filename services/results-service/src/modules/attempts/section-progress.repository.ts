import { SECTION_START_EVENT, type Section } from '@exam/domain/sections';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { attempts, events, overrides } from '../../db/schema.ts';
import type { ResultsDb } from './attempt-rows.ts';

/** What an attempt's snapshot says of its sections: they and the section of each of the candidate's questions. */
export type SectionLayoutRow = { sections: Section[]; questionSectionIds: Array<string | null> };

/** How far the attempt has got, and the candidate's time factor (their accommodation) that scales section limits. */
export type SectionProgressRow = {
  sectionIndex: number;
  /** Null for attempts started before the column existed: the attempt's start. */
  sectionStartedAt: Date | null;
  startedAt: Date;
  submittedAt: Date | null;
  deadline: Date | null;
  timeFactor: number | null;
};

/** A section entered: its index and the instant it began. */
export type SectionStart = { index: number; at: Date };

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

/**
 * The sections' reads and writes (@exam/domain/sections). An answer write reads the slim layout (never the whole
 * snapshot) and the progress (one row by primary key, with the candidate's override by its own).
 */
export function sectionProgress(db: ResultsDb) {
  return {
    async sectionLayout(attemptId: string): Promise<SectionLayoutRow | undefined> {
      const [row] = await db
        .select({
          sections: sql<unknown>`${attempts.examSnapshot} -> 'sections'`,
          ids: sql<unknown>`jsonb_path_query_array(${attempts.examSnapshot}, '$.questions[*].sectionId')`,
        })
        .from(attempts)
        .where(eq(attempts.id, attemptId))
        .limit(1);
      if (!row) return undefined;
      return {
        sections: (json(row.sections) ?? []) as Section[],
        questionSectionIds: ((json(row.ids) ?? []) as Array<string | null | undefined>).map((id) => id ?? null),
      };
    },

    async sectionProgress(attemptId: string): Promise<SectionProgressRow | undefined> {
      const [row] = await db
        .select({
          sectionIndex: attempts.sectionIndex,
          sectionStartedAt: attempts.sectionStartedAt,
          startedAt: attempts.startedAt,
          submittedAt: attempts.submittedAt,
          deadline: attempts.deadline,
          timeFactor: overrides.timeFactor,
        })
        .from(attempts)
        .leftJoin(
          overrides,
          and(eq(overrides.examId, attempts.examId), eq(overrides.candidateKey, attempts.candidateKey)),
        )
        .where(eq(attempts.id, attemptId))
        .limit(1);
      return row;
    },

    /**
     * Stores that the open attempt moved from section `from` (as read) into `starts`' last section, and records
     * each section entered (the timeline's section-start events), only if the stored index is still `from`: of
     * two replicas (or a retried request) moving it at once, one writes and the other finds it moved. False when
     * nothing was written.
     */
    async enterSections(attemptId: string, from: number, starts: readonly SectionStart[]): Promise<boolean> {
      const to = starts.at(-1);
      if (!to) return false;
      return db.transaction(async (tx) => {
        const [moved] = await tx
          .update(attempts)
          .set({ sectionIndex: to.index, sectionStartedAt: to.at })
          .where(and(eq(attempts.id, attemptId), eq(attempts.sectionIndex, from), isNull(attempts.submittedAt)))
          .returning({ id: attempts.id });
        if (!moved) return false;
        await tx.insert(events).values(
          starts.map((s) => ({
            attemptId,
            type: SECTION_START_EVENT,
            questionIndex: null,
            detail: String(s.index),
            clientAt: null,
            recordedAt: s.at,
          })),
        );
        return true;
      });
    },
  };
}
export type SectionProgressRepository = ReturnType<typeof sectionProgress>;
