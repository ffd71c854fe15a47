import { fileURLToPath } from 'node:url';
import type { Db } from '@exam/server-kit/db';
import { readSqlFunctionFiles, sqlFunctionDifferences } from '@exam/server-kit/sql-functions';
import { openTestDatabase } from '@exam/server-kit/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from './database.ts';
import * as schema from './schema.ts';

// One home per SQL function: src/db/functions/<name>.sql holds each function's current text, and the migrations
// must leave the database (PGlite here, PostgreSQL under `pnpm test:pg`) with exactly that text.
const files = readSqlFunctionFiles(fileURLToPath(new URL('./functions', import.meta.url)));
let db: Db;

// Opening the shared test database applies every migration: a hook, with the hook's longer timeout.
beforeAll(async () => {
  db = (await openTestDatabase({ schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA }))
    .db as unknown as Db;
});

describe('results-service SQL functions', () => {
  it('has one file per function, and the migrated database holds each file text', async () => {
    expect(files.map((file) => file.name)).toEqual([
      'attempts_insights_changed',
      'grade_history_append_only',
      'insights_bump',
      'keep_grade_insights_changed',
      'operations_chars',
      'operations_tail',
      'results_insights_changed',
      'save_answers',
    ]);
    expect(await sqlFunctionDifferences(db, MIGRATIONS_SCHEMA, files)).toEqual([]);
  });

  it('fails when a file says something the migrations did not apply', async () => {
    const edited = files.map((file) =>
      file.name === 'insights_bump' ? { ...file, text: file.text.replace('& 15', '& 31') } : file,
    );
    const problems = await sqlFunctionDifferences(db, MIGRATIONS_SCHEMA, edited);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('results_service.insights_bump(');
    expect(problems[0]).toContain('differs from insights_bump.sql');
  });
});
