#!/bin/sh
# Writes a minimal root filesystem tar (busybox-static and its applet links, a non-root 'coder'
# user 1000:1000) to stdout or $1. No registry is reachable, so `docker import` of this tar is the
# base of the small test image. Needs /bin/busybox from the Debian package busybox-static.
set -eu
out="${1:--}"
bb="${BUSYBOX:-/bin/busybox}"
[ -x "$bb" ] || { echo "busybox-static is not installed (apt-get install -y busybox-static)" >&2; exit 1; }
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/etc" "$root/tmp" "$root/home/coder/workspace" "$root/proc" "$root/sys" "$root/dev"
cp "$bb" "$root/bin/busybox"
for applet in $("$bb" --list); do
  [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
printf 'root:x:0:0:root:/root:/bin/sh\ncoder:x:1000:1000:coder:/home/coder:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\ncoder:x:1000:\n' > "$root/etc/group"
chmod 1777 "$root/tmp"
chown -R 1000:1000 "$root/home/coder"
tar -C "$root" --numeric-owner -cf "$out" .
