import { AuthMessages } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * About 49,000 passwords most often found in leaked password dumps, as packaged for zxcvbn-ts (its
 * "passwords-common" list, lower-case). NIST SP 800-63B-4 §3.1.1.2 asks verifiers to refuse passwords
 * found in such lists; the length rule is in @exam/domain/auth (NewPasswordSchema).
 */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common']);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/** Refuses a common password with 400, naming the field it came in (`password`, `newPassword`). */
export function assertPasswordAllowed(password: string, field: string): void {
  if (isCommonPassword(password)) {
    throw new AppError(ErrorCode.VALIDATION, AuthMessages.commonPassword, [
      { path: field, message: AuthMessages.commonPassword },
    ]);
  }
}
