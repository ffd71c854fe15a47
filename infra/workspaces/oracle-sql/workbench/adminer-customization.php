<?php
// Adminer's customization (https://www.adminer.org/en/extension/), loaded once Adminer's classes are: the candidate's
// SQLite database without a password (the workbench's own cookie is the login), no phoning home, and every statement
// recorded in queries.sql (workbench.php).
declare(strict_types=1);

class ExamWorkbench extends Adminer
{
    function name()
    {
        return "<a href='./' id='h1'>SQL workbench</a>";
    }

    function credentials()
    {
        return ['', '', ''];
    }

    function login($login, $password)
    {
        return true;
    }

    function databases($flush = true)
    {
        return [WORKBENCH_DATABASE];
    }

    /**
     * Adminer sends `X-Frame-Options: deny` (page_headers(), before this hook), which keeps the exam page from showing
     * the workbench in its workspace frame: the browser shows "refused to connect". The workbench is reached only
     * through the orchestrator's proxy on the workspace origin with the candidate's own cookie, and the exam page is
     * what frames it.
     */
    function headers()
    {
        header_remove('X-Frame-Options');
        return parent::headers();
    }

    function head()
    {
        // The version check fetches adminer.org from the page; the workspace has no network.
        echo script('verifyVersion = function () {};');
        return parent::head();
    }

    /** Each statement of the SQL command page, before Adminer runs it: logged with its result when it only reads. */
    function sqlCommandQuery($query)
    {
        workbench_record($query, 'SQL command', true);
        return parent::sqlCommandQuery($query);
    }

    /** Statements Adminer wrote for the candidate's clicks (create table, edit a row, …), after they ran. */
    function messageQuery($query, $time, $failed = false)
    {
        workbench_record($query, $failed ? 'from the forms, failed' : 'from the forms', false);
        return parent::messageQuery($query, $time, $failed);
    }

    /** The table browser's query (select.inc.php). */
    function selectQuery($query, $start, $failed = false)
    {
        workbench_record($query, $failed ? 'table browser, failed' : 'table browser', false);
        return parent::selectQuery($query, $start, $failed);
    }
}
