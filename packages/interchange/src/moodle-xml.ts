import { type Passage } from '@exam/domain/passages';
import { topicOf } from './gift.ts';
import { ImportCollector, type FullReadResult } from './model.ts';
import { clozeDraft } from './moodle-import-cloze.ts';
import { calculatedDraft, numericalDraft } from './moodle-import-numeric.ts';
import {
  type Base,
  type Read,
  type Warn,
  answerFeedback,
  answersOf,
  feedbackOf,
  field,
  formatted,
  numberField,
  onlyGeneral,
  perOption,
  pictureOf,
  plain,
} from './moodle-fields.ts';
import { type XmlNode, child, childrenNamed, local, parseXml, textOf } from './xml.ts';

/**
 * Moodle XML import (docs.moodle.org/en/Moodle_XML_format): `<quiz>` of `<question type="…">`. Category
 * entries set the topic of the questions after them; an answer's `fraction` (percent) says whether it is right.
 *
 * A description question becomes a shared passage (passages.ts), and the questions after it refer to it until
 * the next description or category entry: Moodle puts a description before the questions it introduces, and our
 * Moodle export writes a passage that way (moodle-export.ts), ending its run with a category entry. Two
 * descriptions with the same name and text are one passage.
 *
 * What a kept question leaves behind is a warning; a question that cannot be kept is listed with its reason.
 */
const NOT_SUPPORTED: Record<string, string> = {
  calculatedmulti: 'A calculated multiple-choice question: a calculated question here is answered with a number',
  ddwtos: 'A drag-and-drop question: this platform has no drag-and-drop questions',
  ddimageortext: 'A drag-and-drop question: this platform has no drag-and-drop questions',
  ddmarker: 'A drag-and-drop question: this platform has no drag-and-drop questions',
  gapselect: 'A select-missing-words question: its shared word groups have no counterpart here',
  randomsamatch: 'A random short-answer matching question: its pairs are drawn from other questions of Moodle',
  random: 'A random question of a category: import the category’s questions instead',
};

export function importMoodleXml(text: string): FullReadResult {
  const root = parseXml(text.replace(/^\uFEFF/, ''));
  if (local(root.name) !== 'quiz')
    throw new Error(`Not a Moodle XML file (the root element is ${root.name}, not quiz)`);
  const collector = new ImportCollector();
  const passages: Passage[] = [];
  let topic = '';
  let passage: Passage | null = null;
  childrenNamed(root, 'question').forEach((q, i) => {
    const type = q.attrs.type ?? '';
    if (type === 'category') {
      topic = topicOf(textOf(child(child(q, 'category') ?? q, 'text')));
      passage = null;
      return;
    }
    const name = plain(child(q, 'name') ?? q, 'text');
    const ref = `#${i + 1}${name ? ` ${name}` : ''}`;
    const title = name || `Question ${i + 1}`;
    const content = contentOf(q);
    if (typeof content !== 'string') {
      collector.skip(ref, title, content.reason);
      return;
    }
    if (type === 'description') {
      if (content === '') {
        collector.skip(ref, title, 'A description without text');
        return;
      }
      passage = passages.find((p) => p.title === name && p.content === content) ?? null;
      if (!passage) {
        passage = { id: `p${passages.length + 1}`, title: name.slice(0, 300), content };
        passages.push(passage);
      }
      return;
    }
    const warnings: string[] = [];
    const grade = numberField(q, 'defaultgrade', 1);
    const base: Base = {
      title,
      topic,
      content,
      points: grade > 0 ? grade : 1,
      feedback: feedbackOf(q),
      passageId: (passage as Passage | null)?.id ?? null,
    };
    const draft = draftOf(q, type, base, (reason) => warnings.push(reason));
    if (typeof draft === 'string') collector.skip(ref, title, draft);
    else collector.add(ref, draft, warnings);
  });
  return {
    title: '',
    questions: collector.questions,
    notImported: collector.notImported,
    passages,
    warnings: collector.warnings,
  };
}

/** QuestionSchema's limit on a question's content. */
const MAX_QUESTION_CONTENT = 20_000;

const hasMedia = (q: XmlNode) => {
  const text = child(q, 'questiontext');
  return (
    !!text && (childrenNamed(text, 'file').length > 0 || /@@PLUGINFILE@@|<img\b/i.test(textOf(child(text, 'text'))))
  );
};

