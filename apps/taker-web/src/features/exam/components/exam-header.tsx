import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { AlertTriangle, Maximize, Minimize } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ResumeCodeMenu } from '../../../lib/resume-code.tsx';
import type { SaveStatus } from '../lib/sync.ts';
import type { PanelKey, PanelVisibility } from './exam-panels.tsx';
import { ExamTimer } from './exam-timer.tsx';
import { SaveStatusIndicator } from './save-status.tsx';

// The display menu (Radix's menu and its positioning code) is a chunk of its own, fetched while the
// questions render; a blank of the button's size holds its place so nothing shifts.
const PreferencesMenu = lazy(async () => ({
  default: (await import('../../../lib/preferences-menu.tsx')).PreferencesMenu,
}));

type ExamHeaderProps = {
  title: string;
  preview: boolean;
  warnings: number;
  candidate: { name: string; studentId: string; attemptId?: string } | null;
  answered: number;
  total: number;
  remaining: number | null;
  panels: PanelVisibility;
  availablePanels: PanelKey[];
  onTogglePanel: (key: PanelKey) => void;
  onRestoreAll: () => void;
  fullScreen: { enabled: boolean; active: boolean; onToggle: () => void };
  saveStatus: SaveStatus | null;
  submitting: boolean;
  onSubmit: () => void;
};

export function ExamHeader(props: ExamHeaderProps) {
  const { t } = useTranslation('room');
  const { panels, availablePanels } = props;
  const allHidden = availablePanels.length > 0 && availablePanels.every((key) => !panels[key]);
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-line bg-surface px-4 py-2">
      <div className="flex min-w-0 items-center gap-2">
        <h1 className="truncate text-base font-semibold text-ink">{props.title}</h1>
        {props.preview && <Badge tone="info">{t('header.creatorPreview')}</Badge>}
        <Badge
          tone={props.warnings > 0 ? 'warning' : 'neutral'}
          data-testid="warnings-count"
          aria-label={t('header.warnings', { count: props.warnings })}
        >
          <AlertTriangle aria-hidden className="h-3 w-3" /> {props.warnings}
        </Badge>
      </div>
      {props.candidate && (
        <span className="text-sm text-muted" data-testid="candidate">
          {props.candidate.name} ({props.candidate.studentId})
        </span>
      )}
      <span className="text-sm font-medium text-ink" data-testid="answered-count">
        {t('header.answered', { answered: props.answered, total: props.total })}
      </span>
      {props.remaining !== null && <ExamTimer remaining={props.remaining} />}
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {props.candidate?.attemptId && <ResumeCodeMenu attemptId={props.candidate.attemptId} />}
        <div
          role="group"
          aria-label={t('panelToggles')}
          className="flex items-center gap-1"
          hidden={availablePanels.length === 0}
        >
          {availablePanels.map((key) => (
            <Button
              key={key}
              size="sm"
              variant={panels[key] ? 'secondary' : 'ghost'}
              aria-pressed={panels[key]}
              onClick={() => props.onTogglePanel(key)}
            >
              {t(`panels.${key}`)}
            </Button>
          ))}
          {allHidden && (
            <Button size="sm" variant="secondary" onClick={props.onRestoreAll}>
              {t('restoreAll')}
            </Button>
          )}
        </div>
        {props.fullScreen.enabled && (
          <Button
            size="icon"
            variant="ghost"
            aria-label={t(props.fullScreen.active ? 'header.exitFullscreen' : 'header.enterFullscreen')}
            onClick={props.fullScreen.onToggle}
          >
            {props.fullScreen.active ? (
              <Minimize aria-hidden className="h-4 w-4" />
            ) : (
              <Maximize aria-hidden className="h-4 w-4" />
            )}
          </Button>
        )}
        <Suspense fallback={<span aria-hidden className="inline-block h-9 w-9" />}>
          <PreferencesMenu />
        </Suspense>
        {props.saveStatus && <SaveStatusIndicator status={props.saveStatus} />}
        <Button size="sm" onClick={props.onSubmit} disabled={props.submitting}>
          {t(props.submitting ? 'header.submitting' : 'header.submit')}
        </Button>
      </div>
    </header>
  );
}
