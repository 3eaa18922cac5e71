// How a secret (a password, a payment password, an operator's password) is kept: its argon2id hash
// only. Below the domain and the database's seeds alike: the demo account's passwords are hashed so too.
import { hash, verify } from '@node-rs/argon2';

// Algorithm 2 = argon2id; OWASP's minimum of 19 MiB, 2 passes.
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * The argon2id calls the app makes, reached through this object so that a test can hold a verification at a gate and
 * look at what the server holds meanwhile (tests/server/password-hashing.test.ts); the app never replaces them.
 */
export const argon2id = { hash, verify };

export const hashSecret = (secret: string) => argon2id.hash(secret, ARGON2);

/** Checks a secret against a stored hash; with no hash it still spends the time (no user probing). */
let decoy: Promise<string> | null = null;
export async function verifySecret(storedHash: string | null | undefined, secret: string): Promise<boolean> {
  if (!storedHash) {
    decoy ??= hashSecret('decoy-password');
    await argon2id.verify(await decoy, secret).catch(() => false);
    return false;
  }
  return argon2id.verify(storedHash, secret).catch(() => false);
}
