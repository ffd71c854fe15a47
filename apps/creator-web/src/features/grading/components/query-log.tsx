import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loggedStatements } from '../lib/collected-files.ts';

/** A SQL workbench's query log: the statements the candidate ran, in order, and the log as it was collected. */
export function QueryLog({ content }: { content: string }) {
  const { t } = useTranslation('grading');
  const statements = useMemo(() => loggedStatements(content), [content]);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-ink">{t('queryLog.count', { count: statements.length })}</p>
      {statements.length > 0 && (
        <ol aria-label={t('queryLog.statements')} className="flex max-h-[55vh] flex-col gap-2 overflow-auto">
          {statements.map((statement, i) => (
            <li key={i} className="rounded-md border border-line p-2">
              <p className="text-xs text-muted">
                {t('queryLog.statementN', { n: i + 1 })}
                {statement.notes.length > 0 && ` · ${statement.notes.join(' · ')}`}
              </p>
              <pre className="whitespace-pre-wrap break-words font-mono text-xs text-ink">{statement.sql}</pre>
            </li>
          ))}
        </ol>
      )}
      <details>
        <summary className="cursor-pointer text-sm text-muted">{t('queryLog.raw')}</summary>
        <pre className="max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-md bg-canvas p-2 font-mono text-xs">
          {content}
        </pre>
      </details>
    </div>
  );
}
