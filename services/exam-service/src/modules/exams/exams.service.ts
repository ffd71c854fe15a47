import { AppError, ErrorCode } from '@exam/domain/errors';
import { poolIssues, windowIssue } from '@exam/domain/cohort';
import { QuestionSchema } from '@exam/domain/question';
import { rubricIssues, type CreateExam, type Exam, type UpdateExam } from '@exam/domain/exam';
import { workspaceAiIssue } from '@exam/domain/workspace-agents';
import { sectionIssues } from '@exam/domain/sections';
import { reviewWindowIssue } from '@exam/domain/practice';
import { type AiSettingsInput } from '@exam/domain/exam-ai';
import { encryptSecret } from '@exam/server-kit/crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { StoredAiSettings } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { hashPassword } from '../auth/password.ts';
import type { MaterialsRepository } from '../materials/materials.repository.ts';
import { CAPABILITY_REFUSALS, grantCan, type ExamCapability } from '@exam/domain/roles';
import type { AuditLog } from './audit-log.repository.ts';
import { assertUniqueQuestionIds, initialLifecycle, nextLifecycle } from './exam-rules.ts';
import { createExamAccess, EXAM_NOT_FOUND, grantOn } from './exam-access.ts';
import { forGrant, toExamView } from './exam-view.ts';
import type { ExamPatch, ExamRow, ExamsRepository } from './exams.repository.ts';

export { EXAM_NOT_FOUND };

/** What an edit changed, for the audit log: the fields' names, never their values (a key, an access code). */
function editedFields(input: UpdateExam): string[] {
  return Object.keys(input).filter(
    (k) => !['isDraft', 'isLive'].includes(k) && input[k as keyof UpdateExam] !== undefined,
  );
}

type KeyColumns = { encryptedApiKey?: string | null; apiKeyLast4?: string | null };

function validationError(issues: Array<{ path: Array<string | number>; message: string }>): AppError | null {
  if (issues.length === 0) return null;
  const flat = issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return new AppError(ErrorCode.VALIDATION, `${flat[0]!.path}: ${flat[0]!.message}`, flat);
}

const toDate = (value: string | null | undefined): Date | null | undefined =>
  value === undefined || value === null ? value : new Date(value);

/** The window's columns from ISO strings: undefined keeps a column, null clears it. */
function window(input: { opensAt?: string | null; closesAt?: string | null }) {
  const opensAt = toDate(input.opensAt);
  const closesAt = toDate(input.closesAt);
  return { ...(opensAt !== undefined && { opensAt }), ...(closesAt !== undefined && { closesAt }) };
}

const time = (value: Date | null) => value?.getTime() ?? null;
const windowMoved = (before: ExamRow, after: ExamRow) =>
  time(before.opensAt) !== time(after.opensAt) || time(before.closesAt) !== time(after.closesAt);

/** An exam whose access is by code needs one, or nobody could start it. */
function accessCodeMissing(): AppError {
  const message = 'Set an access code, or choose another access';
  return new AppError(ErrorCode.VALIDATION, `accessCode: ${message}`, [{ path: 'accessCode', message }]);
}

