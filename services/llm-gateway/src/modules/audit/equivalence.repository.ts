import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AuditConfiguration, AuditItem } from '@exam/domain/assistant-audit';
import { SolvabilityItemSchema, type SolvabilityItem, type SolvabilityStatus } from '@exam/domain/solvability';
import type { GatewayDatabase } from '../../db/database.ts';
import { assistantAudits, solvabilityChecks } from '../../db/schema.ts';

/** What the equivalence report reads of an audit. */
export type AuditForEquivalence = {
  id: string;
  examVersion: string;
  configurations: AuditConfiguration[];
  items: AuditItem[];
};

/** The solvability checks an equivalence report may use: they ran to the end, or to a cap with what they had. */
const FINISHED: SolvabilityStatus[] = ['completed', 'budget-exhausted'];

/** The same configurations in the same order (configuration 0 first): the check asked what the audit asked. */
export function sameConfigurations(a: readonly AuditConfiguration[], b: readonly AuditConfiguration[]): boolean {
  return (
    a.length === b.length &&
    a.every((c, i) => {
      const other = b[i];
      return (
        other !== undefined &&
        c.provider === other.provider &&
        c.model === other.model &&
        (c.baseUrl ?? '') === (other.baseUrl ?? '')
      );
    })
  );
}

/** Reads assistant_audits and solvability_checks for provider equivalence; writes nothing. */
export function createEquivalenceRepository(database: GatewayDatabase) {
  const db = database.db;
  return {
    async findAudit(examId: string, auditId: string): Promise<AuditForEquivalence | undefined> {
      const rows = await db
        .select({
          id: assistantAudits.id,
          examVersion: assistantAudits.examVersion,
          configurations: assistantAudits.configurations,
          items: assistantAudits.items,
        })
        .from(assistantAudits)
        .where(and(eq(assistantAudits.id, auditId), eq(assistantAudits.examId, examId)));
      return rows[0];
    },

    /** The newest finished check of the exam version over the same configurations, with its items. */
    async findComparableCheck(
      examId: string,
      examVersion: string,
      configurations: readonly AuditConfiguration[],
    ): Promise<{ id: string; items: SolvabilityItem[] } | undefined> {
      const candidates = await db
        .select({ id: solvabilityChecks.id, configurations: solvabilityChecks.configurations })
        .from(solvabilityChecks)
        .where(
          and(
            eq(solvabilityChecks.examId, examId),
            eq(solvabilityChecks.examVersion, examVersion),
            inArray(solvabilityChecks.status, FINISHED),
          ),
        )
        .orderBy(desc(solvabilityChecks.startedAt));
      const match = candidates.find((c) => sameConfigurations(c.configurations, configurations));
      if (!match) return undefined;
      const [row] = await db
        .select({ items: solvabilityChecks.items })
        .from(solvabilityChecks)
        .where(eq(solvabilityChecks.id, match.id));
      // Parsed so that items stored before configurations were kept read as configuration 0.
      return { id: match.id, items: SolvabilityItemSchema.array().parse(row?.items ?? []) };
    },
  };
}
export type EquivalenceRepository = ReturnType<typeof createEquivalenceRepository>;
