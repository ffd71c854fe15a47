import type { PublicExam } from '@exam/domain/public-exam';
import { WORKSPACE_TYPE_LABELS } from '@exam/domain/exam-settings';
import { Button } from '@exam/ui/button';
import { Spinner } from '@exam/ui/spinner';
import { HardDrive, RotateCcw, WifiOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useElapsedSeconds } from '../hooks/use-elapsed-seconds.ts';
import { useWorkspaceSession, type WorkspaceState } from '../hooks/use-workspace-session.ts';
import { editorSrc, FIRST_START_SECONDS } from '../lib/workspace-session.ts';
import { WorkspaceAiNote } from './workspace-ai-note.tsx';

export type WorkspacePanelProps = {
  exam: PublicExam;
  attempt: { attemptId: string; token: string } | null;
  preview: boolean;
  activeQuestionIndex: number;
};

/**
 * A sandboxed frame that still allows the clipboard the editor needs. allow-same-origin gives the editor its own
 * origin (WORKSPACE_ORIGIN, for its cookie and storage), which is never the exam page's: the editor's scripts
 * cannot read this page, its storage or its attempt token.
 */
const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-downloads allow-modals';
const FRAME_ALLOW = 'clipboard-read; clipboard-write';

function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 px-6 text-center text-sm text-muted">
      {children}
    </div>
  );
}

/**
 * The coding workspace (docs/product.md#the-coding-workspace). The editor frame sits inside the element marked
 * data-workspace-frame: focus moving there is not a proctoring loss. `data-state` mirrors the session
 * state for the journeys.
 */
export function WorkspacePanel({ exam, attempt, preview, activeQuestionIndex }: WorkspacePanelProps) {
  const { t } = useTranslation('workspace');
  const { view, retry, retryInSeconds, storage } = useWorkspaceSession({
    token: attempt?.token ?? null,
    examId: exam.id,
    enabled: !preview,
  });
  const elapsed = useElapsedSeconds(view.state === 'creating');
  const state: WorkspaceState = view.state;
  const connected = view.state === 'connecting' || view.state === 'connected' ? view : null;
  // The editor opens on the file of the question the candidate is on when it connects (or the first coding
  // question's); moving to another question later never reloads the editor under the candidate's hands.
  const sessionId = connected?.session.sessionId;
  const [opened, setOpened] = useState<{ sessionId: string; file: string | null } | null>(null);
  if (sessionId && opened?.sessionId !== sessionId) {
    const file =
      exam.questions[activeQuestionIndex]?.workspaceFile ??
      exam.questions.find((q) => q.type === 'coding' && q.workspaceFile)?.workspaceFile ??
      null;
    setOpened({ sessionId, file });
  }
  const openFile = opened?.sessionId === sessionId ? opened?.file : null;

  let body: ReactNode = null;
  if (preview) {
    body = (
      <Notice>
        <p className="font-medium text-ink">{t('previewTitle')}</p>
        <p>{t('previewBody', { type: WORKSPACE_TYPE_LABELS[exam.codingWorkspace.workspaceType] })}</p>
      </Notice>
    );
  } else if (view.state === 'initializing') {
    body = (
      <Notice>
        <Spinner label={t('preparing')} />
      </Notice>
    );
  } else if (view.state === 'creating') {
    body = (
      <Notice>
        <Spinner label={t('creating')} />
        <p>
          {elapsed > 0
            ? t('firstStartElapsed', { seconds: FIRST_START_SECONDS, elapsed })
            : t('firstStart', { seconds: FIRST_START_SECONDS })}
        </p>
      </Notice>
    );
  } else if (view.state === 'failed') {
    body = (
      <Notice>
        <div role="alert" className="flex max-w-md flex-col items-center gap-2">
          <WifiOff aria-hidden className="h-6 w-6 text-muted" />
          <p className="text-base font-semibold text-ink">{t('unavailableTitle')}</p>
          <p>{t('unavailableBody')}</p>
        </div>
        {retryInSeconds !== null && (
          <p data-testid="workspace-retry" className="tabular-nums">
            {retryInSeconds > 0 ? t('retryIn', { seconds: retryInSeconds }) : t('retrying')}
          </p>
        )}
        <Button variant="secondary" onClick={retry}>
          <RotateCcw aria-hidden className="h-4 w-4" />
          {t('tryAgain')}
        </Button>
      </Notice>
    );
  }

  return (
    <section
      aria-label={t('region')}
      className="flex h-full flex-col bg-surface"
      data-testid="workspace-panel"
      data-state={state}
      data-preview={preview || undefined}
    >
      <div className="border-b border-line px-3 py-2 text-xs font-semibold uppercase tracking-wide text-muted">
        {WORKSPACE_TYPE_LABELS[exam.codingWorkspace.workspaceType]}
      </div>
      <WorkspaceAiNote ai={exam.codingWorkspace.ai} />
      {connected && storage?.full && (
        <div
          role="alert"
          data-testid="workspace-full"
          className="flex items-start gap-2 border-b border-line bg-surface px-3 py-2 text-sm text-ink"
        >
          <HardDrive aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
          <p>
            <span className="font-semibold">{t('fullTitle')}</span>{' '}
            {t('fullBody', { size: Math.round(storage.sizeBytes / 1024 ** 2) })}
          </p>
        </div>
      )}
      <div data-workspace-frame className="relative min-h-0 flex-1">
        {connected && attempt && (
          <iframe
            key={connected.session.sessionId}
            title={t('frameTitle')}
            src={editorSrc(connected.editorUrl, openFile)}
            sandbox={FRAME_SANDBOX}
            allow={FRAME_ALLOW}
            className="h-full w-full border-0"
          />
        )}
        {view.state === 'connecting' && (
          <div className="absolute inset-0 flex items-center justify-center bg-surface">
            <Spinner label={t('connecting')} />
          </div>
        )}
        {body}
      </div>
    </section>
  );
}
