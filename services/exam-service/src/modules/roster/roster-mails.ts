import type { OutgoingMail } from '../../adapters/mail/mail-queue.service.ts';

type ExamInfo = { title: string; closesAt?: Date | string | null };
type Candidate = { name: string; candidateId: string };

const closing = (exam: ExamInfo) => {
  if (!exam.closesAt) return [];
  const at = new Date(exam.closesAt);
  return [`The exam closes at ${at.toISOString().replace('T', ' ').slice(0, 16)} UTC.`];
};

/** The mails the roster sends; plain text, so every mail client shows them alike. */
export function invitationMail(args: { exam: ExamInfo; entry: Candidate; link: string; to: string }): OutgoingMail {
  return {
    kind: 'invitation',
    to: args.to,
    subject: `Invitation: ${args.exam.title}`,
    text: [
      `Hello ${args.entry.name},`,
      '',
      `You are invited to sit the exam "${args.exam.title}".`,
      `Your candidate ID: ${args.entry.candidateId}`,
      '',
      'Open your personal link to start:',
      args.link,
      '',
      ...closing(args.exam),
      'The link is yours alone: it fills in your name and candidate ID. Do not share it.',
    ].join('\n'),
  };
}

export function reminderMail(args: { exam: ExamInfo; entry: Candidate; link: string; to: string }): OutgoingMail {
  return {
    kind: 'reminder',
    to: args.to,
    subject: `Reminder: ${args.exam.title} closes soon`,
    text: [
      `Hello ${args.entry.name},`,
      '',
      `You have not yet submitted the exam "${args.exam.title}".`,
      ...closing(args.exam),
      '',
      'Open the exam here:',
      args.link,
    ].join('\n'),
  };
}

export function releaseMail(args: { exam: ExamInfo; entry: Candidate; to: string; resultsLink: string }): OutgoingMail {
  return {
    kind: 'result-release',
    to: args.to,
    subject: `Your result is available: ${args.exam.title}`,
    text: [
      `Hello ${args.entry.name},`,
      '',
      `Your result for the exam "${args.exam.title}" has been released.`,
      'Open it on the device you took the exam on:',
      args.resultsLink,
    ].join('\n'),
  };
}
