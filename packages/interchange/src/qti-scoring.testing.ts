import { type XmlNode, child, childrenNamed, elements, local, textOf } from './xml.ts';

/**
 * Test helper: an evaluator of the QTI 3.0 response and template processing the export writes (1EdTech QTI 3.0
 * ASI, "Response Processing", "Template Processing", "Expressions"), written from the specification to play the
 * part of an independent QTI player: given an item and a candidate's responses, it computes SCORE. Drawn template
 * variables take the values given, so a calculated item can be scored for the values an attempt drew.
 */

type Container = { container: 'multiple' | 'ordered'; items: Scalar[] };
type Scalar = number | string | boolean;
export type QtiValue = Scalar | Container | null;

const isContainer = (v: QtiValue): v is Container => typeof v === 'object' && v !== null;

class Item {
  readonly vars = new Map<string, QtiValue>();
  readonly correct = new Map<string, QtiValue>();
  readonly mappings = new Map<string, XmlNode>();
  readonly baseTypes = new Map<string, string>();

  readonly root: XmlNode;

  constructor(root: XmlNode) {
    this.root = root;
    for (const d of childrenNamed(root, 'qti-response-declaration')) {
      const id = d.attrs.identifier!;
      this.baseTypes.set(id, d.attrs['base-type'] ?? '');
      const values = childrenNamed(child(d, 'qti-correct-response') ?? d, 'qti-value').map((v) =>
        this.scalar(id, textOf(v)),
      );
      const c = child(d, 'qti-correct-response');
      if (c)
        this.correct.set(
          id,
          d.attrs.cardinality === 'single'
            ? values[0]!
            : { container: d.attrs.cardinality === 'ordered' ? 'ordered' : 'multiple', items: values },
        );
      const mapping = child(d, 'qti-mapping');
      if (mapping) this.mappings.set(id, mapping);
    }
    for (const d of childrenNamed(root, 'qti-outcome-declaration')) {
      const def = child(d, 'qti-default-value');
      const base = d.attrs['base-type'];
      this.vars.set(
        d.attrs.identifier!,
        def ? Number(textOf(child(def, 'qti-value'))) : base === 'float' || base === 'integer' ? 0 : null,
      );
    }
  }

  scalar(id: string, text: string): Scalar {
    const t = this.baseTypes.get(id);
    return t === 'float' || t === 'integer' ? Number(text) : text.trim();
  }

  /** Template processing with the drawn variables set to `drawn`. */
  template(drawn: Record<string, number>) {
    const tp = child(this.root, 'qti-template-processing');
    if (!tp) return;
    for (const rule of elements(tp)) {
      const kind = local(rule.name);
      const id = rule.attrs.identifier!;
      if (kind === 'qti-set-template-value')
        this.vars.set(id, id in drawn ? drawn[id]! : this.eval(elements(rule)[0]!));
      else if (kind === 'qti-set-correct-response') this.correct.set(id, this.eval(elements(rule)[0]!));
      else if (kind !== 'qti-template-constraint') throw new Error(`template rule ${kind} is not evaluated`);
    }
  }

  run(rules: XmlNode[]) {
    for (const rule of rules) {
      const kind = local(rule.name);
      if (kind === 'qti-set-outcome-value') this.vars.set(rule.attrs.identifier!, this.eval(elements(rule)[0]!));
      else if (kind === 'qti-response-condition') {
        for (const branch of elements(rule)) {
          const [cond, ...then] = elements(branch);
          if (local(branch.name) === 'qti-response-else') {
            this.run(elements(branch));
            break;
          }
          if (this.eval(cond!) === true) {
            this.run(then);
            break;
          }
        }
      } else throw new Error(`response rule ${kind} is not evaluated`);
    }
  }

