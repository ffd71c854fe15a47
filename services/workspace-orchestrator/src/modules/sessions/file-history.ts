import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { AnswerSourceSchema } from '@exam/domain/answer-operations';
import type { InternalWorkspaceHistory, WorkspaceFile } from '@exam/domain/internal';
import type { FileVersionRow } from '../../db/schema.ts';
import type { ExamDirectory } from '../../deps.ts';
import type { FileHead, FileHistoryRepository, FileHistoryWriter, NewFileVersion } from './file-history.repository.ts';
import { applyPatch, makePatch, type FilePatch } from './file-patches.ts';

export type FileHistoryOptions = {
  /** WORKSPACE_HISTORY_MAX_BYTES: what one attempt's snapshots may take. */
  maxBytes: number;
  /** WORKSPACE_HISTORY_INTERVAL_SECONDS in ms: the next look is due this long after one was stored. */
  intervalMs: number;
  /** Where a snapshot that failed at collection is reported (collection itself goes on). */
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** Whether the exam keeps workspace files in results: a history of files nobody keeps is not stored either. */
  directory: Pick<ExamDirectory, 'workspaceSettings'>;
};

/** What a version costs against the cap: its text (full or patch) and path, and 64 bytes for its other columns. */
export const storedBytes = (row: Pick<NewFileVersion, 'path' | 'body'>) =>
  Buffer.byteLength(row.body) + Buffer.byteLength(row.path) + 64;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The text after each version of one path, replayed from its first full text (a deletion leaves ''). */
function replay(rows: readonly FileVersionRow[]): string[] {
  const texts: string[] = [];
  let text = '';
  for (const row of rows) {
    if (row.kind === 'full') text = row.body;
    else if (row.kind === 'deleted') text = '';
    else text = applyPatch(text, JSON.parse(row.body) as FilePatch);
    texts.push(text);
  }
  return texts;
}

/** Files collection keeps whose text the history follows: not folders' omission entries, links or binaries. */
const isText = (file: WorkspaceFile) => file.type !== 'folder' && file.type !== 'symlink' && !file.isBinary;

/**
 * Whether a path missing from a read may still exist: collection left files out for the file limit in its
 * folder (or, past its folder groups, anywhere), so its absence is no deletion.
 */
function maybeLeftOut(path: string, files: Record<string, WorkspaceFile>): boolean {
  if (files['…/']?.omitted) return true;
  const parts = path.split('/');
  for (let i = parts.length - 1; i >= 0; i--) {
    const folder = i === 0 ? '.' : parts.slice(0, i).join('/');
    for (const key of [`${folder}/`, `${folder}/ (file-limit)`])
      if (files[key]?.omitted?.reason === 'file-limit') return true;
  }
  return false;
}

/**
 * The workspace's file history: snapshots of its text files, taken when they change (jobs/file-history.ts on an
 * interval while the workspace runs, and once more at collection, so the history ends at the collected files).
 * The first version of a file is stored whole, later ones as patches from the one before; a file that is gone
 * is recorded as deleted. Past WORKSPACE_HISTORY_MAX_BYTES the attempt's history stops and says it is capped.
 *
 * Provenance: a snapshot sees only the files, so whether the editor's typing, a paste or a terminal command made
 * a change cannot be told here, and `source` is stored as null (unknown). Knowing it would take an extension in
 * the workspace image that reports VS Code's change reasons (TextDocumentChangeEvent.reason, the clipboard
 * commands, the terminal's writes) to the orchestrator with the file and time; the column is there for it.
 */
