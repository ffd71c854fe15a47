import { drawValue } from '@exam/domain/calculated';
import { hashSeed, mulberry32 } from '@exam/domain/arrangement';
import { type Exam } from '@exam/domain/exam';
import { type NotImported } from '@exam/domain/interchange';
import { type Passage } from '@exam/domain/passages';
import { type Question } from '@exam/domain/question';
import { type QuestionFeedback, splitGapText } from '@exam/domain/question-kinds';
import { formatGap } from './moodle-cloze.ts';
import { toMoodleFormula } from './moodle-formula.ts';
import { el, escapeXml } from './xml.ts';

/**
 * Moodle XML export (docs.moodle.org/en/Moodle_XML_format) of an exam's questions, readable by Moodle's question
 * bank import and by our own importer (moodle-xml.ts), which gives every question back. Text is written as
 * Markdown (`format="markdown"`, which Moodle renders), topics as categories, passages as description questions
 * before the questions that refer to them (a category entry ends a passage's run: the importer's rule).
 *
 * What Moodle cannot hold is returned in `losses`, one entry per question and reason, and written at the top of
 * the file as a comment, so nothing is dropped without a word.
 */
export type MoodleExport = { xml: string; losses: NotImported[] };
export type MoodleExam = Pick<Exam, 'questions' | 'passages'>;

/** Pre-drawn value sets written per calculated question: Moodle draws a candidate's values from these. */
export const DATASET_ITEMS = 10;

type Lose = (reason: string) => void;

const text = (value: string) => el('text', {}, escapeXml(value));
const md = (name: string, value: string) => el(name, { format: 'markdown' }, text(value));
const plainText = (name: string, value: string) => el(name, { format: 'plain_text' }, text(value));
const tag = (name: string, value: string | number) => el(name, {}, escapeXml(String(value)));
const num = (n: number) => String(Number(n.toPrecision(12)));

function category(topic: string): string {
  const path = topic.trim() === '' ? '$course$/top' : `$course$/top/${topic.trim()}`;
  return el('question', { type: 'category' }, el('category', {}, text(path)));
}

function description(passage: Passage): string {
  return el(
    'question',
    { type: 'description' },
    el('name', {}, text(passage.title || 'Passage')),
    md('questiontext', passage.content),
    md('generalfeedback', ''),
    tag('defaultgrade', 0),
    tag('penalty', 0),
    tag('hidden', 0),
  );
}

export function exportMoodleXml(exam: MoodleExam): MoodleExport {
  const losses: NotImported[] = [];
  const parts: string[] = [];
  let topic: string | null = null;
  let passageId: string | null = null;
  exam.questions.forEach((q, i) => {
    const lose: Lose = (reason) => losses.push({ ref: `#${i + 1} ${q.id}`, title: q.title.slice(0, 200), reason });
    if (q.topic !== topic || (passageId !== null && q.passageId !== passageId)) {
      parts.push(category(q.topic));
      topic = q.topic;
      passageId = null;
    }
    if (q.passageId !== null && q.passageId !== passageId) {
      const passage = exam.passages.find((p) => p.id === q.passageId);
      if (passage) parts.push(description(passage));
      else lose('The passage it refers to is not in the exam');
    }
    passageId = q.passageId;
    parts.push(questionXml(q, lose));
  });
  const note =
    losses.length === 0
      ? ''
      : `<!-- Not carried over to Moodle XML:\n${losses.map((l) => `  ${l.ref} (${l.title}): ${l.reason}`.replace(/--/g, '- -')).join('\n')}\n-->\n`;
  return { xml: `<?xml version="1.0" encoding="UTF-8"?>\n${note}<quiz>\n${parts.join('\n')}\n</quiz>\n`, losses };
}

function common(q: Question, lose: Lose, content = q.content): string[] {
  if (q.rubricId) lose('Its rubric is not carried over: Moodle XML has no rubrics');
  if (q.plantedError !== null) lose('Its planted error for the assistant is not carried over');
  if (q.poolId) lose('Its pool is not carried over: Moodle draws random questions from categories');
  return [
    el('name', {}, text(q.title)),
    md('questiontext', content),
    md('generalfeedback', q.feedback.general),
    tag('defaultgrade', num(q.points)),
    tag('penalty', 0),
    tag('hidden', 0),
  ];
}

