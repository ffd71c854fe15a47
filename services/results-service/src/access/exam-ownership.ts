import type { CreatorClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import { CAPABILITY_REFUSALS, checkAccess, grantCan, type ExamCapability } from '@exam/domain/roles';
import { and, eq, inArray } from 'drizzle-orm';
import type { ResultsDatabase } from '../db/database.ts';
import { attempts, results } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { AuditActor } from './audit-log.ts';

/**
 * The one access check of a creator's exam in results-service: every module that serves a creator an exam's
 * attempts, results, grades, live view, insights or accommodations asks here, with the capability the route needs
 * (@exam/domain/roles). A creator with no role on the exam gets 404 exactly as for an exam that does not exist (ids
 * cannot be probed); a role without the capability gets 403 naming what the role does not allow.
 *
 * Results-service's rows carry the exam owner's id (owner_id), so a check answers the owner's id too: the modules
 * scope their queries by it, whoever of the exam's members asks.
 */
export type ExamScope = { examId: string; ownerId: string };

type AccessDeps = Pick<Deps, 'examSource'> & { database: ResultsDatabase };

function refuse(capability: ExamCapability): never {
  throw new AppError(ErrorCode.FORBIDDEN, CAPABILITY_REFUSALS[capability]);
}

/** The exam when the creator may do this to it; NOT_FOUND without a role, FORBIDDEN for a role without it. */
export async function assertCan(
  deps: Pick<Deps, 'examSource'>,
  examId: string,
  creatorId: string,
  capability: ExamCapability,
): Promise<InternalExam> {
  const exam = await deps.examSource.findExam(examId);
  const outcome = checkAccess(exam, creatorId, capability);
  if (outcome === 'forbidden') refuse(capability);
  if (outcome === 'not-found' || !exam) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
  return exam;
}

/** Whether results-service holds attempts or results of the exam under the creator as its owner. */
async function ownsRowsOf({ db }: ResultsDatabase, examId: string, creatorId: string): Promise<boolean> {
  const [attempt] = await db
    .select({ id: attempts.id })
    .from(attempts)
    .where(and(eq(attempts.ownerId, creatorId), eq(attempts.examId, examId)))
    .limit(1);
  if (attempt) return true;
  const [result] = await db
    .select({ id: results.id })
    .from(results)
    .where(and(eq(results.ownerId, creatorId), eq(results.examId, examId)))
    .limit(1);
  return result !== undefined;
}

/**
 * The scope of an exam's creator route. The owner is recognised from results-service's own rows first, so an owner
 * keeps reading the results of an exam exam-service no longer serves (deleted, or exam-service down) as before.
 */
export async function examScope(
  deps: AccessDeps,
  examId: string,
  creatorId: string,
  capability: ExamCapability,
): Promise<ExamScope> {
  if (await ownsRowsOf(deps.database, examId, creatorId)) return { examId, ownerId: creatorId };
  const exam = await assertCan(deps, examId, creatorId, capability);
  return { examId, ownerId: exam.ownerId };
}

/** The scope of a result's creator route: 404 "Result not found" without a role, as for a result that does not exist. */
export async function resultScope(
  deps: AccessDeps,
  resultId: string,
  creatorId: string,
  capability: ExamCapability,
): Promise<ExamScope> {
  const [row] = await deps.database.db
    .select({ examId: results.examId, ownerId: results.ownerId })
    .from(results)
    .where(eq(results.id, resultId))
    .limit(1);
  const notFound = new AppError(ErrorCode.NOT_FOUND, 'Result not found');
  if (!row) throw notFound;
  if (row.ownerId === creatorId) return row;
  const exam = await deps.examSource.findExam(row.examId);
  const outcome = checkAccess(exam && { ...exam, ownerId: row.ownerId }, creatorId, capability);
  if (outcome === 'forbidden') refuse(capability);
  if (outcome === 'not-found') throw notFound;
  return row;
}

/** The exams shared with the creator whose role allows the capability (owned exams are found by owner_id). */
export async function sharedExamIds(
  deps: Pick<Deps, 'examGrants'>,
  creatorId: string,
  capability: ExamCapability,
): Promise<string[]> {
  const grants = await deps.examGrants.listGrants(creatorId);
  return grants.filter((g) => grantCan(g, capability)).map((g) => g.examId);
}

/** A creator acting within an exam's scope (actingIn). */
export type ActingCreator = CreatorClaims & {
  /** The acting member's own id: `sub` is the exam owner's. */
  actorId: string;
};

/**
 * The creator's claims acting within an exam's scope: `sub` is the owner's id, which the modules' queries are scoped
 * by, while `email` stays the acting member's, which grades, releases and notes are attributed to, and `actorId` the
 * member's id for the audit log.
 */
export function actingIn(creator: CreatorClaims, scope: ExamScope): ActingCreator {
  return { ...creator, sub: scope.ownerId, actorId: creator.sub };
}

/** Who the audit log names for a change (the member, never the owner they act for). */
export function auditActorOf(creator: { sub: string; email: string; actorId?: string }): AuditActor {
  return { id: creator.actorId ?? creator.sub, email: creator.email };
}

/**
 * The exams of the named results the creator may act on with the capability (results of other exams are left out,
 * so the caller's "every id is allowed" check answers 404 as for results that do not exist); FORBIDDEN when one of
 * the results belongs to an exam where the creator's role lacks it.
 */
export async function allowedExamsOf(
  deps: AccessDeps,
  resultIds: readonly string[],
  creatorId: string,
  capability: ExamCapability,
): Promise<string[]> {
  if (resultIds.length === 0) return [];
  const rows = await deps.database.db
    .selectDistinct({ examId: results.examId, ownerId: results.ownerId })
    .from(results)
    .where(inArray(results.id, [...new Set(resultIds)]));
  const allowed: string[] = [];
  for (const row of rows) {
    if (row.ownerId === creatorId) {
      allowed.push(row.examId);
      continue;
    }
    const exam = await deps.examSource.findExam(row.examId);
    const outcome = checkAccess(exam && { ...exam, ownerId: row.ownerId }, creatorId, capability);
    if (outcome === 'forbidden') refuse(capability);
    if (outcome === 'ok') allowed.push(row.examId);
  }
  return allowed;
}
