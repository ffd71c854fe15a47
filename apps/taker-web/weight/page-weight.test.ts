import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  DIST,
  eagerKeys,
  jsFiles,
  keysFrom,
  prerenderedPage,
  readManifest,
  ROUTES,
  sourcesOf,
  staticClosure,
} from './page-weight.ts';

const manifest = readManifest();

const EDITOR_ONLY = /@codemirror\/|@lezer\/|@uiw\/react-codemirror|\/code-editor\.tsx$|\/katex\//;
const GRAMMAR = /@codemirror\/lang-|@codemirror\/legacy-modes\/mode\//;

describe('page weight: what loads when (production build)', () => {
  it.each(Object.entries(ROUTES))('the %s page loads no editor, grammar or math code before it renders', (_, route) => {
    const files = jsFiles(manifest, eagerKeys(manifest, route));
    expect(files.length).toBeGreaterThan(1);
    const offending = files.flatMap((file) => sourcesOf(file).filter((source) => EDITOR_ONLY.test(source)));
    expect(offending).toEqual([]);
  });

  it('the start page shows its form without zod or the domain’s schemas (they load on Continue)', () => {
    const sources = jsFiles(manifest, eagerKeys(manifest, ROUTES.start)).flatMap(sourcesOf);
    expect(
      sources.filter((source) =>
        /\/zod\/|packages\/domain\/src\/(attempt|public-exam|question|cohort)\.ts$/.test(source),
      ),
    ).toEqual([]);
    // The pattern does find them on the details page, which checks its form with the attempt's schema.
    const details = jsFiles(manifest, eagerKeys(manifest, 'src/app/routes/taker/credentials.tsx')).flatMap(sourcesOf);
    expect(details.filter((source) => /\/zod\/v4\/classic\//.test(source)).length).toBeGreaterThan(0);
    expect(details.filter((source) => /packages\/domain\/src\/attempt\.ts$/.test(source))).toHaveLength(1);
  });

  it('the start page’s form is in its prerendered HTML, so it shows before any script runs', () => {
    const { html, stylesheets } = prerenderedPage('/taker/start');
    const root = /<div id="root" data-prerendered="\/taker\/start" data-language="en">([\s\S]*)<\/div>\s*<\/body>/.exec(
      html,
    );
    expect(root, 'the page drawn inside #root').not.toBeNull();
    expect(root![1]).toContain('<h1 class="text-2xl font-semibold text-ink">Enter Exam URL</h1>');
    expect(root![1]).toMatch(/<label for="([^"]+)"[^>]*>Exam URL<\/label><input [^>]*id="\1" name="examUrl"/);
    expect(root![1]).toMatch(/<button type="submit"[^>]*disabled="">Continue<\/button>/);
    // No script draws it: every script is a module by src (run after the page is parsed), none inline or blocking.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/type="module"[^>]* src="\/assets\/[^"]+\.js"/);
    expect(html).not.toMatch(/<script\b[^>]*>[^<]+<\/script>/);
    expect(stylesheets.length).toBeGreaterThan(0);
    for (const file of stylesheets) expect(existsSync(file), file).toBe(true);
    // The start route's chunks are fetched beside the entry (its script or a preload link), not after it.
    const fetched = [
      ...html.matchAll(/<(?:link rel="modulepreload"|script type="module")[^>]* (?:href|src)="\/([^"]+)"/g),
    ].map((m) => join(DIST, m[1]!));
    expect(fetched).toEqual(expect.arrayContaining(jsFiles(manifest, eagerKeys(manifest, ROUTES.start))));
  });

  it('the code editor is a chunk of its own, fetched by dynamic import', () => {
    const [editor, ...others] = keysFrom(manifest, /packages\/ui\/src\/code-editor\.tsx$/);
    expect(others).toEqual([]);
    expect(manifest[editor!]?.isDynamicEntry).toBe(true);
    expect(eagerKeys(manifest, ROUTES.exam).has(editor!)).toBe(false);
    // The pattern the checks above rely on does recognise the editor's own code in its chunks.
    const editorSources = jsFiles(manifest, staticClosure(manifest, editor!)).flatMap(sourcesOf);
    expect(editorSources.filter((source) => EDITOR_ONLY.test(source)).length).toBeGreaterThan(10);
  });

  it('the follow-up room after submit is a chunk of its own, fetched by dynamic import', () => {
    const [room, ...others] = keysFrom(manifest, /src\/app\/routes\/exam\/follow-up\.tsx$/);
    expect(others).toEqual([]);
    expect(manifest[room!]?.isDynamicEntry).toBe(true);
    for (const route of Object.values(ROUTES)) {
      const sources = jsFiles(manifest, eagerKeys(manifest, route)).flatMap(sourcesOf);
      expect(sources.filter((source) => /follow-up-(page|question|saver)|use-follow-up/.test(source))).toEqual([]);
    }
  });

  it('the further question types’ inputs and shared passages are a chunk of their own, fetched by dynamic import', () => {
    const [kinds, ...others] = keysFrom(manifest, /src\/features\/exam\/components\/question-kinds\.tsx$/);
    expect(others).toEqual([]);
    expect(manifest[kinds!]?.isDynamicEntry).toBe(true);
    const own =
      /(essay|true-false|ordering|matching|blanks|quantity)-answer\.tsx|passage-aside|markdown-format|components\/question-kinds\.tsx/;
    expect(
      jsFiles(manifest, [kinds!])
        .flatMap(sourcesOf)
        .filter((source) => own.test(source)).length,
    ).toBeGreaterThan(8);
    for (const route of Object.values(ROUTES)) {
      const sources = jsFiles(manifest, eagerKeys(manifest, route)).flatMap(sourcesOf);
      expect(sources.filter((source) => own.test(source))).toEqual([]);
    }
  });

  it('each language grammar is its own chunk, not pulled in by the editor or by another grammar', () => {
    const grammars = keysFrom(manifest, GRAMMAR);
    // C++, Java, JavaScript/TypeScript, Python, SQL and at least one legacy mode (R).
    expect(grammars.length).toBeGreaterThanOrEqual(6);
    expect(new Set(grammars.map((key) => manifest[key]!.file)).size).toBe(grammars.length);
    const editor = keysFrom(manifest, /packages\/ui\/src\/code-editor\.tsx$/)[0]!;
    for (const grammar of grammars) {
      expect(manifest[grammar]!.isDynamicEntry, grammar).toBe(true);
      expect(staticClosure(manifest, editor).has(grammar), grammar).toBe(false);
      const pulled = [...staticClosure(manifest, grammar)].filter((key) => key !== grammar && GRAMMAR.test(key));
      expect(pulled, grammar).toEqual([]);
    }
  });

  it('the exam page shows its first question without zod, the resizable columns or the coding answer', () => {
    const ZOD =
      /\/zod\/|packages\/domain\/src\/(attempt|public-exam|question|question-kinds|coding|sections|answer-operations|live|follow-up|grading|cohort|candidate-id|attempt-binding)\.ts$/;
    const LATER = /react-resizable-panels|components\/(exam-panels|coding-answer|coding-console|coding-tests)\.tsx$/;
    const sources = jsFiles(manifest, eagerKeys(manifest, ROUTES.exam)).flatMap(sourcesOf);
    expect(sources.filter((source) => ZOD.test(source) || LATER.test(source))).toEqual([]);
    // The exam's bodies are read by the zod-free candidate-views.ts instead.
    expect(sources.filter((source) => /packages\/domain\/src\/candidate-views\.ts$/.test(source))).toHaveLength(1);
    // Both are chunks of their own, fetched by dynamic import, and the patterns do find what they hold.
    for (const module of [/components\/exam-panels\.tsx$/, /components\/coding-answer\.tsx$/]) {
      const [key, ...others] = keysFrom(manifest, module);
      expect(others).toEqual([]);
      expect(manifest[key!]?.isDynamicEntry).toBe(true);
      const own = jsFiles(manifest, staticClosure(manifest, key!)).flatMap(sourcesOf);
      expect(own.filter((source) => LATER.test(source)).length).toBeGreaterThan(0);
    }
    const coding = keysFrom(manifest, /components\/coding-answer\.tsx$/)[0]!;
    const codingSources = jsFiles(manifest, staticClosure(manifest, coding)).flatMap(sourcesOf);
    expect(codingSources.filter((source) => ZOD.test(source)).length).toBeGreaterThan(0);
  });
});
