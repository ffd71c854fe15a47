// Writes a coding agent's own configuration from the exam's agent settings in the environment (issue 35;
// agent-wrapper.sh loads them from $HOME/.exam-agent.env first). Run on every start, so a new token or model after
// the workspace is claimed again wins. Every agent talks to the exam's gateway only, logs in to nothing, and checks
// for no updates and sends no telemetry (the workspace's network would refuse them anyway).
//   node agent-config.mjs codex|claude-code|qwen-code|opencode
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const env = process.env;
const home = env.HOME || '/tmp/home';
const model = env.EXAM_AI_MODEL ?? '';
const wire = env.EXAM_AGENT_WIRE ?? '';

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o600 });
}
function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}
const toml = (s) => JSON.stringify(s); // a TOML basic string: JSON's escapes are valid TOML escapes

const writers = {
  codex() {
    // Codex CLI speaks the Responses API; a provider of our own (not the built-in `openai`, which ignores a new
    // base_url) takes the key from OPENAI_API_KEY, so there is no login.
    const codexHome = env.CODEX_HOME || join(home, '.codex');
    write(
      join(codexHome, 'config.toml'),
      [
        '# Written by the exam workspace from $HOME/.exam-agent.env each time codex starts.',
        `model = ${toml(model)}`,
        'model_provider = "exam"',
        'check_for_update_on_startup = false',
        // Codex's own sandbox (bubblewrap) needs user namespaces, which the workspace container does not get; the
        // container itself (read-only root, no capabilities, egress to the gateway only) is the sandbox.
        'sandbox_mode = "danger-full-access"',
        'approval_policy = "on-request"',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[feedback]',
        'enabled = false',
        '',
        '[model_providers.exam]',
        'name = "Exam AI gateway"',
        `base_url = ${toml(env.OPENAI_BASE_URL ?? '')}`,
        'env_key = "OPENAI_API_KEY"',
        'wire_api = "responses"',
        'requires_openai_auth = false',
        '',
      ].join('\n'),
    );
  },
  'claude-code'() {
    // Claude Code takes ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY and ANTHROPIC_MODEL from the environment. The key is
    // marked approved and onboarding done so the interactive mode asks nothing; updates and telemetry are off.
    const configDir = env.CLAUDE_CONFIG_DIR || join(home, '.claude');
    const settingsPath = join(configDir, 'settings.json');
    write(
      settingsPath,
      JSON.stringify(
        {
          ...readJson(settingsPath),
          model,
          env: {
            DISABLE_AUTOUPDATER: '1',
            DISABLE_TELEMETRY: '1',
            DISABLE_ERROR_REPORTING: '1',
            DISABLE_BUG_COMMAND: '1',
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          },
        },
        null,
        2,
      ),
    );
    const statePath = env.CLAUDE_CONFIG_DIR ? join(configDir, '.claude.json') : join(home, '.claude.json');
    const state = readJson(statePath);
    const key = env.ANTHROPIC_API_KEY ?? '';
    const approved = new Set(state.customApiKeyResponses?.approved ?? []);
    approved.add(key.slice(-20));
    const projects = { ...state.projects };
    for (const dir of new Set([process.cwd(), '/home/coder/workspace'])) {
      projects[dir] = { ...projects[dir], hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true };
    }
    write(
      statePath,
      JSON.stringify(
        {
          ...state,
          hasCompletedOnboarding: true,
          autoUpdates: false,
          customApiKeyResponses: { approved: [...approved], rejected: state.customApiKeyResponses?.rejected ?? [] },
          projects,
        },
        null,
        2,
      ),
    );
  },
  'qwen-code'() {
    // Qwen Code on the OpenAI-compatible protocol: OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL, chosen up front
    // so it does not open its /auth dialog.
    const path = join(home, '.qwen', 'settings.json');
    const settings = readJson(path);
    write(
      path,
      JSON.stringify(
        {
          ...settings,
          security: { ...settings.security, auth: { selectedType: 'openai' } },
          model: { ...settings.model, name: model },
          modelProviders: {
            openai: [{ id: model, name: model, baseUrl: env.OPENAI_BASE_URL ?? '', envKey: 'OPENAI_API_KEY' }],
          },
          general: { ...settings.general, enableAutoUpdate: false },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
        },
        null,
        2,
      ),
    );
  },
  opencode() {
    // opencode on a provider of our own: OpenAI-compatible or Anthropic by the wire format the exam's provider
    // serves. Both AI SDK packages are bundled in the binary, so nothing is fetched from npm.
    const anthropic = wire === 'anthropic-messages';
    const base = anthropic ? `${(env.ANTHROPIC_BASE_URL ?? '').replace(/\/+$/, '')}/v1` : (env.OPENAI_BASE_URL ?? '');
    const configHome = env.XDG_CONFIG_HOME || join(home, '.config');
    write(
      join(configHome, 'opencode', 'opencode.json'),
      JSON.stringify(
        {
          $schema: 'https://opencode.ai/config.json',
          autoupdate: false,
          share: 'disabled',
          provider: {
            exam: {
              npm: anthropic ? '@ai-sdk/anthropic' : '@ai-sdk/openai-compatible',
              name: 'Exam AI gateway',
              options: {
                baseURL: base,
                apiKey: anthropic ? '{env:ANTHROPIC_API_KEY}' : '{env:OPENAI_API_KEY}',
              },
              models: { [model]: { name: model } },
            },
          },
          model: `exam/${model}`,
          small_model: `exam/${model}`,
        },
        null,
        2,
      ),
    );
  },
};

const agent = process.argv[2];
if (!Object.hasOwn(writers, agent)) {
  console.error(`agent-config: unknown agent ${agent}`);
  process.exit(2);
}
writers[agent]();
