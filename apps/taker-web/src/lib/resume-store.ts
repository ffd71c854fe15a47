import { normaliseCandidateText } from '@exam/domain/candidate-text';

/**
 * What lets this browser resume an attempt without the code (the resume secret) and what the candidate
 * needs on another device (the resume code), kept in localStorage per exam and candidate ID so they
 * outlive the attempt's IndexedDB record, a reload and a closed tab.
 */
export type ResumeEntry = {
  attemptId: string;
  secret?: string | undefined;
  code?: string | undefined;
  /** No attempt is left after this one (the briefing said so at Start): once submitted, its code opens nothing. */
  lastAttempt?: boolean | undefined;
};

const PREFIX = 'exam-taker:resume:';
/** Invisibles removed and case folded; the server also folds look-alikes, whose table this bundle does without. */
const keyOf = (examId: string, studentId: string) =>
  `${PREFIX}${examId}:${normaliseCandidateText(studentId).toLowerCase()}`;

function parse(raw: string | null): ResumeEntry | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<ResumeEntry>;
    return typeof value.attemptId === 'string' ? (value as ResumeEntry) : undefined;
  } catch {
    return undefined;
  }
}

/** Storage can be refused (private modes, quota): resuming then needs the code, which is shown anyway. */
function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function findResume(examId: string, studentId: string): ResumeEntry | undefined {
  return parse(storage()?.getItem(keyOf(examId, studentId)) ?? null);
}

/** Keeps what the server issued; a field it did not send again keeps its earlier value for the same attempt. */
export function saveResume(examId: string, studentId: string, entry: ResumeEntry): void {
  const store = storage();
  if (!store) return;
  const earlier = findResume(examId, studentId);
  const same = earlier?.attemptId === entry.attemptId ? earlier : undefined;
  const next: ResumeEntry = {
    attemptId: entry.attemptId,
    secret: entry.secret ?? same?.secret,
    code: entry.code ?? same?.code,
    lastAttempt: entry.lastAttempt ?? same?.lastAttempt,
  };
  try {
    store.setItem(keyOf(examId, studentId), JSON.stringify(next));
  } catch (error) {
    console.warn('The resume secret could not be kept on this device', error);
  }
}

/** The kept entry of an attempt, for the exam menu and the completion page (which know the attempt id). */
function findByAttempt(attemptId: string): ResumeEntry | undefined {
  const store = storage();
  if (!store) return undefined;
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    const entry = parse(store.getItem(key));
    if (entry?.attemptId === attemptId && entry.code) return entry;
  }
  return undefined;
}

/** The resume code of an attempt, while it is open (the exam menu). */
export function findResumeCode(attemptId: string): string | undefined {
  return findByAttempt(attemptId)?.code;
}

/**
 * The code after the attempt was submitted (the completion page): it begins the next attempt on another device,
 * so none when no attempt is left.
 */
export function findNextAttemptCode(attemptId: string): string | undefined {
  const entry = findByAttempt(attemptId);
  return entry?.lastAttempt ? undefined : entry?.code;
}
