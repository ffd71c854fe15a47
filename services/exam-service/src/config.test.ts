import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const env = { ...TEST_SECRETS, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64url'), DATA_DIR: '/nonexistent' };

describe('material limits in the config', () => {
  it('default to 2,000,000 characters of text and 50 MiB unpacked', () => {
    const config = loadConfig(env);
    expect(config.MATERIAL_MAX_TEXT_CHARS).toBe(2_000_000);
    expect(config.MATERIAL_MAX_DECOMPRESSED_BYTES).toBe(50 * 1024 * 1024);
  });

  it('read MATERIAL_MAX_TEXT_CHARS and MATERIAL_MAX_DECOMPRESSED_BYTES', () => {
    const config = loadConfig({ ...env, MATERIAL_MAX_TEXT_CHARS: '5000', MATERIAL_MAX_DECOMPRESSED_BYTES: '1048576' });
    expect(config.MATERIAL_MAX_TEXT_CHARS).toBe(5000);
    expect(config.MATERIAL_MAX_DECOMPRESSED_BYTES).toBe(1_048_576);
  });

  it('names both variables when they are invalid', () => {
    expect(() => loadConfig({ ...env, MATERIAL_MAX_TEXT_CHARS: '0', MATERIAL_MAX_DECOMPRESSED_BYTES: 'lots' })).toThrow(
      /MATERIAL_MAX_TEXT_CHARS[\s\S]*MATERIAL_MAX_DECOMPRESSED_BYTES/,
    );
  });
});

describe('secrets in production', () => {
  it(
    'refuse to start without explicit secrets, naming every missing one, and generate none',
    { timeout: 60_000 },
    () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'exam-production-'));
      const started = spawnSync(process.execPath, ['src/server.ts'], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        encoding: 'utf8',
        env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0' },
        timeout: 50_000,
      });
      expect(started.status).toBe(1);
      for (const name of ['JWT_SECRET', 'INTERNAL_TOKEN', 'ENCRYPTION_KEY'])
        expect(started.stderr).toContain(
          `${name}: required when REQUIRE_EXPLICIT_SECRETS is true or NODE_ENV is production`,
        );
      expect(existsSync(join(dataDir, 'secrets'))).toBe(false);
    },
  );

  it('are still generated when NODE_ENV is not production (pnpm start)', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'exam-development-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.jwtSecret).toHaveLength(43);
    expect(existsSync(join(dataDir, 'secrets', 'JWT_SECRET'))).toBe(true);
  });
});
