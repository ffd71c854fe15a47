import { type QuestionFeedback } from '@exam/domain/question-kinds';
import { htmlToMarkdown } from './html-text.ts';
import { type QuestionDraft } from './model.ts';
import { type XmlNode, child, childrenNamed, textOf } from './xml.ts';

/** What every Moodle question reader starts from, and how it names what it leaves behind (ImportPreview.warnings). */
export type Base = Pick<QuestionDraft, 'title' | 'topic' | 'points' | 'passageId'> & {
  content: string;
  feedback: QuestionFeedback;
};
export type Warn = (reason: string) => void;
export type Read = QuestionDraft | string;

/** A `<…><text>` field as Markdown: HTML (and Moodle's auto format, which may hold HTML) is converted. */
export function formatted(node: XmlNode | undefined): string {
  if (!node) return '';
  const raw = textOf(child(node, 'text'));
  const format = node.attrs.format ?? 'html';
  return format === 'html' || format === 'moodle_auto_format' ? htmlToMarkdown(raw) : raw.trim();
}

export const field = (q: XmlNode, name: string) => formatted(child(q, name));
export const plain = (q: XmlNode, name: string) => textOf(child(q, name)).trim();
/** A numeric element (`<defaultgrade>2.0000000</defaultgrade>`), or `fallback` when absent or not a number. */
export function numberField(q: XmlNode, name: string, fallback: number): number {
  const raw = plain(q, name);
  const value = raw === '' ? Number.NaN : Number(raw);
  return Number.isFinite(value) ? value : fallback;
}

/** The question's feedback: general, and the combined feedback of the types that have it. */
export function feedbackOf(q: XmlNode): QuestionFeedback {
  return {
    general: field(q, 'generalfeedback'),
    correct: field(q, 'correctfeedback'),
    partial: field(q, 'partiallycorrectfeedback'),
    incorrect: field(q, 'incorrectfeedback'),
  };
}

export type MoodleAnswer = { fraction: number; text: string; feedback: string; node: XmlNode };

export function answersOf(q: XmlNode): MoodleAnswer[] {
  return childrenNamed(q, 'answer').map((node) => ({
    fraction: Number(node.attrs.fraction ?? 0),
    text: formatted(node),
    feedback: field(node, 'feedback'),
    node,
  }));
}

/** Feedback per option, or none when every option's is empty (the schema's default). */
export function perOption(feedback: readonly string[]): string[] {
  return feedback.some((f) => f !== '') ? [...feedback] : [];
}

/** Combined feedback (correct / partial / incorrect) kept only for the types that can show it, else warned. */
export function onlyGeneral(feedback: QuestionFeedback, warn: Warn): QuestionFeedback {
  const dropped = (['correct', 'partial', 'incorrect'] as const).filter((k) => feedback[k] !== '');
  if (dropped.length > 0)
    warn(`Its feedback for ${dropped.join(', ')} answers is not carried over: this type shows general feedback here`);
  return { general: feedback.general, correct: '', partial: '', incorrect: '' };
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * Moodle 1.9's question picture: `<image>` names a file and `<image_base64>` may carry its bytes. With the bytes,
 * the picture is kept in the text as a Markdown image with a data: URL (the platform's renderer shows raster
 * images of these types); a picture that is only named, or of another type, is a reason not to import.
 */
export function pictureOf(q: XmlNode): { markdown: string } | { reason: string } | null {
  const path = plain(q, 'image');
  const data = textOf(child(q, 'image_base64')).replace(/\s+/g, '');
  if (path === '' && data === '') return null;
  const name = path.replace(/^.*[\\/]/, '') || 'picture';
  if (data === '')
    return { reason: `Its picture (${path}) is a separate file the XML only names, so it cannot be carried over` };
  const mime = MIME[name.replace(/^.*\./, '').toLowerCase()];
  if (!mime) return { reason: `Its picture (${name}) is not a PNG, JPEG, GIF or WebP image, which are kept here` };
  if (!/^[A-Za-z0-9+/]+=*$/.test(data)) return { reason: `Its picture (${name}) is not valid base64` };
  return { markdown: `![${name.replace(/[[\]\\]/g, '')}](data:${mime};base64,${data})` };
}

/** The right answers' shared feedback and the catch-all's, as correct and incorrect feedback. */
export function answerFeedback(
  right: ReadonlyArray<{ feedback: string }>,
  catchAll: { feedback: string } | undefined,
  all: ReadonlyArray<{ feedback: string; fraction: number }>,
  warn: Warn,
): { correct: string; incorrect: string } {
  const rightFeedback = [...new Set(right.map((a) => a.feedback).filter((f) => f !== ''))];
  if (rightFeedback.length > 1) warn('Its right answers have different feedback; here the first one is shown for all');
  const others = all.filter((a) => a.fraction <= 0 && a !== catchAll && a.feedback !== '');
  if (others.length > 0) warn('Its feedback for particular wrong answers is not carried over');
  return { correct: rightFeedback[0] ?? '', incorrect: catchAll?.feedback ?? '' };
}
