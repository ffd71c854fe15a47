# Shared by the CGI scripts: succeeds when the request carries the session cookie that
# /cgi-bin/login hands out: the container's HASHED_PASSWORD (as code-server does).
expected="code-server-session=${HASHED_PASSWORD:-$(printf '%s' "${PASSWORD:-}" | sha256sum | cut -d' ' -f1)}"
case "; $HTTP_COOKIE;" in
  *"; $expected;"*) authorized=1 ;;
  *) authorized=0 ;;
esac
deny() {
  printf 'Status: 401 Unauthorized\r\nContent-Type: text/plain\r\n\r\nlogin required\n'
  exit 0
}
