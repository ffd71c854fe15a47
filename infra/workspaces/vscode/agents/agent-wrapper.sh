#!/bin/sh
# Installed as /usr/local/bin/{codex,claude,qwen,opencode} (issue 35): starts the exam's coding agent configured
# for the exam's gateway, whichever way the candidate starts it (code-server's terminal, `sh -c`, a script).
# It loads $HOME/.exam-agent.env (written by the orchestrator when the workspace is claimed), writes the agent's own
# configuration from it (agent-config.mjs) and runs the real binary from /opt/agents. Without the file the exam
# has no agent, and it says so.
set -eu
command_name="$(basename "$0")"
case "$command_name" in
  codex) agent=codex ;;
  claude) agent=claude-code ;;
  qwen) agent=qwen-code ;;
  opencode) agent=opencode ;;
  *) echo "$command_name: not a coding agent this workspace knows" >&2; exit 2 ;;
esac
real="/opt/agents/node_modules/.bin/$command_name"

. /usr/local/lib/exam-agents/exam-agent-env.sh
if ! exam_agent_env_load || [ -z "${EXAM_AGENT:-}" ]; then
  echo "$command_name: no AI agent is enabled in this exam." >&2
  exit 1
fi
if [ "$EXAM_AGENT" != "$agent" ]; then
  case "$EXAM_AGENT" in
    codex) other=codex ;; claude-code) other=claude ;; qwen-code) other=qwen ;; opencode) other=opencode ;;
    *) other="$EXAM_AGENT" ;;
  esac
  echo "$command_name: this exam's agent is $other; start it with \`$other\`." >&2
  exit 1
fi
if [ -z "${EXAM_AGENT_WIRE:-}" ]; then
  echo "$command_name: the exam's AI provider cannot serve this agent." >&2
  exit 1
fi

case "$agent" in
  codex)
    export CODEX_HOME="${CODEX_HOME:-$HOME/.codex}"
    ;;
  opencode)
    export XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$HOME/.config}" \
      OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 \
      OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1
    ;;
esac
/opt/node24/node_modules/.bin/node /usr/local/lib/exam-agents/agent-config.mjs "$agent"
exec "$real" "$@"
