import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, nativeAvailable, startNative } from './native.ts';

// mkdtemp makes a 0700 folder: as root, the server must reach it without an account of its own (native.ts).
const work = mkdtempSync(join(tmpdir(), 'embedded-native-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the embedded PostgreSQL', () => {
  it('runs on this machine', () => {
    expect(nativeAvailable()).toMatchObject({ ok: true });
  });

  it('creates its cluster on the first start, keeps what was committed across a restart, and stops', async () => {
    const dir = join(work, 'postgresql');
    const port = await freePort();
    let server = await startNative({ dir, port, log: () => {} });
    // The files stay this user's, also for root (run unprivileged in a user namespace), private to it.
    expect(statSync(dir).uid).toBe(userInfo().uid);
    expect(statSync(dir).mode & 0o077).toBe(0);
    let sql = postgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 2, onnotice: () => {} });
    const [{ version }] = await sql<[{ version: string }]>`select current_setting('server_version_num') as version`;
    expect(Math.floor(Number(version) / 10000)).toBe(17);
    await sql`create schema kept; create table kept.rows (id int primary key)`.simple();
    await sql`insert into kept.rows values (1), (2)`;
    await sql.end();
    await server.stop();
    expect(await server.exited).toBe(0);

    server = await startNative({ dir, port, log: () => {} });
    sql = postgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
    try {
      expect(await sql`select id from kept.rows order by id`).toEqual([{ id: 1 }, { id: 2 }]);
    } finally {
      await sql.end();
      await server.stop();
    }
  });
});
