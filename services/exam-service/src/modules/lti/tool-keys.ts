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

/** Signing for a registration that no longer exists (deleted while a message was being made). */
export class UnknownPlatformKeyError extends Error {
  constructor(platformId: string) {
    super(`LTI platform ${platformId} is not registered`);
    this.name = 'UnknownPlatformKeyError';
  }
}

/**
 * The tool's key pairs (ARCHITECTURE.md "LTI"), one signing key per registration: a registration's newest active key
 * signs every message the tool sends it (deep-linking responses, OAuth 2 client assertions), so no registration's
 * messages are signed with a key another registration's messages use; `/lti/jwks` publishes the public halves.
 */
export type ToolKeys = {
  /** The registration's key to sign with now; its first key is created on first use. */
  signingKey(platformId: string): Promise<SigningKey>;
  /** The published set: active keys and keys retired less than the grace period ago, of every registration. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** Adds a new signing key for the registration and retires its others (published for the grace period). */
  rotate(platformId: string): Promise<{ kid: string; retired: string[] }>;
  /** rotate() for every registration. */
  rotateAll(): Promise<Array<{ platformId: string; kid: string; retired: string[] }>>;
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

  const rotate = async (platformId: string) => {
    const key = await makeKey();
    const retired = await repository.rotate(platformId, key, opts.clock.now());
    return { kid: key.kid, retired };
  };

  return {
    async signingKey(platformId) {
      const row = await repository.findOrCreateSigning(platformId, makeKey);
      if (!row) throw new UnknownPlatformKeyError(platformId);
      return toSigningKey(row);
    },

    async jwks() {
      const retiredAfter = new Date(opts.clock.now().getTime() - opts.graceSeconds * 1000);
      const rows = await repository.published(retiredAfter);
      return { keys: rows.map((row) => row.publicJwk as JWK) };
    },

    rotate,

    async rotateAll() {
      const rotated = [];
      for (const platformId of await repository.platformIds())
        rotated.push({ platformId, ...(await rotate(platformId)) });
      return rotated;
    },
  };
}
