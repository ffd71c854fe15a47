#!/bin/sh
# Builds the real workspace images (issue 6) on the engine named by DOCKER_HOST. Slow: debootstrap,
# apt packages, Node 24 and code-server 4.139.1 from npm take several minutes and about 2 GB.
#   DOCKER_HOST=unix:///tmp/exam-docker-test/docker.sock scripts/build-workspace-images.sh [vscode r-studio oracle-sql excel]
# No registry is reachable, so the base is a debootstrap tree imported as exam/debian-base.
set -eu
here="$(cd "$(dirname "$0")/../infra/workspaces" && pwd)"
export DOCKER_BUILDKIT=0
types="${*:-vscode r-studio oracle-sql excel}"
if ! docker image inspect exam/debian-base >/dev/null 2>&1; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  sh "$here/base/make-debian-rootfs.sh" "$tmp/rootfs.tar"
  docker import "$tmp/rootfs.tar" exam/debian-base
fi
image_of() { node -e "const c=require('$here/catalogue.json'); console.log(c.types[process.argv[1]].image)" "$1"; }
# vscode first: the other types build on it.
built=""
for type in vscode $types; do
  case " $built " in *" $type "*) continue ;; esac
  [ "$type" = vscode ] || case " $types " in *" $type "*) ;; *) continue ;; esac
  image="$(image_of "$type")"
  echo "building $image from infra/workspaces/$type"
  docker build -t "$image" "$here/$type"
  built="$built $type"
done
