import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { catalogueKeys, compareCatalogues, resourcesFromFiles } from '@exam/ui/lib/i18n';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { changeLanguage, i18n, LANGUAGES, resources } from './index.ts';

type Catalogue = Parameters<typeof catalogueKeys>[0];

const SRC = join(import.meta.dirname, '..');
const english = resources.en as Record<string, Catalogue>;

/** The app's own source: no tests, no test helpers, no catalogues. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' || entry.name === 'i18n' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|factories\.ts$/.test(entry.name) ? [path] : [];
  });
}

// Props that carry markup or data, never words a user reads.
const TECHNICAL_PROPS = new Set([
  'className',
  // A test id for the shared editor (@exam/ui's CodeInput), never shown.
  'testId',
  'type',
  'id',
  'name',
  'href',
  'to',
  'key',
  'role',
  'variant',
  'size',
  'htmlFor',
  'autoComplete',
  'accept',
  'side',
  'align',
  'target',
  'rel',
  'inputMode',
  'method',
  'lang',
  'language',
  'mode',
  'value',
  'defaultValue',
  'form',
  'pattern',
  'orientation',
  'tone',
  'status',
  'state',
  'path',
  'path',
  'dir',
  'wrap',
  'spellCheck',
  'enterKeyHint',
  'download',
  'fileName',
  'mimeType',
  'extension',
  'aria-controls',
  'aria-describedby',
  'aria-labelledby',
  'aria-live',
  'aria-current',
  'aria-haspopup',
  // Key names ("J ArrowDown", "Control+Enter"), as the ARIA spec spells them.
  'aria-keyshortcuts',
]);
// Object properties whose text reaches the screen (option lists, column definitions, toasts' descriptions).
const VISIBLE_PROPERTIES = new Set([
  'label',
  'title',
  'description',
  'message',
  'userMessage',
  'placeholder',
  'header',
  'heading',
  'hint',
  'empty',
  'emptyText',
  'help',
  'text',
  'caption',
]);

// Names that stay as they are in every language.
const PROPER_NOUNS = new Set(['Python', 'JavaScript', 'Java', 'SQL', 'C++', 'R']);

const hasWords = (text: string) => /\p{L}{2,}/u.test(text) && !PROPER_NOUNS.has(text.trim());
/** Tailwind classes: lowercase tokens, some with dashes or variants ("grid gap-3", "hover:bg-red-50"). */
const isClassList = (text: string) =>
  !/\p{Lu}/u.test(text) && text.split(/\s+/).some((word) => /^[a-z0-9!]+(-[\w.[\]/%]+)+$|:/.test(word));
/** A string that reads as English rather than as a token ("outline", "sm", "button") or a class list. */
const readsAsEnglish = (text: string) =>
  hasWords(text) && !isClassList(text) && (/\s/.test(text.trim()) || /^\p{Lu}.*\p{Ll}/u.test(text));

/** The literals an expression can evaluate to: through conditionals, `&&`/`||`/`??`, parentheses and templates. */
function literalsOf(node: ts.Node): { node: ts.Node; text: string }[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [{ node, text: node.text }];
  if (ts.isTemplateExpression(node)) {
    const text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
    return [{ node, text }, ...node.templateSpans.flatMap((span) => literalsOf(span.expression))];
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return literalsOf(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalsOf(node.whenTrue), ...literalsOf(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const kind = node.operatorToken.kind;
    if (kind === ts.SyntaxKind.AmpersandAmpersandToken) return literalsOf(node.right);
    if (kind === ts.SyntaxKind.BarBarToken || kind === ts.SyntaxKind.QuestionQuestionToken) {
      return [...literalsOf(node.left), ...literalsOf(node.right)];
    }
    if (kind === ts.SyntaxKind.PlusToken) return [...literalsOf(node.left), ...literalsOf(node.right)];
  }
  return [];
}

// Calls whose string arguments are identifiers, selectors, URLs, keys or messages for developers.
const TECHNICAL_CALLEE =
  /^(t|i18n\.t|console\.\w+|\w+\.(querySelector|querySelectorAll|getItem|setItem|removeItem|addEventListener|removeEventListener|startsWith|endsWith|includes|split|replace|replaceAll|join|append|set|get|has|delete|getElementById|createElement|setAttribute|closest|matches)|fetch|apiRequest|request|useTranslation|Error|TypeError|RangeError|ApiError|AppError|require|import)$/;

/** Whether a literal is code rather than text: a key, import, comparison, type, technical prop or developer message. */
function isTechnical(node: ts.Node, source: ts.SourceFile): boolean {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isLiteralTypeNode(parent)) return true;
    if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
      return TECHNICAL_CALLEE.test(parent.expression.getText(source)) && child !== parent.expression;
    }
    if (ts.isJsxAttribute(parent)) {
      const name = parent.name.getText(source);
      return TECHNICAL_PROPS.has(name) || name.startsWith('data-');
    }
    if (ts.isPropertyAssignment(parent) && child === parent.name) return true;
    if (ts.isBinaryExpression(parent) && /^[=!]==?$/.test(parent.operatorToken.getText(source))) return true;
    if (ts.isCaseClause(parent) || ts.isElementAccessExpression(parent) || ts.isThrowStatement(parent)) return true;
    if (ts.isTaggedTemplateExpression(parent) || ts.isJsxElement(parent) || ts.isBlock(parent)) return false;
  }
  return false;
}

