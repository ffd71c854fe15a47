#!/bin/sh
# Starts code-server with the exam's editor defaults. /tmp is a fresh tmpfs in every container, so
# the user settings are seeded on each start; a candidate may still change them for the session.
set -eu
user_dir="$HOME/.local/share/code-server/User"
mkdir -p "$user_dir"
[ -f "$user_dir/settings.json" ] || cp /etc/code-server/settings.json "$user_dir/settings.json"
exec /opt/code-server/node_modules/.bin/code-server "$@"
