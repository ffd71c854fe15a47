# Loads the exam's agent settings (issue 35) into the environment: the orchestrator writes them at claim time
# to $HOME/.exam-agent.env as KEY=value lines (agentEnvironment() in packages/domain/src/workspace-agents.ts).
# Sourced by /etc/bash.bashrc (code-server's terminal) and by the agent wrappers (agent-wrapper.sh). Values are
# taken literally (one pair of surrounding quotes is dropped); lines that are not KEY=value are ignored.
exam_agent_env_file="${HOME:-/tmp/home}/.exam-agent.env"
exam_agent_env_load() {
  [ -r "$exam_agent_env_file" ] || return 1
  while IFS= read -r exam_agent_line || [ -n "$exam_agent_line" ]; do
    case "$exam_agent_line" in
      [A-Za-z_]*=*) ;;
      *) continue ;;
    esac
    exam_agent_key="${exam_agent_line%%=*}"
    case "$exam_agent_key" in *[!A-Za-z0-9_]*) continue ;; esac
    exam_agent_value="${exam_agent_line#*=}"
    case "$exam_agent_value" in
      \"*\") exam_agent_value="${exam_agent_value#\"}" exam_agent_value="${exam_agent_value%\"}" ;;
      \'*\') exam_agent_value="${exam_agent_value#\'}" exam_agent_value="${exam_agent_value%\'}" ;;
    esac
    export "$exam_agent_key=$exam_agent_value"
  done <"$exam_agent_env_file"
  unset exam_agent_line exam_agent_key exam_agent_value
  return 0
}
