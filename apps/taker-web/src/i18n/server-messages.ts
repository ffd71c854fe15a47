import {
  AttemptMessages,
  DEFAULT_UPLOAD_MAX_BYTES,
  EndedByExaminerMessage,
  fileTooLargeMessage,
  formatBytes,
  PracticeMessages,
  PreviewMessages,
  ResumeMessages,
  RosterMessages,
  SectionMessages,
  WindowMessages,
} from '@exam/domain/candidate-messages';
import { formatDateTimeWithZone } from './format.ts';
import { i18n } from './index.ts';

/**
 * The services answer in English with the texts packages/domain fixes (ARCHITECTURE.md, "Text and languages").
 * The page shows the catalogue's text for each of them, in the candidate's language; a text it does not know
 * (a message added to a service later) is shown as the server wrote it.
 */

type Match = Record<string, string | number>;
type Rule = { match: (text: string) => Match | null; say: (values: Match) => string };

const exact =
  (english: string) =>
  (text: string): Match | null =>
    text === english ? {} : null;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A message with one value in it, recognised from the domain's own builder: it is called with a marker
 * and the marker becomes the capture, so the pattern follows any rewording of the English text.
 */
function withValue<T extends string | number>(build: (value: T) => string, marker: T, capture: string) {
  const [before = '', after = ''] = build(marker).split(String(marker));
  const pattern = new RegExp(`^${escape(before)}(${capture})${escape(after)}$`);
  return (text: string): Match | null => {
    const found = pattern.exec(text)?.[1];
    if (found === undefined) return null;
    return { value: typeof marker === 'number' ? Number(found) : found };
  };
}
const withSeconds = (build: (seconds: number) => string) => withValue(build, 987_654_321, '\\d+');
const count = (values: Match) => Number(values.value);

// results-service's result refusals (services are not imported by apps; these are its CandidateResultMessages).
const ResultRefusals = {
  never: 'Results are not released for this exam',
  notReleased: 'Your result has not been released yet',
  pending: 'Your result is awaiting grading',
  notSubmitted: 'This attempt has not been submitted yet',
} as const;

const t = i18n.t.bind(i18n);

const RULES: Rule[] = [
  { match: exact(WindowMessages.closed), say: () => t('common:server.windowClosed') },
  { match: exact(WindowMessages.noAttemptsLeft), say: () => t('common:server.noAttemptsLeft') },
  {
    match: withValue(WindowMessages.notYetOpen, '@@OPENS_AT@@', '\\S+'),
    say: ({ value }) => t('start:window.opensOn', { when: formatDateTimeWithZone(String(value)) }),
  },
  { match: exact(ResumeMessages.required), say: () => t('common:server.resumeRequired') },
  { match: exact(ResumeMessages.wrong), say: () => t('common:server.resumeWrong') },
  {
    match: withSeconds(ResumeMessages.tooMany),
    say: (values) => t('common:server.resumeTooMany', { count: count(values) }),
  },
  {
    match: withSeconds(ResumeMessages.startsPerClient),
    say: (values) => t('common:server.startsPerClient', { count: count(values) }),
  },
  {
    match: withSeconds(ResumeMessages.startsPerExam),
    say: (values) => t('common:server.startsPerExam', { count: count(values) }),
  },
  { match: exact(RosterMessages.notOnRoster), say: () => t('common:server.notOnRoster') },
  { match: exact(RosterMessages.wrongCode), say: () => t('common:server.wrongAccessCode') },
  { match: exact(RosterMessages.codeRequired), say: () => t('common:server.accessCodeRequired') },
  { match: exact(RosterMessages.inviteInvalid), say: () => t('common:server.inviteInvalid') },
  { match: exact(RosterMessages.inviteRequired), say: () => t('common:server.inviteRequired') },
  { match: exact(RosterMessages.nameRequired), say: () => t('credentials:errors.nameRequired') },
  { match: exact(RosterMessages.candidateIdRequired), say: () => t('credentials:errors.candidateIdRequired') },
  { match: exact(AttemptMessages.submitted), say: () => t('common:server.attemptSubmitted') },
  { match: exact(AttemptMessages.expired), say: () => t('common:server.attemptExpired') },
  { match: exact(AttemptMessages.offline), say: () => t('start:errors.offline') },
  { match: exact(AttemptMessages.notFound), say: () => t('start:errors.notFound') },
  { match: exact(PreviewMessages.missing), say: () => t('common:server.previewMissing') },
  { match: exact(PreviewMessages.invalid), say: () => t('common:server.previewInvalid') },
  { match: exact(PreviewMessages.otherExam), say: () => t('common:server.previewOtherExam') },
  { match: exact(EndedByExaminerMessage), say: () => t('common:server.endedByExaminer') },
  { match: exact(SectionMessages.locked), say: () => t('common:server.sectionLocked') },
  { match: exact(SectionMessages.lockedByTime), say: () => t('common:server.sectionLockedByTime') },
  { match: exact(SectionMessages.notReached), say: () => t('common:server.sectionNotReached') },
  { match: exact(SectionMessages.assistantOff), say: () => t('common:server.assistantOff') },
  { match: exact(SectionMessages.staleSection), say: () => t('common:server.staleSection') },
  { match: exact(ResultRefusals.never), say: () => t('results:refusals.never') },
  { match: exact(ResultRefusals.notReleased), say: () => t('results:refusals.notReleased') },
  { match: exact(ResultRefusals.pending), say: () => t('results:refusals.pending') },
  { match: exact(ResultRefusals.notSubmitted), say: () => t('results:refusals.notSubmitted') },
  { match: exact(PracticeMessages.notPractice), say: () => t('common:server.notPractice') },
  { match: exact(PracticeMessages.checkedTooOften), say: () => t('common:server.checkedTooOften') },
  { match: exact(PracticeMessages.reviewClosed), say: () => t('results:review.closed') },
  { match: exact(PracticeMessages.reviewNotOpen), say: () => t('results:review.notOpen') },
  { match: exact(PracticeMessages.noReview), say: () => t('results:review.none') },
  {
    // The limit is a size already written out ('10 MB'); its wording comes from one real message.
    match: withValue(
      (size: string) =>
        fileTooLargeMessage(DEFAULT_UPLOAD_MAX_BYTES).replace(formatBytes(DEFAULT_UPLOAD_MAX_BYTES), size),
      '@@SIZE@@',
      '.+',
    ),
    say: ({ value }) => t('common:server.fileTooLarge', { size: String(value) }),
  },
];

/** The candidate's-language text of a message a service sent, or the message itself when it is not a known one. */
export function translateServerMessage(text: string): string {
  for (const rule of RULES) {
    const values = rule.match(text);
    if (values) return rule.say(values);
  }
  return text;
}
