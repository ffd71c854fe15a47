import { WORKSPACE_TYPE_LABELS } from '@exam/domain/exam';
import { candidateKey } from '@exam/domain/candidate-key';
import type { RosterAdmission } from '@exam/domain/roster';
import type { OutgoingMail } from '../../adapters/mail/mail-queue.service.ts';
import type { ExamRow } from '../exams/exams.repository.ts';

/** What a mail says about an exam: everything a candidate must know before they open it. */
export type MailExam = Pick<
  ExamRow,
  | 'id'
  | 'title'
  | 'timerEnabled'
  | 'timerMinutes'
  | 'fullScreenEnabled'
  | 'opensAt'
  | 'closesAt'
  | 'attemptsAllowed'
  | 'practice'
  | 'access'
  | 'rosterAdmission'
  | 'codingWorkspace'
  | 'aiSettings'
  | 'sections'
>;
type Candidate = { name: string; candidateId: string; candidateKey?: string };

/** Which exam and candidate a mail is about, so the candidate's data can be found and erased (modules/privacy). */
const about = (exam: Pick<MailExam, 'id'>, entry: Candidate) => ({
  examId: exam.id,
  candidateKey: entry.candidateKey ?? candidateKey(entry.candidateId),
});

/**
 * Instants are written in UTC and say so: the queue does not know each candidate's zone, and a bare "09:00"
 * would be read in whatever zone the reader is in. ISO 8601 order (RFC 3339 §5.6) with the weekday, so it
 * reads the same in every locale.
 */
