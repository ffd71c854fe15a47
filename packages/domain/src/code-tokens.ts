import type { CodingLanguage } from './question.ts';

/**
 * A tokeniser for comparing code (similarity.ts), not for running it: it keeps the shape of a program and
 * forgets what a copier changes for free. Comments and whitespace vanish, every identifier becomes `I`, every
 * number `N` and every string `S`; keywords, operators and punctuation stay as written, so `for i in xs:` and
 * `for item in items:` tokenise alike while `while` and `for` do not. Unknown characters pass through as
 * one-character tokens: odd input tokenises oddly but never throws.
 */

/** The class tokens identifiers, numbers and string literals are mapped to. */
export const TokenClass = { identifier: 'I', number: 'N', string: 'S' } as const;

type Syntax = {
  keywords: ReadonlySet<string>;
  /** SQL's keywords are case-insensitive; the others' are not. */
  caseInsensitive?: boolean;
  lineComments: readonly string[];
  blockComment?: readonly [open: string, close: string];
  quotes: readonly string[];
  /** Python's ''' and """. */
  tripleQuotes?: boolean;
  /** SQL's "name" and `name` are quoted identifiers, not strings. */
  quotedIdentifiers?: readonly string[];
  /** R allows dots in names (`is.na`, `my.data`). */
  dotsInIdentifiers?: boolean;
  /** R's user operators: %in%, %>%, %%. */
  percentOperators?: boolean;
  /** Python, R and JavaScript (automatic semicolon insertion) end statements at a newline or a `;` alike. */
  semicolonIsLayout?: boolean;
};

const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean));

const C_FAMILY_OPERATORS = ['>>>=', '<<=', '>>=', '>>>', '===', '!==', '**=', '...', '->*', '<=>', '&&=', '||=', '??='];

/** Longest first, so `>>=` wins over `>>` and `>`. */
const OPERATORS = [
  ...C_FAMILY_OPERATORS,
  '//=',
  '%in%',
  '<<-',
  '->>',
  '::',
  '->',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<',
  '>>',
  '**',
  '//',
  '<-',
  ':=',
  '<>',
].sort((a, b) => b.length - a.length);

const SYNTAX: Record<CodingLanguage, Syntax> = {
  python: {
    keywords: words(`and as assert async await break class continue def del elif else except finally for from global
      if import in is lambda nonlocal not or pass raise return try while with yield None True False match case`),
    lineComments: ['#'],
    quotes: ['"', "'"],
    tripleQuotes: true,
    semicolonIsLayout: true,
  },
  javascript: {
    keywords: words(`async await break case catch class const continue debugger default delete do else export extends
      finally for function if import in instanceof let new of return static super switch this throw try typeof var
      void while with yield null undefined true false`),
    lineComments: ['//'],
    blockComment: ['/*', '*/'],
    quotes: ['"', "'", '`'],
    semicolonIsLayout: true,
  },
  java: {
    keywords: words(`abstract boolean break byte case catch char class continue default do double else enum extends
      final finally float for if implements import instanceof int interface long new package private protected
      public return short static super switch synchronized this throw throws try void volatile while var record
      null true false`),
    lineComments: ['//'],
    blockComment: ['/*', '*/'],
    quotes: ['"', "'"],
  },
  cpp: {
    keywords: words(`auto bool break case catch char class const constexpr continue default delete do double else enum
      float for if include define inline int long namespace new nullptr private protected public return short signed
      sizeof static struct switch template this throw try typedef typename unsigned using virtual void while true
      false`),
    lineComments: ['//'],
    blockComment: ['/*', '*/'],
    quotes: ['"', "'"],
  },
  r: {
    keywords: words(`if else repeat while function for in next break TRUE FALSE NULL Inf NaN NA library return`),
    lineComments: ['#'],
    quotes: ['"', "'"],
    dotsInIdentifiers: true,
    percentOperators: true,
    semicolonIsLayout: true,
  },
  sql: {
    keywords: words(`select from where and or not in is null as join inner left right full outer cross on group by
      order having limit offset distinct union all insert into values update set delete create table view with case
      when then else end exists between like asc desc count sum avg min max primary key foreign references`),
    caseInsensitive: true,
    lineComments: ['--'],
    blockComment: ['/*', '*/'],
    quotes: ["'"],
    quotedIdentifiers: ['"', '`'],
  },
};