/** Every place in a file where English is written into the UI instead of read from a catalogue. */
function bareEnglish(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${relative(SRC, file)}:${line + 1} ${JSON.stringify(text.trim())}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) report(node, node.text);
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      for (const literal of literalsOf(node.expression)) if (hasWords(literal.text)) report(literal.node, literal.text);
    }
    if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(source);
      const value = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (value && !TECHNICAL_PROPS.has(name) && !name.startsWith('data-')) {
        for (const literal of literalsOf(value)) if (readsAsEnglish(literal.text)) report(literal.node, literal.text);
      }
    }
    if (ts.isCallExpression(node) && /^toast(\.\w+)?$/.test(node.expression.getText(source)) && node.arguments[0]) {
      for (const literal of literalsOf(node.arguments[0]))
        if (hasWords(literal.text)) report(literal.node, literal.text);
    }
    if (
      ts.isPropertyAssignment(node) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      VISIBLE_PROPERTIES.has(node.name.text)
    ) {
      for (const literal of literalsOf(node.initializer)) {
        if (readsAsEnglish(literal.text)) report(literal.node, literal.text);
      }
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const text = ts.isTemplateExpression(node)
        ? [node.head.text, ...node.templateSpans.map((span) => `{x}${span.literal.text}`)].join('')
        : node.text;
      if (readsAsEnglish(text.replace(/\{x\}/g, ' ').trim() ? text : '') && !isTechnical(node, source)) {
        report(node, text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(found)];
}

describe('the creator app’s English catalogues', () => {
  const entries = Object.entries(english).flatMap(([namespace, catalogue]) =>
    [...catalogueKeys(catalogue)].map(([key]) => {
      const value = key.split('.').reduce<unknown>((node, part) => (node as Catalogue)[part], catalogue);
      return { id: `${namespace}:${key}`, key, value: value as string };
    }),
  );

  it('has text for every key, written out rather than left as a placeholder', () => {
    expect(entries.length).toBeGreaterThan(0);
    const placeholders = entries.filter(
      ({ key, value }) =>
        value.trim() === '' ||
        value === key ||
        /\b(TODO|FIXME|TBD|XXX)\b/.test(value) ||
        /^[a-z]+(\.[a-zA-Z_]+)+$/.test(value),
    );
    expect(placeholders.map(({ id }) => id)).toEqual([]);
  });

  it('writes interpolation as {{name}} only, each variable once per text', () => {
    const malformed = entries.filter(({ value }) => {
      const withoutGood = value.replace(/\{\{\s*\w+(\s*,\s*\w+)?\s*\}\}/g, '');
      if (/[{}]|\$\{/.test(withoutGood)) return true;
      const names = [...value.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1]);
      return new Set(names).size !== names.length;
    });
    expect(malformed.map(({ id, value }) => `${id}: ${value}`)).toEqual([]);
  });

  it('pairs every _one plural with an _other form', () => {
    const ids = new Set(entries.map(({ id }) => id));
    const lonely = entries.filter(({ id }) => id.endsWith('_one') && !ids.has(id.replace(/_one$/, '_other')));
    expect(lonely.map(({ id }) => id)).toEqual([]);
  });
});

describe('the creator app’s source', () => {
  const files = sourceFiles();

  it('resolves every literal key it passes to t()', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const namespaces = [...text.matchAll(/useTranslation\(\s*(?:\[([^\]]*)\]|'([\w-]+)')/g)].flatMap((match) =>
        match[2] ? [match[2]] : [...(match[1] ?? '').matchAll(/'([\w-]+)'/g)].map((inner) => inner[1]!),
      );
      for (const match of text.matchAll(/\bt\(\s*'([^']+)'/g)) {
        const key = match[1]!;
        const candidates = key.includes(':')
          ? [key]
          : (namespaces.length ? namespaces : ['common']).map((ns) => `${ns}:${key}`);
        const resolves = candidates.some(
          (candidate) => i18n.exists(candidate) || i18n.exists(`${candidate}_other`) || i18n.exists(`${candidate}_one`),
        );
        if (!resolves) missing.push(`${relative(SRC, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  // Parses every source file of the app with the TypeScript compiler: seconds on a quiet machine, more on a busy one.
  it('writes no English into the UI outside the catalogues', { timeout: 120_000 }, () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(bareEnglish)).toEqual([]);
  });
});

// Every catalogue file of every language, whichever chunk the app fetches it in.
const allResources = resourcesFromFiles(
  import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true }),
);
const translations = LANGUAGES.filter((language) => language !== 'en');

/** Every key of a catalogue with its text. */
function texts(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else for (const [inner, text] of texts(value, path)) found.set(inner, text);
  }
  return found;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

// Words written the same in English and in each translation: product and format names, units, abbreviations and
// statistics' proper names. A translated text that equals the English one must be made of these words only.
const SAME_IN_EVERY_LANGUAGE = new Set(
  [
    'Assessly',
    'LMS',
    'LTI',
    'Moodle',
    'XML',
    'QTI',
    'base64',
    'ROT13',
    'ID',
    'Email',
    'Editor',
    'Error',
    'tokens',
    'min',
    'pts',
    'KB',
    'MB',
    'logits',
    'Rasch',
    '2PL',
    'Infit',
    'Outfit',
    'MNSQ',
    'RAIR',
    'RSR',
    'Ctrl',
    // A sample of text styled as each answer source, not a word.
    'Abc',
  ].map((word) => word.toLowerCase()),
);
// Texts that are data rather than language: an example of the CSV the server reads, whose header is fixed.
const DATA_TEXTS = new Set(['roster:rosterImport.nameCandidateIdEmail']);

describe.each(translations)('the creator app’s %s catalogues', (language) => {
  const translated = (allResources[language] ?? {}) as Record<string, Catalogue>;
  const pairs = Object.entries(english).flatMap(([namespace, catalogue]) => {
    const theirs = texts(translated[namespace] ?? {});
    return [...texts(catalogue)].map(([key, text]) => ({
      id: `${namespace}:${key}`,
      namespace,
      key,
      english: text,
      translation: theirs.get(key),
    }));
  });

  it('has every namespace English has, and no other', () => {
    expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
  });

  it('has every English key and no other, with the same {{variables}}', () => {
    for (const namespace of Object.keys(english)) {
      expect(compareCatalogues(english[namespace]!, translated[namespace] ?? {}), namespace).toEqual([]);
    }
  });

  it('has the plural forms English has, plus only those the language’s own plural rules name', () => {
    const allowed = new Set(new Intl.PluralRules(language).resolvedOptions().pluralCategories);
    const problems: string[] = [];
    for (const [namespace, catalogue] of Object.entries(english)) {
      const ours = [...texts(catalogue).keys()];
      const theirs = [...texts(translated[namespace] ?? {}).keys()];
      for (const key of ours.filter((key) => PLURAL.test(key) && !theirs.includes(key))) {
        problems.push(`missing ${namespace}:${key}`);
      }
      for (const key of theirs.filter((key) => PLURAL.test(key) && !ours.includes(key))) {
        const form = PLURAL.exec(key)![1]!;
        const base = key.replace(PLURAL, '');
        if (!allowed.has(form as Intl.LDMLPluralRule) || !ours.some((our) => our.replace(PLURAL, '') === base)) {
          problems.push(`extra ${namespace}:${key}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no empty text', () => {
    const empty = pairs.filter(({ english: source, translation }) => source.trim() !== '' && !translation?.trim());
    expect(empty.map(({ id }) => id)).toEqual([]);
  });

  it('translates every text, beyond words that are the same in both languages', () => {
    const untranslated = pairs.filter(({ id, english: source, translation }) => {
      if (translation !== source || DATA_TEXTS.has(id)) return false;
      const words = (source.replace(/\{\{[^}]*\}\}/g, ' ').match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) =>
        /\p{L}{2,}/u.test(word),
      );
      return words.some((word) => !SAME_IN_EVERY_LANGUAGE.has(word.toLowerCase()));
    });
    expect(untranslated.map(({ id, english: source }) => `${id}: ${source}`)).toEqual([]);
  });

  it('keeps the markup tags (<0>…</0>) English uses', () => {
    const tags = (text: string) => [...text.matchAll(/<\/?(\d+)\/?>/g)].map((match) => match[0]).sort();
    const changed = pairs.filter(
      ({ english: source, translation }) => tags(source).join() !== tags(translation ?? '').join(),
    );
    expect(changed.map(({ id }) => id)).toEqual([]);
  });
});

describe('the creator app’s language', () => {
  it('speaks the chosen language, sets the page’s lang and falls back to English', async () => {
    await changeLanguage('es');
    expect(i18n.t('dashboard:dashboard.dashboard')).toBe('Panel');
    expect(i18n.t('exams:interchange.willImport', { count: 3 })).toBe('Se importarán 3 preguntas');
    expect(document.documentElement.lang).toBe('es');
    await changeLanguage('en');
    expect(i18n.t('dashboard:dashboard.dashboard')).toBe('Dashboard');
    expect(document.documentElement.lang).toBe('en');
  });
});
