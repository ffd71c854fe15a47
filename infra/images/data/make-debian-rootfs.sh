#!/bin/sh
# Writes a Debian 12 (bookworm) minbase root filesystem to $1, for `docker import` as exam/debian-base
# (scripts/build-data-images.sh): the base of the PostgreSQL, Redis and nginx images, which install their
# server from Debian's packages on top of it. debootstrap talks to the Debian mirror only (DEBIAN_MIRROR):
# no container registry is needed.
#   make-debian-rootfs.sh OUT.tar
set -eu
out="${1:?usage: make-debian-rootfs.sh OUT.tar}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
command -v debootstrap >/dev/null || apt-get install -y debootstrap || { apt-get update && apt-get install -y debootstrap; }
root="$(mktemp -d)"
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase bookworm "$root" "$mirror" >&2
# The security updates too, so an image built today carries today's fixes of the servers it installs.
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n' \
  "$mirror" "$mirror" >"$root/etc/apt/sources.list"
# An image never needs recommends, documentation or a package cache.
printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$root/etc/apt/apt.conf.d/90exam-minimal"
printf 'path-exclude /usr/share/doc/*\npath-exclude /usr/share/man/*\npath-exclude /usr/share/locale/*\n' \
  >"$root/etc/dpkg/dpkg.cfg.d/90exam-minimal"
rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"* "$root/usr/share/doc" "$root/usr/share/man"
tar -C "$root" --numeric-owner -cf "$out" .
