#!/bin/sh
# Writes the smallest root filesystem that runs Node 24 to $1, for `docker import` as exam/node-base
# (scripts/build-images.sh): the node binary, the shared libraries it links (found with ldd on this
# machine, so they are the ones it was run against), name-service configuration, /tmp and one user.
# No shell, no package manager: nothing in a service's container installs or execs anything.
# No registry and no mirror is needed. NODE_BINARY picks the binary (default: the node on PATH, which must
# be Node 24: the services run their TypeScript through its type stripping).
#   make-node-rootfs.sh OUT.tar
set -eu
out="${1:?usage: make-node-rootfs.sh OUT.tar}"
node="${NODE_BINARY:-$(command -v node)}"
version="$("$node" --version)"
case "$version" in v24.*) ;; *) echo "need Node 24, $node is $version" >&2; exit 2 ;; esac
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
chmod 755 "$root"
mkdir -p "$root/usr/local/bin" "$root/etc" "$root/tmp" "$root/app"
chmod 1777 "$root/tmp"
cp "$node" "$root/usr/local/bin/node"
# The loader and every library node links, at their own paths; the name-service modules beside libc for
# getaddrinfo (built into glibc since 2.34, present here for older ones).
libs="$(ldd "$node" | awk '/=>/ { print $3 } /^\t\// { print $1 }')"
libdir="$(dirname "$(ldd "$node" | awk '/libc\.so/ { print $3 }')")"
for lib in $libs "$libdir"/libnss_files.so.2 "$libdir"/libnss_dns.so.2 "$libdir"/libresolv.so.2; do
  [ -e "$lib" ] || continue
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
# /lib64 and /lib are symlinks on merged-/usr systems; the loader's path must exist as the binary names it.
printf 'root:x:0:0:root:/root:/sbin/nologin\napp:x:10001:10001:app:/tmp:/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\napp:x:10001:\n' >"$root/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$root/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$root/etc/hosts"
tar -C "$root" --numeric-owner --owner=0 --group=0 -cf "$out" .
echo "node rootfs for $version: $(du -sh "$root" | cut -f1)" >&2
