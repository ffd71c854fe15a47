// Runs the scaled platform until SIGINT/SIGTERM: the web apps built, two replicas of every service behind
// haproxy, both web servers in front. The journeys' scaled run (apps/e2e/playwright.scaled.config.ts) starts
// it as its web server; by hand: `TEST_DATABASE_URL=postgres://… node scripts/scale/stack.ts`.
// Ports: SCALE_BASE_PORT (default 7350) and the 29 after it, CREATOR_WEB_PORT and TAKER_WEB_PORT (5273/5274).
import { SERVICES } from '../../packages/domain/src/service-routes.ts';
import { buildWebApps } from '../start-order.ts';
import { ROOT, startScaleStack } from './harness.ts';

const env = process.env;
const adminDatabaseUrl = env.TEST_DATABASE_URL ?? env.DATABASE_URL;
if (!adminDatabaseUrl) {
  console.error('The scaled platform needs a PostgreSQL server: set TEST_DATABASE_URL');
  process.exit(2);
}
const basePort = Number(env.SCALE_BASE_PORT ?? 7350);
const web = { creatorPort: Number(env.CREATOR_WEB_PORT ?? 5273), takerPort: Number(env.TAKER_WEB_PORT ?? 5274) };

buildWebApps(ROOT);

const stack = await startScaleStack({
  adminDatabaseUrl,
  basePort,
  web,
  openAiBaseUrl: env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
  ...(env.OPENAI_API_KEY ? { openAiApiKey: env.OPENAI_API_KEY } : {}),
  ...((env.REDIS_URL ?? env.TEST_REDIS_URL) ? { redisUrl: (env.REDIS_URL ?? env.TEST_REDIS_URL)! } : {}),
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// Under pnpm a SIGTERM is not passed on (see scripts/start.ts): stop when the parent goes away.
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) void stop();
}, 500).unref();

console.log(`
  Scaled platform is running (two replicas of every service behind haproxy):
    Creators:   ${stack.creatorOrigin}
    Candidates: ${stack.takerOrigin}
    Services:   ${SERVICES.map((s) => `${s} ${stack.proxyUrl(s)}`).join(', ')}
    haproxy stats: http://127.0.0.1:${basePort + 9}/stats
`);
