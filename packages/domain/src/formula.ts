/**
 * The formula language of calculated questions (docs/product.md#question-types): numbers, variables, + − × ÷,
 * ^ (power, right-associative), unary minus, parentheses, the constants pi and e, and the functions below.
 * Nothing else: no assignment, no property access, no user functions, so a formula can never do more than
 * compute a number, and every construct has a QTI template-processing equivalent for export (qti-sum,
 * qti-subtract, qti-product, qti-divide, qti-power, qti-math-operator, qti-round-to) and a Moodle calculated
 * question equivalent ({name} and Moodle's PHP math functions of the same names).
 *
 * Written here rather than taken from an expression library: the grammar has to stay exactly this small for
 * both exports, and the parse tree is what the QTI export walks.
 */

export const FORMULA_FUNCTIONS = [
  'sqrt',
  'abs',
  'exp',
  'ln',
  'log10',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'floor',
  'ceil',
  'round',
  'min',
  'max',
] as const;
export type FormulaFunction = (typeof FORMULA_FUNCTIONS)[number];

export type FormulaNode =
  | { kind: 'number'; value: number }
  | { kind: 'variable'; name: string }
  | { kind: 'constant'; name: 'pi' | 'e' }
  | { kind: 'negate'; operand: FormulaNode }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/' | '^'; left: FormulaNode; right: FormulaNode }
  | { kind: 'call'; name: FormulaFunction; args: FormulaNode[] };

export class FormulaError extends Error {
  /** 0-based offset in the formula where the problem is. */
  readonly at: number;
  constructor(message: string, at: number) {
    super(message);
    this.name = 'FormulaError';
    this.at = at;
  }
}

type Token = { type: 'num' | 'id' | 'op' | '(' | ')' | ','; text: string; at: number };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const num = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(source.slice(i));
    if (num) {
      tokens.push({ type: 'num', text: num[0], at: i });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i));
    if (id) {
      tokens.push({ type: 'id', text: id[0], at: i });
      i += id[0].length;
      continue;
    }
    if ('+-*/^'.includes(ch)) tokens.push({ type: 'op', text: ch, at: i });
    else if (ch === '(' || ch === ')' || ch === ',') tokens.push({ type: ch, text: ch, at: i });
    else throw new FormulaError(`Unexpected "${ch}"`, i);
    i++;
  }
  return tokens;
}

const ARITY: Record<FormulaFunction, [number, number]> = {
  sqrt: [1, 1],
  abs: [1, 1],
  exp: [1, 1],
  ln: [1, 1],
  log10: [1, 1],
  sin: [1, 1],
  cos: [1, 1],
  tan: [1, 1],
  asin: [1, 1],
  acos: [1, 1],
  atan: [1, 1],
  floor: [1, 1],
  ceil: [1, 1],
  round: [1, 2],
  min: [2, 10],
  max: [2, 10],
};

/**
 * Parses a formula. `variables` are the names it may use (a calculated question's variables); any other name
 * that is not a constant or a function is an error naming it.
 */
