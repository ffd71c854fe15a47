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
# A stand-in for the editor's "save": the journeys type a file name and its text, and cgi-bin/save writes it.
printf '<form method="post" action="cgi-bin/save"><label>File name <input name="name"></label>\n'
printf '<label>Content <textarea name="content"></textarea></label><button type="submit">Save file</button></form>\n'
