import { type FormulaNode, FORMULA_FUNCTIONS, type FormulaFunction } from '@exam/domain/formula';
import { type CalculatedSettings, type CalculatedVariable } from '@exam/domain/question-kinds';
import { MATH_OPERATORS } from './qti-processing.ts';
import { type XmlNode, child, childrenNamed, descendants, elements, local, textOf } from './xml.ts';

/**
 * QTI template variables as a calculated question (question-kinds.ts): each variable drawn at random in a range
 * becomes a variable with min, max and decimals, and the expression the correct response is set to becomes the
 * formula (template variables computed from others are substituted into it). Anything else a template does
 * (conditions, random choices from a list, steps, strings) has no calculated equivalent: the reason is returned.
 */

/** The qti-math-operator names read back into our functions: MATH_OPERATORS reversed. */
const REVERSE_OPERATORS: Partial<Record<string, FormulaFunction>> = Object.fromEntries(
  Object.entries(MATH_OPERATORS).map(([ours, qti]) => [qti, ours as FormulaFunction]),
);

class Unsupported extends Error {}

const decimalsOf = (s: string | undefined) => (s && s.includes('.') ? s.split('.')[1]!.replace(/0+$/, '').length : 0);

/** A drawn variable, or undefined when the expression is not a random draw. */
function drawOf(name: string, expr: XmlNode): CalculatedVariable | undefined {
  const kind = local(expr.name);
  const int = (node: XmlNode) => {
    if (node.attrs.step !== undefined && node.attrs.step !== '1')
      throw new Unsupported(`${name} is drawn in steps of ${node.attrs.step}`);
    const min = Number(node.attrs.min ?? 0);
    const max = Number(node.attrs.max);
    if (!Number.isFinite(min) || !Number.isFinite(max)) throw new Unsupported(`${name}'s range refers to a variable`);
    return { min, max };
  };
  if (kind === 'qti-random-integer') return { name, ...int(expr), decimals: 0 };
  if (kind === 'qti-random-float') {
    const min = Number(expr.attrs.min ?? 0);
    const max = Number(expr.attrs.max);
    if (!Number.isFinite(min) || !Number.isFinite(max)) throw new Unsupported(`${name}'s range refers to a variable`);
    return {
      name,
      min,
      max,
      decimals: Math.min(6, Math.max(2, decimalsOf(expr.attrs.min), decimalsOf(expr.attrs.max))),
    };
  }
  // A whole number of 10^-d steps: qti-divide(qti-random-integer, 10^d), as the platform's own export writes.
  const [random, scale] = elements(expr);
  if (kind === 'qti-divide' && random && local(random.name) === 'qti-random-integer' && scale) {
    const factor = Number(textOf(scale));
    const decimals = Math.round(Math.log10(factor));
    if (10 ** decimals === factor && decimals >= 0 && decimals <= 6) {
      const { min, max } = int(random);
      return { name, min: min / factor, max: max / factor, decimals };
    }
  }
  return undefined;
}

const binary = (op: '+' | '-' | '*' | '/' | '^', args: FormulaNode[]): FormulaNode =>
  args.reduce((left, right) => ({ kind: 'binary', op, left, right }));

/** A QTI expression as a formula tree, with computed template variables expanded. */
function formulaOf(expr: XmlNode, computed: ReadonlyMap<string, XmlNode>, drawn: ReadonlySet<string>): FormulaNode {
  const args = () => elements(expr).map((e) => formulaOf(e, computed, drawn));
  switch (local(expr.name)) {
    case 'qti-base-value': {
      const value = Number(textOf(expr).trim());
      if (!Number.isFinite(value)) throw new Unsupported(`the value "${textOf(expr).trim()}" is not a number`);
      return { kind: 'number', value };
    }
    case 'qti-variable': {
      const name = expr.attrs.identifier ?? '';
      if (drawn.has(name)) return { kind: 'variable', name };
      const definition = computed.get(name);
      if (definition) return formulaOf(definition, computed, drawn);
      throw new Unsupported(`it uses ${name}, which is not drawn at random`);
    }
    case 'qti-math-constant':
      return { kind: 'constant', name: expr.attrs.name === 'e' ? 'e' : 'pi' };
    case 'qti-sum':
      return binary('+', args());
    case 'qti-subtract':
      return binary('-', args());
    case 'qti-product': {
      const all = args();
      const [first, second] = all;
      if (all.length === 2 && first?.kind === 'number' && first.value === -1)
        return { kind: 'negate', operand: second! };
      return binary('*', all);
    }
    case 'qti-divide':
      return binary('/', args());
    case 'qti-power': {
      const [base, exponent] = args();
      if (exponent?.kind === 'number' && exponent.value === 0.5) return { kind: 'call', name: 'sqrt', args: [base!] };
      return binary('^', [base!, exponent!]);
    }
    case 'qti-min':
    case 'qti-max':
      return { kind: 'call', name: local(expr.name) === 'qti-min' ? 'min' : 'max', args: args() };
    case 'qti-round': {
      // QTI 3.0 ASI Information Model, the Round operator: the result is n for every value in [n − 0.5, n + 0.5),
      // so −6.5 rounds up to −6, where the formula language's round() takes halves away from zero (−7). floor(x + 0.5)
      // is QTI's rounding exactly.
      const [x] = args();
      return {
        kind: 'call',
        name: 'floor',
        args: [{ kind: 'binary', op: '+', left: x!, right: { kind: 'number', value: 0.5 } }],
      };
    }
    case 'qti-round-to':
      if (expr.attrs['rounding-mode'] !== 'decimalPlaces') throw new Unsupported('it rounds to significant figures');
      return { kind: 'call', name: 'round', args: [...args(), { kind: 'number', value: Number(expr.attrs.figures) }] };
    case 'qti-math-operator': {
      const name = REVERSE_OPERATORS[expr.attrs.name ?? ''];
      if (!name) throw new Unsupported(`it uses the math operator "${expr.attrs.name}"`);
      return { kind: 'call', name, args: args() };
    }
    default:
      throw new Unsupported(`it uses ${local(expr.name)}`);
  }
}

