import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';

// Argon2id at OWASP's floor (19 MiB, two passes): about 40 ms a hash on the target machines.
const ARGON2ID = 2 as Algorithm;
const OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown user, or one who signs in only through Google)
 * it still verifies against a throwaway hash, so the answer takes as long as for a real account and timing does
 * not tell which usernames exist.
 */
export async function passwordMatches(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password-0');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false; // a malformed stored hash is a failed login, not a crash
  }
}