export function parseFormula(source: string, variables: readonly string[]): FormulaNode {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  const end = source.length;
  const expect = (type: Token['type']) => {
    const t = tokens[pos];
    if (!t || t.type !== type) throw new FormulaError(`Expected "${type}"`, t?.at ?? end);
    pos++;
    return t;
  };

  // expr := term (('+' | '-') term)*
  function expr(): FormulaNode {
    let left = term();
    for (let t = peek(); t?.type === 'op' && (t.text === '+' || t.text === '-'); t = peek()) {
      pos++;
      left = { kind: 'binary', op: t.text, left, right: term() };
    }
    return left;
  }
  // term := unary (('*' | '/') unary)*
  function term(): FormulaNode {
    let left = unary();
    for (let t = peek(); t?.type === 'op' && (t.text === '*' || t.text === '/'); t = peek()) {
      pos++;
      left = { kind: 'binary', op: t.text, left, right: unary() };
    }
    return left;
  }
  // unary := '-' unary | '+' unary | power   (so -2^2 is -(2^2), as in mathematics)
  function unary(): FormulaNode {
    const t = peek();
    if (t?.type === 'op' && t.text === '-') {
      pos++;
      return { kind: 'negate', operand: unary() };
    }
    if (t?.type === 'op' && t.text === '+') {
      pos++;
      return unary();
    }
    return power();
  }
  // power := atom ('^' unary)?   (right-associative: 2^3^2 is 2^(3^2))
  function power(): FormulaNode {
    const base = atom();
    const t = peek();
    if (t?.type === 'op' && t.text === '^') {
      pos++;
      return { kind: 'binary', op: '^', left: base, right: unary() };
    }
    return base;
  }
  function atom(): FormulaNode {
    const t = peek();
    if (!t) throw new FormulaError('The formula ends too soon', end);
    if (t.type === 'num') {
      pos++;
      return { kind: 'number', value: Number(t.text) };
    }
    if (t.type === '(') {
      pos++;
      const inner = expr();
      expect(')');
      return inner;
    }
    if (t.type === 'id') {
      pos++;
      if (peek()?.type === '(') {
        if (!(FORMULA_FUNCTIONS as readonly string[]).includes(t.text))
          throw new FormulaError(`Unknown function "${t.text}"`, t.at);
        const name = t.text as FormulaFunction;
        pos++;
        const args: FormulaNode[] = [];
        if (peek()?.type !== ')') {
          args.push(expr());
          while (peek()?.type === ',') {
            pos++;
            args.push(expr());
          }
        }
        expect(')');
        const [min, max] = ARITY[name];
        if (args.length < min || args.length > max)
          throw new FormulaError(
            `${name} takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}`,
            t.at,
          );
        return { kind: 'call', name, args };
      }
      if (variables.includes(t.text)) return { kind: 'variable', name: t.text };
      if (t.text === 'pi' || t.text === 'e') return { kind: 'constant', name: t.text };
      throw new FormulaError(`Unknown variable "${t.text}"`, t.at);
    }
    throw new FormulaError(`Unexpected "${t.text}"`, t.at);
  }

  const tree = expr();
  if (pos < tokens.length) throw new FormulaError(`Unexpected "${tokens[pos]!.text}"`, tokens[pos]!.at);
  return tree;
}

/** Rounds half away from zero to `decimals` places (the rounding people and Moodle's round() use). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const scaled = Math.abs(value) * factor;
  // The epsilon keeps 1.005 (stored as 1.00499…) rounding to 1.01 as written.
  return (Math.sign(value) * Math.round(scaled + 1e-9 * Math.max(1, scaled))) / factor;
}

/** The formula's value for `values`; NaN or ±Infinity when it is undefined there (÷0, sqrt(−1), …). */
export function evaluateFormula(node: FormulaNode, values: Readonly<Record<string, number>>): number {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'variable':
      return values[node.name] ?? Number.NaN;
    case 'constant':
      return node.name === 'pi' ? Math.PI : Math.E;
    case 'negate':
      return -evaluateFormula(node.operand, values);
    case 'binary': {
      const a = evaluateFormula(node.left, values);
      const b = evaluateFormula(node.right, values);
      if (node.op === '+') return a + b;
      if (node.op === '-') return a - b;
      if (node.op === '*') return a * b;
      if (node.op === '/') return a / b;
      return a ** b;
    }
    case 'call': {
      const args = node.args.map((arg) => evaluateFormula(arg, values));
      const x = args[0]!;
      switch (node.name) {
        case 'sqrt':
          return Math.sqrt(x);
        case 'abs':
          return Math.abs(x);
        case 'exp':
          return Math.exp(x);
        case 'ln':
          return Math.log(x);
        case 'log10':
          return Math.log10(x);
        case 'sin':
          return Math.sin(x);
        case 'cos':
          return Math.cos(x);
        case 'tan':
          return Math.tan(x);
        case 'asin':
          return Math.asin(x);
        case 'acos':
          return Math.acos(x);
        case 'atan':
          return Math.atan(x);
        case 'floor':
          return Math.floor(x);
        case 'ceil':
          return Math.ceil(x);
        case 'round':
          return roundTo(x, args[1] ?? 0);
        case 'min':
          return Math.min(...args);
        case 'max':
          return Math.max(...args);
      }
    }
  }
}

/** The formula parsed and checked for the variables, or the problem in words (the editor shows it). */
export function formulaIssue(source: string, variables: readonly string[]): string | null {
  if (source.trim() === '') return 'Write the formula that computes the answer';
  try {
    parseFormula(source, variables);
    return null;
  } catch (error) {
    if (error instanceof FormulaError) return `${error.message} (at character ${error.at + 1})`;
    throw error;
  }
}
