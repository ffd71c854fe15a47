import { StartAttemptSchema, type StartAttempt } from '@exam/domain/attempt';
import { z } from 'zod';

/** What the candidate types; the exam's own part (id, access, invitation, grant) comes from the context. */
export const CredentialsValuesSchema = z.object({
  name: z.string(),
  studentId: z.string(),
  accessCode: z.string(),
  resumeCode: z.string(),
});
export type CredentialsValues = z.infer<typeof CredentialsValuesSchema>;

/** The form's own messages, catalogue keys of the credentials namespace; any other message is a service's. */
export const formMessageKeys = [
  'errors.nameRequired',
  'errors.candidateIdRequired',
  'errors.resumeCodeRequired',
] as const;
export type FormMessageKey = (typeof formMessageKeys)[number];
export const isFormMessageKey = (message: string): message is FormMessageKey =>
  (formMessageKeys as readonly string[]).includes(message);

/** The exam's part of a start, and whether the service asked for this candidate's resume code. */
export type CredentialsContext = {
  examId: string;
  /** Sent as typed on an exam whose access is `code`. */
  asksAccessCode: boolean;
  inviteToken: string | undefined;
  ltiGrant: string | undefined;
  codeAsked: boolean;
};

/**
 * The form's values checked with the same domain schema the service uses for a start (StartAttemptSchema): a
 * missing name or candidate ID is that field's message; any other refusal is said on the access code. Once the
 * service has asked for the resume code, it must be typed. The output is the start's body and the typed code.
 */
export function credentialsSchema(context: CredentialsContext) {
  return CredentialsValuesSchema.transform((values, ctx) => {
    const typedCode = context.codeAsked && values.resumeCode.trim() ? values.resumeCode : undefined;
    const parsed = StartAttemptSchema.safeParse({
      examId: context.examId,
      name: values.name,
      studentId: values.studentId,
      resumeCode: typedCode,
      ...(context.asksAccessCode && { accessCode: values.accessCode }),
      ...(context.inviteToken !== undefined && { inviteToken: context.inviteToken }),
      ...(context.ltiGrant !== undefined && { ltiGrant: context.ltiGrant }),
    });
    if (!parsed.success) {
      const fields = new Set(parsed.error.issues.map((issue) => issue.path[0]));
      if (fields.has('name')) ctx.addIssue({ code: 'custom', path: ['name'], message: 'errors.nameRequired' });
      if (fields.has('studentId')) {
        ctx.addIssue({ code: 'custom', path: ['studentId'], message: 'errors.candidateIdRequired' });
      }
      if (!fields.has('name') && !fields.has('studentId')) {
        ctx.addIssue({ code: 'custom', path: ['accessCode'], message: parsed.error.issues[0]?.message ?? '' });
      }
      return z.NEVER;
    }
    if (context.codeAsked && !typedCode) {
      ctx.addIssue({ code: 'custom', path: ['resumeCode'], message: 'errors.resumeCodeRequired' });
      return z.NEVER;
    }
    return { request: parsed.data satisfies StartAttempt, typedCode };
  });
}
