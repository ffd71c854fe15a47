import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC, expectedDoc, generatedPart, START_MARK, undocumented } from './generate-config-docs.ts';

const root = join(import.meta.dirname, '..');
const configFiles = [
  'packages/server-kit/src/config.ts',
  'packages/server-kit/src/mail.ts',
  ...readdirSync(join(root, 'services')).map((service) => `services/${service}/src/config.ts`),
];
/** Every field a schema declares, found by a plain text scan rather than the generator's syntax tree. */
const declared = configFiles.flatMap((file) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/^ {2}([A-Z][A-Z0-9_]+): (z\b|bool|booleanFlag|trusted)/gm)].map(
    (match) => match[1]!,
  ),
);

describe('docs/configuration.md', () => {
  it('is what the generator writes from the config schemas', async () => {
    const current = readFileSync(CONFIG_DOC, 'utf8');
    expect(await expectedDoc(current)).toBe(current);
  });

  it('documents every variable a config schema declares, each with its JSDoc meaning', () => {
    const part = generatedPart();
    expect(declared.length).toBeGreaterThan(100);
    for (const name of declared) expect(part).toContain(`- \`${name}\` (`);
    expect(undocumented()).toEqual([]);
    expect(part).toContain(
      "- `RESUME_UNLOCK_MINUTES` (default `10`; 1–1440): How long the examiner's one-time unlock code works.",
    );
  });

  it('is found out of date when its generated part was edited by hand', async () => {
    const current = readFileSync(CONFIG_DOC, 'utf8');
    const edited = current.replace(/- `HOST` \(default `127\.0\.0\.1`\)/, '- `HOST` (default `0.0.0.0`)');
    expect(edited).not.toBe(current);
    expect(await expectedDoc(edited)).toBe(current);
    await expect(expectedDoc(edited.replace(START_MARK, ''))).rejects.toThrow('markers');
  });
});
