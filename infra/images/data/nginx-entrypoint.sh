#!/bin/sh
# Renders /etc/nginx/templates/*.template into /etc/nginx/conf.d/*.conf, substituting only the variables that
# are set in the environment, then runs nginx in the foreground.
set -eu
defined="$(env | cut -d= -f1 | sed 's/^/$/' | tr '\n' ' ')"
for template in /etc/nginx/templates/*.template; do
  [ -e "$template" ] || continue
  name="$(basename "$template" .template)"
  envsubst "$defined" <"$template" >"/etc/nginx/conf.d/$name"
done
exec nginx -g 'daemon off;'
