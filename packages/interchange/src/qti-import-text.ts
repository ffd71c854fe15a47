import { type Blank, type Unit } from '@exam/domain/question-kinds';
import { markdownOf } from './html-text.ts';
import { type QuestionDraft } from './model.ts';
import {
  type Base,
  EMPTY,
  INTERACTION_TEXT_SKIP,
  type ResponseRead,
  keysOf,
  pointsOf,
  processingOf,
  responseOf,
} from './qti-import-parts.ts';
import { calculatedOf, calculatedTolerance } from './qti-template-import.ts';
import { type XmlNode, childrenNamed, descendants, elements, local, textOf } from './xml.ts';

/**
 * The typed-answer family read as questions: a text entry (short answer; numeric with its unit list; calculated
 * when template variables draw its numbers) and text entries and drop-downs in a text (fill-in-the-blanks).
 */

function caseSensitiveOf(root: XmlNode, r: ResponseRead): boolean | 'mixed' {
  const flags = new Set(r.entries.map((e) => e.attrs['case-sensitive'] === 'true'));
  const id = r.declaration?.attrs.identifier;
  for (const m of descendants(root, 'qti-string-match'))
    if (descendants(m, 'qti-variable').some((v) => v.attrs.identifier === id))
      flags.add(m.attrs['case-sensitive'] !== 'false');
  if (flags.size > 1) return 'mixed';
  return flags.has(true);
}

/** The absolute tolerance the processing allows a float response (qti-equal), 0 when exact. */
export function toleranceOf(
  root: XmlNode,
  id: string | undefined,
): { tolerance: number; mode: 'absolute' | 'relative' } | null {
  const equal = descendants(root, 'qti-equal').find((e) =>
    descendants(e, 'qti-variable').some((v) => v.attrs.identifier === id),
  );
  if (!equal) return null;
  const t = Number((equal.attrs.tolerance ?? '0').trim().split(/\s+/)[0]);
  if (equal.attrs['tolerance-mode'] === 'absolute') return { tolerance: t, mode: 'absolute' };
  if (equal.attrs['tolerance-mode'] === 'relative') return { tolerance: t / 100, mode: 'relative' };
  return { tolerance: 0, mode: 'absolute' };
}

export function textEntryDraft(r: ResponseRead, base: Base): QuestionDraft | string {
  const best = Math.max(0, ...r.entries.map((e) => Number(e.attrs['mapped-value'] ?? 0)));
  const partial = r.entries.filter((e) => {
    const v = Number(e.attrs['mapped-value'] ?? 0);
    return v > 0 && v < best;
  });
  if (partial.length > 0)
    return `It gives part of the points for ${partial.map((e) => `"${e.attrs['map-key']}"`).join(', ')}; a short answer here is right or wrong`;
  const sensitivity = new Set(
    r.entries
      .filter((e) => Number(e.attrs['mapped-value'] ?? 0) === best)
      .map((e) => e.attrs['case-sensitive'] === 'true'),
  );
  if (sensitivity.size > 1) return 'Some accepted answers are case-sensitive and others are not';
  return {
    ...base,
    type: 'short-answer',
    acceptedAnswers: keysOf(r),
    matching: { caseSensitive: sensitivity.has(true), numeric: null },
  };
}

