import { describe, expect, it } from 'vitest';
import { csvPreview, readAttachment, renderNotebook } from './attachments.ts';

const file = (name: string, content: string | Buffer, type = '') => ({
  name,
  type,
  bytes: Buffer.isBuffer(content) ? content : Buffer.from(content),
});

/** A one-page PDF with a text object, its xref offsets computed so any reader accepts it. */
function tinyPdf(text: string): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

describe('attachments', () => {
  it('reads text types as plain text', async () => {
    const read = await readAttachment(file('notes.md', '# Heading\nbody'), { vision: false });
    expect(read.text).toBe('[File: notes.md]\n# Heading\nbody');
    expect(read.image).toBeUndefined();
  });

  it('sends an image as base64 data to a vision model and as a note to others', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const vision = await readAttachment(file('plot.png', png), { vision: true });
    expect(vision.image).toEqual({ mediaType: 'image/png', dataBase64: png.toString('base64') });
    const blind = await readAttachment(file('plot.png', png), { vision: false });
    expect(blind.image).toBeUndefined();
    expect(blind.text).toContain('cannot view images');
  });

  it('prefixes code files with a code-file tag naming the language', async () => {
    const read = await readAttachment(file('solution.py', 'print(1)'), { vision: false });
    expect(read.text).toBe('[Code file (python): solution.py]\n```python\nprint(1)\n```');
  });

  it('previews a csv with its row count, the first 10 rows and a truncation mark', async () => {
    const rows = ['a,b', ...Array.from({ length: 14 }, (_, i) => `${i},${i * 2}`)].join('\n');
    const preview = csvPreview(rows);
    expect(preview.split('\n')[0]).toBe('Rows: 15');
    expect(preview.split('\n')).toHaveLength(12);
    expect(preview.endsWith('... (truncated)')).toBe(true);
    expect(csvPreview('a,b\n1,2\n')).toBe('Rows: 2\na,b\n1,2');
    expect(
      (await readAttachment(file('data.csv', rows), { vision: false })).text.startsWith(
        '[CSV file: data.csv]\nRows: 15',
      ),
    ).toBe(true);
  });

  it('renders a notebook cell by cell with its outputs', () => {
    const notebook = {
      cells: [
        { cell_type: 'markdown', source: ['# Title'] },
        {
          cell_type: 'code',
          source: ['x = 1\n', 'print(x)'],
          outputs: [{ output_type: 'stream', name: 'stdout', text: ['1\n'] }],
        },
        {
          cell_type: 'code',
          source: 'x',
          outputs: [
            { output_type: 'execute_result', data: { 'text/plain': ['1'] } },
            { output_type: 'error', ename: 'NameError', evalue: "name 'y' is not defined" },
          ],
        },
      ],
    };
    const text = renderNotebook(JSON.stringify(notebook));
    expect(text).toContain('--- Cell 1 (markdown) ---\n# Title');
    expect(text).toContain('--- Cell 2 (code) ---\nx = 1\nprint(x)\nOutput:\n1\n');
    expect(text).toContain("NameError: name 'y' is not defined");
  });

  it("answers 'Error parsing notebook' for a broken notebook", async () => {
    expect(renderNotebook('{not json')).toBe('Error parsing notebook');
    expect((await readAttachment(file('broken.ipynb', '{"cells": 3}'), { vision: false })).text).toContain(
      'Error parsing notebook',
    );
  });

  it('extracts the text of a pdf', async () => {
    const read = await readAttachment(file('lecture.pdf', tinyPdf('Central limit theorem')), { vision: false });
    expect(read.text).toContain('[PDF file: lecture.pdf]');
    expect(read.text).toContain('Central limit theorem');
  });

  it('says a pdf could not be read instead of failing', async () => {
    const read = await readAttachment(file('broken.pdf', 'not a pdf at all'), { vision: false });
    expect(read.text).toBe('[PDF file: broken.pdf]\n(the PDF could not be read)');
  });

  it('reads any other type as text', async () => {
    const read = await readAttachment(file('data.weird', 'plain content', 'application/x-weird'), { vision: false });
    expect(read.text).toBe('[File (application/x-weird): data.weird]\nplain content');
  });
});
