import type { AnswerOperation, SourceShares } from './answer-operations.ts';
import type { CollaborationDimension } from './collaboration.ts';
import type { Timeline } from './timeline.ts';

/**
 * The process figures of the collaboration profile (collaboration.ts, docs/product.md#collaboration-profile),
 * computed from one attempt's timeline and nothing else, so a test reproduces each from a scripted timeline. Pure.
 *
 * Questions are numbered as the candidate saw them (the timeline's numbering). A message's question is the one the
 * timeline's assistant event names (the question open when it was sent); a message without one counts towards the
 * per-message figures but towards no per-question one.
 */

/** A question as the figures read it: its number in the candidate's list and its text. */
export type CollaborationQuestion = { index: number; title: string; content: string };

export type Figures = Record<string, number | null>;

/**
 * How long after an assistant reply a test run or a typed edit of the same question counts as following it up.
 * Five minutes: long enough to read a reply, carry it over and run the tests; short enough that the candidate is
 * still working on that reply rather than the next thing. Named in docs/product.md#collaboration-profile.
 */
export const VERIFICATION_WINDOW_MS = 5 * 60_000;

/**
 * A message "pastes the question" when at least this share of the question's word 5-grams (shingles, Broder 1997,
 * "On the resemblance and containment of documents") occur in it: most of the question's wording came along, in its
 * order, whatever the candidate added around it. A question of fewer than five words is one shingle of all its words.
 */
export const QUESTION_PASTE_SHARE = 0.5;
const SHINGLE_WORDS = 5;

/**
 * Words a message that pushes back on the assistant's reply uses: a plain, visible rule (English), shown to the
 * grader as evidence, never a verdict. The judged level is the grader's.
 */
export const PUSHBACK_MARKERS = [
  'wrong',
  'incorrect',
  'not right',
  'not correct',
  'mistake',
  'are you sure',
  "doesn't work",
  'does not work',
  "didn't work",
  'did not work',
  "that's not",
  'that is not',
  "isn't right",
  'fails',
  'failed',
  'error',
  'bug',
  'contradict',
  "i don't think",
  'i do not think',
] as const;

/** A question mark in any of the usual scripts: '?', full-width '？', Arabic '؟', Spanish '¿'. */
const QUESTION_MARK = /[?？؟¿]/u;

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function shingles(words: readonly string[], size: number): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + size <= words.length; i++) out.add(words.slice(i, i + size).join(' '));
  return out;
}

/** Whether `message` carries at least QUESTION_PASTE_SHARE of `question`'s word 5-grams (the text, else the title). */
export function pastesQuestion(message: string, question: Pick<CollaborationQuestion, 'title' | 'content'>): boolean {
  const questionWords = wordsOf(question.content.trim() ? question.content : question.title);
  if (questionWords.length === 0) return false;
  const size = Math.min(SHINGLE_WORDS, questionWords.length);
  const wanted = shingles(questionWords, size);
  const present = shingles(wordsOf(message), size);
  let found = 0;
  for (const s of wanted) if (present.has(s)) found++;
  return found / wanted.size >= QUESTION_PASTE_SHARE;
}

export const asksQuestion = (message: string): boolean => QUESTION_MARK.test(message);

export function pushesBack(message: string): boolean {
  const text = message.toLowerCase().replace(/’/g, "'");
  return PUSHBACK_MARKERS.some((marker) => new RegExp(`(^|[^\\p{L}])${marker}`, 'u').test(text));
}

const share = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/** The transcript's turns in time order, each with the question its timeline event names (null: none). */
type Turn = {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  atMs: number;
  questionIndex: number | null;
  reply: boolean;
};

function turnsOf(timeline: Pick<Timeline, 'messages' | 'events'>): Turn[] {
  const byMessage = new Map<string, { questionIndex: number | null; reply: boolean }>();
  for (const e of timeline.events) {
    if (!e.messageId) continue;
    byMessage.set(e.messageId, { questionIndex: e.questionIndex ?? null, reply: e.kind === 'assistant-reply' });
  }
  return timeline.messages
    .map((m) => ({
      id: m.id,
      role: m.role,
      content: m.content,
      atMs: Date.parse(m.at),
      questionIndex: byMessage.get(m.id)?.questionIndex ?? null,
      // A reply the guardrail stopped or that failed gave the candidate nothing to check.
      reply: m.role === 'assistant' && (byMessage.get(m.id)?.reply ?? false),
    }))
    .sort((a, b) => a.atMs - b.atMs);
}

