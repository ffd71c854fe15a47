// In engine/: it reads the tar the engines' archive APIs produce; both the sessions and the volumes use it.
import type { OmissionReason, WorkspaceFile } from '@exam/domain/internal';
import { KEPT_BINARY_TYPES, looksBinary, workspaceFileType } from '@exam/domain/workspace';
import { extract, type Header } from 'tar-stream';
import { omissionRule, OmissionLedger } from './collect-omissions.ts';

export type CollectLimits = { fileMaxBytes: number; totalMaxBytes: number; maxFiles: number };

/** What collection is told about the exam: the paths its questions name as their workspace file. */
export type CollectPriorities = { priorityFiles?: readonly string[] };

/** Source files a candidate writes; they are kept before data, binaries and links when the file limit bites. */
const SOURCE_EXTENSIONS = new Set(
  'py ipynb js mjs cjs ts tsx jsx java kt scala c h cpp cc hpp cs go rs rb php r sql sh md txt html css json yaml yml'.split(
    ' ',
  ),
);

type Candidate = {
  name: string;
  /** 0: a question's workspace file; 1: a source file; 2: anything else. Lower is kept first. */
  tier: number;
  depth: number;
  bytes: Buffer;
  /** The file was longer than the per-file cap when read (for a binary file, which keeps no bytes). */
  cut: boolean;
  file: Omit<WorkspaceFile, 'content' | 'truncated'>;
};

const before = (a: Candidate, b: Candidate) =>
  a.tier - b.tier || a.depth - b.depth || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function tierOf(name: string, isLink: boolean, priority: ReadonlySet<string>): number {
  if (priority.has(name)) return 0;
  if (isLink) return 2;
  const dot = name.lastIndexOf('.');
  return dot > name.lastIndexOf('/') && SOURCE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase()) ? 1 : 2;
}

/**
 * The files kept so far, best first, never more than `maxFiles`: a better file arriving late in the archive
 * pushes the worst one out (into the ledger), so the archive's order decides nothing. Content is held only up
 * to the per-workspace byte budget, trimmed from the worst file up, so memory stays near that budget.
 */
class Selection {
  readonly kept: Candidate[] = [];
  private bytes = 0;
  private readonly limits: CollectLimits;
  private readonly ledger: OmissionLedger;

  constructor(limits: CollectLimits, ledger: OmissionLedger) {
    this.limits = limits;
    this.ledger = ledger;
  }

  add(candidate: Candidate) {
    let low = 0;
    let high = this.kept.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (before(this.kept[mid]!, candidate) <= 0) low = mid + 1;
      else high = mid;
    }
    this.kept.splice(low, 0, candidate);
    this.bytes += candidate.bytes.length;
    if (this.kept.length > this.limits.maxFiles) {
      const dropped = this.kept.pop()!;
      this.bytes -= dropped.bytes.length;
      this.ledger.add(dropped.name, 'file-limit', dropped.file.size);
    }
    for (let i = this.kept.length - 1; i >= 0 && this.bytes > this.limits.totalMaxBytes; i--) {
      const entry = this.kept[i]!;
      // A binary's bytes are all or nothing: a cut workbook or image opens as nothing at all.
      const keep = entry.file.isBinary ? 0 : Math.max(0, entry.bytes.length - (this.bytes - this.limits.totalMaxBytes));
      this.bytes -= entry.bytes.length - keep;
      entry.bytes = entry.bytes.subarray(0, keep);
    }
  }
}

/**
 * Turns the engine's tar of the workspace into the result's `workspace_files` map. Only bytes in the
 * archive are read, so a symlink (even to /etc/passwd) is recorded as a link with empty content and
 * never followed. Per-file and per-workspace caps keep a huge or hostile workspace from exhausting memory.
 *
 * What matters is kept first, whatever the archive's order: the questions' workspace files, then the
 * candidate's sources, then the rest. Dependency, build and version-control folders are left out by rule
 * (collect-omissions.ts), and every file left out is accounted for by an entry keyed by its folder ('…/')
 * saying why and how many, so no answer vanishes without the grader seeing it. The map has a null prototype:
 * a file may be called `__proto__`.
 */
export async function collectFiles(
  tar: NodeJS.ReadableStream,
  limits: CollectLimits,
  priorities: CollectPriorities = {},
): Promise<Record<string, WorkspaceFile>> {
  const priority = new Set((priorities.priorityFiles ?? []).map((path) => path.replace(/^(\.\/)+/, '')));
  const ledger = new OmissionLedger();
  const selection = new Selection(limits, ledger);
  const reader = extract();

  const relativeName = (header: Header) => header.name.replace(/^\.?\/?[^/]+\/?/, '').replace(/\/$/, '');

  reader.on('entry', (header, stream, next) => {
    const name = relativeName(header);
    const lastModified = (header.mtime ?? new Date(0)).toISOString();
    const skip = (reason?: { folder: string; reason: OmissionReason }) => {
      if (reason) ledger.addToFolder(reason.folder, reason.reason, header.size ?? 0);
      stream.on('end', () => next());
      stream.resume();
    };
    const isLink = header.type === 'symlink' || header.type === 'link';
    if (!name || (!isLink && header.type !== 'file' && header.type !== 'contiguous-file')) return skip();
    const rule = priority.has(name) ? undefined : omissionRule(name);
    if (rule) return skip(rule);
    const base = { name, tier: tierOf(name, isLink, priority), depth: name.split('/').length };
    if (isLink) {
      selection.add({
        ...base,
        bytes: Buffer.alloc(0),
        cut: false,
        file: { lastModified, size: 0, type: 'symlink', isBinary: false },
      });
      return skip();
    }
    const size = header.size ?? 0;
    const chunks: Buffer[] = [];
    let kept = 0;
    stream.on('data', (data: unknown) => {
      const chunk = data as Buffer;
      if (kept >= limits.fileMaxBytes) return;
      const part = chunk.subarray(0, limits.fileMaxBytes - kept);
      chunks.push(part);
      kept += part.length;
    });
    stream.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const isBinary = looksBinary(bytes, { truncated: kept < size });
      const type = workspaceFileType(name, 'file', isBinary);
      // A workbook or an image read whole keeps its bytes (the grader opens it); other binaries only size and type.
      const keepBytes = !isBinary || (kept === size && KEPT_BINARY_TYPES.has(type));
      selection.add({
        ...base,
        bytes: keepBytes ? bytes : Buffer.alloc(0),
        cut: kept < size,
        file: { lastModified, size, type, isBinary },
      });
      next();
    });
  });

  await new Promise<void>((resolve, reject) => {
    reader.on('finish', resolve);
    reader.on('error', reject);
    tar.on('error', reject);
    tar.pipe(reader);
  });

  const files: Record<string, WorkspaceFile> = Object.create(null);
  for (const { name, bytes, cut, file } of selection.kept)
    files[name] = {
      ...file,
      content: file.isBinary ? '' : new TextDecoder().decode(bytes),
      truncated: file.isBinary ? cut : bytes.length < file.size,
      ...(file.isBinary && bytes.length > 0 ? { contentBase64: bytes.toString('base64') } : {}),
    };
  for (const [folder, entry] of ledger.entries()) files[folder] = entry;
  return files;
}
