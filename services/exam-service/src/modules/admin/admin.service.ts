import { AppError, ErrorCode } from '@exam/domain/errors';
import { AI_PROVIDERS, type AiProvider } from '@exam/domain/ai-catalogue';
import { AdminMessages, ServiceStatusSchema, type PlatformStatus, type StatusItem } from '@exam/domain/service-status';
import { createInternalClient } from '@exam/server-kit/internal-client';
import type { AdminRepository } from './admin.repository.ts';

/** The services whose status the page gathers, and where exam-service reaches them. */
export type StatusSource = { service: string; baseUrl: string };

/** A pending mail older than this means the sender is not getting through. */
const STUCK_MAIL_MS = 15 * 60_000;

/**
 * The platform administrators' status page (docs/product.md#platform-status): this service's own figures (mail,
 * default provider keys) and every other service's GET /internal/status, each asked with a deadline so one service
 * that hangs shows as unreachable instead of holding the page.
 */
export function createAdminService(
  repo: AdminRepository,
  opts: {
    adminEmails: readonly string[];
    internalToken: string;
    sources: readonly StatusSource[];
    defaultProviderKeys: Record<AiProvider, boolean>;
    /** Whether mail goes through SMTP (or only to the outbox folder). */
    smtp: boolean;
    /** This service's own checks (database, migrations), as its /internal/status gives them. */
    ownStatus: () => Promise<StatusItem[]>;
    timeoutMs?: number;
    clock: { now(): Date };
  },
) {
  const timeoutMs = opts.timeoutMs ?? 2000;
  const clients = opts.sources.map((source) => ({
    ...source,
    request: createInternalClient(source.baseUrl, opts.internalToken, { timeoutMs, agent: { maxSockets: 2 } }),
  }));
  const admins = new Set(opts.adminEmails.map((e) => e.toLowerCase()));

  async function examServiceItems(): Promise<StatusItem[]> {
    const mail = await repo.mailFigures();
    const now = opts.clock.now().getTime();
    const stuck = mail.oldestPending !== null && now - mail.oldestPending.getTime() > STUCK_MAIL_MS;
    const items: StatusItem[] = [
      {
        name: 'mail delivery',
        state: opts.smtp ? 'ok' : 'degraded',
        summary: opts.smtp ? 'Sent through SMTP' : 'Written to the outbox folder only: nobody receives it',
        detail: opts.smtp ? undefined : 'SMTP_URL is not set; mail is written under DATA_DIR/outbox',
      },
      {
        name: 'mail queue',
        state: mail.failed > 0 || stuck ? 'degraded' : 'ok',
        summary: `${mail.pending} waiting, ${mail.failed} given up`,
        ...(mail.lastError || stuck
          ? {
              detail: [
                stuck && mail.oldestPending ? `oldest waiting since ${mail.oldestPending.toISOString()}` : '',
                mail.lastError ? `last error: ${mail.lastError}` : '',
              ]
                .filter(Boolean)
                .join('; '),
            }
          : {}),
      },
    ];
    for (const provider of AI_PROVIDERS) {
      if (provider === 'openai-compatible') continue;
      items.push({
        name: `assistant provider: ${provider}`,
        state: 'ok',
        summary: opts.defaultProviderKeys[provider]
          ? 'A platform key is set: exams may use it without their own'
          : 'No platform key: exams need their own key',
      });
    }
    return items;
  }

  return {
    isAdmin: (email: string) => admins.has(email.toLowerCase()),

    async status(email: string): Promise<PlatformStatus> {
      if (!admins.has(email.toLowerCase())) throw new AppError(ErrorCode.FORBIDDEN, AdminMessages.forbidden);
      const started = Date.now();
      const own = (async () => ({
        service: 'exam-service',
        reachable: true,
        items: [...(await opts.ownStatus()), ...(await examServiceItems())],
        elapsedMs: Date.now() - started,
      }))();
      const others = clients.map(async ({ service, request }) => {
        const t0 = Date.now();
        try {
          const answer = await request('/internal/status');
          const parsed = ServiceStatusSchema.safeParse(answer.body);
          if (answer.status !== 200 || !parsed.success)
            return {
              service,
              reachable: false,
              elapsedMs: Date.now() - t0,
              items: [
                {
                  name: 'status',
                  state: 'failing' as const,
                  summary: 'Answered, but not with its status',
                  detail: `HTTP ${answer.status}`,
                },
              ],
            };
          return { service, reachable: true, elapsedMs: Date.now() - t0, items: parsed.data.items };
        } catch (err) {
          return {
            service,
            reachable: false,
            elapsedMs: Date.now() - t0,
            items: [
              { name: 'service', state: 'failing' as const, summary: 'Not answering', detail: (err as Error).message },
            ],
          };
        }
      });
      return { checkedAt: opts.clock.now().toISOString(), services: await Promise.all([own, ...others]) };
    },

    close() {
      for (const client of clients) client.request.close();
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
