import { topicOf } from './gift.ts';
import { htmlToMarkdown } from './html-text.ts';
import { ImportCollector, type QuestionDraft, type ReadResult } from './model.ts';
import { type XmlNode, child, childrenNamed, local, parseXml, textOf } from './xml.ts';

/**
 * Moodle XML import (docs.moodle.org/en/Moodle_XML_format): `<quiz>` of `<question type="…">`. Category
 * entries set the topic of the questions after them; an answer's `fraction` (percent) says whether it is right:
 * 100 for the key, positive shares for a multiple-response key. Moodle's feedback, penalty and hints have no
 * place in a platform question and are not carried over.
 */
const NOT_SUPPORTED: Record<string, string> = {
  matching: 'A matching question: this platform has no matching questions',
  cloze: 'An embedded-answers (Cloze) question: a question here has one answer',
  multianswer: 'An embedded-answers (Cloze) question: a question here has one answer',
  description: 'A description (text without a question) is not a question',
  calculated: 'A calculated question: this platform has no calculated questions',
  calculatedsimple: 'A calculated question: this platform has no calculated questions',
  calculatedmulti: 'A calculated question: this platform has no calculated questions',
  ddwtos: 'A drag-and-drop question: this platform has no drag-and-drop questions',
  ddimageortext: 'A drag-and-drop question: this platform has no drag-and-drop questions',
  ddmarker: 'A drag-and-drop question: this platform has no drag-and-drop questions',
  gapselect: 'A select-missing-words question: a question here has one answer',
  randomsamatch: 'A random short-answer matching question: this platform has no matching questions',
  random: 'A random question of a category: import the category’s questions instead',
};

type Answer = { fraction: number; text: string };

export function importMoodleXml(text: string): ReadResult {
  const root = parseXml(text.replace(/^\uFEFF/, ''));
  if (local(root.name) !== 'quiz')
    throw new Error(`Not a Moodle XML file (the root element is ${root.name}, not quiz)`);
  const collector = new ImportCollector();
  let topic = '';
  childrenNamed(root, 'question').forEach((q, i) => {
    const type = q.attrs.type ?? '';
    if (type === 'category') {
      topic = topicOf(textOf(child(child(q, 'category') ?? q, 'text')));
      return;
    }
    const name = textOf(child(child(q, 'name') ?? q, 'text')).trim();
    const ref = `#${i + 1}${name ? ` ${name}` : ''}`;
    const title = name || `Question ${i + 1}`;
    const draft = draftOf(q, type, { title, topic });
    if (typeof draft === 'string') collector.skip(ref, title, draft);
    else collector.add(ref, draft);
  });
  return { title: '', questions: collector.questions, notImported: collector.notImported };
}

/** A `<…><text>` field as Markdown: HTML (and Moodle's auto format, which may hold HTML) is converted. */
function formatted(node: XmlNode | undefined): string {
  if (!node) return '';
  const raw = textOf(child(node, 'text'));
  const format = node.attrs.format ?? 'html';
  return format === 'html' || format === 'moodle_auto_format' ? htmlToMarkdown(raw) : raw.trim();
}

const hasMedia = (q: XmlNode) => {
  const text = child(q, 'questiontext');
  return (
    !!text && (childrenNamed(text, 'file').length > 0 || /@@PLUGINFILE@@|<img\b/i.test(textOf(child(text, 'text'))))
  );
};

function answersOf(q: XmlNode): Answer[] {
  return childrenNamed(q, 'answer').map((a) => ({ fraction: Number(a.attrs.fraction ?? 0), text: formatted(a) }));
}

