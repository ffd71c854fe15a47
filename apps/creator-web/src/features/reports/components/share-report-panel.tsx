import { REPORT_LINK_EXPIRY_CHOICES, type CreatedReportLink, type ReportLink } from '@exam/domain/candidate-report';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { toast } from '@exam/ui/toaster';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { copyText } from '../../../lib/copy-text.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useCreateReportLink, useReportLinks, useRevokeReportLink } from '../api/report-links.ts';

const STATE_TONE: Record<ReportLink['state'], BadgeTone> = { active: 'success', expired: 'neutral', revoked: 'danger' };
const STATE_KEY = {
  active: 'share.stateActive',
  expired: 'share.stateExpired',
  revoked: 'share.stateRevoked',
} as const;

/** The link just made: shown once (only its hash is kept), with copy and open. */
function NewLink({ link }: { link: CreatedReportLink }) {
  const { t } = useTranslation('reports');
  const url = `${window.location.origin}${paths.report(link.token)}`;
  async function copy() {
    if (await copyText(url)) toast.success(t('share.copied'));
    else toast.error(t('share.copyFailed'));
  }
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-line bg-canvas p-3">
      <Field label={t('share.newLink')} hint={t('share.newLinkHint')}>
        <Input readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void copy()}>
          {t('share.copy')}
        </Button>
        <Button size="sm" variant="secondary" asChild>
          <a href={url} target="_blank" rel="noreferrer noopener">
            {t('share.open')}
          </a>
        </Button>
      </div>
    </div>
  );
}

function LinksTable({ resultId, links }: { resultId: string; links: ReportLink[] }) {
  const { t } = useTranslation('reports');
  const revoke = useRevokeReportLink(resultId);
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{t('share.links')}</caption>
      <thead className="text-xs text-muted">
        <tr>
          <th scope="col" className="py-1 pr-3 font-medium">
            {t('share.created')}
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            {t('share.expires')}
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            {t('share.opened')}
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            {t('share.state')}
          </th>
          <th scope="col" className="py-1 font-medium">
            <span className="sr-only">{t('share.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {links.map((link) => (
          <tr key={link.id} className="border-t border-line" data-testid="report-link">
            <td className="py-2 pr-3 tabular-nums">{formatDateTime(link.createdAt)}</td>
            <td className="py-2 pr-3 tabular-nums">{formatDateTime(link.expiresAt)}</td>
            <td className="py-2 pr-3">{t('share.openedTimes', { count: link.openCount })}</td>
            <td className="py-2 pr-3">
              <Badge tone={STATE_TONE[link.state]}>{t(STATE_KEY[link.state])}</Badge>
            </td>
            <td className="py-2 text-right">
              {link.state === 'active' && (
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={t('share.revokeLabel', { created: formatDateTime(link.createdAt) })}
                  disabled={revoke.isPending}
                  onClick={() =>
                    revoke.mutate(link.id, {
                      onSuccess: () => toast.success(t('share.revoked')),
                      onError: (error) => toast.error(userMessageOf(error)),
                    })
                  }
                >
                  {t('share.revoke')}
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * "Share report" on a result (docs/product.md#candidate-report): the owner picks how long a link lasts, copies it
 * once, and revokes links from the list.
 */
export function ShareReportPanel({ resultId }: { resultId: string }) {
  const { t } = useTranslation('reports');
  const [days, setDays] = useState('7');
  const [created, setCreated] = useState<CreatedReportLink | null>(null);
  const links = useReportLinks(resultId);
  const create = useCreateReportLink(resultId);
  const options = REPORT_LINK_EXPIRY_CHOICES.map((n) => ({ value: String(n), label: t('share.days', { count: n }) }));
  return (
    <Card>
      <CardHeader title={t('share.title')} description={t('share.description')} />
      <CardBody className="flex flex-col gap-4">
        <div className="flex flex-wrap items-end gap-3">
          <Field label={t('share.expiry')} className="w-48">
            <Select value={days} onValueChange={setDays} options={options} />
          </Field>
          <Button
            disabled={create.isPending}
            onClick={() =>
              create.mutate(Number(days), {
                onSuccess: setCreated,
                onError: (error) => toast.error(userMessageOf(error)),
              })
            }
          >
            {create.isPending ? t('share.creating') : t('share.create')}
          </Button>
        </div>
        {created && <NewLink link={created} />}
        <section aria-label={t('share.links')} className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold text-ink">{t('share.links')}</h3>
          {links.data && links.data.links.length > 0 ? (
            <LinksTable resultId={resultId} links={links.data.links} />
          ) : (
            <p className="text-sm text-muted">{links.isError ? userMessageOf(links.error) : t('share.none')}</p>
          )}
        </section>
      </CardBody>
    </Card>
  );
}