/** The question text as Markdown, with a Moodle 1.9 picture kept in it, or why it cannot be kept. */
function contentOf(q: XmlNode): string | { reason: string } {
  if (hasMedia(q)) return { reason: 'Its text holds images or files, which are not carried over' };
  const text = field(q, 'questiontext');
  const picture = pictureOf(q);
  if (!picture) return text;
  if ('reason' in picture) return picture;
  const content = text === '' ? picture.markdown : `${text}\n\n${picture.markdown}`;
  if (content.length > MAX_QUESTION_CONTENT)
    return {
      reason: `Its picture is too large to keep in the question text (${Math.round(picture.markdown.length / 1365)} KB)`,
    };
  return content;
}

function draftOf(q: XmlNode, type: string, base: Base, warn: Warn): Read {
  const unsupported = NOT_SUPPORTED[type];
  if (unsupported) return unsupported;
  switch (type) {
    case 'multichoice':
    case 'multichoiceset':
      return multichoiceDraft(q, type === 'multichoiceset', base, warn);
    case 'truefalse':
      return trueFalseDraft(q, base, warn);
    case 'shortanswer':
      return shortAnswerDraft(q, base, warn);
    case 'numerical':
      return numericalDraft(q, base, warn);
    case 'calculated':
    case 'calculatedsimple':
      return calculatedDraft(q, base, warn);
    case 'essay':
      return essayDraft(q, base, warn);
    case 'matching':
      return matchingDraft(q, base);
    case 'ordering':
      return orderingDraft(q, base, warn);
    case 'cloze':
    case 'multianswer':
      return clozeDraft(q, base, warn);
    default:
      return `A ${type || 'typeless'} question: this platform has no such question type`;
  }
}

/**
 * Single answer: one option worth 100%. Multiple answers: the options worth more than 0 are the key, with
 * Moodle's per-option credit as the platform's partial credit (each right tick a share, each wrong tick the same
 * share off); the all-or-nothing multiple choice plugin (multichoiceset) is all-or-nothing here too.
 */
function multichoiceDraft(q: XmlNode, allOrNothing: boolean, base: Base, warn: Warn): Read {
  const answers = answersOf(q);
  const options = answers.map((a) => a.text);
  if (options.some((o) => o === '')) return 'An option has no text (an image or media only), which is not carried over';
  if (new Set(options).size !== options.length) return 'Two options have the same text';
  const optionFeedback = perOption(answers.map((a) => a.feedback));
  const single = !allOrNothing && !['false', '0'].includes(plain(q, 'single'));
  if (single) {
    if (answers.some((a) => a.fraction > 0 && a.fraction < 100))
      return 'An option gives part of the points; a single-answer question here is right or wrong';
    const right = answers.filter((a) => a.fraction === 100);
    if (right.length !== 1) return `${right.length} options are marked fully right; a single-answer question has one`;
    return { ...base, type: 'mcq', options, correctAnswer: right[0]?.text, optionFeedback };
  }
  const right = answers.filter((a) => a.fraction > 0);
  if (right.length === 0) return 'No option is marked right';
  if (!allOrNothing) {
    if (new Set(right.map((a) => a.fraction.toFixed(3))).size > 1)
      return 'The right options carry different weights; here each right option counts the same';
    const share = 100 / right.length;
    if (answers.some((a) => a.fraction <= 0 && Math.abs(a.fraction + share) > 0.01))
      warn(`A wrong option takes other than one right option's share (${share.toFixed(2)}%) off; here it takes that`);
  }
  return {
    ...base,
    type: 'mcq',
    options,
    multipleAnswers: true,
    correctAnswers: right.map((a) => a.text),
    scoring: allOrNothing ? 'all-or-nothing' : 'partial',
    optionFeedback,
  };
}

function trueFalseDraft(q: XmlNode, base: Base, warn: Warn): Read {
  const answers = answersOf(q);
  const of = (value: string) => answers.find((a) => a.text.trim().toLowerCase() === value);
  const right = answers.find((a) => a.fraction === 100);
  if (!right) return 'Neither true nor false is marked right';
  return {
    ...base,
    type: 'true-false',
    correctAnswer: right.text.trim().toLowerCase() === 'true' ? 'true' : 'false',
    optionFeedback: perOption([of('true')?.feedback ?? '', of('false')?.feedback ?? '']),
    feedback: onlyGeneral(base.feedback, warn),
  };
}

/**
 * Short answer: the answers worth 100% are accepted. Moodle's `*` is a wildcard (`\*` a star): a wildcard worth
 * 0 is the catch-all whose feedback is the platform's "incorrect" feedback; the right answers' one feedback is
 * "correct" (our export writes both that way).
 */