/** The feedback of the types Moodle gives combined feedback (correct, partially correct, incorrect). */
const combined = (f: QuestionFeedback) => [
  md('correctfeedback', f.correct),
  md('partiallycorrectfeedback', f.partial),
  md('incorrectfeedback', f.incorrect),
];

/** The types without combined feedback: the platform's correct/partial/incorrect feedback is lost (named). */
function loseCombined(q: Question, lose: Lose, keep: ReadonlyArray<keyof QuestionFeedback> = []) {
  const lost = (['correct', 'partial', 'incorrect'] as const).filter((k) => q.feedback[k] !== '' && !keep.includes(k));
  if (lost.length > 0)
    lose(`Its feedback for ${lost.join(', ')} answers: Moodle's ${q.type} question has no place for it`);
}

const answer = (fraction: number, value: string, feedback = '', ...extra: string[]) =>
  el('answer', { fraction: num(fraction), format: 'plain_text' }, text(value), md('feedback', feedback), ...extra);

function questionXml(q: Question, lose: Lose): string {
  const [type, body] = typeAndBody(q, lose);
  return el('question', { type }, ...body);
}

function typeAndBody(q: Question, lose: Lose): [string, string[]] {
  switch (q.type) {
    case 'mcq':
      return mcq(q, lose);
    case 'true-false': {
      loseCombined(q, lose);
      if (q.correctAnswer !== 'true' && q.correctAnswer !== 'false') lose('It has no key; Moodle needs one');
      const fb = (i: number) => q.optionFeedback[i] ?? '';
      return [
        'truefalse',
        [
          ...common(q, lose),
          answer(q.correctAnswer === 'true' ? 100 : 0, 'true', fb(0)),
          answer(q.correctAnswer === 'false' ? 100 : 0, 'false', fb(1)),
        ],
      ];
    }
    case 'short-answer':
      return shortAnswer(q, lose);
    case 'numeric':
      return numerical(q, lose);
    case 'calculated':
      return calculated(q, lose);
    case 'essay':
      loseCombined(q, lose);
      return ['essay', [...common(q, lose), ...essay(q.essay.formatted ? 'editor' : 'plain', 0, q.essay)]];
    case 'file-upload':
      loseCombined(q, lose);
      return ['essay', [...common(q, lose), ...essay('noinline', 1)]];
    case 'coding': {
      loseCombined(q, lose);
      lose(
        `A coding question is exported as an essay with monospaced text: its ${[
          q.language ? `language (${q.language})` : '',
          q.tests.length > 0 ? `${q.tests.length} tests and their points` : '',
          'run limits and workspace',
        ]
          .filter(Boolean)
          .join(', ')} are not carried over`,
      );
      return ['essay', [...common(q, lose), ...essay('monospaced', 0, undefined, q.starterCode ?? '')]];
    }
    case 'ordering':
      return [
        'ordering',
        [
          ...common(q, lose),
          tag('layouttype', 'VERTICAL'),
          tag('selecttype', 'ALL'),
          tag('selectcount', 0),
          tag('gradingtype', q.scoring === 'partial' ? 'RELATIVE_NEXT_EXCLUDE_LAST' : 'ALL_OR_NOTHING'),
          tag('showgrading', 'SHOW'),
          tag('numberingstyle', 'none'),
          ...combined(q.feedback),
          ...q.items.map((item, i) => el('answer', { fraction: i + 1, format: 'plain_text' }, text(item))),
        ],
      ];
    case 'matching':
      if (q.scoring === 'all-or-nothing')
        lose('All-or-nothing scoring: Moodle gives credit for each pair (partial credit)');
      return [
        'matching',
        [
          ...common(q, lose),
          tag('shuffleanswers', 'true'),
          ...combined(q.feedback),
          ...q.pairs.map((p) =>
            el('subquestion', { format: 'markdown' }, text(p.prompt), el('answer', {}, text(p.answer))),
          ),
          ...q.distractors.map((d) => el('subquestion', { format: 'markdown' }, text(''), el('answer', {}, text(d)))),
        ],
      ];
    case 'fill-blanks':
      return cloze(q, lose);
  }
}

