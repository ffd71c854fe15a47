import { auditHeadline } from '@exam/domain/assistant-audit';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLatestAudit } from '../api/run-audit.ts';
import { AUDIT_PANEL_ID } from './assistant-audit-panel.tsx';

/**
 * The latest audit in one line, where the creator sees the exam's state (its page's header) and decides to publish
 * (beside the publish button). Advisory: publishing stays possible whatever it says.
 */
export function AuditStatusNote({ examId, showAdvice = false }: { examId: string; showAdvice?: boolean }) {
  const { t } = useTranslation('audit');
  const latest = useLatestAudit(examId);
  if (!latest.isSuccess) return null;
  const { audit, current } = latest.data;
  const measured = audit !== null && audit.summary.some((row) => row.configuration === 0);
  const leaking = measured && audit.summary.some((row) => row.configuration === 0 && row.itemsLeaking > 0);
  const [text, tone]: [string, BadgeTone] =
    audit === null
      ? [t('statusNote.notAudited'), 'neutral']
      : audit.status === 'running'
        ? [t('statusNote.running'), 'info']
        : !current
          ? [t('statusNote.outOfDate'), 'warning']
          : !measured
            ? [t('statusNote.notAudited'), 'neutral']
            : [auditHeadline(audit.summary, 0), leaking ? 'danger' : 'success'];
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="audit-status-note">
      <ShieldAlert aria-hidden className="h-4 w-4 text-muted" />
      <span className="sr-only">{t('statusNote.label')}:</span>
      <Badge tone={tone}>{text}</Badge>
      <a href={`#${AUDIT_PANEL_ID}`} className="text-brand-700 underline-offset-2 hover:underline">
        {audit === null ? t('statusNote.open') : t('statusNote.see')}
      </a>
      {showAdvice && <span className="text-xs text-muted">{t('statusNote.advisory')}</span>}
    </div>
  );
}
