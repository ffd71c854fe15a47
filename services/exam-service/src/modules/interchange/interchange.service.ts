import { AppError, ErrorCode } from '@exam/domain/errors';
import { CreateExamSchema, type Exam, UpdateExamSchema } from '@exam/domain/exam';
import { type Question } from '@exam/domain/question';
import {
  type ImportFile,
  type ImportPreview,
  type ImportRequest,
  type ImportResult,
  MAX_IMPORT_BYTES,
} from '@exam/domain/interchange';
import { exportMoodleXml } from '@exam/interchange/moodle-export';
import { exportQti } from '@exam/interchange/qti-export';
import { type ExchangeExam } from '@exam/interchange/qti-shared';
import { type ImportRead } from '@exam/interchange/read-import';
import { type ZipLimits } from '@exam/interchange/safe-unzip';
import { type IsolatedRunner, IsolatedTaskError } from '@exam/server-kit/isolated-worker';
import type { Deps } from '../../deps.ts';
import type { ExamsService } from '../exams/exams.service.ts';
import type { ReadImportInput, ReadImportOutput } from './read-import.task.ts';

const READ_TASK = new URL('./read-import.task.ts', import.meta.url);

/** UpdateExamSchema's limit on an exam's questions. */
const MAX_EXAM_QUESTIONS = 500;

const invalid = (path: string, message: string) => new AppError(ErrorCode.VALIDATION, message, [{ path, message }]);

/** The first issue of a zod error as one 400 (the whole list rides along). */
function schemaError(issues: Array<{ path: PropertyKey[]; message: string }>): AppError {
  const flat = issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  return new AppError(ErrorCode.VALIDATION, `${flat[0]?.path}: ${flat[0]?.message}`, flat);
}

/** The exam fields a package carries (qti-shared.ts), from a stored exam. */
export function toExchange(exam: Exam): ExchangeExam {
  const {
    id: _id,
    ownerId: _owner,
    aiSettings: _ai,
    hasAccessCode: _code,
    isLive: _live,
    isDraft: _draft,
    publishedAt: _published,
    createdAt: _created,
    lastEditedAt: _edited,
    updatedAt: _updated,
    role: _role,
    capabilities: _capabilities,
    ...exchange
  } = exam;
  return exchange;
}

/**
 * Question import and QTI export (docs/product.md#importing-and-exporting-questions). Reading a file saves
 * nothing; an import goes through the exams service, so an imported exam obeys every rule a typed one does.
 */
