<?php
// The candidate's database, the question's setup script and the query log, and Adminer's customization. The
// database is SQLite, the engine the code runner grades SQL answers with (infra/runners/harness/harness.sh), so a
// setup script and the queries written here behave the same when graded.
declare(strict_types=1);

define('WORKBENCH_FOLDER', getenv('WORKSPACE_FOLDER') ?: '/home/coder/workspace');
define('WORKBENCH_DATABASE', WORKBENCH_FOLDER . '/database.sqlite');
/** The orchestrator copies a SQL question's setup script here; it is applied once. */
define('WORKBENCH_SETUP', WORKBENCH_FOLDER . '/setup.sql');
define('WORKBENCH_SETUP_DONE', WORKBENCH_FOLDER . '/.setup.sql.applied');
/** Every statement the candidate runs, with the time and, for reads, the first rows: collected at submit. */
define('WORKBENCH_LOG', WORKBENCH_FOLDER . '/queries.sql');
const WORKBENCH_RESULT_ROWS = 50;
const WORKBENCH_COUNT_LIMIT = 100000;

function workbench_log(string $entry): void
{
    file_put_contents(WORKBENCH_LOG, $entry . "\n", FILE_APPEND | LOCK_EX);
}

function workbench_comment(string $text): string
{
    return implode('', array_map(fn($line) => "-- $line\n", explode("\n", rtrim($text, "\n"))));
}

/**
 * Applies setup.sql once, with the sqlite3 shell as the runner does (-bail: the first error stops it), before the
 * candidate's first page. Checked on every request, so a script copied after the container started is applied too.
 */
function workbench_apply_setup(): void
{
    if (is_file(WORKBENCH_SETUP_DONE)) return;
    $lock = fopen('/tmp/workbench-setup.lock', 'c');
    flock($lock, LOCK_EX);
    try {
        if (is_file(WORKBENCH_SETUP_DONE)) return;
        if (!is_file(WORKBENCH_SETUP)) {
            // Adminer opens only an existing file; the setup script may still come and is applied then.
            if (!is_file(WORKBENCH_DATABASE)) (new SQLite3(WORKBENCH_DATABASE))->close();
            return;
        }
        $output = [];
        exec(sprintf('sqlite3 -batch -bail %s < %s 2>&1', escapeshellarg(WORKBENCH_DATABASE), escapeshellarg(WORKBENCH_SETUP)), $output, $code);
        $when = gmdate('Y-m-d\TH:i:s\Z');
        $outcome = $code === 0 ? 'applied' : "failed (exit $code): " . implode(' ', $output);
        file_put_contents(WORKBENCH_SETUP_DONE, "$when setup.sql $outcome\n");
        workbench_log("-- $when · setup.sql $outcome");
    } finally {
        flock($lock, LOCK_UN);
        fclose($lock);
    }
}

/** A read's result as SQL comments: row count, column names and the first rows, tab-separated. */
function workbench_result(string $query): string
{
    try {
        $db = new SQLite3(WORKBENCH_DATABASE, SQLITE3_OPEN_READONLY);
    } catch (Exception $e) {
        return '';
    }
    $db->enableExceptions(true);
    $db->busyTimeout(2000);
    try {
        $statement = $db->prepare($query);
        // Only reads are run a second time, on a read-only connection: a change must never happen twice.
        if (!$statement->readOnly()) return '';
        $result = $statement->execute();
        $columns = [];
        for ($i = 0; $i < $result->numColumns(); $i++) $columns[] = $result->columnName($i);
        if (!$columns) return '';
        $rows = [];
        $count = 0;
        while ($count < WORKBENCH_COUNT_LIMIT && ($row = $result->fetchArray(SQLITE3_NUM)) !== false) {
            if ($count < WORKBENCH_RESULT_ROWS)
                $rows[] = implode("\t", array_map(fn($v) => $v === null ? 'NULL' : str_replace(["\t", "\n"], ' ', (string) $v), $row));
            $count++;
        }
        $shown = $count > WORKBENCH_RESULT_ROWS ? ', the first ' . WORKBENCH_RESULT_ROWS . ' shown' : '';
        return workbench_comment("result: $count row(s)$shown\n" . implode("\t", $columns) . ($rows ? "\n" . implode("\n", $rows) : ''));
    } catch (Exception $e) {
        // SQLite's own words ("no such column: x"), without PHP's "Unable to prepare statement: 1," before them.
        return workbench_comment('error: ' . ($db->lastErrorCode() ? $db->lastErrorMsg() : $e->getMessage()));
    } finally {
        $db->close();
    }
}

function workbench_record(string $query, string $how, bool $withResult): void
{
    $query = trim($query);
    if ($query === '') return;
    $end = str_ends_with($query, ';') ? '' : ';';
    workbench_log('-- ' . gmdate('Y-m-d\TH:i:s\Z') . " · $how\n$query$end\n" . ($withResult ? workbench_result($query) : ''));
}
