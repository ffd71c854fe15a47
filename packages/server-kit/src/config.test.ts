import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseConfigShape, ConfigError, parseConfig, resolveServiceSecrets } from './config.ts';

const Schema = z.object({ ...baseConfigShape, PORT: z.coerce.number().int().min(1).max(65535) });

describe('parseConfig', () => {
  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      parseConfig(Schema, { PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'not a url' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/LOG_LEVEL/);
    expect(message).toMatch(/DATABASE_URL/);
  });

  it('treats an empty variable as unset, so its default applies', () => {
    const config = parseConfig(Schema, { PORT: '4001', LOG_LEVEL: '' });
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.PORT).toBe(4001);
  });
});

describe('TRUSTED_PROXIES', () => {
  it('defaults to the loopback addresses of the local web servers', () => {
    expect(parseConfig(Schema, { PORT: '4001' }).TRUSTED_PROXIES).toEqual(['127.0.0.1', '::1']);
  });

  it('reads a comma-separated list of addresses, CIDRs and named ranges; none trusts no proxy', () => {
    const config = parseConfig(Schema, { PORT: '4001', TRUSTED_PROXIES: ' 10.0.0.0/8, ::1,fd00::/8 ,loopback' });
    expect(config.TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    expect(parseConfig(Schema, { PORT: '4001', TRUSTED_PROXIES: 'none' }).TRUSTED_PROXIES).toEqual([]);
  });

  it('refuses an entry that is not an address or CIDR, naming it', () => {
    for (const bad of ['true', '10.0.0.0/33', 'example.com', '10.0.0.1/8/2']) {
      expect(() => parseConfig(Schema, { PORT: '4001', TRUSTED_PROXIES: `127.0.0.1,${bad}` })).toThrow(
        new RegExp(`TRUSTED_PROXIES: "${bad}" is not`),
      );
    }
  });
});

describe('resolveServiceSecrets', () => {
  const base = (dataDir: string) => ({ DATA_DIR: dataDir, REQUIRE_EXPLICIT_SECRETS: false });

  it('generates each secret once under DATA_DIR/secrets, so every service reads the same value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const first = resolveServiceSecrets(base(dir), { encryptionKey: true });
    const second = resolveServiceSecrets(base(dir), { encryptionKey: true });
    expect(second).toEqual(first);
    expect(first.jwtSecret).not.toBe(first.internalToken);
    expect(first.encryptionKey).toHaveLength(32);
    expect(readFileSync(join(dir, 'secrets', 'JWT_SECRET'), 'utf8')).toBe(first.jwtSecret);
  });

  it('prefers configured values and leaves the encryption key out unless asked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const secrets = resolveServiceSecrets({ ...base(dir), JWT_SECRET: 'j'.repeat(40), INTERNAL_TOKEN: 'i'.repeat(40) });
    expect(secrets).toEqual({ jwtSecret: 'j'.repeat(40), internalToken: 'i'.repeat(40) });
  });

  it('refuses to generate when REQUIRE_EXPLICIT_SECRETS is set, naming the variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    expect(() => resolveServiceSecrets({ DATA_DIR: dir, REQUIRE_EXPLICIT_SECRETS: true })).toThrow(
      /JWT_SECRET: required/,
    );
  });

  it('refuses generated secrets when NODE_ENV is production, naming every missing variable at once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const production = { ...base(dir), NODE_ENV: 'production', INTERNAL_TOKEN: 'i'.repeat(40) };
    let error: unknown;
    try {
      resolveServiceSecrets(production, { encryptionKey: true });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/JWT_SECRET: required when REQUIRE_EXPLICIT_SECRETS is true or NODE_ENV is production/);
    expect(message).toMatch(/ENCRYPTION_KEY: required/);
    expect(message).not.toMatch(/INTERNAL_TOKEN/);
    // Nothing was generated on the way.
    expect(existsSync(join(dir, 'secrets'))).toBe(false);
  });

  it('starts in production with every secret set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const secrets = resolveServiceSecrets({
      ...base(dir),
      NODE_ENV: 'production',
      JWT_SECRET: 'j'.repeat(40),
      INTERNAL_TOKEN: 'i'.repeat(40),
    });
    expect(secrets).toEqual({ jwtSecret: 'j'.repeat(40), internalToken: 'i'.repeat(40) });
  });

  it('still generates outside production (pnpm start sets no NODE_ENV)', () => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
      expect(resolveServiceSecrets({ ...base(dir), NODE_ENV }).jwtSecret).toHaveLength(43);
    }
  });
});

describe('REDIS_URL and MIGRATE_ON_START', () => {
  it('accepts redis:// and rediss:// URLs and refuses others, naming the variable', () => {
    expect(parseConfig(Schema, { PORT: '4001', REDIS_URL: 'redis://cache:6379/0' }).REDIS_URL).toBe(
      'redis://cache:6379/0',
    );
    expect(parseConfig(Schema, { PORT: '4001', REDIS_URL: 'rediss://cache:6380' }).REDIS_URL).toBe(
      'rediss://cache:6380',
    );
    expect(() => parseConfig(Schema, { PORT: '4001', REDIS_URL: 'http://cache:6379' })).toThrow(/REDIS_URL/);
  });

  it('migrates on start unless told not to', () => {
    expect(parseConfig(Schema, { PORT: '4001' }).MIGRATE_ON_START).toBe(true);
    expect(parseConfig(Schema, { PORT: '4001', MIGRATE_ON_START: 'false' }).MIGRATE_ON_START).toBe(false);
  });
});
