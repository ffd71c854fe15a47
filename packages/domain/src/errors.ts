import { z } from 'zod';

/** The one error vocabulary shared by every service and both apps. */
export const ErrorCode = {
  VALIDATION: 'VALIDATION',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  EXAM_OFFLINE: 'EXAM_OFFLINE',
  ATTEMPT_CLOSED: 'ATTEMPT_CLOSED',
  /** An answer write to a section the candidate left and may no longer change (sections.ts). */
  SECTION_LOCKED: 'SECTION_LOCKED',
  /** An answer write to a section the candidate has not reached yet (sections.ts). */
  SECTION_NOT_REACHED: 'SECTION_NOT_REACHED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  UPSTREAM: 'UPSTREAM',
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const statusOfErrorCode: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  EXAM_OFFLINE: 403,
  ATTEMPT_CLOSED: 409,
  SECTION_LOCKED: 409,
  SECTION_NOT_REACHED: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  UPSTREAM: 502,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export const IssueSchema = z.object({ path: z.string(), message: z.string() });
export type Issue = z.infer<typeof IssueSchema>;

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.array(IssueSchema).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues: Issue[] | undefined;

  constructor(code: ErrorCode, message: string, issues?: Issue[]) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.issues = issues;
  }

  get statusCode(): number {
    return statusOfErrorCode[this.code];
  }
}

export const notFound = (what: string) => new AppError(ErrorCode.NOT_FOUND, `${what} not found`);
