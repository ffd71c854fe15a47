// The exam's R extension (infra/workspaces/r-studio): Debian has no R language server, so the editor features come
// from an R process of our own (r/helper.R: R's completion, signatures and help, its parser and lintr) and the
// console is R in a terminal. Plain CommonJS against the VS Code API: nothing to build.
const vscode = require('vscode');
const { spawn } = require('node:child_process');
const path = require('node:path');

const HELPER = path.join(__dirname, 'r', 'helper.R');
const WORD = /[A-Za-z.][A-Za-z0-9._]*(::[A-Za-z.][A-Za-z0-9._]*)?/;

/** The helper R process: one JSON request per line, answered in order. */
function helperClient(log) {
  let child = null;
  let buffer = '';
  let next = 1;
  const waiting = new Map();
  function start() {
    child = spawn('Rscript', ['--vanilla', HELPER], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        try {
          const answer = JSON.parse(line);
          waiting.get(answer.id)?.(answer);
          waiting.delete(answer.id);
        } catch {
          log.appendLine(`helper: ${line}`);
        }
      }
    });
    child.stderr.on('data', (d) => log.append(String(d)));
    child.on('exit', (code) => {
      log.appendLine(`R helper exited (${code})`);
      for (const resolve of waiting.values()) resolve({});
      waiting.clear();
      child = null;
    });
  }
  return {
    ask(request, timeoutMs = 10_000) {
      if (!child) start();
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        setTimeout(() => waiting.delete(id) && resolve({}), timeoutMs);
        child.stdin.write(`${JSON.stringify({ ...request, id })}\n`);
      });
    },
    dispose() {
      child?.kill();
    },
  };
}

function rConsole() {
  const existing = vscode.window.terminals.find((t) => t.name === 'R');
  if (existing) return existing;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return vscode.window.createTerminal({
    name: 'R',
    shellPath: 'R',
    shellArgs: ['--no-save', '--no-restore', '--quiet'],
    cwd: folder,
  });
}

/** An R string literal for a path or code (JSON's escapes are R's). */
const rString = (s) => JSON.stringify(s);

function activate(context) {
  const log = vscode.window.createOutputChannel('R (exam)');
  const helper = helperClient(log);
  const diagnostics = vscode.languages.createDiagnosticCollection('R');
  context.subscriptions.push(log, diagnostics, { dispose: () => helper.dispose() });
  const selector = [{ language: 'r' }];

  context.subscriptions.push(
    vscode.commands.registerCommand('exam-r.console', () => rConsole().show()),
    vscode.commands.registerCommand('exam-r.runSelection', () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return;
      const { selection, document } = editor;
      const text = selection.isEmpty ? document.lineAt(selection.active.line).text : document.getText(selection);
      const terminal = rConsole();
      terminal.show(true);
      terminal.sendText(text.replace(/\r\n/g, '\n'));
      if (selection.isEmpty && selection.active.line + 1 < document.lineCount) {
        const below = new vscode.Position(selection.active.line + 1, 0);
        editor.selection = new vscode.Selection(below, below);
      }
    }),
    vscode.commands.registerCommand('exam-r.runScript', async (uri) => {
      const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
      if (!document) return;
      if (document.isDirty) await document.save();
      const terminal = rConsole();
      terminal.show(true);
      terminal.sendText(`source(${rString(document.uri.fsPath)}, echo = TRUE, max.deparse.length = Inf)`);
    }),
  );

  context.subscriptions.push(
    vscode.languages.registerCompletionItemProvider(
      selector,
      {
        async provideCompletionItems(document, position) {
          const line = document.lineAt(position.line).text.slice(0, position.character);
          const answer = await helper.ask({ op: 'complete', line });
          const token = answer.token ?? '';
          const range = new vscode.Range(position.translate(0, -token.length), position);
          const items = (answer.items ?? []).map((label) => {
            const item = new vscode.CompletionItem(
              label,
              /=\s*$/.test(label) ? vscode.CompletionItemKind.Property : vscode.CompletionItemKind.Function,
            );
            item.range = range;
            return item;
          });
          // Names the document assigns, which R's completion does not know (the script has not run).
          const seen = new Set(items.map((i) => i.label));
          const assigned = /^\s*([A-Za-z.][A-Za-z0-9._]*)\s*(<<?-|=[^=])/gm;
          for (const m of document.getText().matchAll(assigned)) {
            if (seen.has(m[1]) || !m[1].startsWith(token.replace(/.*\$/, ''))) continue;
            seen.add(m[1]);
            items.push(new vscode.CompletionItem(m[1], vscode.CompletionItemKind.Variable));
          }
          return items;
        },
      },
      '$',
      '(',
      ',',
      ':',
      '@',
    ),
    vscode.languages.registerHoverProvider(selector, {
      async provideHover(document, position) {
        const range = document.getWordRangeAtPosition(position, WORD);
        if (!range) return null;
        const answer = await helper.ask({ op: 'hover', word: document.getText(range) });
        if (!answer.text) return null;
        return new vscode.Hover(new vscode.MarkdownString().appendCodeblock(answer.text, 'r'), range);
      },
    }),
  );

  const timers = new Map();
  async function lint(document) {
    if (document.languageId !== 'r') return;
    const answer = await helper.ask({ op: 'lint', text: document.getText() }, 30_000);
    const severity = { error: 0, warning: 1, info: 2 };
    diagnostics.set(
      document.uri,
      (answer.diagnostics ?? []).map((d) => {
        const line = Math.max(0, (d.line ?? 1) - 1);
        const column = Math.max(0, (d.column ?? 1) - 1);
        const range = new vscode.Range(line, column, line, column + 1);
        const item = new vscode.Diagnostic(range, d.message, severity[d.severity] ?? 2);
        item.source = d.source;
        return item;
      }),
    );
  }
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(lint),
    vscode.workspace.onDidSaveTextDocument(lint),
    vscode.workspace.onDidChangeTextDocument(({ document }) => {
      if (document.languageId !== 'r') return;
      clearTimeout(timers.get(document.uri.toString()));
      timers.set(
        document.uri.toString(),
        setTimeout(() => lint(document), 800),
      );
    }),
    vscode.workspace.onDidCloseTextDocument((document) => diagnostics.delete(document.uri)),
  );
  vscode.workspace.textDocuments.forEach(lint);

  // Plots: the R console writes each plot to plots/ (r/plots.R); each new one opens beside the script.
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder) {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, 'plots/*.png'));
    const show = (uri) =>
      vscode.commands.executeCommand('vscode.open', uri, {
        viewColumn: vscode.ViewColumn.Beside,
        preserveFocus: true,
        preview: true,
      });
    context.subscriptions.push(watcher, watcher.onDidCreate(show), watcher.onDidChange(show));
  }
}

function deactivate() {}

module.exports = { activate, deactivate };
