import type { SharedRole } from '@exam/domain/roles';
import type { OutgoingMail } from '../../adapters/mail/mail-queue.service.ts';

const ROLE_WORDS: Record<SharedRole, string> = {
  editor: 'an editor (you can change, publish and run it, and grade its results)',
  grader: 'a grader (you can read candidates’ answers and mark them)',
  proctor: 'a proctor (you can watch it live and help candidates while it runs)',
  viewer: 'a viewer (you can read its insights)',
};

/**
 * The plain notice that an exam was shared: to an account, a link to the exams list where it now appears; to an
 * e-mail with no account yet, a link to make one with that address (the share waits for it).
 */
export function examSharedMail(opts: {
  to: string;
  examTitle: string;
  ownerEmail: string;
  role: SharedRole;
  hasAccount: boolean;
  creatorOrigin: string;
}): OutgoingMail {
  const origin = opts.creatorOrigin.replace(/\/$/, '');
  const next = opts.hasAccount
    ? `Open it from your exams: ${origin}/creator/dashboard`
    : `Create an account with this e-mail address to open it: ${origin}/creator/auth`;
  return {
    to: opts.to,
    kind: 'exam-shared',
    subject: `${opts.ownerEmail} shared “${opts.examTitle}” with you`,
    text: [
      `${opts.ownerEmail} shared the exam “${opts.examTitle}” with you as ${ROLE_WORDS[opts.role]}.`,
      '',
      next,
    ].join('\n'),
  };
}
