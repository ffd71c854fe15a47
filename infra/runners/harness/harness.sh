#!/bin/bash
# The runner's harness: the entrypoint of every exam/runner-<language> image (infra/runners/README.md).
# It reads one run's bundle as a tar on standard input, lays out an agentic task's repository (bundle/repo)
# under the source file, compiles the candidate's code once when the language needs it, runs each test in a fresh copy of the build folder under the per-test limits, and
# writes one line per step on standard output for the orchestrator (modules/runner/runner-protocol.ts):
#   COMPILE <nonce> <status> <output, base64>
#   TEST <nonce> <index> <status> <ms> <oom-kills> <stdout-truncated 0|1> <stdout, base64> <stderr, base64> <limit-hits>
#   DONE <nonce>
# An empty field is '-'. The nonce comes from the bundle and is deleted before any candidate code runs.
# Outputs never decide a verdict here: the comparison with the expected output happens in the orchestrator,
# and the expected outputs never enter the container.
#
# Environment: RUNNER_LANGUAGE (set by the image), RUNNER_TESTS, RUNNER_CPU_SECONDS, RUNNER_MEMORY_MB,
# RUNNER_OUTPUT_MAX (bytes kept of each output).
set -u
if [ "${1:-}" = exec-test ]; then
  # One test's program, started under `timeout` below, in the test's folder.
  shift
  case "$RUNNER_LANGUAGE" in
    python) exec python3 main.py "$@" ;;
    javascript) exec node --max-old-space-size="$RUNNER_MEMORY_MB" main.js "$@" ;;
    cpp) exec ./main "$@" ;;
    java) exec java -Xmx"${RUNNER_MEMORY_MB}m" -Xss64m -XX:+UseSerialGC -Xshare:auto -cp . Main "$@" ;;
    r) exec Rscript --vanilla main.R "$@" ;;
    sql)
      # A fresh database per test: the question's setup, the test's own rows, then the candidate's query.
      sqlite3 -batch -bail db <prepare.sql >/dev/null || exit 3
      exec sqlite3 -batch -bail -noheader -list -separator "$(printf '\t')" db <main.sql
      ;;
  esac
  echo "unknown language $RUNNER_LANGUAGE" >&2
  exit 2
fi

W=/work
cd "$W" || exit 1
mkdir -p bundle build
tar -x -C bundle -f - || {
  echo "FATAL bad-bundle"
  exit 1
}
nonce="$(cat bundle/nonce)"
rm -f bundle/nonce
max="${RUNNER_OUTPUT_MAX:-65536}"
cpu_limit="$(awk -v s="$RUNNER_CPU_SECONDS" 'BEGIN { c = int(s); if (c < s) c++; print c }')"
wall="$(awk -v s="$RUNNER_CPU_SECONDS" 'BEGIN { printf "%.1f", 2 * s + 1 }')"

b64() { if [ -s "$1" ]; then base64 -w0 <"$1"; else printf -- '-'; fi; }

# The memory cgroup's count of OOM kills (cgroup v2, then v1); '-' when the container cannot see it.
oom_kills() {
  local n
  n="$(awk '$1 == "oom_kill" { print $2 }' /sys/fs/cgroup/memory.events 2>/dev/null)"
  [ -n "$n" ] || n="$(awk '$1 == "oom_kill" { print $2 }' /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null)"
  echo "${n:--}"
}

# How often the memory cgroup's usage reached its limit (cgroup v2 "max", v1 failcnt); '-' when unseen. A
# program that keeps allocating at the limit can spend its time in the kernel's reclaim and reach the time
# limit before the OOM killer acts: this count says it was memory, not a slow algorithm, that held it back.
limit_hits() {
  local n
  n="$(awk '$1 == "max" { print $2 }' /sys/fs/cgroup/memory.events 2>/dev/null)"
  [ -n "$n" ] || n="$(cat /sys/fs/cgroup/memory/memory.failcnt 2>/dev/null)"
  echo "${n:--}"
}

# Ends every process the candidate's code left behind (a fork bomb, a daemonised child): everything of
# this user but PID 1, which is this harness.
sweep() { kill -9 -1 2>/dev/null; }

# An agentic task's repository (bundle/repo, absent for an ordinary question) goes into the build folder first,
# so the source file copied after it is always the run's own (a hidden main.py driving the candidate's modules).
if [ -d bundle/repo ]; then cp -a bundle/repo/. build/; fi
source_file="$(cd bundle && ls main.* Main.java 2>/dev/null | head -n1)"
cp "bundle/$source_file" build/
case "$RUNNER_LANGUAGE" in
  cpp) compile=(g++ -O2 -std=c++17 -pipe -o main main.cpp) ;;
  java) compile=(javac -J-Xmx384m -encoding UTF-8 Main.java) ;;
  *) compile=() ;;
esac
if [ "${#compile[@]}" -gt 0 ]; then
  (cd build && ulimit -f 65536 && exec timeout -s KILL 60 "${compile[@]}") >compile.out 2>&1
  status=$?
  sweep
  head -c "$max" compile.out >compile.cut
  echo "COMPILE $nonce $status $(b64 compile.cut)"
  if [ "$status" -ne 0 ]; then
    echo "DONE $nonce"
    exit 0
  fi
fi

for ((i = 0; i < RUNNER_TESTS; i++)); do
  rm -rf run && cp -a build run
  args=()
  [ -f "bundle/tests/$i/args" ] && mapfile -d '' args <"bundle/tests/$i/args"
  input="bundle/tests/$i/stdin"
  if [ "$RUNNER_LANGUAGE" = sql ]; then
    cat bundle/setup.sql "$input" >run/prepare.sql 2>/dev/null
    input=/dev/null
  fi
  before="$(oom_kills)"
  hits_before="$(limit_hits)"
  start="$(date +%s%N)"
  (
    cd run || exit 1
    ulimit -t $((cpu_limit + 1)) && ulimit -S -t "$cpu_limit" && ulimit -f 16384 || exit 1
    # Native code is held to the question's memory by its address space (the container has room to compile);
    # Java by -Xmx, the interpreted languages by the container's memory cgroup.
    if [ "$RUNNER_LANGUAGE" = cpp ]; then ulimit -v $((RUNNER_MEMORY_MB * 1024 + 32768)) || exit 1; fi
    exec timeout -s KILL "$wall" /opt/harness/harness.sh exec-test "${args[@]}"
  ) <"$input" 2>err | head -c $((max + 1)) >out
  status="${PIPESTATUS[0]}"
  end="$(date +%s%N)"
  sweep
  after="$(oom_kills)"
  hits_after="$(limit_hits)"
  oom=-
  [ "$before" != - ] && [ "$after" != - ] && oom=$((after - before))
  hits=-
  [ "$hits_before" != - ] && [ "$hits_after" != - ] && hits=$((hits_after - hits_before))
  truncated=0
  [ "$(stat -c %s out)" -gt "$max" ] && truncated=1
  head -c "$max" out >out.cut
  head -c "$max" err >err.cut
  echo "TEST $nonce $i $status $(((end - start) / 1000000)) $oom $truncated $(b64 out.cut) $(b64 err.cut) $hits"
done
echo "DONE $nonce"
