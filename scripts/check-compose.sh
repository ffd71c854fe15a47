#!/bin/sh
# Validates infra/compose.yaml with Compose itself (`docker-compose` 1.29 from Debian, or the `docker compose`
# plugin): the schema, the interpolation and the merge keys. Placeholder secrets stand in for the ones a
# deployment sets; without them Compose refuses the file, which is the point of the `:?` in it.
set -eu
here="$(cd "$(dirname "$0")/.." && pwd)"
if command -v docker-compose >/dev/null 2>&1; then compose=docker-compose; else compose="docker compose"; fi
placeholder=check-compose-placeholder-secret-0123456789
JWT_SECRET="${JWT_SECRET:-$placeholder}" INTERNAL_TOKEN="${INTERNAL_TOKEN:-$placeholder}" \
  ENCRYPTION_KEY="${ENCRYPTION_KEY:-$placeholder}" \
  POSTGRES_PASSWORD="${POSTGRES_PASSWORD:-$placeholder}" \
  $compose -f "$here/infra/compose.yaml" config -q
echo "infra/compose.yaml is valid ($compose)"
