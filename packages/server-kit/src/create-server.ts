import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { rejectNulInJson } from './json-body.ts';

export type ServerOptions = {
  logLevel: string;
  /** Largest accepted body; uploads set their own limit on the route. */
  bodyLimit?: number;
  logger?: FastifyServerOptions['logger'];
  /**
   * Addresses/CIDRs whose X-Forwarded-For is believed (request.ip, request.protocol). Any other peer is
   * known by its socket address. Default: loopback only.
   */
  trustedProxies?: string[];
};

/**
 * A Fastify instance with zod validation and serialization (responses are parsed by their schema, so
 * fields a schema does not name never leave the service), pino logs that carry a request id taken from
 * `x-request-id` or generated, secrets redacted from logs, and JSON bodies holding U+0000 refused (json-body.ts).
 */
export function createServer(opts: ServerOptions) {
  const app = Fastify({
    logger: opts.logger ?? {
      level: opts.logLevel,
      // pino's `*` matches one level, so the nested places a key or password can sit are listed too.
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-internal-token"]',
          '*.apiKey',
          '*.*.apiKey',
          '*.*.*.apiKey',
          '*.password',
          '*.*.password',
          '*.encryptedApiKey',
          '*.*.encryptedApiKey',
        ],
        censor: '[redacted]',
      },
    },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    trustProxy: opts.trustedProxies ?? ['127.0.0.1', '::1'],
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  rejectNulInJson(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  return app;
}

export type App = ReturnType<typeof createServer>;
export type AnyApp = FastifyInstance;
