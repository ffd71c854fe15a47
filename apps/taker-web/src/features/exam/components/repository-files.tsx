import { useTranslation } from 'react-i18next';

/** An agentic task's starter repository: its files, which the candidate finds in the workspace. */
export function RepositoryFiles({ index, files }: { index: number; files: string[] }) {
  const { t } = useTranslation('questions');
  return (
    <section
      aria-label={t('repository.label', { number: index + 1 })}
      data-testid={`repository-files-${index}`}
      className="mb-3 rounded-md border border-line bg-canvas p-3 text-sm"
    >
      <p className="font-medium text-ink">{t('repository.inWorkspace', { count: files.length })}</p>
      <ul className="mt-1 flex flex-col font-mono text-xs text-ink">
        {[...files].sort().map((path) => (
          <li key={path}>{path}</li>
        ))}
      </ul>
    </section>
  );
}
