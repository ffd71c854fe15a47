import { decryptSecret, encryptSecret } from '@exam/server-kit/crypto';
import {
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { ExamDatabase } from '../../db/database.ts';
import { createToolKeysRepository, type ToolKeyRow } from './tool-keys.repository.ts';

/** The only algorithm LTI 1.3 messages use (1EdTech Security Framework 1.0 §6.1: RSA with SHA-256). */
export const TOOL_KEY_ALG = 'RS256';

export type SigningKey = { kid: string; privateKey: CryptoKey };

/**
 * The tool's key pairs (ARCHITECTURE.md "LTI"): the newest active key signs every message the tool sends
 * (deep-linking responses, OAuth 2 client assertions); `/lti/jwks` publishes the public halves.
 */
export type ToolKeys = {
  /** The key to sign with now; the first key is created on first use. */
  signingKey(): Promise<SigningKey>;
  /** The published set: active keys and keys retired less than the grace period ago. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** Adds a new signing key and retires the others (they stay published for the grace period). */
  rotate(): Promise<{ kid: string; retired: string[] }>;
};

export function createToolKeys(
  database: ExamDatabase,
  opts: { encryptionKey: Buffer; clock: { now(): Date }; graceSeconds: number },
): ToolKeys {
  const repository = createToolKeysRepository(database);

  const makeKey = async () => {
    const { publicKey, privateKey } = await generateKeyPair(TOOL_KEY_ALG, { modulusLength: 2048, extractable: true });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    return {
      kid,
      publicJwk: { ...jwk, kid, alg: TOOL_KEY_ALG, use: 'sig' },
      encryptedPrivateKey: encryptSecret(await exportPKCS8(privateKey), opts.encryptionKey),
      createdAt: opts.clock.now(),
    };
  };

  const toSigningKey = async (row: ToolKeyRow): Promise<SigningKey> => ({
    kid: row.kid,
    privateKey: await importPKCS8(decryptSecret(row.encryptedPrivateKey, opts.encryptionKey), TOOL_KEY_ALG),
  });

  return {
    async signingKey() {
      return toSigningKey(await repository.findOrCreateSigning(makeKey));
    },

    async jwks() {
      // Never publish an empty set: a platform fetching it before the first message would cache nothing.
      await repository.findOrCreateSigning(makeKey);
      const retiredAfter = new Date(opts.clock.now().getTime() - opts.graceSeconds * 1000);
      const rows = await repository.published(retiredAfter);
      return { keys: rows.map((row) => row.publicJwk as JWK) };
    },

    async rotate() {
      const key = await makeKey();
      const retired = await repository.rotate(key, opts.clock.now());
      return { kid: key.kid, retired };
    },
  };
}