  eval(e: XmlNode): QtiValue {
    const args = () => elements(e).map((a) => this.eval(a));
    const nums = () => args().map((a) => (a === null ? null : Number(a)));
    const name = local(e.name);
    switch (name) {
      case 'qti-base-value':
        return ['float', 'integer'].includes(e.attrs['base-type']!) ? Number(textOf(e)) : textOf(e).trim();
      case 'qti-variable':
        return this.vars.get(e.attrs.identifier!) ?? null;
      case 'qti-correct':
        return this.correct.get(e.attrs.identifier!) ?? null;
      case 'qti-multiple':
        return { container: 'multiple', items: args().filter((a): a is Scalar => a !== null && !isContainer(a)) };
      case 'qti-match': {
        const [a, b] = args();
        if (a === null || b === null || a === undefined || b === undefined) return null;
        if (isContainer(a) && isContainer(b)) {
          if (a.items.length !== b.items.length) return false;
          if (a.container === 'ordered') return a.items.every((x, i) => x === b.items[i]);
          return a.items.every((x) => b.items.includes(x)) && b.items.every((x) => a.items.includes(x));
        }
        return a === b;
      }
      case 'qti-and': {
        const v = args();
        if (v.some((x) => x === false)) return false;
        return v.some((x) => x === null) ? null : true;
      }
      case 'qti-or': {
        const v = args();
        if (v.some((x) => x === true)) return true;
        return v.some((x) => x === null) ? null : false;
      }
      case 'qti-not': {
        const [v] = args();
        return v === null || v === undefined ? null : !v;
      }
      case 'qti-is-null': {
        const [v] = args();
        return v === null || v === '' || (isContainer(v!) && v.items.length === 0);
      }
      case 'qti-pattern-match': {
        const [v] = args();
        if (v === null || typeof v !== 'string') return null;
        return new RegExp(`^(?:${e.attrs.pattern})$`, 'u').test(v);
      }
      case 'qti-string-match': {
        const [a, b] = args();
        if (typeof a !== 'string' || typeof b !== 'string') return null;
        return e.attrs['case-sensitive'] === 'false' ? a.toLowerCase() === b.toLowerCase() : a === b;
      }
      case 'qti-equal': {
        const [a, b] = nums();
        if (a === null || b === null || a === undefined || b === undefined || Number.isNaN(a)) return null;
        if (e.attrs['tolerance-mode'] === 'absolute') {
          const [t0, t1] = (e.attrs.tolerance ?? '0').split(/\s+/).map(Number);
          return a >= b - t0! && a <= b + (t1 ?? t0!);
        }
        if (e.attrs['tolerance-mode'] === 'relative') {
          const [t0, t1] = (e.attrs.tolerance ?? '0').split(/\s+/).map(Number);
          return a >= b * (1 - t0! / 100) && a <= b * (1 + (t1 ?? t0!) / 100);
        }
        return a === b;
      }
      case 'qti-lte':
      case 'qti-gte':
      case 'qti-gt': {
        const [a, b] = nums();
        if (a === null || b === null || a === undefined || b === undefined || Number.isNaN(a) || Number.isNaN(b))
          return null;
        return name === 'qti-lte' ? a <= b : name === 'qti-gte' ? a >= b : a > b;
      }
      case 'qti-sum':
      case 'qti-product':
      case 'qti-min':
      case 'qti-max': {
        const v = nums();
        if (v.some((x) => x === null)) return null;
        const n = v as number[];
        if (name === 'qti-sum') return n.reduce((s, x) => s + x, 0);
        if (name === 'qti-product') return n.reduce((s, x) => s * x, 1);
        return name === 'qti-min' ? Math.min(...n) : Math.max(...n);
      }
      case 'qti-subtract':
      case 'qti-divide':
      case 'qti-power': {
        const [a, b] = nums();
        if (a === null || b === null || a === undefined || b === undefined) return null;
        if (name === 'qti-divide' && b === 0) return null;
        const r = name === 'qti-subtract' ? a - b : name === 'qti-divide' ? a / b : a ** b;
        return Number.isFinite(r) ? r : null;
      }
      case 'qti-math-constant':
        return e.attrs.name === 'e' ? Math.E : Math.PI;
      case 'qti-math-operator': {
        const [x] = nums();
        if (x === null || x === undefined) return null;
        const fns: Record<string, (n: number) => number> = {
          abs: Math.abs,
          exp: Math.exp,
          ln: Math.log,
          log: Math.log10,
          sin: Math.sin,
          cos: Math.cos,
          tan: Math.tan,
          asin: Math.asin,
          acos: Math.acos,
          atan: Math.atan,
          floor: Math.floor,
          ceil: Math.ceil,
        };
        const r = fns[e.attrs.name!]!(x);
        return Number.isFinite(r) ? r : null;
      }
      case 'qti-round-to': {
        const [x] = nums();
        if (x === null || x === undefined) return null;
        if (e.attrs['rounding-mode'] !== 'decimalPlaces') throw new Error('only decimal places are evaluated');
        return roundToPlaces(x, Number(e.attrs.figures));
      }
      case 'qti-round': {
        const [x] = nums();
        if (x === null || x === undefined) return null;
        // Round: the result is n for every value in [n − 0.5, n + 0.5) (−6.5 rounds up to −6).
        return Math.floor(x + 0.5);
      }
      case 'qti-index': {
        const [c] = args();
        if (!c || !isContainer(c)) return null;
        return c.items[Number(e.attrs.n) - 1] ?? null;
      }
      case 'qti-container-size': {
        const [c] = args();
        return c && isContainer(c) ? c.items.length : 0;
      }
      case 'qti-map-response': {
        const id = e.attrs.identifier!;
        const mapping = this.mappings.get(id)!;
        const value = this.vars.get(id) ?? null;
        const keys = value === null ? [] : isContainer(value) ? [...new Set(value.items)] : [value];
        const entries = childrenNamed(mapping, 'qti-map-entry');
        let sum = 0;
        for (const k of keys) {
          const entry = entries.find((m) => m.attrs['map-key'] === String(k));
          sum += entry ? Number(entry.attrs['mapped-value']) : Number(mapping.attrs['default-value'] ?? 0);
        }
        const lower = mapping.attrs['lower-bound'];
        const upper = mapping.attrs['upper-bound'];
        if (lower !== undefined) sum = Math.max(Number(lower), sum);
        if (upper !== undefined) sum = Math.min(Number(upper), sum);
        return sum;
      }
      default:
        throw new Error(`${name} is not evaluated`);
    }
  }
}

