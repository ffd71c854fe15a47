import type { OmissionReason, WorkspaceFile } from '@exam/domain/internal';

/**
 * Folders collection leaves out wherever they are in the workspace: what a package manager or a build puts
 * there, which the candidate did not write and which would crowd their answer out of the file limit. A
 * question's workspace file is collected even inside one of them.
 */
const FOLDER_RULES: Record<string, OmissionReason> = {
  node_modules: 'dependency-folder',
  bower_components: 'dependency-folder',
  '.venv': 'dependency-folder',
  venv: 'dependency-folder',
  'site-packages': 'dependency-folder',
  '.npm': 'dependency-folder',
  '.m2': 'dependency-folder',
  __pycache__: 'build-folder',
  '.pytest_cache': 'build-folder',
  '.mypy_cache': 'build-folder',
  '.ipynb_checkpoints': 'build-folder',
  '.cache': 'build-folder',
  '.gradle': 'build-folder',
  '.next': 'build-folder',
  target: 'build-folder',
  build: 'build-folder',
  dist: 'build-folder',
  '.git': 'version-control',
  '.hg': 'version-control',
  '.svn': 'version-control',
};

/** The outermost rule folder a path lies in ('web/node_modules'), and why it is left out; undefined: none. */
export function omissionRule(path: string): { folder: string; reason: OmissionReason } | undefined {
  const parts = path.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    const reason = Object.hasOwn(FOLDER_RULES, parts[i]!) ? FOLDER_RULES[parts[i]!] : undefined;
    if (reason) return { folder: parts.slice(0, i + 1).join('/'), reason };
  }
  return undefined;
}

/** Past this many folders with omissions, the rest are counted together under OTHER_FOLDERS. */
const MAX_GROUPS = 200;
const OTHER_FOLDERS = '…/';

/**
 * What collection left out, by folder: each becomes an entry keyed `folder/` (the trailing slash keeps it
 * apart from every file name) whose `omitted` says why and how many files, and whose `size` is their bytes.
 */
export class OmissionLedger {
  private readonly groups = new Map<string, { reason: OmissionReason; files: number; size: number }>();

  /** A file left out for `reason`, counted in the folder it lies in ('./' for the workspace's top). */
  add(path: string, reason: OmissionReason, size: number) {
    const slash = path.lastIndexOf('/');
    this.addToFolder(slash < 0 ? '.' : path.slice(0, slash), reason, size);
  }

  addToFolder(folder: string, reason: OmissionReason, size: number) {
    let key = `${folder}/`;
    const existing = this.groups.get(key);
    if (existing && existing.reason !== reason) key = `${folder}/ (${reason})`;
    if (!this.groups.has(key) && this.groups.size >= MAX_GROUPS) key = OTHER_FOLDERS;
    const group = this.groups.get(key) ?? { reason, files: 0, size: 0 };
    group.files += 1;
    group.size += size;
    this.groups.set(key, group);
  }

  *entries(): Generator<[string, WorkspaceFile]> {
    for (const [key, { reason, files, size }] of this.groups)
      yield [
        key,
        {
          content: '',
          lastModified: new Date(0).toISOString(),
          size,
          type: 'folder',
          isBinary: false,
          truncated: false,
          omitted: { reason, files },
        },
      ];
  }
}
