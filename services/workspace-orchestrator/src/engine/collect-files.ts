// In engine/: it reads the tar the engines' archive APIs produce; both the sessions and the volumes use it.
import type { WorkspaceFile } from '@exam/domain/internal';
import { looksBinary, workspaceFileType } from '@exam/domain/workspace';
import { extract, type Header } from 'tar-stream';

export type CollectLimits = { fileMaxBytes: number; totalMaxBytes: number; maxFiles: number };

/**
 * Turns the engine's tar of the workspace into the result's `workspace_files` map. Only bytes in the
 * archive are read, so a symlink (even to /etc/passwd) is recorded as a link with empty content and
 * never followed. Per-file and per-workspace caps keep a huge or hostile workspace from exhausting memory.
 */
export async function collectFiles(
  tar: NodeJS.ReadableStream,
  limits: CollectLimits,
): Promise<Record<string, WorkspaceFile>> {
  const files: Record<string, WorkspaceFile> = {};
  let total = 0;
  let count = 0;
  const reader = extract();

  const relativeName = (header: Header) => header.name.replace(/^\.?\/?[^/]+\/?/, '').replace(/\/$/, '');

  reader.on('entry', (header, stream, next) => {
    const name = relativeName(header);
    const lastModified = (header.mtime ?? new Date(0)).toISOString();
    const done = () => {
      stream.on('end', () => next());
      stream.resume();
    };
    if (!name || count >= limits.maxFiles) return done();
    if (header.type === 'symlink' || header.type === 'link') {
      count++;
      files[name] = { content: '', lastModified, size: 0, type: 'symlink', isBinary: false, truncated: false };
      return done();
    }
    if (header.type !== 'file' && header.type !== 'contiguous-file') return done();
    count++;
    const size = header.size ?? 0;
    const budget = Math.max(0, Math.min(limits.fileMaxBytes, limits.totalMaxBytes - total));
    const chunks: Buffer[] = [];
    let kept = 0;
    stream.on('data', (data: unknown) => {
      const chunk = data as Buffer;
      if (kept >= budget) return;
      const part = chunk.subarray(0, budget - kept);
      chunks.push(part);
      kept += part.length;
    });
    stream.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const truncated = kept < size;
      const isBinary = looksBinary(bytes, { truncated });
      total += isBinary ? 0 : kept;
      files[name] = {
        content: isBinary ? '' : new TextDecoder().decode(bytes),
        lastModified,
        size,
        type: workspaceFileType(name, 'file', isBinary),
        isBinary,
        truncated,
      };
      next();
    });
  });

  await new Promise<void>((resolve, reject) => {
    reader.on('finish', resolve);
    reader.on('error', reject);
    tar.on('error', reject);
    tar.pipe(reader);
  });
  return files;
}