function shortAnswerDraft(q: XmlNode, base: Base, warn: Warn): Read {
  const answers = answersOf(q);
  const partial = answers.filter((a) => a.fraction > 0 && a.fraction < 100);
  if (partial.length > 0)
    return `It gives part of the points for ${partial.map((a) => `"${a.text}"`).join(', ')}; a short answer here is right or wrong`;
  const right = answers.filter((a) => a.fraction === 100);
  if (right.some((a) => /(^|[^\\])\*/.test(a.text)))
    return 'An accepted answer uses the * wildcard, which is not supported here';
  const caseSensitive = plain(q, 'usecase') === '1';
  const catchAll = answers.find((a) => a.fraction <= 0 && a.text.trim() === '*');
  const feedback = answerFeedback(right, catchAll, answers, warn);
  return {
    ...base,
    type: 'short-answer',
    acceptedAnswers: right.map((a) => a.text.replace(/\\\*/g, '*')),
    matching: { caseSensitive, numeric: null },
    feedback: { ...onlyGeneral(base.feedback, warn), ...feedback },
  };
}

function essayDraft(q: XmlNode, base: Base, warn: Warn): Read {
  const format = plain(q, 'responseformat') || 'editor';
  const attachments = numberField(q, 'attachments', 0);
  const feedback = onlyGeneral(base.feedback, warn);
  if (format === 'noinline') {
    if (attachments === 0) return 'An essay with neither a text box nor attachments';
    return { ...base, feedback, type: 'file-upload' };
  }
  if (attachments !== 0)
    warn('Its attachments are not carried over: the essay is typed here (a file upload question takes files)');
  if (field(q, 'graderinfo') !== '') warn('Its information for graders is not carried over');
  if (field(q, 'responsetemplate') !== '') warn('Its response template is not carried over');
  const limit = (name: string) => {
    const n = Math.round(numberField(q, name, 0));
    return n > 0 ? Math.min(n, 100_000) : null;
  };
  return {
    ...base,
    feedback,
    type: 'essay',
    essay: {
      minWords: limit('minwordlimit'),
      maxWords: limit('maxwordlimit'),
      formatted: format === 'editor' || format === 'editorfilepicker',
    },
  };
}

/** Each subquestion is a pair; one without text is a distractor. Moodle gives credit per pair. */
function matchingDraft(q: XmlNode, base: Base): Read {
  const pairs: Array<{ prompt: string; answer: string }> = [];
  const distractors: string[] = [];
  for (const sub of childrenNamed(q, 'subquestion')) {
    const prompt = formatted(sub);
    const answer = textOf(child(child(sub, 'answer') ?? sub, 'text')).trim();
    if (prompt === '') {
      if (answer !== '') distractors.push(answer);
    } else pairs.push({ prompt, answer });
  }
  return { ...base, type: 'matching', pairs, distractors, scoring: 'partial' };
}

const ORDERING_GRADES: Record<string, string> = {
  '-1': 'ALL_OR_NOTHING',
  '0': 'ABSOLUTE_POSITION',
  '1': 'RELATIVE_NEXT_EXCLUDE_LAST',
  '2': 'RELATIVE_NEXT_INCLUDE_LAST',
  '3': 'RELATIVE_ONE_PREVIOUS_AND_NEXT',
  '4': 'RELATIVE_ALL_PREVIOUS_AND_NEXT',
  '5': 'LONGEST_ORDERED_SUBSET',
  '6': 'LONGEST_CONTIGUOUS_SUBSET',
  '7': 'RELATIVE_TO_CORRECT',
};

/**
 * The ordering plugin (qtype_ordering): the answers in the right order, each `fraction` its position. Its
 * "relative to the next item (excluding last)" grading is the platform's partial credit; any other partial
 * grading becomes that, with a warning.
 */
function orderingDraft(q: XmlNode, base: Base, warn: Warn): Read {
  const items = answersOf(q)
    .map((a, i) => ({ ...a, at: Number.isFinite(a.fraction) ? a.fraction : i }))
    .sort((a, b) => a.at - b.at)
    .map((a) => a.text);
  const raw = plain(q, 'gradingtype') || 'RELATIVE_NEXT_EXCLUDE_LAST';
  const grading = ORDERING_GRADES[raw] ?? raw.toUpperCase();
  if (grading !== 'ALL_OR_NOTHING' && grading !== 'RELATIVE_NEXT_EXCLUDE_LAST')
    warn(
      `Moodle grades it by ${grading.toLowerCase().replace(/_/g, ' ')}; here partial credit counts the neighbouring pairs kept in order`,
    );
  const select = plain(q, 'selecttype') || 'ALL';
  if (!['ALL', '0'].includes(select.toUpperCase()) && numberField(q, 'selectcount', 0) > 0)
    warn('Moodle shows a subset of its items; here every item is shown');
  return { ...base, type: 'ordering', items, scoring: grading === 'ALL_OR_NOTHING' ? 'all-or-nothing' : 'partial' };
}
