import { strFromU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { instantiateQuestion } from '@exam/domain/calculated';
import { autoPoints, encodeChoices, parseNumber } from '@exam/domain/grading';
import { type Question } from '@exam/domain/question';
import {
  decodeBlanks,
  decodeMatches,
  decodeOrder,
  encodeBlanks,
  encodeMatches,
  encodeOrder,
} from '@exam/domain/question-kinds';
import { exportQti } from './qti-export.ts';
import { importQti } from './qti-import.ts';
import { sampleExam } from './qti-sample.testing.ts';
import { type QtiValue, multiple, ordered, scoreItem } from './qti-scoring.testing.ts';
import { type XmlNode, child, childrenNamed, descendants, elements, local, parseXml, textOf } from './xml.ts';

const exam = sampleExam();
const files = unzipSync(exportQti(exam));
const xmlOf = (path: string) => parseXml(strFromU8(files[path]!));
const itemOf = (q: Question) => xmlOf(`items/item-${exam.questions.indexOf(q) + 1}.xml`);

/** Choice identifiers of an item by the text the candidate reads. */
function idsByText(root: XmlNode, element: string): Map<string, string> {
  return new Map(
    descendants(root, element).map((c) => [
      c.children
        .filter((x) => typeof x === 'string')
        .join('')
        .trim(),
      c.attrs.identifier!,
    ]),
  );
}

/** A number and a unit as a candidate of a QTI player gives them: the float entry and the unit list. */
function quantity(root: XmlNode, q: Question, answer: string): Record<string, QtiValue> {
  const units = [...q.units.units].sort((a, b) => b.symbol.length - a.symbol.length);
  const unit = units.find((u) => answer.trim().endsWith(u.symbol));
  const number = parseNumber(unit ? answer.trim().slice(0, -unit.symbol.length) : answer) ?? null;
  const unitIds = idsByText(root, 'qti-inline-choice');
  return { RESPONSE: number, ...(unit ? { UNIT: unitIds.get(unit.symbol)! } : {}) };
}

/**
 * The platform's answer (the string grading.ts scores) as the responses a QTI player collects for the same
 * input: option identifiers for choices, pairs for matching, one response per gap, the number and unit apart.
 */
function responsesOf(root: XmlNode, q: Question, answer: string): Record<string, QtiValue> {
  switch (q.type) {
    case 'mcq': {
      const ids = idsByText(root, 'qti-simple-choice');
      if (!q.multipleAnswers) return { RESPONSE: ids.get(answer) ?? null };
      return { RESPONSE: multiple((JSON.parse(answer) as string[]).map((t) => ids.get(t)!)) };
    }
    case 'true-false':
      return { RESPONSE: answer };
    case 'ordering': {
      const ids = idsByText(root, 'qti-simple-choice');
      return { RESPONSE: ordered(decodeOrder(answer).map((t) => ids.get(t)!)) };
    }
    case 'matching': {
      const sets = descendants(root, 'qti-simple-match-set');
      const answers = idsByText(sets[1]!, 'qti-simple-associable-choice');
      const chosen = decodeMatches(answer, q.pairs.length);
      return {
        RESPONSE: multiple(chosen.flatMap((a, i) => (a === '' ? [] : [`P${i + 1} ${answers.get(a)!}`]))),
      };
    }
    case 'fill-blanks': {
      const values = decodeBlanks(answer, q.blanks.length);
      return Object.fromEntries(
        q.blanks.map((b, k) => {
          const id = `RESPONSE_${k + 1}`;
          const v = values[k]!;
          if (b.kind === 'choice') return [id, v === '' ? null : `G${k + 1}_${b.options.indexOf(v) + 1}`];
          if (b.kind === 'numeric') return [id, parseNumber(v) ?? null];
          return [id, v];
        }),
      );
    }
    case 'numeric':
    case 'calculated':
      return quantity(root, q, answer);
    case 'short-answer':
      return q.matching.numeric ? quantity(root, q, answer) : { RESPONSE: answer };
    default:
      return {};
  }
}

/** Answers to try per question: right, wrong, partly right, spaced, cased, in other units. */
const CANDIDATES: Record<string, string[]> = {
  mcq1: ['a < b & c', 'INNER', 'LEFT  OUTER'],
  mcq2: [
    encodeChoices(['x', 'z']),
    encodeChoices(['x']),
    encodeChoices(['x', 'y']),
    encodeChoices(['y']),
    encodeChoices(['x', 'y', 'z']),
  ],
  sa1: ['3.14', '3.17', '3.1', ' 3.1716 ', '3.11', 'pi'],
  tf1: ['true', 'false'],
  ord1: [
    encodeOrder(['evaporation', 'condensation', 'precipitation', 'collection']),
    encodeOrder(['condensation', 'precipitation', 'collection', 'evaporation']),
    encodeOrder(['collection', 'precipitation', 'condensation', 'evaporation']),
    encodeOrder(['evaporation', 'precipitation', 'condensation', 'collection']),
    encodeOrder(['precipitation', 'collection', 'evaporation', 'condensation']),
  ],
  ord2: [encodeOrder(['one', 'two', 'three']), encodeOrder(['two', 'one', 'three'])],
  mat1: [
    encodeMatches(['Paris', 'Tokyo', 'Lima']),
    encodeMatches(['Paris', 'Sydney', 'Lima']),
    encodeMatches(['Tokyo', '', '']),
    encodeMatches(['', '', 'Lima']),
  ],
  mat2: [encodeMatches(['Fe', 'Au']), encodeMatches(['Fe', 'Fe'])],
  fb1: [
    encodeBlanks(['100', 'Paris', 'green']),
    encodeBlanks(['100.4', '  city   of LIGHT ', 'red']),
    encodeBlanks(['99', 'paris', 'green']),
    encodeBlanks(['101', 'Lyon', '']),
    encodeBlanks(['', 'PARIS', 'green']),
  ],
  fb2: [encodeBlanks(['Na']), encodeBlanks(['na']), encodeBlanks([' Na '])],
  num1: ['1.25', '1.26', '1.27', '125 cm', '125cm', '1250 mm', '0.125 m', '126.5 cm', ' 1.25 m '],
  num2: ['200', '209', '211', '-190', '-215', '0'],
  calc1: [],
  calc2: [],
};

describe('QTI export scored by an independent evaluator of QTI response processing', () => {
  const keyed = exam.questions.filter((q) => CANDIDATES[q.id] !== undefined);

  it.each(keyed.map((q) => [q.id, q] as const))('scores %s exactly as the platform does', (_id, q) => {
    const root = itemOf(q);
    const answers = CANDIDATES[q.id]!;
    expect(answers.length + (q.type === 'calculated' ? 1 : 0)).toBeGreaterThan(0);
    for (const answer of answers) {
      const platform = autoPoints(q, answer);
      expect(platform, `${q.id} ${answer}`).not.toBeNull();
      expect(scoreItem(root, responsesOf(root, q, answer)), `${q.id}: ${answer}`).toBeCloseTo(platform!, 9);
    }
  });

  it('gives full and partial points in the ordering and fill-in answers tried (the checks are not all zeros)', () => {
    for (const id of ['mcq2', 'ord1', 'fb1', 'mat1', 'num1', 'num2']) {
      const q = exam.questions.find((x) => x.id === id)!;
      const scores = CANDIDATES[id]!.map((a) => autoPoints(q, a)!);
      expect(scores, id).toContain(q.points);
      expect(scores, id).toContain(0);
      if (q.scoring === 'partial')
        expect(
          scores.some((s) => s > 0 && s < q.points),
          id,
        ).toBe(true);
    }
  });

  it.each(['calc1', 'calc2'])(
    'draws %s by template processing and scores each attempt’s values as the platform does',
    (id) => {
      const q = exam.questions.find((x) => x.id === id)!;
      const root = itemOf(q);
      for (const seed of ['s1', 's2', 's3', 's4', 's5', 's6']) {
        const attempt = instantiateQuestion(q, seed);
        const values = attempt.calculated!.values!;
        const key = Number(attempt.acceptedAnswers[0]);
        const unit = q.units.units.find((u) => u.multiplier !== 1);
        const tries = [
          String(key),
          String(key * 1.005),
          String(key * 1.02 + 0.5),
          ...(unit ? [`${key * unit.multiplier} ${unit.symbol}`, String(key)] : []),
        ].map((n, i) => (q.units.required && i < 3 ? `${n} ${q.units.units[0]!.symbol}` : n));
        for (const answer of tries) {
          const platform = autoPoints(attempt, answer)!;
          expect(scoreItem(root, responsesOf(root, attempt, answer), values), `${id} ${seed} ${answer}`).toBeCloseTo(
            platform,
            9,
          );
        }
        expect(autoPoints(attempt, tries[0])).toBe(q.points);
      }
    },
  );

  it('leaves essays, uploads and coding to a person (SCORE declared externally scored)', () => {
    for (const q of exam.questions.filter((x) => ['essay', 'file-upload', 'coding'].includes(x.type))) {
      const score = childrenNamed(itemOf(q), 'qti-outcome-declaration').find((o) => o.attrs.identifier === 'SCORE');
      expect(score?.attrs['external-scored'], q.id).toMatch(/^(human|externalMachine)$/);
    }
  });
});

describe('QTI export read back from its standard parts alone (as another QTI reader would)', () => {
  const bare = { ...files };
  delete bare['exam-platform/extension.json'];
  const read = importQti(zipSync(bare));
  const byTitle = (title: string) => read.questions.find((q) => q.title === title);

  it('imports every question and every passage a question shows', () => {
    expect(read.notImported).toEqual([]);
    expect(read.questions).toHaveLength(exam.questions.length);
    expect(read.passages?.map((p) => p.title)).toEqual(['The water cycle']);
    expect(read.passages?.[0]?.content).toContain('**evaporates**');
    const tf = byTitle('Rain comes from clouds')!;
    expect(tf.passageId).toBe(read.passages?.[0]?.id);
  });

  it.each(exam.questions.filter((q) => CANDIDATES[q.id] !== undefined).map((q) => [q.id, q] as const))(
    'gives back %s scoring every answer tried the same',
    (_id, q) => {
      const back = byTitle(q.title)!;
      expect(back.points).toBe(q.points);
      for (const answer of CANDIDATES[q.id]!)
        expect(autoPoints(back, answer), answer).toBeCloseTo(autoPoints(q, answer)!, 9);
    },
  );

  it('gives back the calculated questions’ variables and an equivalent formula', () => {
    for (const id of ['calc1', 'calc2']) {
      const q = exam.questions.find((x) => x.id === id)!;
      const back = byTitle(q.title)!;
      expect(back.type).toBe('calculated');
      expect(back.calculated?.variables).toEqual(q.calculated?.variables);
      expect(back.units).toEqual(q.units);
      expect(back.content).toBe(q.content);
      for (const seed of ['a', 'b', 'c']) {
        // The values are drawn from the question's id too: the same id, the same values.
        expect(Number(instantiateQuestion({ ...back, id: q.id }, seed).acceptedAnswers[0])).toBeCloseTo(
          Number(instantiateQuestion(q, seed).acceptedAnswers[0]),
          9,
        );
      }
    }
  });

  it('gives back feedback, option feedback, essay settings and units in standard QTI', () => {
    expect(byTitle('Rain comes from clouds')).toMatchObject({
      optionFeedback: ['Right: condensed vapour.', 'No: read the passage again.'],
      feedback: { general: 'See the passage.', correct: 'Well done.', partial: '', incorrect: 'Read it again.' },
    });
    expect(byTitle('Facts')?.feedback).toEqual({
      general: '',
      correct: 'All right.',
      partial: 'Some right.',
      incorrect: 'None right.',
    });
    expect(byTitle('Explain normalisation')?.essay.formatted).toBe(true);
    expect(byTitle('Length')?.units).toEqual(exam.questions.find((q) => q.id === 'num1')?.units);
  });
});

const QTI_NS = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const CP_NS = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';

/** The order QTI 3.0's schema gives the children of qti-assessment-item (AssessmentItem's sequence). */
const ITEM_ORDER = [
  'qti-context-declaration',
  'qti-assessment-stimulus-ref',
  'qti-response-declaration',
  'qti-outcome-declaration',
  'qti-template-declaration',
  'qti-template-processing',
  'qti-companion-materials-info',
  'qti-stylesheet',
  'qti-item-body',
  'qti-catalog-info',
  'qti-response-processing',
  'qti-modal-feedback',
];
const INTERACTIONS_WITH_RESPONSE =
  /^qti-(choice|order|match|associate|gap-match|inline-choice|text-entry|extended-text|upload)-interaction$/;

describe('the exported package holds what the QTI 3.0 and content packaging specifications require', () => {
  const manifest = xmlOf('imsmanifest.xml');
  const resources = descendants(manifest, 'resource');

  it('declares the namespaces and schema locations of QTI 3.0 and its content packaging', () => {
    expect(manifest.attrs.xmlns).toBe(CP_NS);
    expect(manifest.attrs['xsi:schemaLocation']).toContain(CP_NS);
    expect(manifest.attrs.identifier).toBeTruthy();
    for (const path of Object.keys(files).filter((p) => p.endsWith('.xml') && p !== 'imsmanifest.xml')) {
      const root = xmlOf(path);
      expect(root.attrs.xmlns, path).toBe(QTI_NS);
      expect(root.attrs.identifier, path).toMatch(/^[A-Za-z_][\w.-]*$/);
      expect(root.attrs.title, path).toBeTruthy();
    }
  });

  it('lists every file of the zip in the manifest, each href present, each dependency a resource', () => {
    const ids = new Set(resources.map((r) => r.attrs.identifier));
    expect(ids.size).toBe(resources.length);
    const listed = resources.flatMap((r) => descendants(r, 'file').map((f) => f.attrs.href!));
    expect(listed.sort()).toEqual(
      Object.keys(files)
        .filter((p) => p !== 'imsmanifest.xml')
        .sort(),
    );
    for (const r of resources) {
      expect(files[r.attrs.href!], r.attrs.href).toBeDefined();
      expect(r.attrs.type).toMatch(/^(imsqti_(item|test|stimulus)_xmlv3p0|webcontent)$/);
      for (const d of descendants(r, 'dependency')) expect(ids.has(d.attrs.identifierref)).toBe(true);
    }
  });

  it('puts no foreign element in the manifest: no resource metadata, only content packaging elements', () => {
    for (const r of resources) expect(child(r, 'metadata')).toBeUndefined();
    const names = new Set(descendants(manifest, 'metadata').flatMap((m) => elements(m).map((e) => e.name)));
    expect([...names].sort()).toEqual(['schema', 'schemaversion']);
    const all = [manifest, ...descendants(manifest, 'resource'), ...descendants(manifest, 'file')];
    expect(all.filter((e) => e.name.includes(':'))).toEqual([]);
  });

  it('writes each item’s children in the schema’s order, one declaration per interaction, unique identifiers', () => {
    for (const q of exam.questions) {
      const root = itemOf(q);
      expect(root.attrs['time-dependent'], q.id).toBe('false');
      const order = elements(root).map((e) => ITEM_ORDER.indexOf(local(e.name)));
      expect(
        order.every((n) => n >= 0),
        q.id,
      ).toBe(true);
      expect(
        [...order].sort((a, b) => a - b),
        q.id,
      ).toEqual(order);
      const declared = childrenNamed(root, 'qti-response-declaration').map((d) => d.attrs.identifier);
      const used = elementsDeep(root)
        .filter((e) => INTERACTIONS_WITH_RESPONSE.test(local(e.name)))
        .map((e) => e.attrs['response-identifier']);
      expect([...used].sort(), q.id).toEqual([...declared].sort());
      for (const d of childrenNamed(root, 'qti-response-declaration')) {
        expect(d.attrs.cardinality, q.id).toMatch(/^(single|multiple|ordered)$/);
        expect(d.attrs['base-type'], q.id).toMatch(/^(identifier|string|float|integer|directedPair|pair|file)$/);
      }
      const outcomes = childrenNamed(root, 'qti-outcome-declaration').map((d) => d.attrs.identifier);
      expect(outcomes, q.id).toContain('SCORE');
      const idents = elementsDeep(root).flatMap((e) =>
        /^qti-(simple-choice|simple-associable-choice|inline-choice|gap-text|gap)$/.test(local(e.name))
          ? [e.attrs.identifier]
          : [],
      );
      expect(new Set(idents).size, q.id).toBe(idents.length);
      for (const v of descendants(root, 'qti-variable'))
        expect(
          [...declared, ...outcomes, ...childrenNamed(root, 'qti-template-declaration').map((t) => t.attrs.identifier)],
          `${q.id} ${v.attrs.identifier}`,
        ).toContain(v.attrs.identifier);
    }
  });

  it('writes question text as XHTML, never Markdown', () => {
    const mcq = itemOf(exam.questions[0]!);
    expect(descendants(mcq, 'strong').map(textOf)).toEqual(['all']);
    expect(descendants(mcq, 'code').map(textOf)).toEqual(['code']);
    for (const q of exam.questions)
      expect(textOf(child(itemOf(q), 'qti-item-body')), q.id).not.toMatch(/\*\*|\[\[\d\]\]/);
    const stimulus = xmlOf('stimuli/passage-1.xml');
    expect(local(stimulus.name)).toBe('qti-assessment-stimulus');
    expect(descendants(stimulus, 'td').map(textOf)).toEqual(['rain', 'clouds']);
  });

  it('points each item showing a passage at its stimulus, and the href resolves inside the package', () => {
    const tf = itemOf(exam.questions.find((q) => q.id === 'tf1')!);
    const ref = child(tf, 'qti-assessment-stimulus-ref')!;
    expect(ref.attrs).toMatchObject({ identifier: 'passage-1', href: '../stimuli/passage-1.xml' });
    const item = resources.find(
      (r) => r.attrs.href === `items/item-${exam.questions.findIndex((q) => q.id === 'tf1') + 1}.xml`,
    )!;
    expect(descendants(item, 'dependency').map((d) => d.attrs.identifierref)).toEqual(['passage-1']);
  });

  it('writes no response-processing template (their SCORE is 1, not the question’s points)', () => {
    for (const q of exam.questions)
      expect(child(itemOf(q), 'qti-response-processing')?.attrs.template, q.id).toBeUndefined();
  });
});

function elementsDeep(node: XmlNode): XmlNode[] {
  return elements(node).flatMap((e) => [e, ...elementsDeep(e)]);
}
