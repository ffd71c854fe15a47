import { AuthMessages } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { dictionary } from '@zxcvbn-ts/language-common';
import { StrengthTimeoutError, type PasswordStrength } from './password-strength.ts';

/**
 * About 49,000 passwords most often found in leaked password dumps, as packaged for zxcvbn-ts (its
 * "passwords-common" list, lower-case). NIST SP 800-63B-4 §3.1.1.2 asks verifiers to refuse passwords
 * found in such lists; the length rule is in @exam/domain/auth (NewPasswordSchema).
 */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common']);

/**
 * zxcvbn's score 3 is "safely unguessable: moderate protection from an offline slow-hash scenario" (fewer than
 * 10^10 guesses; Wheeler, "zxcvbn: Low-Budget Password Strength Estimation", USENIX Security 2016, and the
 * zxcvbn README). Passwords are stored with scrypt (password.ts), a slow hash, so 3 is the level that still holds
 * if the users table leaks; 2 only resists throttled online guessing, which the sign-in throttles already give.
 */
export const MIN_PASSWORD_SCORE = 3;

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/** The user's own words zxcvbn must treat as guessable: the e-mail, its local part and every piece of it. */
export function userInputsOf(email: string): string[] {
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  const pieces = [...local.split(/[^\p{L}\p{N}]+/u), ...domain.split('.')].filter((piece) => piece.length >= 3);
  return [...new Set([email.toLowerCase(), local, ...pieces, 'exam'])];
}

const refuse = (field: string, message: string) =>
  new AppError(ErrorCode.VALIDATION, message, [{ path: field, message }]);

/**
 * Refuses a common or guessable password with 400, naming the field it came in (`password`, `newPassword`) and
 * zxcvbn's reason. The list check is instant and keeps its own message; the full scoring runs in a worker.
 */
export async function assertPasswordAllowed(
  strength: PasswordStrength,
  password: string,
  email: string,
  field: string,
): Promise<void> {
  if (isCommonPassword(password)) throw refuse(field, AuthMessages.commonPassword);
  let verdict;
  try {
    verdict = await strength.check(password, userInputsOf(email));
  } catch (err) {
    if (err instanceof StrengthTimeoutError)
      throw refuse(field, `${AuthMessages.weakPassword} ${AuthMessages.strengthTimeout}`);
    throw err;
  }
  if (verdict.score >= MIN_PASSWORD_SCORE) return;
  const reason = [verdict.warning, ...verdict.suggestions].filter((part): part is string => !!part).join(' ');
  throw refuse(field, reason ? `${AuthMessages.weakPassword} ${reason}` : AuthMessages.weakPassword);
}
