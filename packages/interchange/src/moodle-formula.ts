import { FORMULA_FUNCTIONS, type FormulaNode, FormulaError, parseFormula } from '@exam/domain/formula';

/**
 * Calculated-question formulas between the platform's grammar (@exam/domain/formula) and Moodle's
 * (docs.moodle.org/en/Calculated_question_type): Moodle writes a variable as `{x}` and evaluates the rest as PHP,
 * so `^` there is a bitwise operator (power is `pow(a, b)` or `**`), `log` is the natural logarithm and `pi()` is
 * a function. Everything else in the platform's grammar has the same name and meaning in both.
 */

/** PHP functions a Moodle formula may call that have an exact counterpart here; the rest are refused by name. */
const RENAMED: Record<string, string> = { log: 'ln' };
const KNOWN = new Set<string>(FORMULA_FUNCTIONS);

/** Numbers (exponent included, so the `e` of 1e5 is not read as a name) or names. */
const TOKEN = /(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[A-Za-z_][A-Za-z0-9_]*/g;

const hasPower = (node: FormulaNode): boolean => {
  switch (node.kind) {
    case 'binary':
      return node.op === '^' || hasPower(node.left) || hasPower(node.right);
    case 'negate':
      return hasPower(node.operand);
    case 'call':
      return node.args.some(hasPower);
    default:
      return false;
  }
};

/** A tree in Moodle's syntax, every operation in parentheses (only used when the formula has a power). */
function print(node: FormulaNode): string {
  switch (node.kind) {
    case 'number':
      return String(node.value);
    case 'variable':
      return `{${node.name}}`;
    case 'constant':
      return node.name === 'pi' ? 'pi()' : 'exp(1)';
    case 'negate':
      return `-(${print(node.operand)})`;
    case 'binary':
      return node.op === '^'
        ? `pow(${print(node.left)}, ${print(node.right)})`
        : `(${print(node.left)} ${node.op} ${print(node.right)})`;
    case 'call':
      return `${node.name === 'ln' ? 'log' : node.name}(${node.args.map(print).join(', ')})`;
  }
}

/**
 * A formula of the platform in Moodle's syntax. The author's text is kept token for token (names mapped) unless
 * it raises to a power, which Moodle can only say as pow(): then the parse tree is printed.
 */
export function toMoodleFormula(formula: string, variables: readonly string[]): string {
  const tree = parseFormula(formula, variables);
  if (hasPower(tree)) return print(tree);
  const names = new Set(variables);
  return formula.replace(TOKEN, (token, number: string | undefined, _exp, offset: number) => {
    if (number !== undefined) return token;
    const call = /^\s*\(/.test(formula.slice(offset + token.length));
    if (call) return token === 'ln' ? 'log' : token;
    if (names.has(token)) return `{${token}}`;
    if (token === 'pi') return 'pi()';
    if (token === 'e') return 'exp(1)';
    return token;
  });
}

/** The index of the parenthesis closing the one at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Arguments of a call split at its top-level commas. */
function splitArgs(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '(') depth++;
    else if (inner[i] === ')') depth--;
    else if (inner[i] === ',' && depth === 0) {
      out.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  out.push(inner.slice(start));
  return out;
}

/** Rewrites the calls Moodle has and the platform spells otherwise, innermost first. */
function rewriteCalls(text: string): string {
  const call = /\b(pow|pi|deg2rad|rad2deg)\s*\(/.exec(text);
  if (!call) return text;
  const open = call.index + call[0].length - 1;
  const close = closing(text, open);
  if (close < 0) throw new FormulaError('A parenthesis is not closed', open);
  const args = splitArgs(text.slice(open + 1, close)).map((a) => rewriteCalls(a).trim());
  const arity = (n: number) => {
    if (args.length !== n || args.some((a) => a === '') !== (n === 0))
      throw new FormulaError(`${call[1]} takes ${n} argument${n === 1 ? '' : 's'}`, call.index);
  };
  let replacement: string;
  if (call[1] === 'pi') {
    if (args.length !== 1 || args[0] !== '') throw new FormulaError('pi() takes no arguments', call.index);
    replacement = 'pi';
  } else if (call[1] === 'pow') {
    arity(2);
    replacement = `((${args[0]})^(${args[1]}))`;
  } else {
    arity(1);
    replacement = call[1] === 'deg2rad' ? `((${args[0]}) * pi / 180)` : `((${args[0]}) * 180 / pi)`;
  }
  return rewriteCalls(text.slice(0, call.index) + replacement + text.slice(close + 1));
}

/**
 * A Moodle formula in the platform's grammar, checked by its parser; throws an Error naming what cannot be
 * carried over (a function the platform has no counterpart for, a variable that is not defined).
 */
export function fromMoodleFormula(source: string, variables: readonly string[]): string {
  let text = source.trim();
  const inline = /^\{=([\s\S]*)\}$/.exec(text);
  if (inline) text = inline[1]!.trim();
  const names = new Set(variables);
  text = text.replace(/\{([^{}]*)\}/g, (_whole, name: string) => {
    if (!names.has(name)) throw new Error(`The formula uses {${name}}, which is not one of the question's variables`);
    return name;
  });
  // exp(1) is how the export writes e (PHP has no constant for it), so it reads back as e.
  text = rewriteCalls(text.replace(/\*\*/g, '^').replace(/\bexp\s*\(\s*1\s*\)/g, 'e'));
  text = text.replace(TOKEN, (token, number: string | undefined, _exp, offset: number) => {
    if (number !== undefined || !/^\s*\(/.test(text.slice(offset + token.length))) return token;
    const name = RENAMED[token] ?? token;
    if (!KNOWN.has(name))
      throw new Error(`The formula uses Moodle's function ${token}(), which formulas here do not have`);
    return name;
  });
  try {
    parseFormula(text, variables);
  } catch (error) {
    if (error instanceof FormulaError) throw new Error(`The formula cannot be read here: ${error.message}`);
    throw error;
  }
  return text;
}
