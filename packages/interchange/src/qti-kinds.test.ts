import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { importQti } from './qti-import.ts';
import { fixture } from './testing.ts';

const kinds = (name: string) => fixture(`qti/question-kinds/${name}`);

/** A package of the fixtures named, with a manifest listing them (as another tool's export would). */
function packageOf(names: string[]): Uint8Array {
  const resources = names
    .map((n) => {
      const type = n.startsWith('stimulus.') ? 'imsqti_stimulus_xmlv3p0' : 'imsqti_item_xmlv3p0';
      return `<resource identifier="${n.replace(/\W/g, '_')}" type="${type}" href="${n}"><file href="${n}"/></resource>`;
    })
    .join('');
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="kinds">
<metadata><schema>QTI Package</schema><schemaversion>3.0.0</schemaversion></metadata><organizations/>
<resources>${resources}</resources></manifest>`;
  return zipSync({
    'imsmanifest.xml': new TextEncoder().encode(manifest),
    ...Object.fromEntries(names.map((n) => [n, kinds(n)])),
  });
}

describe('QTI 3.0 import of the further interactions (fixtures written from the specification)', () => {
  it('keeps feedback inside a choice out of the option text, as the option’s feedback', () => {
    const [q] = importQti(kinds('inline-feedback.xml')).questions;
    expect(q).toMatchObject({
      type: 'true-false',
      correctAnswer: 'true',
      optionFeedback: ["That's correct: about four times faster.", 'No: water carries sound better.'],
    });
  });

  it('makes a stimulus the exam’s passage and points the item at it', () => {
    const read = importQti(packageOf(['stimulus.xml', 'stimulus-ref.xml']));
    expect(read.notImported).toEqual([]);
    expect(read.passages).toEqual([
      {
        id: 'passage1',
        title: 'The water cycle',
        content:
          'Water evaporates from the sea, condenses into clouds and falls again as rain or snow.\n\nRivers carry it back to the sea, and the cycle begins again.',
      },
    ]);
    expect(read.questions[0]).toMatchObject({
      type: 'mcq',
      passageId: 'passage1',
      correctAnswer: 'Condensing water vapour',
    });
  });

  it('says so when an item’s stimulus is not in the file', () => {
    const read = importQti(kinds('stimulus-ref.xml'));
    expect(read.questions[0]?.passageId).toBeNull();
    expect(read.warnings).toEqual([
      expect.objectContaining({ ref: 'stimulusref1', reason: expect.stringContaining('is not in the file') }),
    ]);
  });

  it('reads template variables as a calculated question', () => {
    const read = importQti(kinds('template.xml'));
    expect(read.notImported).toEqual([]);
    expect(read.questions[0]).toMatchObject({
      type: 'calculated',
      content: 'A rectangle is {W} cm wide and {H} cm high. What is its area in cm²?',
      calculated: {
        formula: 'W * H',
        variables: [
          { name: 'W', min: 2, max: 9, decimals: 0 },
          { name: 'H', min: 2, max: 9, decimals: 0 },
        ],
        answerDecimals: null,
      },
    });
  });

  it('lists a template it cannot express, with the reason', () => {
    const text = new TextDecoder()
      .decode(kinds('template.xml'))
      .replace('<qti-random-integer min="2" max="9"/>', '<qti-random-integer min="2" max="9" step="2"/>');
    const read = importQti(new TextEncoder().encode(text));
    expect(read.questions).toEqual([]);
    expect(read.notImported[0]?.reason).toMatch(/cannot be a calculated question: W is drawn in steps of 2/);
  });

  it('reads order, associate, gap match and inline choice with text gaps', () => {
    const order = importQti(kinds('order.xml')).questions[0];
    expect(order).toMatchObject({
      type: 'ordering',
      items: ['Mercury', 'Venus', 'Earth', 'Mars'],
      scoring: 'all-or-nothing',
    });

    const associate = importQti(kinds('associate.xml'));
    expect(associate.questions[0]).toMatchObject({
      type: 'matching',
      pairs: [
        { prompt: 'hot', answer: 'cold' },
        { prompt: 'up', answer: 'down' },
      ],
      scoring: 'partial',
      points: 2,
    });
    expect(associate.warnings?.[0]?.reason).toMatch(/first choice of each right pair is the prompt/);

    const gapMatch = importQti(kinds('gap-match.xml'));
    expect(gapMatch.questions[0]).toMatchObject({
      type: 'fill-blanks',
      gapText: 'Snow falls in [[1]], and the days are longest in [[2]].',
      blanks: [
        { kind: 'choice', accepted: ['winter'], options: ['winter', 'summer', 'autumn'] },
        { kind: 'choice', accepted: ['summer'], options: ['winter', 'summer', 'autumn'] },
      ],
      scoring: 'partial',
    });
    expect(gapMatch.warnings?.[0]?.reason).toMatch(/choosing from a list/);

    const gaps = importQti(kinds('inline-choice-and-gaps.xml')).questions[0];
    expect(gaps).toMatchObject({
      type: 'fill-blanks',
      gapText: 'Plants give off [[1]], their leaves are usually [[2]], and water boils at [[3]] °C at sea level.',
      blanks: [
        { kind: 'choice', accepted: ['oxygen'], options: ['oxygen', 'nitrogen'] },
        { kind: 'text', accepted: ['green'] },
        { kind: 'numeric', accepted: ['100'], tolerance: 0.5 },
      ],
      scoring: 'partial',
      points: 3,
      matching: { caseSensitive: false },
    });
  });
});
