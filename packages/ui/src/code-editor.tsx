import type { CodingLanguage } from '@exam/domain/question';
import CodeMirror, { EditorView, type Extension } from '@uiw/react-codemirror';
import { useEffect, useMemo, useState } from 'react';
import { codeEditOf, type CodeEdit } from './code-editor-changes.ts';
import { loadLanguage } from './lib/code-languages.ts';

export type { CodeEdit } from './code-editor-changes.ts';

export type CodeEditorProps = {
  value: string;
  language: CodingLanguage;
  /** The editable area's accessible name. */
  label: string;
  /** The new document; with `recordEdits`, also what the update did (its changes and their user events). */
  onChange: (value: string, edit?: CodeEdit) => void;
  /** Describe each change to onChange (a candidate's answer records how it came to be). */
  recordEdits?: boolean;
  onBlur?: () => void;
  testId?: string;
  minHeight?: string;
  maxHeight?: string;
};

/**
 * The one code editor (CodeMirror): the candidate's answer to a coding question, and the creator's starter
 * code and reference solution. A default export, so each app loads it lazily in a chunk of its own.
 */
export default function CodeEditor({
  value,
  language,
  label,
  onChange,
  recordEdits = false,
  onBlur,
  testId = 'code-editor',
  minHeight = '160px',
  maxHeight = '480px',
}: CodeEditorProps) {
  const [grammar, setGrammar] = useState<Extension | null>(null);
  useEffect(() => {
    let cancelled = false;
    loadLanguage(language)
      .then((extension) => !cancelled && setGrammar(extension))
      .catch((error: unknown) => console.warn('Could not load the editor language', language, error));
    return () => {
      cancelled = true;
    };
  }, [language]);
  const extensions = useMemo(
    () => [
      EditorView.contentAttributes.of({ 'aria-label': label }),
      EditorView.lineWrapping,
      ...(grammar ? [grammar] : []),
    ],
    [grammar, label],
  );
  return (
    <div className="overflow-hidden rounded-lg border border-line" data-testid={testId} data-language={language}>
      <CodeMirror
        value={value}
        onChange={(next, update) => onChange(next, recordEdits ? codeEditOf(update) : undefined)}
        onBlur={onBlur}
        extensions={extensions}
        minHeight={minHeight}
        maxHeight={maxHeight}
        basicSetup={{ foldGutter: false }}
      />
    </div>
  );
}
