import { extractText, getDocumentProxy } from 'unpdf';
import type { ImagePart } from '../../adapters/providers/types.ts';
import { CODE_LANGUAGES, extensionOf, IMAGE_MEDIA_TYPES, mediaTypeOf, TEXT_EXTENSIONS } from './file-types.ts';

/** Spec section 9: CSV preview of 10 rows. */
export const CSV_PREVIEW_ROWS = 10;
/** Text read from one file is cut here so one attachment cannot eat the token budget. */
export const ATTACHMENT_MAX_CHARS = 20_000;

/** Images providers accept as data; svg is read as its text instead. */
const VISION_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export type AttachmentInput = { name: string; type: string; bytes: Buffer };
export type ReadAttachment = { text: string; image?: ImagePart };

const cut = (text: string) =>
  text.length > ATTACHMENT_MAX_CHARS ? `${text.slice(0, ATTACHMENT_MAX_CHARS)}\n... (truncated)` : text;

export function csvPreview(text: string): string {
  const rows = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const shown = rows.slice(0, CSV_PREVIEW_ROWS).join('\n');
  return `Rows: ${rows.length}\n${shown}${rows.length > CSV_PREVIEW_ROWS ? '\n... (truncated)' : ''}`;
}

type NotebookOutput = {
  output_type?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
};
type Notebook = { cells?: { cell_type?: string; source?: string | string[]; outputs?: NotebookOutput[] }[] };
const joinLines = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join('') : (value ?? ''));

function outputText(output: NotebookOutput): string {
  if (output.output_type === 'stream') return joinLines(output.text);
  if (output.output_type === 'error') return `${output.ename ?? 'Error'}: ${output.evalue ?? ''}`;
  return joinLines(output.data?.['text/plain']);
}

/** A notebook cell by cell with its outputs, or 'Error parsing notebook' when it is not valid notebook JSON. */
export function renderNotebook(text: string): string {
  try {
    const notebook = JSON.parse(text) as Notebook;
    if (!Array.isArray(notebook.cells)) return 'Error parsing notebook';
    return notebook.cells
      .map((cell, i) => {
        const lines = [`--- Cell ${i + 1} (${cell.cell_type ?? 'unknown'}) ---`, joinLines(cell.source)];
        const outputs = (cell.outputs ?? []).map(outputText).filter((o) => o.trim());
        if (outputs.length) lines.push(`Output:\n${outputs.join('\n')}`);
        return lines.join('\n');
      })
      .join('\n\n');
  } catch {
    return 'Error parsing notebook';
  }
}

async function pdfText(bytes: Buffer): Promise<string> {
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const { text } = await extractText(pdf, { mergePages: true });
    return text.trim() || '(no extractable text)';
  } catch {
    return '(the PDF could not be read)';
  }
}

/**
 * Reads an attachment by its extension (docs/product.md#the-assistant): text types as text, images as data
 * for vision models, code files under a code-file tag, csv as a preview, notebooks cell by cell, pdf as its
 * extracted text (the original product only said pdfs were unsupported), anything else as text.
 */
export async function readAttachment(file: AttachmentInput, opts: { vision: boolean }): Promise<ReadAttachment> {
  const ext = extensionOf(file.name);
  const header = (kind: string) => `[${kind}: ${file.name}]`;
  const asText = () => file.bytes.toString('utf8');

  const imageType = IMAGE_MEDIA_TYPES[ext];
  if (imageType) {
    if (opts.vision && VISION_IMAGE_TYPES.has(imageType)) {
      return {
        text: `${header('Image')} (${imageType}, ${file.bytes.length} bytes)`,
        image: { mediaType: imageType, dataBase64: file.bytes.toString('base64') },
      };
    }
    if (imageType === 'image/svg+xml') return { text: `${header('Image')} (SVG source)\n${cut(asText())}` };
    return { text: `${header('Image')} (${imageType}, ${file.bytes.length} bytes; this model cannot view images)` };
  }
  if (TEXT_EXTENSIONS.has(ext)) return { text: `${header('File')}\n${cut(asText())}` };
  const language = CODE_LANGUAGES[ext];
  if (language) return { text: `${header(`Code file (${language})`)}\n\`\`\`${language}\n${cut(asText())}\n\`\`\`` };
  if (ext === 'csv') return { text: `${header('CSV file')}\n${cut(csvPreview(asText()))}` };
  if (ext === 'ipynb') return { text: `${header('Jupyter notebook')}\n${cut(renderNotebook(asText()))}` };
  if (ext === 'pdf') return { text: `${header('PDF file')}\n${cut(await pdfText(file.bytes))}` };
  return { text: `${header(`File (${file.type || mediaTypeOf(file.name)})`)}\n${cut(asText())}` };
}
