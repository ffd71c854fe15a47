#!/bin/sh
# Run as root on the Docker host, once per boot (add|remove). Workspace containers sit on two internal
# bridges (no route out): exam-ws0-XXXXXX (no network at all) and exam-ws1-XXXXXX (the exam allows package
# registries), XXXXXX derived from the engine's ID, so every engine on the host has its own pair and the
# wildcards below cover them all (an older orchestrator's exam-ws0/exam-ws1 too).
# Docker blocks forwarding out of an internal bridge but not packets addressed to the host
# itself, so without this a candidate could reach any host service listening on 0.0.0.0 through the
# bridge gateway. Everything from the bridges to the host is dropped except:
#   - replies to connections the host opened (the orchestrator's proxy to the editors);
#   - on exam-ws1* only, new connections to the orchestrator's registry proxy, which listens on that
#     bridge's gateway at EGRESS_PROXY_PORT (default 3128; an iptables range such as 3128:3132 also
#     works) and lets through the hosts of EGRESS_ALLOWED_HOSTS and nothing else;
#   - on both bridges (exam-ws*), new connections to the orchestrator's AI relay, which listens on each
#     bridge's gateway at AGENT_RELAY_PORT (default 3140, or a range a:b) and forwards /v1/* to llm-gateway's
#     agent endpoint and nothing else.
# `remove` takes out every rule this script added, whatever port it was added with.
set -eu
action="${1:-add}"
proxy_port="${EGRESS_PROXY_PORT:-3128}"
relay_port="${AGENT_RELAY_PORT:-3140}"
for port in "EGRESS_PROXY_PORT=$proxy_port" "AGENT_RELAY_PORT=$relay_port"; do
  case "${port#*=}" in
    *[!0-9:]* | "" | :* | *: | *:*:*) echo "host-firewall.sh: ${port%%=*} must be a port or a range a:b, got '${port#*=}'" >&2; exit 2 ;;
  esac
done
tag="exam-egress-proxy"
relay_tag="exam-agent-relay"
rule_established="INPUT -i exam-ws+ -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT"
rule_drop="INPUT -i exam-ws+ -j DROP"
rule_proxy="INPUT -i exam-ws1+ -p tcp -m tcp --dport $proxy_port -m comment --comment $tag -j ACCEPT"
rule_relay="INPUT -i exam-ws+ -p tcp -m tcp --dport $relay_port -m comment --comment $relay_tag -j ACCEPT"
case "$action" in
  add)
    # Inserted in reverse order, each at the top: the accept rules end up before the drop.
    # shellcheck disable=SC2086
    iptables -C $rule_drop 2>/dev/null || iptables -I $rule_drop
    # shellcheck disable=SC2086
    iptables -C $rule_established 2>/dev/null || iptables -I $rule_established
    # shellcheck disable=SC2086
    iptables -C $rule_proxy 2>/dev/null || iptables -I $rule_proxy
    # shellcheck disable=SC2086
    iptables -C $rule_relay 2>/dev/null || iptables -I $rule_relay
    ;;
  remove)
    # The proxy and relay rules by their comments, so one added with another port goes too.
    iptables -S INPUT | grep -e "--comment $tag" -e "--comment $relay_tag" | sed 's/^-A //' | while read -r rule; do
      # shellcheck disable=SC2086
      iptables -D $rule
    done
    # shellcheck disable=SC2086
    while iptables -C $rule_established 2>/dev/null; do iptables -D $rule_established; done
    # shellcheck disable=SC2086
    while iptables -C $rule_drop 2>/dev/null; do iptables -D $rule_drop; done
    ;;
  *) echo "usage: [EGRESS_PROXY_PORT=3128] [AGENT_RELAY_PORT=3140] host-firewall.sh add|remove" >&2; exit 2 ;;
esac
