#!/bin/sh
# Writes a Debian 12 (bookworm) minbase root filesystem with one language's toolchain to $2, for
# `docker import` as exam/runner-<language>-rootfs (scripts/build-runner-images.sh). debootstrap talks to
# the configured Debian mirror only: no container registry is needed.
#   make-runner-rootfs.sh python|javascript|cpp|java|r|sql OUT.tar
set -eu
language="${1:?usage: make-runner-rootfs.sh LANGUAGE OUT.tar}"
out="${2:?usage: make-runner-rootfs.sh LANGUAGE OUT.tar}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
case "$language" in
  python) packages=python3-minimal ;;
  javascript) packages=nodejs ;;
  cpp) packages=g++ ;;
  java) packages=default-jdk-headless ;;
  r) packages=r-base-core ;;
  sql) packages=sqlite3 ;;
  *) echo "unknown language: $language" >&2; exit 2 ;;
esac
command -v debootstrap >/dev/null || apt-get install -y debootstrap || { apt-get update && apt-get install -y debootstrap; }
root="$(mktemp -d)"
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include="$packages" bookworm "$root" "$mirror" >&2
# Nothing in a runner ever installs a package: the caches and the apt lists only make the image larger.
rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"* "$root/usr/share/doc" "$root/usr/share/man"
tar -C "$root" --numeric-owner -cf "$out" .
