#!/bin/sh
. /srv/www/cgi-bin/auth.sh
[ "$authorized" = 1 ] || deny
printf 'Content-Type: text/html\r\n\r\n'
printf '<!doctype html><title>Exam workspace</title><h1>Exam workspace (test image)</h1>\n'
printf '<p id="path">%s</p><ul>\n' "$(busybox httpd -e "$REQUEST_URI")"
for f in /home/coder/workspace/*; do
  [ -e "$f" ] && printf '<li>%s</li>\n' "$(busybox httpd -e "${f##*/}")"
done
printf '</ul>\n'
