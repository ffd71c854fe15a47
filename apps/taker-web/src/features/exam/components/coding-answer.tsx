import { starterCodeFor, workspaceFileFor, type RunLanguage } from '@exam/domain/candidate-answers';
import type { RunAnswer } from '@exam/domain/coding';
import { lazy, Suspense, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useChooseLanguage, useChosenLanguage } from '../api/choose-language.ts';
import { editOfCode } from '../lib/answer-edits.ts';
import { CodingConsole } from './coding-console.tsx';
import { CodingTests } from './coding-tests.tsx';
import type { QuestionCardProps } from './question-card.tsx';

const CodeEditor = lazy(() => import('@exam/ui/code-editor'));

/**
 * A coding question's one answering surface (docs/product.md#the-coding-workspace). With the exam's coding
 * workspace on, the question's file there is the answer: the card names it instead of showing a second editor, and
 * each run (Run tests, the console) saves what the server read from the workspace as the answer; an unreachable
 * workspace leaves the last saved answer in place and the card says so. Without a workspace the code editor is the
 * answer, opened on the starter code while the answer is empty: the starter code becomes the answer only once the
 * candidate edits it, so an untouched question stays unanswered. Each editor update is recorded with the editor's own
 * changes and user events; the starter code, which the page put there, is recorded as restored text on the first edit.
 */
export function CodingAnswer({
  index,
  question,
  answer,
  onAnswer,
  onCommit,
  attempt,
  inWorkspace,
}: Pick<QuestionCardProps, 'index' | 'question' | 'answer' | 'onAnswer' | 'onCommit'> & {
  attempt: { attemptId: string; token: string } | null;
  inWorkspace: boolean;
}) {
  const { t } = useTranslation('questions');
  const [edited, setEdited] = useState(answer !== '');
  const languages = question.languages ?? [];
  // The choice kept with the attempt (a reload shows it again), else the question's own language.
  const saved = useChosenLanguage(attempt, index, languages.length > 1);
  const choose = useChooseLanguage(attempt, index);
  const [picked, setPicked] = useState<RunLanguage | undefined>();
  const language = picked ?? saved ?? question.language;
  const setLanguage = (next: RunLanguage) => {
    setPicked(next);
    if (attempt) choose.mutate(next);
  };
  const [unreachable, setUnreachable] = useState(false);
  const workspacePath = inWorkspace ? workspaceFileFor(question, language) : null;
  const code = edited || answer !== '' ? answer : starterCodeFor(question, language);
  // Sent with each run only when the candidate has a choice; the server runs the question's language otherwise.
  const chosen = languages.length > 1 ? language : undefined;
  const onRan = (ran: RunAnswer) => {
    setUnreachable(ran.workspaceUnreachable);
    if (ran.from === 'workspace' && ran.code !== answer) onAnswer(index, ran.code, { source: 'restored', whole: true });
  };
  return (
    <>
      {languages.length > 1 && (
        <LanguageChoice index={index} languages={languages} value={language} onChange={setLanguage} />
      )}
      {workspacePath ? (
        <p
          className="rounded-md border border-brand-200 bg-brand-50 p-3 text-sm text-ink"
          data-testid={`workspace-file-${index}`}
        >
          <Trans
            t={t}
            i18nKey="coding.inWorkspace"
            values={{ file: workspacePath }}
            components={{ code: <code className="font-mono font-semibold" /> }}
          />
        </p>
      ) : (
        <Suspense fallback={<p className="text-sm text-muted">{t('card.loadingEditor')}</p>}>
          <CodeEditor
            value={code}
            language={language ?? 'python'}
            label={t('card.codeLabel', { number: index + 1 })}
            recordEdits
            onChange={(value, edit) => {
              setEdited(true);
              onAnswer(index, value, edit ? editOfCode(edit) : { source: 'typed' });
            }}
            onBlur={onCommit}
          />
        </Suspense>
      )}
      {unreachable && (
        <p role="alert" className="mt-2 text-sm text-ink" data-testid={`workspace-unreachable-${index}`}>
          {t('coding.workspaceUnreachable')}
        </p>
      )}
      <CodingTests index={index} question={question} code={code} attempt={attempt} language={chosen} onRan={onRan} />
      <CodingConsole index={index} code={code} language={chosen} attempt={attempt} onRan={onRan} />
    </>
  );
}

/** The language the candidate writes a question in, among those its creator allows. */
function LanguageChoice({
  index,
  languages,
  value,
  onChange,
}: {
  index: number;
  languages: readonly RunLanguage[];
  value: RunLanguage | undefined;
  onChange: (language: RunLanguage) => void;
}) {
  const { t } = useTranslation('questions');
  const id = useId();
  return (
    <div className="mb-2 flex items-center gap-2">
      <label htmlFor={id} className="text-xs font-medium text-ink">
        {t('coding.language', { number: index + 1 })}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value as RunLanguage)}
        className="h-8 rounded-md border border-line bg-surface px-2 text-sm text-ink"
      >
        {languages.map((l) => (
          <option key={l} value={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Languages by their own names (never translated). */
const LANGUAGE_NAMES: Record<RunLanguage, string> = {
  python: 'Python',
  javascript: 'JavaScript',
  sql: 'SQL',
  r: 'R',
  java: 'Java',
  cpp: 'C++',
};