/**
 * Framing evidence, over the messages the candidate sent:
 *   messagesSent        how many
 *   questionPasteShare  the share that paste most of a question's text (pastesQuestion)
 *   askingShare         the share that ask something (contain a question mark)
 *   meanWords           their mean length in words
 * Shares and the mean are null without a message.
 */
export function framingFigures(
  timeline: Pick<Timeline, 'messages' | 'events'>,
  questions: readonly CollaborationQuestion[],
): Figures {
  const sent = turnsOf(timeline).filter((t) => t.role === 'user');
  const pasting = sent.filter((m) => questions.some((q) => pastesQuestion(m.content, q))).length;
  const asking = sent.filter((m) => asksQuestion(m.content)).length;
  const words = sent.reduce((sum, m) => sum + wordsOf(m.content).length, 0);
  return {
    messagesSent: sent.length,
    questionPasteShare: share(pasting, sent.length),
    askingShare: share(asking, sent.length),
    meanWords: share(words, sent.length),
  };
}

/**
 * Verification evidence, over the assistant's replies about a question (a reply the guardrail stopped or that
 * failed is not one):
 *   replies          how many
 *   testedShare      the share followed, within VERIFICATION_WINDOW_MS, by a test run of the same question
 *   editedShare      the share followed, within the window, by an edit of that question's answer typed by hand
 *   pushbackShare    of the messages the candidate sent right after a reply, the share that push back (pushesBack)
 *   pushbackMessages how many pushed back
 */
export function verificationFigures(timeline: Pick<Timeline, 'messages' | 'events' | 'answers'>): Figures {
  const turns = turnsOf(timeline);
  const replies = turns.filter((t) => t.reply && t.questionIndex !== null);
  const typedOps = new Map(timeline.answers.map((a) => [a.questionIndex, a.operations]));
  const followUps = (kind: 'test-run' | 'answer-edit') =>
    timeline.events.flatMap((e) => {
      if (e.kind !== kind || e.questionIndex === undefined) return [];
      if (kind === 'answer-edit') {
        const op: AnswerOperation | undefined = typedOps.get(e.questionIndex)?.[e.operation ?? -1];
        if (op?.source !== 'typed') return [];
      }
      return [{ questionIndex: e.questionIndex, atMs: Date.parse(e.at) }];
    });
  const runs = followUps('test-run');
  const edits = followUps('answer-edit');
  const followed = (list: ReadonlyArray<{ questionIndex: number; atMs: number }>, reply: Turn) =>
    list.some(
      (e) =>
        e.questionIndex === reply.questionIndex && e.atMs > reply.atMs && e.atMs - reply.atMs <= VERIFICATION_WINDOW_MS,
    );
  const tested = replies.filter((r) => followed(runs, r)).length;
  const edited = replies.filter((r) => followed(edits, r)).length;

  // The candidate's first message after each reply: where pushback would be.
  let afterReply = 0;
  let pushback = 0;
  turns.forEach((turn, i) => {
    if (turn.role !== 'user' || i === 0 || !turns[i - 1]!.reply) return;
    afterReply++;
    if (pushesBack(turn.content)) pushback++;
  });
  return {
    replies: replies.length,
    testedShare: share(tested, replies.length),
    editedShare: share(edited, replies.length),
    pushbackShare: share(pushback, afterReply),
    pushbackMessages: pushback,
  };
}

/** Characters the operations inserted from the assistant (source 'assistant'), whether kept or not. */
export function assistantInsertedChars(operations: ReadonlyArray<Pick<AnswerOperation, 'insert' | 'source'>>): number {
  let n = 0;
  for (const op of operations) if (op.source === 'assistant') n += op.insert.length;
  return n;
}

