import { MAX_REPOSITORY_BYTES, RepositoryPathSchema, type RepositoryFile } from '@exam/domain/coding';
import { openZip, ZipRefusedError } from '@exam/interchange/safe-unzip';

/** A file of an upload that was not taken, and why (shown to the creator). */
export type RefusedUpload = { name: string; reason: string };

/** Entries a zip tool adds that are never part of a repository. */
const isJunk = (name: string) =>
  name.endsWith('/') ||
  name.startsWith('__MACOSX/') ||
  /(^|\/)\.DS_Store$/.test(name) ||
  /(^|\/)Thumbs\.db$/.test(name);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Text of a file, or null when it is not UTF-8 text (a repository holds text files only). */
function textOf(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** A zip's single top folder (`project-main/` from a downloaded repository), which the paths leave out. */
function commonFolder(names: string[]): string {
  const first = names[0]?.split('/')[0];
  if (!first || names.some((n) => !n.startsWith(`${first}/`))) return '';
  return `${first}/`;
}

function bytesOf(file: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

/**
 * The repository files of an upload: each text file under its own name, and a .zip's text files under their
 * paths in it (read by the same zip-bomb-safe reader as question imports, held to the repository's 1 MB).
 * Binary files, paths a repository cannot hold and archives that cannot be read are refused with the reason.
 */
export async function readRepositoryUpload(
  uploads: readonly File[],
  messages: { notText: string; badPath: string; badZip: (reason: string) => string },
): Promise<{ files: RepositoryFile[]; refused: RefusedUpload[] }> {
  const files: RepositoryFile[] = [];
  const refused: RefusedUpload[] = [];
  const take = (path: string, bytes: Uint8Array) => {
    const content = textOf(bytes);
    if (content === null) refused.push({ name: path, reason: messages.notText });
    else if (!RepositoryPathSchema.safeParse(path).success) refused.push({ name: path, reason: messages.badPath });
    else files.push({ path, content });
  };
  for (const upload of uploads) {
    const bytes = await bytesOf(upload);
    if (!upload.name.toLowerCase().endsWith('.zip')) {
      take(upload.name, bytes);
      continue;
    }
    try {
      const zip = openZip(bytes, { maxUnzippedBytes: MAX_REPOSITORY_BYTES, maxEntries: 1000 });
      const names = zip.names.filter((n) => !isJunk(n));
      const folder = commonFolder(names);
      for (const name of names) take(name.slice(folder.length), zip.read(name)!);
    } catch (error) {
      const reason = error instanceof ZipRefusedError ? error.message : String(error);
      refused.push({ name: upload.name, reason: messages.badZip(reason) });
    }
  }
  return { files, refused };
}

/** The list with the new files added, a new file replacing one of the same path. */
export function mergeRepositoryFiles(current: readonly RepositoryFile[], added: readonly RepositoryFile[]) {
  const paths = new Set(added.map((f) => f.path));
  return [...current.filter((f) => !paths.has(f.path)), ...added];
}
