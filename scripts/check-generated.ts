// Regenerates the committed artefacts — each service's drizzle migrations (from its schema), OpenAPI
// document (from its route schemas) and docs/configuration.md (from the config schemas) — and fails when
// they differ from what is committed. `--write` updates the OpenAPI documents and the configuration
// reference instead of checking them.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVICES } from '../packages/domain/src/service-routes.ts';
import { CONFIG_DOC, expectedDoc, undocumented } from './generate-config-docs.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const write = process.argv.includes('--write');
const problems: string[] = [];

for (const service of SERVICES) {
  const dir = join(root, 'services', service);
  if (!existsSync(join(dir, 'drizzle.config.ts'))) continue;
  const run = spawnSync('pnpm', ['exec', 'drizzle-kit', 'generate'], { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) problems.push(`${service}: drizzle-kit generate failed\n${run.stdout}${run.stderr}`);
  const drift = execFileSync('git', ['status', '--porcelain', '--', join(dir, 'drizzle')], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  if (drift)
    problems.push(
      `${service}: the drizzle schema and the committed migrations differ; run \`pnpm exec drizzle-kit generate\` there and commit:\n${drift}`,
    );
}

for (const service of SERVICES) {
  const dir = join(root, 'services', service);
  // Every service builds its test app in src/testing/app.ts; a missing one is a failure, never a skip.
  const testing = join(dir, 'src', 'testing', 'app.ts');
  if (!existsSync(testing)) {
    problems.push(`${service}: src/testing/app.ts (buildTestApp) not found, so its OpenAPI document cannot be checked`);
    continue;
  }
  const { buildTestApp } = (await import(pathToFileURL(testing).href)) as {
    buildTestApp: () => Promise<{ swagger(): unknown; close(): Promise<void> }>;
  };
  const app = await buildTestApp();
  const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  const file = join(dir, 'openapi.json');
  if (write) {
    writeFileSync(file, document);
  } else if (!existsSync(file) || readFileSync(file, 'utf8') !== document) {
    problems.push(
      `${service}: openapi.json is out of date; run \`node scripts/check-generated.ts --write\` and commit`,
    );
  }
}

// The configuration reference (scripts/generate-config-docs.ts): every variable documented, the file current.
problems.push(...undocumented().map((line) => `${line}: document it with a JSDoc comment on the field`));
const configDoc = readFileSync(CONFIG_DOC, 'utf8');
const expectedConfigDoc = await expectedDoc(configDoc);
if (write) writeFileSync(CONFIG_DOC, expectedConfigDoc);
else if (configDoc !== expectedConfigDoc) {
  problems.push('docs/configuration.md is out of date; run `node scripts/generate-config-docs.ts` and commit');
}

if (problems.length) {
  console.error(problems.join('\n\n'));
  process.exit(1);
}
console.log(
  write ? 'OpenAPI documents and docs/configuration.md written.' : 'Generated artefacts match what is committed.',
);
process.exit(0);
