<?php
// The oracle-sql workspace's front door, as the router script of PHP's built-in server: /healthz, the login the
// orchestrator performs (services/workspace-orchestrator/src/modules/sessions/editor.ts: a POST of `password`,
// answered with a session cookie), the cookie checked on every other request, the question's setup script applied
// once, then Adminer on the candidate's SQLite database. See infra/workspaces/README.md.
declare(strict_types=1);

require __DIR__ . '/workbench.php';

const SESSION_COOKIE = 'exam-sql-session';

/** The cookie a login sets: derived from HASHED_PASSWORD (the password's SHA-256), never the hash itself. */
function session_token(): string
{
    $hashed = strtolower(trim((string) getenv('HASHED_PASSWORD')));
    return $hashed === '' ? '' : hash_hmac('sha256', SESSION_COOKIE, $hashed);
}

function answer(int $status, string $body, string $type = 'text/plain; charset=utf-8'): void
{
    http_response_code($status);
    header("Content-Type: $type");
    header('Cache-Control: no-store');
    echo $body;
}

$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH) ?: '/';
$token = session_token();

if ($path === '/healthz') {
    answer(200, '{"status":"alive"}', 'application/json');
    return true;
}
if ($path === '/login' && $_SERVER['REQUEST_METHOD'] === 'POST') {
    $password = (string) ($_POST['password'] ?? '');
    $expected = strtolower(trim((string) getenv('HASHED_PASSWORD')));
    if ($expected === '' || !hash_equals($expected, hash('sha256', $password))) {
        answer(401, '{"error":{"field":"password","reason":"is not the session password"}}', 'application/json');
        return true;
    }
    header('Set-Cookie: ' . SESSION_COOKIE . "=$token; Path=/; HttpOnly; SameSite=Strict");
    header('Location: ./');
    answer(302, '');
    return true;
}
if ($token === '' || !hash_equals($token, (string) ($_COOKIE[SESSION_COOKIE] ?? ''))) {
    answer(401, 'Open the SQL workbench from the exam page.');
    return true;
}
if ($path === '/favicon.ico') {
    answer(204, '');
    return true;
}

workbench_apply_setup();

// Straight to the SQL command page of the candidate's database; Adminer keeps these parameters in every link. Its own
// static files (`?file=functions.js&version=…`, the scripts and styles every page loads) carry none and go through.
if (!isset($_GET['username']) && !isset($_GET['file'])) {
    header('Location: ./?' . http_build_query(['sqlite' => '', 'username' => '', 'db' => WORKBENCH_DATABASE, 'sql' => '']));
    answer(302, '');
    return true;
}

/** Adminer asks for its customization once its session has started (bootstrap.inc.php). */
function adminer_object()
{
    // No database password to keep: SQLite has none, and the cookie above is the login.
    $_SESSION['pwds']['sqlite']['']['']  = '';
    require __DIR__ . '/adminer-customization.php';
    return new ExamWorkbench();
}

require '/usr/share/adminer/adminer.php';
return true;