export function mailInstant(at: Date | string): string {
  const d = new Date(at);
  const weekday = new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' }).format(d);
  return `${weekday} ${d.toISOString().slice(0, 10)} at ${d.toISOString().slice(11, 16)} UTC`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One line per fact: the duration, the window, and the rules the candidate meets once they start. */
export function examFacts(exam: MailExam): { label: string; value: string }[] {
  const facts: { label: string; value: string }[] = [];
  const sectionLimits = exam.sections.some((s) => s.timeLimitMinutes != null);
  facts.push({
    label: 'Duration',
    value: exam.timerEnabled
      ? `${plural(exam.timerMinutes, 'minute', 'minutes')}, counted from when you press Start Exam` +
        (sectionLimits ? '; some sections have a time limit of their own' : '') +
        '. Extra time you were granted is added when you start.'
      : sectionLimits
        ? 'No overall time limit; some sections have a time limit of their own.'
        : 'No time limit.',
  });
  if (exam.opensAt) facts.push({ label: 'Opens', value: mailInstant(exam.opensAt) });
  facts.push({
    label: 'Closes',
    value: exam.closesAt
      ? `${mailInstant(exam.closesAt)}; an attempt still open then is submitted as it stands`
      : 'No closing time.',
  });
  facts.push({
    label: 'Attempts',
    value: exam.practice
      ? 'This is a practice exam: it is not counted, you may start it as often as you like, and your answers are checked as you go.'
      : exam.attemptsAllowed === 1
        ? 'You have one attempt.'
        : `You have ${exam.attemptsAllowed} attempts.`,
  });
  facts.push({
    label: 'Full screen',
    value: exam.fullScreenEnabled
      ? 'Required: the exam runs in full screen, and leaving it is recorded and pauses the exam until you return.'
      : 'Not required.',
  });
  const assistantSections = exam.sections.filter((s) => s.assistant).length;
  facts.push({
    label: 'AI assistant',
    value: !exam.aiSettings.enabled
      ? 'Not available.'
      : exam.sections.length > 0 && assistantSections === 0
        ? 'Not available.'
        : exam.sections.length > 0 && assistantSections < exam.sections.length
          ? 'Available in some sections only; your conversation with it is part of your attempt.'
          : 'Available during the exam; your conversation with it is part of your attempt.',
  });
  if (exam.codingWorkspace.enabled) {
    facts.push({
      label: 'Workspace',
      value: `Coding questions open a ${WORKSPACE_TYPE_LABELS[exam.codingWorkspace.workspaceType]} workspace in your browser; nothing to install.`,
    });
  }
  return facts;
}

/**
 * How the mail's link lets the candidate in (docs/product.md#rosters-and-invitations). The personal link proves
 * the invitation, so an access-code exam admits it without the code (only the code's hash is stored: the mail could
 * not carry it), and a link-only roster admits nothing else. `admission` is the mode in force when the mail is read.
 */
function wayIn(exam: MailExam, admission: RosterAdmission): string {
  if (exam.access === 'code') return 'Your personal link lets you in without the exam’s access code.';
  if (exam.access === 'roster' && admission === 'invitation-link')
    return 'Only this link lets you in: typing your candidate ID on the exam page is not enough.';
  return 'The link fills in your name and candidate ID for you.';
}

/** Plain text into HTML text: the five characters HTML gives meaning to, escaped (OWASP XSS cheat sheet, rule 1). */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A paragraph of the creator's plain text: escaped, its line breaks kept. */
const htmlParagraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px">${escapeHtml(p).replaceAll('\n', '<br>')}</p>`)
    .join('');

type Part =
  | { kind: 'p'; text: string }
  | { kind: 'message'; text: string }
  | { kind: 'facts'; facts: { label: string; value: string }[] }
  | { kind: 'link'; intro: string; href: string; note: string };

/** One mail as a list of parts, written once as plain text and once as simple HTML readable without images. */
function render(parts: Part[], title: string): { text: string; html: string } {
  const text = parts
    .map((part) => {
      switch (part.kind) {
        case 'p':
          return part.text;
        case 'message':
          return `Message from the examiner:\n${part.text
            .split('\n')
            .map((l) => `  ${l}`)
            .join('\n')}`;
        case 'facts':
          return part.facts.map((f) => `${f.label}: ${f.value}`).join('\n');
        case 'link':
          return [part.intro, part.href, part.note].filter(Boolean).join('\n');
      }
    })
    .join('\n\n');
  const body = parts
    .map((part) => {
      switch (part.kind) {
        case 'p':
          return `<p style="margin:0 0 12px">${escapeHtml(part.text)}</p>`;
        case 'message':
          return (
            '<div style="margin:0 0 16px;padding:12px;border-left:4px solid #4f46e5;background:#f5f5ff">' +
            '<p style="margin:0 0 8px;font-weight:bold">Message from the examiner</p>' +
            `${htmlParagraphs(part.text)}</div>`
          );
        case 'facts':
          return (
            '<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">' +
            part.facts
              .map(
                (f) =>
                  `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:4px 12px 4px 0">${escapeHtml(f.label)}</th>` +
                  `<td style="padding:4px 0">${escapeHtml(f.value)}</td></tr>`,
              )
              .join('') +
            '</table>'
          );
        case 'link':
          return (
            `<p style="margin:0 0 8px">${escapeHtml(part.intro)}</p>` +
            `<p style="margin:0 0 8px"><a href="${escapeHtml(part.href)}" style="font-weight:bold">${escapeHtml(part.href)}</a></p>` +
            (part.note ? `<p style="margin:0 0 12px">${escapeHtml(part.note)}</p>` : '')
          );
      }
    })
    .join('\n');
  const html =
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<title>${escapeHtml(title)}</title></head>\n` +
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111;max-width:640px">\n' +
    `${body}\n</body></html>\n`;
  return { text, html };
}

/**
 * The invitation (docs/product.md#rosters-and-invitations): the exam, the creator's message as plain text, the
 * duration, window and rules, and the personal link with what it lets the candidate do. Multipart: plain text and
 * the same content as HTML, every creator- or candidate-supplied value escaped.
 */
export function invitationMail(args: {
  exam: MailExam;
  entry: Candidate;
  link: string;
  to: string;
  message?: string | undefined;
  admission: RosterAdmission;
}): OutgoingMail {
  const { exam, entry } = args;
  const subject = `Invitation: ${exam.title}`;
  const parts: Part[] = [
    { kind: 'p', text: `Hello ${entry.name},` },
    { kind: 'p', text: `You are invited to sit the exam "${exam.title}". Your candidate ID: ${entry.candidateId}` },
  ];
  if (args.message) parts.push({ kind: 'message', text: args.message });
  parts.push(
    { kind: 'facts', facts: examFacts(exam) },
    {
      kind: 'link',
      intro: 'Open your personal link to start:',
      href: args.link,
      note: `${wayIn(exam, args.admission)} The link is yours alone: do not share it. You read the rules again before the clock starts.`,
    },
  );
  return { kind: 'invitation', to: args.to, subject, ...render(parts, subject), ...about(exam, entry) };
}

/**
 * The reminder before close. Only the digest of an invitation token is stored, so a reminder cannot repeat the
 * personal link: an invited candidate is sent back to their invitation, and the exam's own link is given only
 * where it lets them in with what this mail tells them (remindable() says who that is).
 */
export function reminderMail(args: {
  exam: MailExam;
  entry: Candidate & { invitedAt: Date | null };
  examLink: string;
  to: string;
  admission: RosterAdmission;
}): OutgoingMail {
  const { exam, entry } = args;
  const subject = `Reminder: ${exam.title} closes soon`;
  const parts: Part[] = [
    { kind: 'p', text: `Hello ${entry.name},` },
    {
      kind: 'p',
      text: `You have not yet submitted the exam "${exam.title}". Your candidate ID: ${entry.candidateId}`,
    },
    { kind: 'facts', facts: examFacts(exam) },
  ];
  if (entry.invitedAt) {
    parts.push({
      kind: 'p',
      text: `Open the personal link in your invitation e-mail of ${mailInstant(entry.invitedAt)} (subject "Invitation: ${exam.title}"). ${wayIn(exam, args.admission)}`,
    });
  }
  if (linkAdmitsWithoutInvitation(exam, args.admission)) {
    parts.push({
      kind: 'link',
      intro: entry.invitedAt ? 'Or open the exam here and give your name and candidate ID:' : 'Open the exam here:',
      href: args.examLink,
      note: 'Give your name and the candidate ID above.',
    });
  }
  return { kind: 'reminder', to: args.to, subject, ...render(parts, subject), ...about(exam, entry) };
}

/** Whether the exam's own link admits someone who has only their name and candidate ID (no code, no invitation). */
export function linkAdmitsWithoutInvitation(exam: Pick<MailExam, 'access'>, admission: RosterAdmission): boolean {
  return exam.access === 'link' || (exam.access === 'roster' && admission === 'candidate-id');
}

export function releaseMail(args: {
  exam: Pick<MailExam, 'id' | 'title'>;
  entry: Candidate;
  to: string;
  resultsLink: string;
}): OutgoingMail {
  const subject = `Your result is available: ${args.exam.title}`;
  const parts: Part[] = [
    { kind: 'p', text: `Hello ${args.entry.name},` },
    { kind: 'p', text: `Your result for the exam "${args.exam.title}" has been released.` },
    { kind: 'link', intro: 'Open it on the device you took the exam on:', href: args.resultsLink, note: '' },
  ];
  return { kind: 'result-release', to: args.to, subject, ...render(parts, subject), ...about(args.exam, args.entry) };
}
