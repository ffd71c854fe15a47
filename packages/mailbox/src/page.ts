/**
 * The mailbox page: a list of received mail and the text of the one selected, read from the JSON API.
 * Message content is only ever inserted as text, never as HTML, so a mail cannot run script here.
 */
export const mailboxPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Mailbox — Exam platform (development)</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: 380px 1fr; height: 100vh; }
  header { grid-column: 1 / 3; padding: 10px 16px; background: #1e293b; color: #fff; }
  ul { list-style: none; margin: 0; padding: 0; overflow: auto; border-right: 1px solid #ddd; }
  li button { display: block; width: 100%; text-align: left; padding: 8px 12px; border: 0; border-bottom: 1px solid #eee; background: #fff; cursor: pointer; }
  li button[aria-current="true"] { background: #e0f2fe; }
  .meta { color: #555; font-size: 12px; }
  main { padding: 16px; overflow: auto; }
  pre { white-space: pre-wrap; font: inherit; }
</style>
</head>
<body>
<header><strong>Mailbox</strong> — every mail the platform sends in development arrives here (nothing is delivered elsewhere).</header>
<ul id="list" aria-label="Messages"></ul>
<main id="message"><p>Select a message.</p></main>
<script>
const list = document.getElementById('list');
const view = document.getElementById('message');
let selected = null;
function el(tag, text, cls) { const e = document.createElement(tag); if (text) e.textContent = text; if (cls) e.className = cls; return e; }
async function show(id) {
  selected = id;
  const m = await (await fetch('/api/messages/' + encodeURIComponent(id))).json();
  view.replaceChildren(el('h2', m.subject), el('p', 'From ' + m.from + ' to ' + m.to.join(', ') + ' — ' + new Date(m.date).toLocaleString(), 'meta'), el('pre', m.text));
  refresh();
}
async function refresh() {
  const { messages } = await (await fetch('/api/messages')).json();
  list.replaceChildren(...messages.map((m) => {
    const b = el('button');
    b.append(el('div', m.subject || '(no subject)'), el('div', m.to.join(', ') + ' — ' + new Date(m.date).toLocaleString(), 'meta'));
    b.setAttribute('aria-current', String(m.id === selected));
    b.onclick = () => show(m.id);
    const li = el('li'); li.append(b); return li;
  }));
  if (!messages.length) list.replaceChildren(el('li', 'No mail yet.', 'meta'));
}
refresh();
setInterval(refresh, 3000);
</script>
</body>
</html>
`;