const PRECEDENCE = { '+': 1, '-': 1, '*': 2, '/': 2, '^': 3 } as const;

/** A formula tree as formula.ts's text, with parentheses only where they are needed. */
export function formulaText(node: FormulaNode, parent = 0): string {
  switch (node.kind) {
    case 'number':
      return String(node.value);
    case 'variable':
    case 'constant':
      return node.name;
    case 'negate':
      return `-${formulaText(node.operand, 3)}`;
    case 'call':
      return `${node.name}(${node.args.map((a) => formulaText(a)).join(', ')})`;
    case 'binary': {
      const p = PRECEDENCE[node.op];
      // Right operands of - / and the left of ^ bind tighter, so equal precedence there needs parentheses too.
      const left = formulaText(node.left, node.op === '^' ? p + 1 : p);
      const right = formulaText(node.right, node.op === '-' || node.op === '/' ? p + 1 : node.op === '^' ? p : p);
      const text = `${left} ${node.op} ${right}`;
      return p < parent ? `(${text})` : text;
    }
  }
}

/**
 * The calculated settings of an item with template processing, or the reason it has none. `responseId` is the
 * response whose correct value the template sets.
 */
export function calculatedOf(root: XmlNode, responseId: string): Omit<CalculatedSettings, 'values'> | string {
  const processing = child(root, 'qti-template-processing');
  if (!processing) return 'It declares template variables but no template processing sets them';
  const variables: CalculatedVariable[] = [];
  const computed = new Map<string, XmlNode>();
  let correct: XmlNode | undefined;
  try {
    for (const rule of elements(processing)) {
      const kind = local(rule.name);
      const expr = elements(rule)[0];
      if (kind === 'qti-template-constraint') continue;
      if (!expr) throw new Unsupported(`${kind} has no expression`);
      if (kind === 'qti-set-template-value') {
        const name = rule.attrs.identifier ?? '';
        const draw = drawOf(name, expr);
        if (draw) variables.push(draw);
        else computed.set(name, expr);
      } else if (kind === 'qti-set-correct-response' && rule.attrs.identifier === responseId) correct = expr;
      else throw new Unsupported(`it uses ${kind}`);
    }
    if (!correct) return 'Its template processing does not compute the correct response';
    if (variables.length === 0) return 'Its template processing draws no variable at random';
    const drawn = new Set(variables.map((v) => v.name));
    if (variables.some((v) => !/^[A-Za-z][A-Za-z0-9_]{0,30}$/.test(v.name) || FORMULA_NAMES.has(v.name)))
      return 'A template variable has a name a formula cannot use';
    let tree = formulaOf(correct, computed, drawn);
    let answerDecimals: number | null = null;
    if (tree.kind === 'call' && tree.name === 'round' && tree.args[1]?.kind === 'number') {
      answerDecimals = tree.args[1].value;
      tree = tree.args[0]!;
    }
    return { formula: formulaText(tree), variables, answerDecimals };
  } catch (error) {
    if (error instanceof Unsupported)
      return `Its template processing cannot be a calculated question: ${error.message}`;
    throw error;
  }
}

const FORMULA_NAMES = new Set<string>([...FORMULA_FUNCTIONS, 'pi', 'e']);

/** The tolerance of a calculated item as the platform's export writes it: TOL = t (absolute) or t × |ANSWER|. */
export function calculatedTolerance(root: XmlNode): { tolerance: number; mode: 'absolute' | 'relative' } | null {
  const processing = child(root, 'qti-template-processing');
  const tol =
    processing && childrenNamed(processing, 'qti-set-template-value').find((r) => r.attrs.identifier === 'TOL');
  if (tol) {
    const allowed = elements(elements(tol)[0] ?? tol)[0];
    if (allowed && local(allowed.name) === 'qti-base-value')
      return { tolerance: Number(textOf(allowed)), mode: 'absolute' };
    if (allowed && local(allowed.name) === 'qti-product') {
      const t = descendants(allowed, 'qti-base-value')[0];
      return { tolerance: Number(textOf(t)), mode: 'relative' };
    }
  }
  const equal = descendants(root, 'qti-equal')[0];
  if (!equal) return null;
  const first = Number((equal.attrs.tolerance ?? '0').trim().split(/\s+/)[0]);
  if (equal.attrs['tolerance-mode'] === 'absolute') return { tolerance: first, mode: 'absolute' };
  if (equal.attrs['tolerance-mode'] === 'relative') return { tolerance: first / 100, mode: 'relative' };
  return null;
}
