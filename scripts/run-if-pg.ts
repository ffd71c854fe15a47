// Runs a service's test command again against a fresh database on the real PostgreSQL server named by
// TEST_DATABASE_URL, and drops that database afterwards. Without TEST_DATABASE_URL it says so and exits 0.
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import postgres from 'postgres';

const base = process.env.TEST_DATABASE_URL;
const command = process.argv.slice(2);
if (!base) {
  console.log(`[test:pg] TEST_DATABASE_URL is not set; the PostgreSQL suite of ${basename(process.cwd())} did not run`);
  process.exit(0);
}
const name =
  `exam_test_${basename(process.cwd()).replace(/[^a-z0-9]/gi, '_')}_${process.pid}_${Date.now()}`.toLowerCase();
const admin = postgres(base, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${name}"`);
const url = new URL(base);
url.pathname = `/${name}`;
let status = 1;
try {
  console.log(`[test:pg] running against PostgreSQL database ${name}`);
  const result = spawnSync(command[0]!, command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, TEST_DB_URL: url.toString() },
    shell: false,
  });
  status = result.status ?? 1;
} finally {
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
process.exit(status);
