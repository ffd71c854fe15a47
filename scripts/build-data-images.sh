#!/bin/sh
# Builds the data stores' and the proxy's images for infra/compose.yaml on the engine DOCKER_HOST names, from
# Debian's packages only (no container registry is reachable from the build machines; see infra/images/data):
#   DOCKER_HOST=unix:///tmp/exam-docker-deploy/docker.sock scripts/build-data-images.sh [postgres redis nginx]
# 1. exam/debian-base: a debootstrap minbase of Debian 12 (infra/images/data/make-debian-rootfs.sh), imported
#    once (DEBIAN_BASE_REBUILD=1 makes it again, e.g. to pick up security updates).
# 2. exam/postgres, exam/redis, exam/nginx (:${IMAGE_TAG:-latest}): the base plus the server from apt. The build
#    containers use the host's network to reach the Debian mirror (the engine may run without a default bridge).
#    An image is rebuilt only when its files in infra/images/data changed (the exam.content-hash label); the
#    three build side by side.
set -eu
dir="$(cd "$(dirname "$0")/../infra/images/data" && pwd)"
export DOCKER_BUILDKIT=0
tag="${IMAGE_TAG:-latest}"
[ "$#" -gt 0 ] || set -- postgres redis nginx
if [ "${DEBIAN_BASE_REBUILD:-0}" = 1 ] || ! docker image inspect exam/debian-base >/dev/null 2>&1; then
  echo "[build-data-images] debootstrapping exam/debian-base" >&2
  started=$(date +%s)
  tar="$(mktemp --suffix=.tar)"
  # Its progress goes to a log, shown only when it fails.
  sh "$dir/make-debian-rootfs.sh" "$tar" >"$tar.log" 2>&1 || { cat "$tar.log" >&2; exit 1; }
  rm -f "$tar.log"
  docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "$tar" exam/debian-base >/dev/null
  rm -f "$tar"
  echo "[build-data-images] exam/debian-base: $(($(date +%s) - started)) s" >&2
fi
base="$(docker image inspect -f '{{.Id}}' exam/debian-base)"
# The images build side by side: most of each build waits on the mirror or on dpkg's writes.
pids=""
for image in "$@"; do
  case "$image" in postgres | redis | nginx) ;; *) echo "no such image: $image" >&2; exit 2 ;; esac
  hash="$(cd "$dir" && sha256sum "Dockerfile.$image" ./*-entrypoint.sh | sha256sum | cut -c1-16)-$(echo "$base" | cut -c8-23)"
  current="$(docker image inspect -f '{{index .Config.Labels "exam.content-hash"}}' "exam/$image:$tag" 2>/dev/null || true)"
  if [ "$current" = "$hash" ]; then
    echo "[build-data-images] exam/$image:$tag is up to date" >&2
    continue
  fi
  echo "[build-data-images] building exam/$image:$tag" >&2
  (
    started=$(date +%s)
    docker build -q --network host --label "exam.content-hash=$hash" -f "$dir/Dockerfile.$image" -t "exam/$image:$tag" "$dir" >/dev/null
    echo "[build-data-images] exam/$image:$tag $(docker image ls "exam/$image:$tag" --format '{{.Size}}'): $(($(date +%s) - started)) s" >&2
  ) &
  pids="$pids $!"
done
failed=0
for pid in $pids; do wait "$pid" || failed=1; done
exit "$failed"
