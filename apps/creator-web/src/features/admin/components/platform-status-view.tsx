import type { PlatformStatus, StatusItem } from '@exam/domain/service-status';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { Card } from '@exam/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { CircleAlert, CircleCheck, CircleX, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';

type State = StatusItem['state'];

/** Each state in words, a colour and an icon: the colour never carries the state alone. */
const STATES: Record<State, { tone: BadgeTone; Icon: LucideIcon; rank: number }> = {
  failing: { tone: 'danger', Icon: CircleX, rank: 0 },
  degraded: { tone: 'warning', Icon: CircleAlert, rank: 1 },
  ok: { tone: 'success', Icon: CircleCheck, rank: 2 },
};

/** What needs the operator first: failing, then degraded, then the rest, each group in the service's own order. */
export const byUrgency = (items: readonly StatusItem[]): StatusItem[] =>
  items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => STATES[a.item.state].rank - STATES[b.item.state].rank || a.index - b.index)
    .map(({ item }) => item);

function StateBadge({ state }: { state: State }) {
  const { t } = useTranslation('admin');
  const { tone, Icon } = STATES[state];
  return (
    <Badge tone={tone}>
      <Icon aria-hidden className="h-3.5 w-3.5" />
      {t(`status.state.${state}`)}
    </Badge>
  );
}

/** One service: whether it answered, and its checks with the operator's detail. */
function ServiceSection({ service }: { service: PlatformStatus['services'][number] }) {
  const { t } = useTranslation('admin');
  const headingId = `service-${service.service}`;
  return (
    <Card className="overflow-hidden">
      <section aria-labelledby={headingId}>
        <div className="flex flex-wrap items-center justify-between gap-2 px-5 pt-5 pb-3">
          <h2 id={headingId} className="font-mono text-base font-semibold text-ink">
            {service.service}
          </h2>
          <Badge tone={service.reachable ? 'success' : 'danger'}>
            {service.reachable
              ? t('status.reachable', { ms: service.elapsedMs })
              : t('status.unreachable', { ms: service.elapsedMs })}
          </Badge>
        </div>
        <Table aria-label={t('status.checksOf', { service: service.service })}>
          <TableHead>
            <tr>
              <TableHeaderCell>{t('status.columns.name')}</TableHeaderCell>
              <TableHeaderCell>{t('status.columns.state')}</TableHeaderCell>
              <TableHeaderCell>{t('status.columns.summary')}</TableHeaderCell>
              <TableHeaderCell>{t('status.columns.detail')}</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {byUrgency(service.items).map((item) => (
              <TableRow key={item.name}>
                <TableCell className="whitespace-nowrap font-medium">{item.name}</TableCell>
                <TableCell>
                  <StateBadge state={item.state} />
                </TableCell>
                <TableCell>{item.summary}</TableCell>
                <TableCell>
                  {item.detail ? (
                    <code className="font-mono text-xs break-all text-muted">{item.detail}</code>
                  ) : (
                    <span className="sr-only">{t('status.noDetail')}</span>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </section>
    </Card>
  );
}

/** Every service's status, as exam-service gathered it. */
export function PlatformStatusView({ status }: { status: PlatformStatus }) {
  return (
    <div className="flex flex-col gap-6">
      {status.services.map((service) => (
        <ServiceSection key={service.service} service={service} />
      ))}
    </div>
  );
}
