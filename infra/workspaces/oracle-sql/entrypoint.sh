#!/bin/sh
# Starts the SQL workbench (PHP's built-in server with router.php) on the catalogue's port. The root filesystem is
# read-only: PHP's sessions and temporary files go to /tmp, a fresh tmpfs in every container.
set -eu
mkdir -p /tmp/php/sessions
exec php -S 0.0.0.0:"${PORT:-8080}" \
  -d session.save_path=/tmp/php/sessions -d upload_tmp_dir=/tmp/php -d sys_temp_dir=/tmp/php \
  -d memory_limit=256M -d post_max_size=64M -d upload_max_filesize=64M \
  -d display_errors=0 -d log_errors=1 -d error_log=/dev/stderr \
  /opt/workbench/router.php
