export { minimalDocx, minimalPdf, pdfBomb } from '@exam/server-kit/testing/documents';

/** A multipart/form-data body for inject(). */
export function multipartBody(files: { name: string; content: Buffer; type?: string }[]) {
  const boundary = `----exam-test-${Date.now()}`;
  const parts = files.flatMap((f) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    f.content,
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