function mcq(q: Question, lose: Lose): [string, string[]] {
  const fb = (i: number) => q.optionFeedback[i] ?? '';
  if (!q.multipleAnswers) {
    if (!q.correctAnswer) lose('It has no key (a grader decides); Moodle needs a right option');
    const answers = q.options.map((o, i) => answer(o === q.correctAnswer ? 100 : 0, o, fb(i)));
    return ['multichoice', [...common(q, lose), tag('single', 'true'), ...choiceSettings(q), ...answers]];
  }
  const right = new Set(q.correctAnswers);
  if (q.scoring === 'all-or-nothing') {
    // Moodle's all-or-nothing multiple choice plugin (qtype_multichoiceset): every right option, no wrong one.
    const answers = q.options.map((o, i) => answer(right.has(o) ? 100 : 0, o, fb(i)));
    return ['multichoiceset', [...common(q, lose), ...choiceSettings(q), ...answers]];
  }
  // Each right tick a share, each wrong tick the same share off: the platform's partial credit, exactly.
  const share = 100 / Math.max(1, right.size);
  if (!MOODLE_GRADES.some((g) => Math.abs(g - share) < 0.001))
    lose(`Each right option is worth ${share.toFixed(5)}%, which Moodle rounds to its nearest allowed grade`);
  const answers = q.options.map((o, i) => answer(right.has(o) ? share : -share, o, fb(i)));
  return ['multichoice', [...common(q, lose), tag('single', 'false'), ...choiceSettings(q), ...answers]];
}

/** The grades Moodle offers for an answer (question/format.php's grade options), in percent. */
const MOODLE_GRADES = [
  100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5,
];

const choiceSettings = (q: Question) => [
  tag('shuffleanswers', 'false'),
  tag('answernumbering', 'abc'),
  ...combined(q.feedback),
];

/** Right answers carry the correct feedback; a `*` answer worth 0 carries the incorrect feedback. */
function catchAll(q: Question, ...extra: string[]): string[] {
  return q.feedback.incorrect === '' ? [] : [answer(0, '*', q.feedback.incorrect, ...extra)];
}

function shortAnswer(q: Question, lose: Lose): [string, string[]] {
  if (q.matching.numeric) {
    lose('A short answer compared as a number is exported as a numerical question');
    return numerical(q, lose);
  }
  if (q.acceptedAnswers.length === 0) {
    lose('A short answer without accepted answers (a grader decides) is exported as an essay');
    loseCombined(q, lose);
    return ['essay', [...common(q, lose), ...essay('plain', 0)]];
  }
  loseCombined(q, lose, ['correct', 'incorrect']);
  const answers = q.acceptedAnswers.map((a) => answer(100, a.replace(/\*/g, '\\*'), q.feedback.correct));
  return [
    'shortanswer',
    [...common(q, lose), tag('usecase', q.matching.caseSensitive ? 1 : 0), ...answers, ...catchAll(q)],
  ];
}

/**
 * Units as Moodle's numerical question has them: required units are graded with a penalty of 100% (no points
 * without the right unit, as here); optional ones are not graded; without units none are shown.
 */
function units(q: Question): string[] {
  const list = q.units.units;
  return [
    tag('unitgradingtype', list.length > 0 && q.units.required ? 1 : 0),
    tag('unitpenalty', list.length > 0 && q.units.required ? 1 : 0.1),
    tag('showunits', list.length > 0 ? 0 : 3),
    tag('unitsleft', 0),
    ...(list.length > 0
      ? [
          el(
            'units',
            {},
            ...list.map((u) => el('unit', {}, tag('multiplier', num(u.multiplier)), tag('unit_name', u.symbol))),
          ),
        ]
      : []),
  ];
}

function numerical(q: Question, lose: Lose): [string, string[]] {
  loseCombined(q, lose, ['correct', 'incorrect']);
  const tolerance = q.matching.numeric;
  if (tolerance?.mode === 'relative')
    lose('Its relative tolerance is written as the same absolute tolerance for each accepted value');
  const answers = q.acceptedAnswers.map((a) => {
    const value = Number(a);
    const t = !tolerance
      ? 0
      : tolerance.mode === 'relative'
        ? tolerance.tolerance * Math.abs(value)
        : tolerance.tolerance;
    return answer(100, a.trim(), q.feedback.correct, tag('tolerance', num(t)));
  });
  return ['numerical', [...common(q, lose), ...answers, ...catchAll(q, tag('tolerance', 0)), ...units(q)]];
}

