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
