#!/bin/sh
# Builds the code runner's images, exam/runner-<language>, on the engine DOCKER_HOST names (default:
# the local one). No registry is needed: each toolchain's root filesystem comes from debootstrap
# (infra/runners/make-runner-rootfs.sh, about a minute per language) and is imported once as
# exam/runner-<language>-rootfs; the harness layer on top is rebuilt only when infra/runners changed
# (its content hash is the image's exam.content-hash label), so editing the harness costs seconds.
#   scripts/build-runner-images.sh                  every language
#   scripts/build-runner-images.sh python cpp       only these
#   RUNNER_REBUILD_ROOTFS=1 scripts/build-runner-images.sh python   fetch the toolchain again
set -eu
dir="$(cd "$(dirname "$0")/../infra/runners" && pwd)"
export DOCKER_BUILDKIT=0
[ "$#" -gt 0 ] || set -- python javascript cpp java r sql
hash="$(cd "$dir" && find Dockerfile harness -type f | sort | xargs sha256sum | sha256sum | cut -c1-16)"
for language in "$@"; do
  image="exam/runner-$language"
  if [ "${RUNNER_REBUILD_ROOTFS:-0}" = 1 ] || ! docker image inspect "$image-rootfs" >/dev/null 2>&1; then
    echo "[build-runner-images] debootstrapping the $language toolchain" >&2
    tar="$(mktemp --suffix=.tar)"
    sh "$dir/make-runner-rootfs.sh" "$language" "$tar"
    docker import "$tar" "$image-rootfs" >/dev/null
    rm -f "$tar"
  fi
  current="$(docker image inspect -f '{{index .Config.Labels "exam.content-hash"}}' "$image" 2>/dev/null || true)"
  rootfs="$(docker image inspect -f '{{.Id}}' "$image-rootfs")"
  if [ "$current" = "$hash-${rootfs#sha256:}" ]; then
    echo "[build-runner-images] $image is up to date" >&2
    continue
  fi
  echo "[build-runner-images] building $image" >&2
  docker build -q --build-arg "LANGUAGE=$language" --label "exam.content-hash=$hash-${rootfs#sha256:}" \
    --label exam.runner=true -t "$image" "$dir" >/dev/null
done
