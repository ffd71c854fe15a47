import { AppError } from '@exam/domain/errors';
import type { AgentWireFormat } from '@exam/domain/workspace-agents';
import { workspaceAgentOf } from '@exam/server-kit/plugins/auth';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AgentCallRepository } from './agent-endpoint.repository.ts';
import type { AgentService } from './agent-endpoint.service.ts';
import { relayCall } from './relay-call.ts';
import { estimateTokens } from '../chat/transcript-writer.ts';
import { AgentRefusal, wireErrorBody } from './wire-errors.ts';
import { CountTokensBodySchema } from './wire-requests.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The wire format an agent endpoint route speaks: its errors are answered in it. */
    agentWire?: AgentWireFormat;
  }
}

/** Agents send whole conversations with every call (tool definitions, file contents, tool outputs). */
const AGENT_BODY_LIMIT = 32 * 1024 * 1024;

const OpenAiErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), param: z.null(), code: z.string().nullable() }),
});
const AnthropicErrorSchema = z.object({
  type: z.literal('error'),
  error: z.object({ type: z.string(), message: z.string() }),
});
const AgentBodyDocSchema = z
  .record(z.string(), z.unknown())
  .describe("The provider's own request body; `model` is replaced by the exam's model.");
const RelayedSchema = z
  .unknown()
  .describe("The provider's answer as it sent it: JSON, or with `stream: true` its server-sent events one by one");

function errorsIn(wire: AgentWireFormat) {
  const body = wire === 'anthropic-messages' ? AnthropicErrorSchema : OpenAiErrorSchema;
  return { 400: body, 401: body, 403: body, 413: body, 429: body, 502: body, 503: body };
}

/** Errors of the agent routes in the agent's wire format (the platform's own shape is for the platform's clients). */
function answerInWire(err: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const wire = request.routeOptions.config.agentWire ?? 'openai-chat';
  let status = err instanceof AgentRefusal ? err.status : err instanceof AppError ? err.statusCode : err.statusCode;
  let message = err.message;
  if (!status || status >= 500) {
    if (!(err instanceof AppError)) {
      request.log.error({ err }, 'unhandled error on the agent endpoint');
      status = 500;
      message = 'Internal server error';
    }
  }
  if (err instanceof AgentRefusal && err.retryAfterSeconds)
    void reply.header('retry-after', String(err.retryAfterSeconds));
  if (err instanceof AgentRefusal && err.final) void reply.header('x-should-retry', 'false');
  return reply
    .status(status ?? 500)
    .send(wireErrorBody(wire, status ?? 500, message, err instanceof AgentRefusal && err.final));
}

/**
 * The gateway as a workspace's AI endpoint (docs/product.md#ai-in-the-workspace): the provider wire formats the
 * coding agents speak, under /api/agent/v1 (the orchestrator's relay maps the container's http://exam-ai:3140/v1 here),
 * authenticated by the workspace's agent token. Each call is checked, admitted against the budgets and stored
 * before the provider is called (agent-endpoint.service.ts), then relayed (relay-call.ts).
 */
export function agentEndpointRoutes(
  service: AgentService,
  repo: AgentCallRepository,
  deps: Parameters<typeof relayCall>[4],
  opts: { timeoutMs: number },
) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.setErrorHandler(answerInWire);

    const relayRoute = (url: string, wire: AgentWireFormat, description: string) =>
      app.post(
        url,
        {
          onRequest: [app.requireWorkspaceAgent],
          bodyLimit: AGENT_BODY_LIMIT,
          config: { agentWire: wire },
          schema: {
            tags: ['agent'],
            security: [{ bearer: [] }],
            description,
            ...(wire === 'anthropic-messages' ? { querystring: z.object({ beta: z.string().optional() }) } : {}),
            body: AgentBodyDocSchema,
            response: { 200: RelayedSchema, ...errorsIn(wire) },
          },
        },
        async (request, reply) => {
          const prepared = await service.prepareCall(workspaceAgentOf(request), wire, request.body);
          await relayCall(request, reply, prepared, repo, deps, opts);
          return reply;
        },
      );

    relayRoute(
      '/api/agent/v1/chat/completions',
      'openai-chat',
      "OpenAI Chat Completions for a workspace's agent (token as Bearer): relayed to the exam's provider with the exam's model and key.",
    );
    relayRoute(
      '/api/agent/v1/responses',
      'openai-responses',
      "OpenAI's Responses API (Codex CLI) for a workspace's agent: relayed to the exam's provider with the exam's model and key.",
    );
    relayRoute(
      '/api/agent/v1/messages',
      'anthropic-messages',
      "Anthropic Messages (Claude Code; token as x-api-key, `?beta=true` accepted): relayed to the exam's provider with the exam's model and key.",
    );

    app.post(
      '/api/agent/v1/messages/count_tokens',
      {
        onRequest: [app.requireWorkspaceAgent],
        bodyLimit: AGENT_BODY_LIMIT,
        config: { agentWire: 'anthropic-messages' },
        schema: {
          tags: ['agent'],
          security: [{ bearer: [] }],
          description: 'Anthropic token counting, estimated here (characters / 4); no provider call, nothing counted.',
          querystring: z.object({ beta: z.string().optional() }),
          body: CountTokensBodySchema,
          response: { 200: z.object({ input_tokens: z.number().int() }), ...errorsIn('anthropic-messages') },
        },
      },
      async (request) => {
        const { model: _model, ...counted } = request.body;
        return { input_tokens: estimateTokens(JSON.stringify(counted).length) };
      },
    );

    app.get(
      '/api/agent/v1/models',
      {
        onRequest: [app.requireWorkspaceAgent],
        schema: {
          tags: ['agent'],
          security: [{ bearer: [] }],
          description:
            "The exam's model, the only one an agent is given: one list both OpenAI's and Anthropic's clients read.",
          response: {
            200: z.object({
              object: z.literal('list'),
              data: z.array(
                z.object({
                  id: z.string(),
                  object: z.literal('model'),
                  type: z.literal('model'),
                  display_name: z.string(),
                  created: z.number().int(),
                  created_at: z.string(),
                  owned_by: z.string(),
                }),
              ),
              has_more: z.boolean(),
              first_id: z.string(),
              last_id: z.string(),
            }),
            ...errorsIn('openai-chat'),
          },
        },
      },
      async (request) => {
        const model = await service.modelOf(workspaceAgentOf(request));
        return {
          object: 'list' as const,
          data: [
            {
              id: model,
              object: 'model' as const,
              type: 'model' as const,
              display_name: model,
              created: 0,
              created_at: new Date(0).toISOString(),
              owned_by: 'exam',
            },
          ],
          has_more: false,
          first_id: model,
          last_id: model,
        };
      },
    );
  };
}