function draftOf(q: XmlNode, type: string, base: { title: string; topic: string }): QuestionDraft | string {
  const unsupported = NOT_SUPPORTED[type];
  if (unsupported) return unsupported;
  if (hasMedia(q)) return 'Its text holds images or files, which are not carried over';
  const grade = Number(textOf(child(q, 'defaultgrade')) || 1);
  const withText = { ...base, content: formatted(child(q, 'questiontext')), points: grade > 0 ? grade : 1 };
  switch (type) {
    case 'multichoice':
      return multichoiceDraft(q, withText);
    case 'truefalse': {
      const right = answersOf(q).find((a) => a.fraction === 100);
      if (!right) return 'Neither true nor false is marked right';
      const value = right.text.toLowerCase() === 'true' ? 'True' : 'False';
      return { ...withText, type: 'mcq', options: ['True', 'False'], correctAnswer: value };
    }
    case 'shortanswer':
      return shortAnswerDraft(q, withText);
    case 'numerical':
      return numericalDraft(q, withText);
    case 'essay': {
      const attachments = Number(textOf(child(q, 'attachments')) || 0);
      const format = textOf(child(q, 'responseformat')).trim();
      if (format === 'noinline' && attachments !== 0) return { ...withText, type: 'file-upload' };
      if (attachments !== 0) return 'An essay with both typed text and attachments: a question here has one answer';
      return { ...withText, type: 'short-answer', acceptedAnswers: [] };
    }
    default:
      return `A ${type || 'typeless'} question: this platform has no such question type`;
  }
}

type WithText = { title: string; topic: string; content: string; points: number };

function multichoiceDraft(q: XmlNode, base: WithText): QuestionDraft | string {
  const answers = answersOf(q);
  const options = answers.map((a) => a.text);
  if (options.some((o) => o === '')) return 'An option has no text (an image or media only), which is not carried over';
  if (new Set(options).size !== options.length) return 'Two options have the same text';
  const single = textOf(child(q, 'single')).trim() !== 'false';
  if (single) {
    if (answers.some((a) => a.fraction > 0 && a.fraction < 100))
      return 'An option gives part of the points; a single-answer question here is right or wrong';
    const right = answers.filter((a) => a.fraction === 100);
    if (right.length !== 1) return `${right.length} options are marked fully right; a single-answer question has one`;
    return { ...base, type: 'mcq', options, correctAnswer: right[0]?.text };
  }
  const right = answers.filter((a) => a.fraction > 0);
  if (right.length === 0) return 'No option is marked right';
  if (new Set(right.map((a) => a.fraction.toFixed(3))).size > 1)
    return 'The right options carry different weights; here each right option counts the same';
  return {
    ...base,
    type: 'mcq',
    options,
    multipleAnswers: true,
    correctAnswers: right.map((a) => a.text),
    scoring: right.length > 1 ? 'partial' : 'all-or-nothing',
  };
}

function shortAnswerDraft(q: XmlNode, base: WithText): QuestionDraft | string {
  const answers = answersOf(q);
  const partial = answers.filter((a) => a.fraction > 0 && a.fraction < 100);
  if (partial.length > 0)
    return `It gives part of the points for ${partial.map((a) => `"${a.text}"`).join(', ')}; a short answer here is right or wrong`;
  const accepted = answers.filter((a) => a.fraction === 100).map((a) => a.text);
  if (accepted.some((a) => a.includes('*')))
    return 'An accepted answer uses the * wildcard, which is not supported here';
  const caseSensitive = textOf(child(q, 'usecase')).trim() === '1';
  return { ...base, type: 'short-answer', acceptedAnswers: accepted, matching: { caseSensitive, numeric: null } };
}

function numericalDraft(q: XmlNode, base: WithText): QuestionDraft | string {
  const units = child(q, 'units');
  if (units && childrenNamed(units, 'unit').length > 0) return 'The answer has units, which are not supported here';
  const answers = childrenNamed(q, 'answer').map((a) => ({
    fraction: Number(a.attrs.fraction ?? 0),
    value: textOf(child(a, 'text')).trim(),
    tolerance: Number(textOf(child(a, 'tolerance')) || 0),
  }));
  if (answers.some((a) => a.fraction > 0 && a.fraction < 100))
    return 'It gives part of the points for some numbers; a short answer here is right or wrong';
  const right = answers.filter((a) => a.fraction === 100);
  if (right.length === 0) return 'No number is marked right';
  if (right.some((a) => a.value === '*' || !Number.isFinite(Number(a.value))))
    return 'An accepted answer is not a number';
  if (new Set(right.map((a) => a.tolerance)).size > 1)
    return 'The accepted numbers have different tolerances; here one tolerance applies to all';
  return {
    ...base,
    type: 'short-answer',
    acceptedAnswers: right.map((a) => a.value),
    matching: { caseSensitive: false, numeric: { tolerance: Math.abs(right[0]?.tolerance ?? 0), mode: 'absolute' } },
  };
}