export function createInterchangeService(
  exams: ExamsService,
  deps: Pick<Deps, 'ids'>,
  opts: { zipLimits: ZipLimits; isolated: IsolatedRunner },
) {
  /** Parsing runs in a worker thread with a heap and time limit, so a hostile file never stalls the service. */
  async function read(file: ImportFile): Promise<ImportRead> {
    const bytes = Buffer.from(file.data, 'base64');
    if (bytes.length === 0) throw invalid('data', 'The file is empty or not base64');
    if (bytes.length > MAX_IMPORT_BYTES) throw invalid('data', 'The file is larger than 5 MB');
    const input: ReadImportInput = { format: file.format, data: bytes, zipLimits: opts.zipLimits };
    let output: ReadImportOutput;
    try {
      output = await opts.isolated.run<ReadImportOutput>(READ_TASK, input);
    } catch (error) {
      if (!(error instanceof IsolatedTaskError)) throw error;
      const { timeoutMs, maxHeapMb } = opts.isolated.limits;
      const why =
        error.reason === 'timeout'
          ? `it took too long to read (more than ${timeoutMs / 1000} s, PARSE_TIMEOUT_SECONDS)`
          : error.reason === 'memory'
            ? `it needs more than ${maxHeapMb} MB of memory to read (PARSE_MAX_HEAP_MB)`
            : 'reading it failed';
      throw invalid('data', `This ${file.format} file cannot be imported: ${why}`);
    }
    if (!output.ok) throw invalid('data', `This is not a readable ${file.format} file: ${output.reason}`);
    return output.read;
  }

  async function preview(file: ImportFile): Promise<ImportPreview> {
    const { settings: _settings, ...shown } = await read(file);
    return { ...shown, title: shown.title || titleFromName(file.fileName) };
  }

  /**
   * Fresh ids for questions going into an existing exam, without its pools, rubrics or sections (they are not
   * there): with sections, they join the exam's first section. The file's passages join the exam's with fresh
   * ids too, and the questions point at them.
   */
  function forExistingExam(questions: Question[], passageIds: ReadonlyMap<string, string>): Question[] {
    return questions.map((q) => ({
      ...q,
      id: deps.ids.next(),
      poolId: null,
      rubricId: null,
      sectionId: null,
      passageId: q.passageId === null ? null : (passageIds.get(q.passageId) ?? null),
    }));
  }

  async function intoNewExam(ownerId: string, file: ImportRequest, found: ImportRead): Promise<Exam> {
    const settings = found.settings;
    // A package's access code never travels; an exam that needed one starts with a link instead.
    const access = settings?.access === 'code' ? 'link' : settings?.access;
    const body = CreateExamSchema.safeParse({
      ...settings,
      ...(access ? { access } : {}),
      title: found.title || titleFromName(file.fileName),
      questions: found.questions,
      passages: found.passages,
      isDraft: true,
    });
    if (!body.success) throw schemaError(body.error.issues);
    return exams.create(ownerId, body.data);
  }

  async function intoDraft(ownerId: string, examId: string, found: ImportRead): Promise<Exam> {
    const exam = await exams.get(ownerId, examId, 'exam:edit');
    if (!exam.isDraft)
      throw new AppError(ErrorCode.CONFLICT, 'Questions are imported into a draft exam only', [
        { path: 'examId', message: 'Questions are imported into a draft exam only' },
      ]);
    if (exam.questions.length + found.questions.length > MAX_EXAM_QUESTIONS)
      throw invalid('data', `An exam holds at most ${MAX_EXAM_QUESTIONS} questions`);
    // The file's passages join the exam's under fresh ids, and its questions point at them.
    const passageIds = new Map(found.passages.map((p) => [p.id, deps.ids.next()]));
    const passages = found.passages.map((p) => ({ ...p, id: passageIds.get(p.id)! }));
    const patch = UpdateExamSchema.safeParse({
      questions: [...exam.questions, ...forExistingExam(found.questions, passageIds)],
      ...(passages.length > 0 ? { passages: [...exam.passages, ...passages] } : {}),
    });
    if (!patch.success) throw schemaError(patch.error.issues);
    return exams.update(ownerId, exam.id, patch.data);
  }

  return {
    preview,

    async importQuestions(ownerId: string, file: ImportRequest): Promise<ImportResult> {
      const found = await read(file);
      if (found.questions.length === 0)
        throw invalid('data', 'Nothing in this file can be imported: see the preview for the reasons');
      const exam = file.examId ? await intoDraft(ownerId, file.examId, found) : await intoNewExam(ownerId, file, found);
      const { settings: _settings, ...shown } = found;
      return { ...shown, title: exam.title, exam };
    },

    async exportQti(ownerId: string, examId: string): Promise<{ fileName: string; content: Buffer }> {
      // Exporting is authoring (@exam/domain/roles 'exam:edit'): the file carries every key and rubric.
      const exam = await exams.get(ownerId, examId, 'exam:edit');
      const base = exam.title.trim().replace(/[\\/:*?"<>|]+/g, '-') || `exam-${exam.id}`;
      return { fileName: `${base}.qti.zip`, content: Buffer.from(exportQti(toExchange(exam))) };
    },

    /** Moodle XML of the exam's questions; what Moodle cannot hold is named at the top of the file and counted. */
    async exportMoodleXml(
      ownerId: string,
      examId: string,
    ): Promise<{ fileName: string; content: string; losses: number }> {
      // Exporting is authoring (@exam/domain/roles 'exam:edit'): the file carries every key and rubric.
      const exam = await exams.get(ownerId, examId, 'exam:edit');
      const base = exam.title.trim().replace(/[\\/:*?"<>|]+/g, '-') || `exam-${exam.id}`;
      const { xml, losses } = exportMoodleXml(exam);
      return { fileName: `${base}.moodle.xml`, content: xml, losses: losses.length };
    },
  };
}
export type InterchangeService = ReturnType<typeof createInterchangeService>;

function titleFromName(fileName: string): string {
  const base = fileName
    .replace(/^.*[\\/]/, '')
    .replace(/\.(zip|xml|txt|gift)$/gi, '')
    .replace(/\.(gift|qti)$/i, '');
  return base.trim().slice(0, 300) || 'Imported questions';
}
