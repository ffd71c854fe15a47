
# The exam's coding agent (issue 35): code-server's terminal gets its settings, if the exam has one.
if [ -r /usr/local/lib/exam-agents/exam-agent-env.sh ]; then
  . /usr/local/lib/exam-agents/exam-agent-env.sh
  exam_agent_env_load || true
fi
