import { cpp } from '@codemirror/lang-cpp';
import { java } from '@codemirror/lang-java';
import { javascript } from '@codemirror/lang-javascript';
import { python } from '@codemirror/lang-python';
import { sql } from '@codemirror/lang-sql';
import { StreamLanguage } from '@codemirror/language';
import { r } from '@codemirror/legacy-modes/mode/r';
import CodeMirror, { EditorView, type Extension } from '@uiw/react-codemirror';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';

/** The syntax mode of a file, by its extension; plain text when unknown. */
export function languageOf(fileName: string): { name: string; extension: Extension | null } {
  const ext = /\.([^.]+)$/.exec(fileName.toLowerCase())?.[1] ?? '';
  switch (ext) {
    case 'py':
      return { name: 'Python', extension: python() };
    case 'js':
    case 'jsx':
    case 'mjs':
    case 'cjs':
      return { name: 'JavaScript', extension: javascript({ jsx: true }) };
    case 'ts':
    case 'tsx':
      return { name: 'TypeScript', extension: javascript({ typescript: true, jsx: ext === 'tsx' }) };
    case 'java':
      return { name: 'Java', extension: java() };
    case 'c':
    case 'cc':
    case 'cpp':
    case 'h':
    case 'hpp':
      return { name: 'C++', extension: cpp() };
    case 'sql':
      return { name: 'SQL', extension: sql() };
    case 'r':
      return { name: 'R', extension: StreamLanguage.define(r) };
    default:
      return { name: i18n.t('grading:codeViewer.plainText'), extension: null };
  }
}

/** A read-only, highlighted view of one workspace file (loaded lazily: CodeMirror is large). */
export function CodeViewer({ fileName, content }: { fileName: string; content: string }) {
  const { t } = useTranslation('grading');
  const language = languageOf(fileName);
  // The name goes on the editable area itself (CodeMirror's content element, role textbox), where screen readers
  // and axe look for it; an aria-label on the wrapper would name nothing.
  const extensions = [
    EditorView.contentAttributes.of({ 'aria-label': t('codeViewer.contentsOfFilename', { fileName }) }),
    EditorView.lineWrapping,
    ...(language.extension ? [language.extension] : []),
  ];
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-muted" data-testid="code-language">
        {language.name}
      </p>
      <CodeMirror
        value={content}
        editable={false}
        readOnly
        basicSetup={{ foldGutter: false }}
        extensions={extensions}
        maxHeight="60vh"
      />
    </div>
  );
}
