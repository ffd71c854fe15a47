// word-extractor ships no types; this covers the part document-text/extract-text.ts uses.
declare module 'word-extractor' {
  class Document {
    getBody(): string;
  }
  export default class WordExtractor {
    extract(source: string | Buffer): Promise<Document>;
  }
}