const isDigit = (c: string) => c >= '0' && c <= '9';
const isIdentStart = (c: string) => /[A-Za-z_$\u00C0-\uFFFF]/.test(c);
const isIdentPart = (c: string) => /[\w$\u00C0-\uFFFF]/.test(c);

/** The end (exclusive) of a quoted run starting at `start` with `quote`; backslash escapes the next character. */
function endOfQuoted(code: string, start: number, quote: string): number {
  let i = start + quote.length;
  while (i < code.length) {
    if (code[i] === '\\') i += 2;
    else if (code.startsWith(quote, i)) return i + quote.length;
    else i++;
  }
  return code.length;
}

const NUMBER = /^(?:0[xXbBoO][\da-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[a-zA-Z]*/;

/**
 * The tokens of `code` in `language` (see the file comment for what is kept). With `literal`, identifiers, numbers
 * and strings keep their text instead of becoming class tokens: only comments and layout vanish (what grading by
 * question groups code by, answer-groups.ts).
 */
export function tokenize(code: string, language: CodingLanguage, opts: { literal?: boolean } = {}): string[] {
  const syntax = SYNTAX[language];
  const tokens: string[] = [];
  const literal = opts.literal === true;
  /** A class token, or with `literal` the text from `start` to `end`. */
  const push = (tokenClass: string, start: number, end: number) =>
    tokens.push(literal ? code.slice(start, end) : tokenClass);
  let i = 0;
  while (i < code.length) {
    const c = code[i] as string;
    if (/\s/.test(c) || (c === ';' && syntax.semicolonIsLayout)) {
      i++;
      continue;
    }
    const lineComment = syntax.lineComments.find((open) => code.startsWith(open, i));
    if (lineComment !== undefined) {
      const end = code.indexOf('\n', i);
      i = end < 0 ? code.length : end;
      continue;
    }
    if (syntax.blockComment && code.startsWith(syntax.blockComment[0], i)) {
      const end = code.indexOf(syntax.blockComment[1], i + syntax.blockComment[0].length);
      i = end < 0 ? code.length : end + syntax.blockComment[1].length;
      continue;
    }
    const start = i;
    if (syntax.tripleQuotes && (code.startsWith('"""', i) || code.startsWith("'''", i))) {
      i = endOfQuoted(code, i, code.slice(i, i + 3));
      push(TokenClass.string, start, i);
      continue;
    }
    if (syntax.quotes.includes(c)) {
      i = endOfQuoted(code, i, c);
      push(TokenClass.string, start, i);
      continue;
    }
    if (syntax.quotedIdentifiers?.includes(c)) {
      i = endOfQuoted(code, i, c);
      push(TokenClass.identifier, start, i);
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(code[i + 1] ?? ''))) {
      const match = NUMBER.exec(code.slice(i, i + 64));
      i += match ? match[0].length : 1;
      push(TokenClass.number, start, i);
      continue;
    }
    if (isIdentStart(c) || (syntax.dotsInIdentifiers && c === '.' && isIdentStart(code[i + 1] ?? ''))) {
      let end = i + 1;
      while (end < code.length && (isIdentPart(code[end] as string) || (syntax.dotsInIdentifiers && code[end] === '.')))
        end++;
      const word = code.slice(i, end);
      // Python's f"…", r'…', b"…": the prefix belongs to the string.
      const next = code[end] ?? '';
      if (syntax.tripleQuotes && /^[rbfu]{1,2}$/i.test(word) && syntax.quotes.includes(next)) {
        const quote = code.startsWith(next.repeat(3), end) ? next.repeat(3) : next;
        i = endOfQuoted(code, end, quote);
        push(TokenClass.string, start, i);
        continue;
      }
      const key = syntax.caseInsensitive ? word.toLowerCase() : word;
      if (syntax.keywords.has(key)) tokens.push(key);
      else push(TokenClass.identifier, start, end);
      i = end;
      continue;
    }
    if (syntax.percentOperators && c === '%') {
      const end = code.indexOf('%', i + 1);
      const newline = code.indexOf('\n', i + 1);
      if (end > i && (newline < 0 || end < newline)) {
        tokens.push(code.slice(i, end + 1));
        i = end + 1;
        continue;
      }
    }
    const operator = OPERATORS.find((op) => code.startsWith(op, i));
    tokens.push(operator ?? c);
    i += operator?.length ?? 1;
  }
  return tokens;
}
