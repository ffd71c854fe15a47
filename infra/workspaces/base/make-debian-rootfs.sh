#!/bin/sh
# Writes a Debian 12 (bookworm) minbase root filesystem tar to $1, for `docker import` as
# exam/debian-base. Uses debootstrap against the configured Debian mirror (no registry needed).
set -eu
out="${1:?usage: make-debian-rootfs.sh OUT.tar}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
command -v debootstrap >/dev/null || apt-get install -y debootstrap || { apt-get update && apt-get install -y debootstrap; }
root="$(mktemp -d)"
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase bookworm "$root" "$mirror"
rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*
tar -C "$root" --numeric-owner -cf "$out" .
