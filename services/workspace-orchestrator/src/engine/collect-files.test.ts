import { pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { collectFiles } from './collect-files.ts';

const limits = { fileMaxBytes: 16, totalMaxBytes: 40, maxFiles: 10 };

function tarOf(
  entries: Array<{ name: string; content?: Buffer | string; type?: 'symlink' | 'directory'; linkname?: string }>,
) {
  const tar = pack();
  for (const e of entries) {
    if (e.type)
      tar.entry({ name: e.name, type: e.type, linkname: e.linkname, mtime: new Date('2026-01-02T03:04:05Z') });
    else tar.entry({ name: e.name, mtime: new Date('2026-01-02T03:04:05Z') }, e.content ?? '');
  }
  tar.finalize();
  return tar as unknown as NodeJS.ReadableStream;
}

describe('collectFiles', () => {
  it('records text files with their media type and modification time, relative to the workspace', async () => {
    const files = await collectFiles(
      tarOf([
        { name: 'workspace/', type: 'directory' },
        { name: 'workspace/src/main.py', content: 'print(1)\n' },
      ]),
      limits,
    );
    expect(files).toEqual({
      'src/main.py': {
        content: 'print(1)\n',
        lastModified: '2026-01-02T03:04:05.000Z',
        size: 9,
        type: 'text/x-python',
        isBinary: false,
        truncated: false,
      },
    });
  });

  it('records a symlink as a link with empty content instead of following it', async () => {
    const files = await collectFiles(
      tarOf([{ name: 'workspace/passwd', type: 'symlink', linkname: '/etc/passwd' }]),
      limits,
    );
    expect(files.passwd).toMatchObject({ content: '', size: 0, type: 'symlink' });
  });

  it('flags binary files (NUL byte or invalid UTF-8) and keeps no content for them', async () => {
    const files = await collectFiles(
      tarOf([
        { name: 'workspace/a.bin', content: Buffer.from([1, 0, 2]) },
        { name: 'workspace/b.dat', content: Buffer.from([0xff, 0xfe, 0x41]) },
      ]),
      limits,
    );
    expect(files['a.bin']).toMatchObject({ isBinary: true, content: '', size: 3, type: 'application/octet-stream' });
    expect(files['b.dat']).toMatchObject({ isBinary: true, content: '' });
  });

  it('truncates a file at the per-file cap and stops keeping content at the per-workspace cap', async () => {
    const files = await collectFiles(
      tarOf([
        { name: 'workspace/big.txt', content: 'x'.repeat(100) },
        { name: 'workspace/b.txt', content: 'y'.repeat(16) },
        { name: 'workspace/c.txt', content: 'z'.repeat(16) },
      ]),
      limits,
    );
    expect(files['big.txt']).toMatchObject({ content: 'x'.repeat(16), size: 100, truncated: true });
    expect(files['b.txt']).toMatchObject({ content: 'y'.repeat(16), truncated: false });
    expect(files['c.txt']).toMatchObject({ content: 'z'.repeat(8), size: 16, truncated: true });
  });

  it('lists at most the configured number of files', async () => {
    const entries = Array.from({ length: 15 }, (_, i) => ({ name: `workspace/f${i}.txt`, content: 'a' }));
    expect(Object.keys(await collectFiles(tarOf(entries), limits))).toHaveLength(10);
  });
});
