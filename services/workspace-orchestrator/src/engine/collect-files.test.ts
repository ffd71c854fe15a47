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

  it('keeps the bytes of a workbook or an image read whole, and of no other binary', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const xlsx = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0x06, 0]);
    const files = await collectFiles(
      tarOf([
        { name: 'workspace/plots/plot-001.png', content: png },
        { name: 'workspace/workbook.xlsx', content: xlsx },
        { name: 'workspace/database.sqlite', content: Buffer.from([0x53, 0x51, 0, 0x4c]) },
        // Longer than the per-file cap (16 bytes): read only in part, so no bytes are kept.
        { name: 'workspace/big.png', content: Buffer.concat([png, png]) },
      ]),
      limits,
    );
    expect(files['plots/plot-001.png']).toMatchObject({ isBinary: true, type: 'image/png', content: '' });
    expect(Buffer.from(files['plots/plot-001.png']!.contentBase64!, 'base64')).toEqual(png);
    expect(Buffer.from(files['workbook.xlsx']!.contentBase64!, 'base64')).toEqual(xlsx);
    expect(files['database.sqlite']!.contentBase64).toBeUndefined();
    expect(files['big.png']).toMatchObject({ truncated: true });
    expect(files['big.png']!.contentBase64).toBeUndefined();
  });

  it('drops a kept binary whole rather than cut it at the per-workspace cap', async () => {
    const xlsx = Buffer.from('PK\u0003\u0004'.padEnd(16, '\u0000'), 'latin1');
    const files = await collectFiles(
      tarOf([
        { name: 'workspace/a.txt', content: 'a'.repeat(16) },
        { name: 'workspace/b.txt', content: 'b'.repeat(16) },
        { name: 'workspace/workbook.xlsx', content: xlsx },
      ]),
      limits,
    );
    expect(files['workbook.xlsx']).toMatchObject({ isBinary: true, size: 16 });
    expect(files['workbook.xlsx']!.contentBase64).toBeUndefined();
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

  it('lists at most the configured number of files, and counts the rest in an omission entry', async () => {
    const entries = Array.from({ length: 15 }, (_, i) => ({ name: `workspace/f${i}.txt`, content: 'a' }));
    const files = await collectFiles(tarOf(entries), limits);
    expect(Object.keys(files).filter((name) => !name.endsWith('/'))).toHaveLength(10);
    expect(files['./']!.omitted).toEqual({ reason: 'file-limit', files: 5 });
  });

  it('keeps solution.py and lists what it left out when a folder of 2,100 files comes first in the archive', async () => {
    const data = Array.from({ length: 2100 }, (_, i) => ({ name: `workspace/data/row${i}.dat`, content: 'r' }));
    const files = await collectFiles(tarOf([...data, { name: 'workspace/solution.py', content: 'print(42)\n' }]), {
      fileMaxBytes: 1024,
      totalMaxBytes: 1024 * 1024,
      maxFiles: 2000,
    });
    expect(files['solution.py']).toMatchObject({ content: 'print(42)\n', truncated: false });
    expect(files['data/']).toMatchObject({ type: 'folder', size: 101, omitted: { reason: 'file-limit', files: 101 } });
    expect(Object.keys(files).filter((name) => !name.endsWith('/'))).toHaveLength(2000);
  });

  it('leaves dependency, build and version-control folders out by rule and says so', async () => {
    const files = await collectFiles(
      tarOf([
        ...Array.from({ length: 30 }, (_, i) => ({ name: `workspace/web/node_modules/p${i}/index.js`, content: 'x' })),
        { name: 'workspace/.venv/lib/site.py', content: 'yy' },
        { name: 'workspace/src/__pycache__/main.cpython-312.pyc', content: 'zzz' },
        { name: 'workspace/.git/HEAD', content: 'ref' },
        { name: 'workspace/web/app.js', content: 'app' },
      ]),
      limits,
    );
    expect(Object.keys(files).sort()).toEqual([
      '.git/',
      '.venv/',
      'src/__pycache__/',
      'web/app.js',
      'web/node_modules/',
    ]);
    expect(files['web/node_modules/']).toMatchObject({ size: 30, omitted: { reason: 'dependency-folder', files: 30 } });
    expect(files['.venv/']!.omitted).toEqual({ reason: 'dependency-folder', files: 1 });
    expect(files['src/__pycache__/']!.omitted).toEqual({ reason: 'build-folder', files: 1 });
    expect(files['.git/']!.omitted).toEqual({ reason: 'version-control', files: 1 });
  });

  it("collects the question's workspace file first, even inside a folder left out by rule", async () => {
    const others = Array.from({ length: 12 }, (_, i) => ({ name: `workspace/a${i}.py`, content: 'a' }));
    const files = await collectFiles(
      tarOf([...others, { name: 'workspace/build/answer.txt', content: 'mine' }]),
      limits,
      {
        priorityFiles: ['./build/answer.txt'],
      },
    );
    expect(files['build/answer.txt']).toMatchObject({ content: 'mine' });
    expect(files['./']!.omitted).toEqual({ reason: 'file-limit', files: 3 });
  });

  it('prefers sources over data files when the file limit bites', async () => {
    const data = Array.from({ length: 10 }, (_, i) => ({ name: `workspace/d${i}.csv`, content: 'c' }));
    const files = await collectFiles(tarOf([...data, { name: 'workspace/deep/er/main.py', content: 'p' }]), limits);
    expect(files['deep/er/main.py']).toBeDefined();
    expect(files['./']!.omitted).toEqual({ reason: 'file-limit', files: 1 });
  });

  it('keeps a file named __proto__ as an ordinary file', async () => {
    const files = await collectFiles(
      tarOf([
        { name: 'workspace/__proto__', content: 'hello' },
        { name: 'workspace/constructor', content: 'c' },
      ]),
      limits,
    );
    expect(Object.keys(files).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(files, '__proto__')?.value).toMatchObject({ content: 'hello', size: 5 });
    const sent = JSON.parse(JSON.stringify(files)) as object;
    expect(Object.getOwnPropertyDescriptor(sent, '__proto__')?.value).toMatchObject({ content: 'hello' });
  });
});