export function createExamsService(
  repo: ExamsRepository,
  materials: MaterialsRepository,
  audit: AuditLog,
  deps: Pick<Deps, 'clock' | 'ids' | 'attemptDeadlines'>,
  opts: { encryptionKey: Buffer; scryptCost: number; log: FastifyBaseLogger },
) {
  /** The access code is write-only too: a string sets it (scrypt-hashed like a password), null clears it. */
  async function accessCodeColumn(code: string | null | undefined): Promise<{ accessCodeHash?: string | null }> {
    if (code === undefined) return {};
    return { accessCodeHash: code === null ? null : await hashPassword(code, opts.scryptCost) };
  }

  /**
   * apiKey is write-only: a string sets it (encrypted; only its last four characters kept in clear),
   * null clears it, omitted keeps it. A blank string counts as omitted so an untouched form field
   * never wipes a stored key.
   */
  function keyColumns(apiKey: string | null | undefined): KeyColumns {
    if (apiKey === null) return { encryptedApiKey: null, apiKeyLast4: null };
    const key = apiKey?.trim();
    if (!key) return {};
    return { encryptedApiKey: encryptSecret(key, opts.encryptionKey), apiKeyLast4: key.slice(-4) };
  }

  const examAccess = createExamAccess(repo);

  /** Course materials stay their uploader's own: an exam refers only to its owner's (an editor keeps those). */
  async function storedAiSettings(ownerId: string, input: AiSettingsInput): Promise<StoredAiSettings> {
    const { apiKey: _key, ...settings } = input;
    const ids = [...new Set(settings.courseMaterialIds)];
    const found = await materials.findMetadata(ownerId, ids);
    if (found.length !== ids.length) {
      const message = 'Every course material must be one you uploaded';
      throw new AppError(ErrorCode.VALIDATION, `aiSettings.courseMaterialIds: ${message}`, [
        { path: 'aiSettings.courseMaterialIds', message },
      ]);
    }
    return { ...settings, courseMaterialIds: ids };
  }

  /**
   * Attempts in progress end at the exam's close: when it moves, results-service recomputes their deadlines.
   * Best effort: the creator's change is saved either way, and each new attempt reads the window anew.
   */
  async function moveDeadlines(examId: string) {
    try {
      await deps.attemptDeadlines?.recompute(examId);
    } catch (err) {
      opts.log.warn({ err, examId }, 'the deadlines of attempts in progress were not moved to the new window');
    }
  }

  /** One event per kind of change an update made: fields edited, published, switched live or offline. */
  async function recordUpdate(actorId: string, input: UpdateExam, before: ExamRow, after: ExamRow) {
    const examId = after.id;
    const fields = editedFields(input);
    if (fields.length > 0) await audit.record({ examId, actorId, action: 'exam.edited', detail: { fields } });
    if (before.isDraft && !after.isDraft) await audit.record({ examId, actorId, action: 'exam.published' });
    if (before.isLive !== after.isLive)
      await audit.record({ examId, actorId, action: 'exam.live-changed', detail: { isLive: after.isLive } });
    if (before.retentionDays !== after.retentionDays)
      await audit.record({
        examId,
        actorId,
        action: 'retention.changed',
        detail: { from: before.retentionDays, to: after.retentionDays },
      });
  }

  async function view(row: ExamRow): Promise<Exam> {
    return toExamView(row, await materials.findMetadata(row.ownerId, row.aiSettings.courseMaterialIds));
  }

  return {
    async create(ownerId: string, input: CreateExam): Promise<Exam> {
      assertUniqueQuestionIds(input.questions);
      // The workspace's agent needs the assistant on and a provider it can speak (workspace-agents.ts).
      const agentIssue = workspaceAiIssue(input);
      if (agentIssue) throw validationError([agentIssue])!;
      const now = deps.clock.now();
      const { aiSettings, isDraft, accessCode, opensAt, closesAt, ...fields } = input;
      if (fields.access === 'code' && !accessCode) throw accessCodeMissing();
      const row = await repo.insert({
        ...fields,
        ...window({ opensAt, closesAt }),
        ...(await accessCodeColumn(accessCode)),
        id: deps.ids.next(),
        ownerId,
        aiSettings: await storedAiSettings(ownerId, aiSettings),
        ...keyColumns(aiSettings.apiKey),
        ...initialLifecycle(isDraft, now),
        createdAt: now,
        lastEditedAt: now,
        updatedAt: now,
      });
      await audit.record({ examId: row.id, actorId: ownerId, action: 'exam.created', detail: { title: row.title } });
      return forGrant(await view(row), { role: 'owner', mayRelease: true });
    },

    /**
     * The exam as the caller's role sees it; `capability` is what the caller is about to do with it (another
     * module's read before its own change asks for 'exam:edit').
     */
    async get(creatorId: string, id: string, capability: ExamCapability = 'exam:view'): Promise<Exam> {
      const { row, grant } = await examAccess.require(creatorId, id, capability);
      return forGrant(await view(row), grant);
    },

    /** The caller's own exams and those shared with them, newest first, each with the caller's role. */
    async list(creatorId: string): Promise<Exam[]> {
      const found = await repo.listForCreator(creatorId);
      return Promise.all(found.map(async (f) => forGrant(await view(f.row), grantOn(f, creatorId)!)));
    },

    async update(creatorId: string, id: string, input: UpdateExam): Promise<Exam> {
      const { row: current, grant } = await examAccess.require(creatorId, id, 'exam:edit');
      const ownerId = current.ownerId;
      // How long candidates' data is kept is the owner's decision (roles.ts 'candidates:data'); an editor's form may
      // send the stored value back unchanged.
      const retentionChanges = input.retentionDays !== undefined && input.retentionDays !== current.retentionDays;
      if (retentionChanges && !grantCan(grant, 'candidates:data'))
        throw new AppError(ErrorCode.FORBIDDEN, CAPABILITY_REFUSALS['candidates:data']);
      if (input.questions) assertUniqueQuestionIds(input.questions);
      // A partial update may change one side of a cross-field rule alone: check it against the stored other side.
      const questions = input.questions ?? current.questions.map((q) => QuestionSchema.parse(q));
      const crossField = [
        ...(input.questions || input.rubrics ? rubricIssues(questions, input.rubrics ?? current.rubrics) : []),
        ...(input.questions || input.pools ? poolIssues(questions, input.pools ?? current.pools) : []),
        ...(input.questions || input.sections ? sectionIssues(questions, input.sections ?? current.sections) : []),
      ];
      if (input.opensAt !== undefined || input.closesAt !== undefined) {
        const issue = windowIssue({
          opensAt: input.opensAt !== undefined ? input.opensAt : (current.opensAt?.toISOString() ?? null),
          closesAt: input.closesAt !== undefined ? input.closesAt : (current.closesAt?.toISOString() ?? null),
        });
        if (issue) crossField.push(issue);
      }
      if (input.opensAt !== undefined || input.review) {
        const issue = reviewWindowIssue({
          opensAt: input.opensAt !== undefined ? input.opensAt : (current.opensAt?.toISOString() ?? null),
          review: input.review ?? current.review,
        });
        if (issue) crossField.push(issue);
      }
      // A body with one of the workspace and the assistant is checked against the stored other (an agent needs the
      // assistant on and a provider it can speak).
      if (input.codingWorkspace || input.aiSettings) {
        const issue = workspaceAiIssue({
          codingWorkspace: input.codingWorkspace ?? current.codingWorkspace,
          aiSettings: input.aiSettings ?? current.aiSettings,
        });
        if (issue) crossField.push(issue);
      }
      const invalid = validationError(crossField);
      if (invalid) throw invalid;
      const now = deps.clock.now();
      const { aiSettings, isDraft, isLive, accessCode, opensAt, closesAt, ...fields } = input;
      const patch: ExamPatch = {
        ...fields,
        ...window({ opensAt, closesAt }),
        ...(await accessCodeColumn(accessCode)),
        ...nextLifecycle(current, { isDraft, isLive }, now),
        ...(aiSettings
          ? { aiSettings: await storedAiSettings(ownerId, aiSettings), ...keyColumns(aiSettings.apiKey) }
          : {}),
        lastEditedAt: now,
        updatedAt: now,
      };
      const access = patch.access ?? current.access;
      const codeHash = patch.accessCodeHash !== undefined ? patch.accessCodeHash : current.accessCodeHash;
      if (access === 'code' && codeHash === null) throw accessCodeMissing();
      const row = await repo.updateById(id, patch);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, EXAM_NOT_FOUND);
      if (!row.isDraft && windowMoved(current, row)) await moveDeadlines(row.id);
      await recordUpdate(creatorId, input, current, row);
      return forGrant(await view(row), grant);
    },

    async remove(creatorId: string, id: string): Promise<{ id: string }> {
      const { row } = await examAccess.require(creatorId, id, 'exam:delete');
      if (!(await repo.deleteById(id))) throw new AppError(ErrorCode.NOT_FOUND, EXAM_NOT_FOUND);
      await audit.record({ examId: id, actorId: creatorId, action: 'exam.deleted', detail: { title: row.title } });
      return { id };
    },
  };
}
export type ExamsService = ReturnType<typeof createExamsService>;
