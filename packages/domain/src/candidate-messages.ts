/**
 * The English texts the services answer with that a candidate's page recognises and translates
 * (taker-web's i18n/server-messages.ts), and the upload limit it states. Free of zod, so a page that only
 * translates a refusal carries no schema; each topic's module re-exports its own (attempt.ts, cohort.ts, …).
 */

/** Largest answer file results-service takes unless UPLOAD_MAX_BYTES says otherwise. */
export const DEFAULT_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** '10 MB', '512 KB': how a size limit is shown to a candidate. */
export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Math.round(mb * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Said by the server (413) and by the page before it queues anything, so both read the same. */
export function fileTooLargeMessage(maxBytes: number): string {
  return `The file is too large. The maximum size is ${formatBytes(maxBytes)}.`;
}

export const AttemptMessages = {
  submitted: 'This exam has already been submitted. Changes are no longer accepted.',
  expired: 'Time is up for this exam. Changes are no longer accepted.',
  offline: 'This exam is currently offline. Please contact your test provider.',
  notFound: 'Exam not found. Please check the URL or contact your test provider.',
} as const;

export const ResumeMessages = {
  required:
    'This candidate ID already has an attempt on another device. Enter the resume code shown in that exam’s menu, or the unlock code your examiner gives you.',
  wrong: 'That code is not correct. Check it and try again, or ask your examiner for an unlock code.',
  tooMany: (seconds: number) =>
    `Too many wrong codes from your network. Try again in ${seconds} seconds, or ask your examiner for an unlock code.`,
  startsPerClient: (seconds: number) =>
    `Too many exams were started from your network just now. Please wait ${seconds} seconds and try again.`,
  startsPerExam: (seconds: number) =>
    `Too many candidates are starting this exam at once. Please wait ${seconds} seconds and try again.`,
} as const;

/** What a candidate is told when the window refuses them (409 from POST /api/attempts, and on the start page). */
export const WindowMessages = {
  notYetOpen: (opensAt: string) => `This exam opens at ${opensAt}.`,
  closed: 'This exam has closed.',
  noAttemptsLeft: 'You have used every attempt this exam allows.',
} as const;

export const PracticeMessages = {
  notPractice: 'Answers can be checked only in a practice exam.',
  reviewClosed: 'The review of this exam is closed.',
  reviewNotOpen: 'The review opens once your result is released.',
  noReview: 'This exam has no review.',
  checkedTooOften: 'You are checking answers too often. Wait a few seconds and try again.',
} as const;

/** What the preview page and GET /api/public/exams/{id}/preview say when the preview is refused. */
export const PreviewMessages = {
  missing: 'This preview link is not valid. Open the preview from your dashboard.',
  invalid: 'This preview link is not valid or has expired. Open the preview again from your dashboard.',
  otherExam: 'This preview token is for another exam.',
} as const;

/** A candidate's page says this when the examiner ended the attempt. */
export const EndedByExaminerMessage = 'The examiner ended your exam. Your saved answers were submitted.';

export const RosterMessages = {
  nameRequired: 'Name is required',
  candidateIdRequired: 'Candidate ID is required',
  badEmail: 'Enter a valid e-mail address',
  duplicate: 'This candidate ID is already on the roster',
  csvHeader: 'The first line must name the columns: name, candidate id, email (in any order)',
  csvEmpty: 'The CSV has no candidate rows',
  notOnRoster:
    'Only candidates on this exam’s roster may start it. Use the link in your invitation, or ask the examiner.',
  wrongCode: 'The access code is not right',
  codeRequired: 'This exam needs an access code',
  tooManyCodes: (seconds: number) => `Too many wrong access codes. Try again in ${seconds} seconds.`,
  inviteInvalid: 'This invitation link is not valid for this exam',
  inviteRequired:
    'This exam can only be started from your personal invitation link. Open the link in your invitation e-mail, or ask the examiner.',
  noEmail: 'These candidates have no e-mail address',
} as const;

export const SectionMessages = {
  assistantOff: 'The assistant is off for this section.',
  locked: 'This section is locked: you moved on to a section where the assistant is available.',
  lockedByTime: 'This section is locked: its time is over.',
  notReached: 'This section has not started yet.',
  advanceConfirm: 'Move on to the next section? Sections before one with the assistant are locked once you leave them.',
  timeUp: 'Time for this section is up. The next section has started.',
  staleSection: 'You have already moved on from this section.',
  unknownSection: 'No section of this exam has that id',
  poolAcrossSections: "A pool's questions must all be in the same section",
  duplicateSection: 'Two sections have the same id',
} as const;