/**
 * RoundTo in decimal places as the specification words it: in the number written as a decimal, the (n + 1)th digit
 * after the point decides; 5 or more increases the nth digit by 1, and the digits after it are dropped. The digits
 * are the magnitude's, the sign is kept (−2.45 → −2.5).
 */
export function roundToPlaces(x: number, n: number): number {
  const written = String(Math.abs(x));
  const digits = written.includes('e') ? Math.abs(x).toFixed(Math.min(100, n + 20)) : written;
  const [whole = '0', fraction = ''] = digits.split('.');
  const kept = Number(whole + fraction.slice(0, n).padEnd(n, '0'));
  const magnitude = (kept + (Number(fraction[n] ?? '0') >= 5 ? 1 : 0)) / 10 ** n;
  return x < 0 ? -magnitude : magnitude;
}

/** SCORE of an item for the responses given (a response left out is NULL), drawn variables set to `drawn`. */
export function scoreItem(
  root: XmlNode,
  responses: Record<string, QtiValue>,
  drawn: Record<string, number> = {},
): number | null {
  const item = new Item(root);
  item.template(drawn);
  for (const [id, v] of Object.entries(responses)) item.vars.set(id, v);
  for (const d of childrenNamed(root, 'qti-response-declaration'))
    if (!item.vars.has(d.attrs.identifier!)) item.vars.set(d.attrs.identifier!, null);
  const rp = child(root, 'qti-response-processing');
  if (!rp) return null;
  if (rp.attrs.template) throw new Error('response processing templates are not evaluated');
  item.run(elements(rp));
  const score = item.vars.get('SCORE');
  return typeof score === 'number' ? score : null;
}

/** The correct response of a response after template processing (the calculated key a player would compute). */
export function correctOf(root: XmlNode, id: string, drawn: Record<string, number>): QtiValue {
  const item = new Item(root);
  item.template(drawn);
  return item.correct.get(id) ?? null;
}

export const multiple = (items: Scalar[]): Container => ({ container: 'multiple', items });
export const ordered = (items: Scalar[]): Container => ({ container: 'ordered', items });