/**
 * Integration figures, from the answers' provenance:
 *   assistantInserted          characters inserted from the assistant (every operation, kept or not)
 *   assistantKept              characters of the final answers still as the assistant gave them
 *   keptShare                  assistantKept ÷ assistantInserted (null when nothing was inserted)
 *   changedShare               1 − keptShare: the share edited or removed
 *   assistantShareOfAnswers    assistantKept ÷ all characters of the final answers
 */
export function integrationFigures(answers: ReadonlyArray<{ inserted: number; sources: SourceShares }>): Figures {
  let inserted = 0;
  let kept = 0;
  let total = 0;
  for (const a of answers) {
    inserted += a.inserted;
    kept += a.sources.assistant;
    for (const n of Object.values(a.sources)) total += n;
  }
  const keptShare = share(kept, inserted);
  return {
    assistantInserted: inserted,
    assistantKept: kept,
    keptShare,
    changedShare: keptShare === null ? null : 1 - keptShare,
    assistantShareOfAnswers: share(kept, total),
  };
}

/**
 * The integration level from keptShare: what share of the text taken from the assistant reached the final answers
 * unchanged. The cut points halve the scale's words (COLLABORATION_SCALES.integration): 0 "keeps it as given" at
 * 90% or more kept; 1 "keeps most unchanged" from 65%; 2 "edits about half" from 35%; 3 "reworks most" from 10%;
 * 4 "uses it only as material" below 10%. null when nothing was taken from the assistant.
 */
export function integrationLevel(keptShare: number | null): number | null {
  if (keptShare === null) return null;
  if (keptShare >= 0.9) return 0;
  if (keptShare >= 0.65) return 1;
  if (keptShare >= 0.35) return 2;
  if (keptShare >= 0.1) return 3;
  return 4;
}

/** The gap θ_aided − θ_unaided (logits) with its 95% interval, as insights gives it (CandidateAidedAbility.gap). */
export type AbilityGap = { estimate: number | null; low: number | null; high: number | null };

/**
 * The independence level from the aided/unaided gap (positive: weaker without the assistant).
 *   4  estimate ≤ 0: as able or abler without the assistant;
 *   3  a positive estimate below 0.5 logit, or any positive estimate whose 95% interval reaches 0: a gap the data
 *      cannot tell from none is reported as "about as able", never as weaker;
 *   2  0.5 to 1 logit, 1  1 to 1.5 logits, 0  1.5 logits or more, each with the interval above 0.
 * Half-logit steps: abilities on the Rasch scale of a cohort have an SD of about one logit, so the steps are about
 * half an SD apart — Cohen's (1988) "medium" effect — and 1.5 logits is a drop of roughly a standard deviation and a
 * half, far beyond the 17% lower unaided score Bastani et al. (PNAS 2025) found after unguarded AI practice.
 * null when the gap is not measured (no aided/unaided contrast in the exam, or no estimate for the candidate).
 */
export function independenceLevel(gap: AbilityGap | null | undefined): number | null {
  if (!gap || gap.estimate === null || !Number.isFinite(gap.estimate)) return null;
  const { estimate, low } = gap;
  if (estimate <= 0) return 4;
  if (estimate < 0.5 || low === null || low <= 0) return 3;
  if (estimate < 1) return 2;
  if (estimate < 1.5) return 1;
  return 0;
}

export function independenceFigures(gap: AbilityGap | null | undefined): Figures {
  return { gapEstimate: gap?.estimate ?? null, gapLow: gap?.low ?? null, gapHigh: gap?.high ?? null };
}

/** Every process figure of one timeline, by dimension (independence comes from the ability fit, not the timeline). */
export function collaborationFigures(
  timeline: Pick<Timeline, 'messages' | 'events' | 'answers'>,
  questions: readonly CollaborationQuestion[],
): Record<Exclude<CollaborationDimension, 'independence'>, Figures> {
  return {
    framing: framingFigures(timeline, questions),
    verification: verificationFigures(timeline),
    integration: integrationFigures(
      timeline.answers.map((a) => ({ inserted: assistantInsertedChars(a.operations), sources: a.sources })),
    ),
  };
}

/** Whether the candidate used the assistant at all: sent a message or took text from it. */
export const usedAssistant = (messagesSent: number, assistantInserted: number): boolean =>
  messagesSent > 0 || assistantInserted > 0;
