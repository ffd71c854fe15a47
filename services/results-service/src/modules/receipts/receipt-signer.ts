import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { ReceiptClaimsSchema, type ReceiptClaims, type ReceiptKeySet } from '@exam/domain/timeline';
import { calculateJwkThumbprint, decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import type { ReceiptKeyRow, ReceiptKeysRepository } from './receipt-keys.repository.ts';

/**
 * Signs and checks candidates' process receipts: compact JWS, EdDSA over Ed25519 (RFC 8037), `kid` the key's JWK
 * thumbprint (RFC 7638).
 *
 * Where the key lives: in results-service's own database (receipt_keys), not derived from configuration. Every
 * replica must sign with a key the others can verify, and the database is the one thing they already share; the
 * first replica that needs a key creates it (one generation wins, see the repository), so a deployment sets
 * nothing new. A key derived from a configured secret would either need a new secret that every deployment must
 * set and keep for ever (lose it and every receipt ever issued stops verifying), or hang off JWT_SECRET, whose
 * rotation after a leak would silently void all receipts. Rows outlive secret rotations, a rotation is one more
 * generation (old kids keep verifying and stay in the JWKS), and the public keys are published, so a receipt can be
 * checked offline without trusting the platform's later word. The cost: whoever can read the database can forge a
 * receipt; such a person can already rewrite the records a receipt is compared with, and a receipt checked
 * against the published JWKS still proves what the platform signed at the time.
 */
export type ReceiptSigner = {
  sign(claims: Omit<ReceiptClaims, 'iat'>, now: Date): Promise<string>;
  verify(receipt: string): Promise<ReceiptCheck>;
  keySet(): Promise<ReceiptKeySet>;
};

/** What a receipt's signature says: its claims, or why not. */
export type ReceiptCheck = { ok: true; claims: ReceiptClaims } | { ok: false; reason: 'signature' | 'malformed' };

type LoadedKey = { kid: string; publicKey: KeyObject; privateKey: KeyObject; publicJwk: Record<string, string> };

async function newKeyPair(): Promise<Pick<ReceiptKeyRow, 'kid' | 'publicJwk' | 'privateJwk'>> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicJwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  const privateJwk = privateKey.export({ format: 'jwk' }) as Record<string, string>;
  const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: publicJwk.x! });
  return { kid, publicJwk, privateJwk };
}

const load = (row: ReceiptKeyRow): LoadedKey => ({
  kid: row.kid,
  publicKey: createPublicKey({ key: row.publicJwk, format: 'jwk' }),
  privateKey: createPrivateKey({ key: row.privateJwk, format: 'jwk' }),
  publicJwk: row.publicJwk,
});

export function createReceiptSigner(repo: ReceiptKeysRepository): ReceiptSigner {
  // The keys as this replica last read them, newest first. Read again when a receipt names a kid not among them
  // (another replica rotated); a replica keeps signing with the key it read until it restarts, which verifies too.
  let cached: Promise<LoadedKey[]> | undefined;

  async function read(): Promise<LoadedKey[]> {
    let rows = await repo.list();
    if (rows.length === 0) {
      await repo.insertFirst(await newKeyPair());
      rows = await repo.list();
    }
    return rows.map(load);
  }
  function keys(): Promise<LoadedKey[]> {
    cached ??= read().catch((err) => {
      cached = undefined;
      throw err;
    });
    return cached;
  }
  async function findKey(kid: string): Promise<LoadedKey | undefined> {
    const known = (await keys()).find((k) => k.kid === kid);
    if (known) return known;
    cached = undefined;
    return (await keys()).find((k) => k.kid === kid);
  }

  return {
    async sign(claims, now) {
      const [key] = await keys();
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'EdDSA', kid: key!.kid, typ: 'JWT' })
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .sign(key!.privateKey);
    },

    async verify(receipt) {
      let header;
      try {
        header = decodeProtectedHeader(receipt);
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      // Not one of our keys, or not our algorithm: whatever signed it, it was not this platform.
      if (header.alg !== 'EdDSA' || typeof header.kid !== 'string') return { ok: false, reason: 'signature' };
      const key = await findKey(header.kid);
      if (!key) return { ok: false, reason: 'signature' };
      let payload;
      try {
        ({ payload } = await jwtVerify(receipt, key.publicKey, { algorithms: ['EdDSA'] }));
      } catch (err) {
        return { ok: false, reason: err instanceof errors.JWSSignatureVerificationFailed ? 'signature' : 'malformed' };
      }
      const claims = ReceiptClaimsSchema.safeParse(payload);
      return claims.success ? { ok: true, claims: claims.data } : { ok: false, reason: 'malformed' };
    },

    async keySet() {
      return {
        keys: (await keys()).map((k) => ({
          kty: 'OKP' as const,
          crv: 'Ed25519' as const,
          x: k.publicJwk.x!,
          kid: k.kid,
          alg: 'EdDSA' as const,
          use: 'sig' as const,
        })),
      };
    },
  };
}