/** Numeric (a float entry, with a unit list when there is one) and calculated (the same with template variables). */
export function quantityDraft(
  root: XmlNode,
  _body: XmlNode,
  base: Base,
  unit: XmlNode | undefined,
  templated: boolean,
): QuestionDraft | string {
  const units: Unit[] = [];
  if (unit) {
    const rp = processingOf(root) ?? EMPTY;
    for (const choice of childrenNamed(unit, 'qti-inline-choice')) {
      const chosen = descendants(rp, 'qti-and').find((a) =>
        descendants(a, 'qti-base-value').some((b) => textOf(b).trim() === choice.attrs.identifier),
      );
      const divide = chosen ? descendants(chosen, 'qti-divide')[0] : undefined;
      const multiplier = divide ? Number(textOf(descendants(divide, 'qti-base-value')[0])) : 1;
      units.push({ symbol: textOf(choice).trim(), multiplier });
    }
  }
  const unitSettings = { units, required: unit?.attrs.required === 'true' };
  if (templated) {
    const calculated = calculatedOf(root, 'RESPONSE');
    if (typeof calculated === 'string') return calculated;
    const title = base.title;
    return {
      ...base,
      title,
      type: 'calculated',
      calculated: { ...calculated, values: null },
      units: unitSettings,
      matching: { caseSensitive: false, numeric: calculatedTolerance(root) },
    };
  }
  const r = responseOf(root, 'RESPONSE');
  const accepted = keysOf(r);
  return {
    ...base,
    type: 'numeric',
    acceptedAnswers: accepted,
    units: unitSettings,
    matching: { caseSensitive: false, numeric: toleranceOf(root, 'RESPONSE') },
  };
}

/** Text entries and drop-downs inline in a text: a fill-in-the-blanks question, each gap keyed on its own. */
export function blanksDraft(root: XmlNode, body: XmlNode, interactions: XmlNode[], base: Base): QuestionDraft | string {
  const blanks: Blank[] = [];
  let caseSensitive: boolean | undefined;
  for (const [k, interaction] of interactions.entries()) {
    const r = responseOf(root, interaction.attrs['response-identifier']);
    const weight = Math.max(0.01, Number(r.entries[0]?.attrs['mapped-value'] ?? 1) || 1);
    if (local(interaction.name) === 'qti-inline-choice-interaction') {
      const choices = childrenNamed(interaction, 'qti-inline-choice');
      const textOfId = new Map(choices.map((c) => [c.attrs.identifier ?? '', textOf(c).trim()]));
      const accepted = keysOf(r)
        .map((id) => textOfId.get(id))
        .filter((t): t is string => t !== undefined);
      if (accepted.length === 0) return `Gap ${k + 1} has no right answer`;
      blanks.push({ kind: 'choice', accepted, options: [...textOfId.values()], tolerance: 0, weight });
      continue;
    }
    const accepted = keysOf(r);
    if (accepted.length === 0) return `Gap ${k + 1} has no right answer`;
    if (r.baseType === 'float' || r.baseType === 'integer') {
      blanks.push({
        kind: 'numeric',
        accepted,
        options: [],
        tolerance: toleranceOf(root, r.declaration?.attrs.identifier)?.tolerance ?? 0,
        weight,
      });
      continue;
    }
    const sensitive = caseSensitiveOf(root, r);
    if (sensitive === 'mixed' || (caseSensitive !== undefined && caseSensitive !== sensitive))
      return 'Some gaps compare case and others do not; a fill-in-the-blanks question compares all its gaps alike';
    caseSensitive = sensitive;
    blanks.push({ kind: 'text', accepted, options: [], tolerance: 0, weight });
  }
  const number = new Map(interactions.map((i, k) => [i, `[[${k + 1}]]`]));
  const replace = (n: XmlNode) => number.get(n);
  const gapDiv = descendants(body, 'div').find((d) => (d.attrs.class ?? '').split(' ').includes('exam-gap-text'));
  const content = gapDiv ? markdownOf(body.children, new Set(['div'])) : '';
  const gapText = markdownOf((gapDiv ?? body).children, INTERACTION_TEXT_SKIP, replace);
  const rp = processingOf(root);
  const first = rp && descendants(rp, 'qti-response-if')[0];
  const allOrNothing =
    (rp?.attrs.template ?? '').includes('match_correct') ||
    (first !== undefined && local(elements(first)[0]?.name ?? '') === 'qti-and');
  const points = pointsOf(root, interactions.length);
  return {
    ...base,
    points,
    content,
    type: 'fill-blanks',
    gapText,
    blanks,
    scoring: allOrNothing ? 'all-or-nothing' : 'partial',
    matching: { caseSensitive: caseSensitive ?? false, numeric: null },
  };
}