export function createFileHistory(repo: FileHistoryRepository, opts: FileHistoryOptions) {
  /** The versions this read adds, within the cap; `capped` once one would pass it. */
  async function changesOf(
    writer: FileHistoryWriter,
    files: Record<string, WorkspaceFile>,
    readAt: Date,
  ): Promise<{ rows: NewFileVersion[]; bytes: number; capped: boolean }> {
    const { attemptId } = writer.history;
    const heads = await writer.heads();
    const rows: NewFileVersion[] = [];
    let bytes = writer.history.bytes;
    const add = (row: NewFileVersion) => {
      const cost = storedBytes(row);
      if (bytes + cost > opts.maxBytes) return false;
      bytes += cost;
      rows.push(row);
      return true;
    };
    // The change happened at the file's mtime, as far as it can be told: kept after the previous look (and the
    // previous version) and not after this look. Without a previous look (the first read) the read's time is all
    // there is: a starter file's mtime is when the image was built.
    const lookedAt = writer.history.lookedAt?.getTime();
    const timeOf = (head: FileHead | undefined, mtime: string) => {
      const after = Math.max(head?.at.getTime() ?? 0, lookedAt ?? readAt.getTime());
      const modified = Date.parse(mtime);
      return new Date(Math.max(after, Math.min(readAt.getTime(), Number.isNaN(modified) ? Infinity : modified)));
    };

    // Collection's order: the questions' files, then sources, then the rest, so the cap keeps what matters first.
    for (const [path, file] of Object.entries(files)) {
      if (!isText(file)) continue;
      const head = heads.get(path);
      const hash = sha256(file.content);
      if (head && head.kind !== 'deleted' && head.hash === hash) continue;
      const base = { attemptId, path, version: (head?.version ?? 0) + 1, at: timeOf(head, file.lastModified), hash };
      let patch: FilePatch | undefined;
      if (head && head.kind !== 'deleted')
        patch = makePatch(replay(await writer.chain(path)).at(-1) ?? '', file.content);
      const row: NewFileVersion = patch
        ? { ...base, kind: 'diff', body: JSON.stringify(patch), source: null }
        : { ...base, kind: 'full', body: file.content, source: null };
      if (!add(row)) return { rows, bytes, capped: true };
    }
    for (const head of heads.values()) {
      if (head.kind === 'deleted' || Object.hasOwn(files, head.path) || maybeLeftOut(head.path, files)) continue;
      const row: NewFileVersion = {
        attemptId,
        path: head.path,
        version: head.version + 1,
        at: new Date(Math.max(head.at.getTime(), readAt.getTime())),
        kind: 'deleted',
        body: '',
        hash: null,
        source: null,
      };
      if (!add(row)) return { rows, bytes, capped: true };
    }
    return { rows, bytes, capped: false };
  }

  /**
   * Whether the attempt's files are followed: asked of exam-service once (the exam's saveFilesInResults) and
   * kept on the history row. Without the exam (a volume read after the session ended) an undecided attempt is not.
   */
  async function follows(attemptId: string, examId: string | null, now: Date): Promise<boolean> {
    const decided = (await repo.findHistory(attemptId))?.followed;
    if (decided !== null && decided !== undefined) return decided;
    if (!examId) return false;
    const { saveFilesInResults } = await opts.directory.workspaceSettings(examId);
    await repo.decideFollowed(attemptId, saveFilesInResults, now);
    return saveFilesInResults;
  }

  /**
   * Stores what changed in `files` (a read of the workspace at `readAt`, as collectFiles answers it) since the
   * attempt's last snapshot. Answers how many versions were stored and whether the history is capped.
   */
  async function record(
    attempt: { attemptId: string; examId: string | null },
    files: Record<string, WorkspaceFile>,
    readAt: Date,
  ): Promise<{ stored: number; capped: boolean }> {
    const { attemptId } = attempt;
    if (!(await follows(attemptId, attempt.examId, readAt))) return { stored: 0, capped: false };
    return repo.withWriter(attemptId, readAt, async (writer) => {
      if (writer.history.cappedAt) return { stored: 0, capped: true };
      // A later read was stored first (the job's look and the collection's raced): this one is older news.
      if (writer.history.lookedAt && writer.history.lookedAt > readAt) return { stored: 0, capped: false };
      const { rows, bytes, capped } = await changesOf(writer, files, readAt);
      await writer.append(rows, {
        bytes,
        lookedAt: readAt,
        dueAt: new Date(readAt.getTime() + opts.intervalMs),
        ...(capped ? { cappedAt: readAt } : {}),
      });
      return { stored: rows.length, capped };
    });
  }

  return {
    follows,
    record,

    /** record() at collection: a history that cannot be written is logged, never a reason to fail a submission. */
    async recordQuietly(
      attempt: { attemptId: string; examId: string | null },
      files: Record<string, WorkspaceFile>,
      readAt: Date,
    ): Promise<void> {
      await record(attempt, files, readAt).catch((err: unknown) =>
        opts.log.warn({ err, attemptId: attempt.attemptId }, 'the final file-history snapshot could not be stored'),
      );
    },

    /** The history as the timeline reads it: each file's text after each change. Unknown attempt: no files. */
    async read(attemptId: string): Promise<InternalWorkspaceHistory> {
      const [history, versions] = await Promise.all([repo.findHistory(attemptId), repo.listVersions(attemptId)]);
      const byPath = new Map<string, FileVersionRow[]>();
      for (const row of versions) {
        const rows = byPath.get(row.path);
        if (rows) rows.push(row);
        else byPath.set(row.path, [row]);
      }
      const files = [...byPath].map(([path, rows]) => {
        const texts = replay(rows);
        return {
          path,
          changes: rows.map((row, i) => ({
            at: row.at.toISOString(),
            content: texts[i]!,
            source: AnswerSourceSchema.safeParse(row.source).data ?? null,
            deleted: row.kind === 'deleted',
          })),
        };
      });
      return { files, capped: Boolean(history?.cappedAt) };
    },
  };
}
export type FileHistory = ReturnType<typeof createFileHistory>;
