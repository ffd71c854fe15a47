#!/bin/sh
# Run as root on the Docker host, once per boot (add|remove). Workspace containers sit on bridges
# named exam-ws0 (internal, no egress) and exam-ws1 (package registries allowed). Docker blocks
# forwarding out of an internal bridge but not packets addressed to the host itself, so without
# this a candidate could reach any host service listening on 0.0.0.0 through the bridge gateway.
# Replies to connections the host opened (the orchestrator's proxy) stay allowed.
set -eu
action="${1:-add}"
rule_established="INPUT -i exam-ws+ -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT"
rule_drop="INPUT -i exam-ws+ -j DROP"
case "$action" in
  add)
    # shellcheck disable=SC2086
    iptables -C $rule_drop 2>/dev/null || iptables -I $rule_drop
    # shellcheck disable=SC2086
    iptables -C $rule_established 2>/dev/null || iptables -I $rule_established
    ;;
  remove)
    # shellcheck disable=SC2086
    while iptables -C $rule_established 2>/dev/null; do iptables -D $rule_established; done
    # shellcheck disable=SC2086
    while iptables -C $rule_drop 2>/dev/null; do iptables -D $rule_drop; done
    ;;
  *) echo "usage: host-firewall.sh add|remove" >&2; exit 2 ;;
esac
