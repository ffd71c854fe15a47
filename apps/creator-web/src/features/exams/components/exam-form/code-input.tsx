import { StreamLanguage } from '@codemirror/language';
import type { CodingLanguage } from '@exam/domain/exam';
import CodeMirror, { EditorView, type Extension } from '@uiw/react-codemirror';
import { useEffect, useMemo, useState } from 'react';

/** Each language's grammar is its own chunk, fetched when a coding question needs it. */
async function loadLanguage(language: CodingLanguage): Promise<Extension> {
  switch (language) {
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'javascript':
      return (await import('@codemirror/lang-javascript')).javascript();
    case 'sql':
      return (await import('@codemirror/lang-sql')).sql();
    case 'java':
      return (await import('@codemirror/lang-java')).java();
    case 'cpp':
      return (await import('@codemirror/lang-cpp')).cpp();
    case 'r': {
      const { r } = await import('@codemirror/legacy-modes/mode/r');
      return StreamLanguage.define(r);
    }
  }
}

type CodeInputProps = {
  value: string;
  language: CodingLanguage;
  label: string;
  onChange: (value: string) => void;
  testId?: string;
};

/** The editor for a coding question's starter code and reference solution (the candidate's editor's twin). */
export default function CodeInput({ value, language, label, onChange, testId }: CodeInputProps) {
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
        onChange={onChange}
        extensions={extensions}
        minHeight="120px"
        maxHeight="400px"
        basicSetup={{ foldGutter: false }}
      />
    </div>
  );
}
