// The candidate's spreadsheet: Univer's open-source sheets (formulas, number formats, several sheets), loaded from and
// saved to the workspace's workbook.xlsx through server.js. Every change is saved after a short pause and again when
// the page is hidden, so what the candidate sees is what is collected at submit.
import { createUniver, LocaleType, mergeLocales } from '@univerjs/presets';
import { UniverSheetsCorePreset } from '@univerjs/preset-sheets-core';
import sheetsCoreEnUS from '@univerjs/preset-sheets-core/locales/en-US';
import '@univerjs/preset-sheets-core/lib/index.css';

const SAVE_AFTER_MS = 800;
/** Univer's CommandType.MUTATION: a change to the document (operations only move the selection or the view). */
const MUTATION = 2;
/** Browsers send a keepalive request of at most 64 KiB; larger workbooks are saved by an ordinary request. */
const KEEPALIVE_LIMIT = 60 * 1024;

const status = document.getElementById('save-status');
const show = (text, state) => {
  status.textContent = text;
  status.dataset.state = state;
};

let revision = Date.now() * 1000;
let timer;
let dirty = false;
let saving = Promise.resolve();

async function start() {
  const loaded = await fetch('api/workbook', { cache: 'no-store' });
  if (!loaded.ok) {
    // Never overwrite a workbook that could not be read: the candidate's file stays as it is.
    show(`workbook.xlsx could not be opened (${loaded.status}); changes will not be saved`, 'error');
    return;
  }
  const { snapshot, exists } = await loaded.json();
  const { univerAPI } = createUniver({
    locale: LocaleType.EN_US,
    locales: { [LocaleType.EN_US]: mergeLocales(sheetsCoreEnUS) },
    presets: [UniverSheetsCorePreset({ container: 'sheet' })],
  });
  const workbook = univerAPI.createWorkbook(snapshot);
  show(exists ? 'Opened workbook.xlsx' : 'New workbook: saved as workbook.xlsx once you edit it', 'saved');

  /** The snapshot with every formula written out: cells filled from another formula carry only its id (si). */
  function exportSnapshot() {
    const data = JSON.parse(JSON.stringify(workbook.save()));
    for (const sheetId of data.sheetOrder) {
      const sheet = workbook.getSheetBySheetId(sheetId);
      for (const [r, row] of Object.entries(data.sheets[sheetId].cellData ?? {}))
        for (const [c, cell] of Object.entries(row ?? {}))
          if (cell?.si && !cell.f) cell.f = sheet.getRange(Number(r), Number(c)).getFormula() || undefined;
    }
    return data;
  }

  async function save({ leaving = false } = {}) {
    clearTimeout(timer);
    if (!dirty) return saving;
    dirty = false;
    if (!leaving) await univerAPI.getFormula().onCalculationResultApplied?.();
    const body = JSON.stringify({ revision: ++revision, snapshot: exportSnapshot() });
    show('Saving…', 'saving');
    saving = fetch('api/workbook', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      keepalive: leaving && body.length < KEEPALIVE_LIMIT,
    })
      .then(async (res) => {
        if (!res.ok) throw new Error((await res.json().catch(() => null))?.error?.reason ?? `status ${res.status}`);
        const { savedAt } = await res.json();
        if (!dirty) show(`Saved ${new Date(savedAt).toLocaleTimeString()}`, 'saved');
      })
      .catch((err) => {
        dirty = true;
        show(`Not saved: ${err.message}. Retrying…`, 'error');
        timer = setTimeout(save, 3000);
      });
    return saving;
  }

  univerAPI.addEvent(univerAPI.Event.CommandExecuted, (event) => {
    if (event.type !== MUTATION) return;
    dirty = true;
    show('Unsaved changes', 'dirty');
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_AFTER_MS);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') save({ leaving: true });
  });
  window.addEventListener('pagehide', () => save({ leaving: true }));
  // For the real-image test and for debugging: the API and a way to save at once.
  window.examSheets = { univerAPI, save: () => ((dirty = true), save()) };
}

start().catch((err) => show(`The spreadsheet did not start: ${err.message}`, 'error'));