function calculated(q: Question, lose: Lose): [string, string[]] {
  loseCombined(q, lose, ['correct']);
  const calc = q.calculated;
  if (!calc) {
    lose('It has no variables and formula');
    return ['calculated', common(q, lose)];
  }
  const names = calc.variables.map((v) => v.name);
  const tolerance = q.matching.numeric ?? { tolerance: 0, mode: 'absolute' as const };
  // Moodle rounds the key to a number of decimals, or (format 2) significant figures; 9 figures stands for "exact".
  const rounding =
    calc.answerDecimals === null
      ? [tag('correctanswerformat', 2), tag('correctanswerlength', 9)]
      : [tag('correctanswerformat', 1), tag('correctanswerlength', calc.answerDecimals)];
  const key = el(
    'answer',
    { fraction: 100 },
    text(toMoodleFormula(calc.formula, names)),
    tag('tolerance', num(tolerance.tolerance)),
    tag('tolerancetype', tolerance.mode === 'relative' ? 1 : 2),
    ...rounding,
    md('feedback', q.feedback.correct),
  );
  const random = mulberry32(hashSeed(`moodle-export:${q.id}`));
  const definitions = calc.variables.map((v) =>
    el(
      'dataset_definition',
      {},
      el('status', {}, text('private')),
      el('name', {}, text(v.name)),
      tag('type', 'calculated'),
      el('distribution', {}, text('uniform')),
      el('minimum', {}, text(num(v.min))),
      el('maximum', {}, text(num(v.max))),
      el('decimals', {}, text(String(v.decimals))),
      tag('itemcount', DATASET_ITEMS),
      el(
        'dataset_items',
        {},
        ...Array.from({ length: DATASET_ITEMS }, (_x, k) =>
          el('dataset_item', {}, tag('number', k + 1), tag('value', drawValue(v, random).toFixed(v.decimals))),
        ),
      ),
      tag('number_of_items', DATASET_ITEMS),
    ),
  );
  return [
    'calculated',
    [
      ...common(q, lose),
      tag('synchronize', 0),
      tag('single', 0),
      tag('answernumbering', 'abc'),
      tag('shuffleanswers', 0),
      key,
      ...units(q),
      el('dataset_definitions', {}, ...definitions),
    ],
  ];
}

function essay(
  format: 'editor' | 'plain' | 'monospaced' | 'noinline',
  attachments: number,
  limits?: { minWords: number | null; maxWords: number | null },
  template = '',
): string[] {
  return [
    tag('responseformat', format),
    tag('responserequired', format === 'noinline' ? 0 : 1),
    tag('responsefieldlines', format === 'noinline' ? 0 : 15),
    ...(limits?.minWords ? [tag('minwordlimit', limits.minWords)] : []),
    ...(limits?.maxWords ? [tag('maxwordlimit', limits.maxWords)] : []),
    tag('attachments', attachments),
    tag('attachmentsrequired', attachments > 0 ? 1 : 0),
    md('graderinfo', ''),
    plainText('responsetemplate', template),
  ];
}

/**
 * Fill in the blanks as embedded answers: the content, a blank line, then the text with each gap written as an
 * embedded answer weighted by the gap's weight. Moodle reads whole-number weights only, so fractional weights
 * are scaled by the smallest factor that makes them whole (the shares, hence the scores, are the same).
 */
function cloze(q: Question, lose: Lose): [string, string[]] {
  loseCombined(q, lose);
  if (q.scoring === 'all-or-nothing') lose('All-or-nothing scoring: Moodle gives credit for each gap (partial credit)');
  const weights = q.blanks.map((b) => b.weight);
  const factor =
    [1, 2, 4, 5, 10, 20, 25, 50, 100].find((f) => weights.every((w) => Math.abs(w * f - Math.round(w * f)) < 1e-9)) ??
    100;
  if (factor !== 1)
    lose(`Its gap weights are not whole numbers; they are written ${factor} times larger (the same shares)`);
  const total = weights.reduce((sum, w) => sum + Math.round(w * factor), 0);
  if (total !== q.points)
    lose(
      `Moodle counts an embedded-answers question as its gap weights' sum (${total}), not ${num(q.points)} points; set its mark in the quiz`,
    );
  const gaps = splitGapText(q.gapText)
    .map((part) => {
      if ('text' in part) return part.text;
      const blank = q.blanks[part.gap];
      return blank ? formatGap(blank, Math.round(blank.weight * factor), q.matching.caseSensitive) : '';
    })
    .join('');
  const content = q.content.trim() === '' ? gaps : `${q.content.trim()}\n\n${gaps}`;
  return ['cloze', common(q, lose, content)];
}
