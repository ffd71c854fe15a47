#!/bin/sh
# Builds the real workspace images (issue 6) on the engine named by DOCKER_HOST. Slow: debootstrap,
# apt packages, Node 24 and code-server 4.139.1 from npm take 10–20 minutes and about 2.5 GB.
#   DOCKER_HOST=unix:///tmp/exam-docker-test/docker.sock scripts/build-workspace-images.sh [vscode r-studio oracle-sql excel]
# No registry is reachable, so the base is a debootstrap tree imported as exam/debian-base.
#
# Two things a plain `docker build` gets wrong on machines like the test machines:
# - Network. An engine started with --bridge=none (scripts/docker-test-engine.ts does, so it never
#   fights another engine over docker0) gives build containers no network at all, and apt and npm
#   fail. When the engine has no default bridge the build uses the host's network instead.
#   WORKSPACE_BUILD_NETWORK=host|default forces either.
# - TLS. Machines that reach the registries through an intercepting egress proxy trust the proxy's
#   CA through extra certificates in /usr/local/share/ca-certificates; a fresh Debian tree does not,
#   and npm fails with SELF_SIGNED_CERT_IN_CHAIN. Those *.crt files (WORKSPACE_EXTRA_CA_DIR; set it
#   empty to skip) are copied into the build context's extra-ca/ folder, which the vscode Dockerfile
#   installs before it uses the network. On a machine without extra CAs the folder stays empty and
#   the image trusts Debian's bundle only.
set -eu
here="$(cd "$(dirname "$0")/../infra/workspaces" && pwd)"
export DOCKER_BUILDKIT=0
types="${*:-vscode r-studio oracle-sql excel}"
extra_ca_dir="${WORKSPACE_EXTRA_CA_DIR-/usr/local/share/ca-certificates}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

network="${WORKSPACE_BUILD_NETWORK:-}"
if [ -z "$network" ]; then
  if docker network inspect bridge >/dev/null 2>&1; then network=default; else network=host; fi
fi
echo "build network: $network"

if ! docker image inspect exam/debian-base >/dev/null 2>&1; then
  sh "$here/base/make-debian-rootfs.sh" "$work/rootfs.tar"
  docker import "$work/rootfs.tar" exam/debian-base
  rm -f "$work/rootfs.tar"
fi

image_of() { node -e "const c=require('$here/catalogue.json'); console.log(c.types[process.argv[1]].image)" "$1"; }

# A copy of infra/workspaces/<type> plus the build machine's extra CA certificates.
context_of() {
  ctx="$work/context-$1"
  rm -rf "$ctx"
  cp -R "$here/$1" "$ctx"
  mkdir -p "$ctx/extra-ca"
  if [ -n "$extra_ca_dir" ] && [ -d "$extra_ca_dir" ]; then
    find "$extra_ca_dir" -type f -name '*.crt' | while read -r crt; do
      cp "$crt" "$ctx/extra-ca/$(basename "$crt")"
      echo "trusting the build machine's CA certificate $crt" >&2
    done
  fi
  echo "$ctx"
}

# vscode first when a named type builds on it (its Dockerfile says FROM exam/workspace-vscode). excel and oracle-sql
# build on exam/debian-base, so building only them leaves the editor image as it is.
needs_vscode() {
  for t in $types; do
    [ "$t" = vscode ] && return 0
    grep -q '^FROM exam/workspace-vscode' "$here/$t/Dockerfile" 2>/dev/null && return 0
  done
  return 1
}
first=""
if needs_vscode; then first=vscode; fi
built=""
for type in $first $types; do
  case " $built " in *" $type "*) continue ;; esac
  [ -f "$here/$type/Dockerfile" ] || { echo "no such workspace type: $type" >&2; exit 2; }
  image="$(image_of "$type")"
  echo "building $image from infra/workspaces/$type"
  ctx="$(context_of "$type")"
  docker build --network "$network" -t "$image" "$ctx"
  built="$built $type"
done
