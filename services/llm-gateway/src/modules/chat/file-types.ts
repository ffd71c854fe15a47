/** Spec section 5 (file reading by extension) and section 9 (a table of media types, default text/plain). */

export const TEXT_EXTENSIONS = new Set(['txt', 'md', 'readme', 'log', 'json', 'xml', 'yaml', 'yml']);

export const IMAGE_MEDIA_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** Code files by extension and the language named in their tag. */
export const CODE_LANGUAGES: Record<string, string> = {
  py: 'python',
  js: 'javascript',
  mjs: 'javascript',
  ts: 'typescript',
  jsx: 'jsx',
  tsx: 'tsx',
  java: 'java',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  go: 'go',
  rs: 'rust',
  rb: 'ruby',
  php: 'php',
  swift: 'swift',
  kt: 'kotlin',
  scala: 'scala',
  r: 'r',
  sql: 'sql',
  sh: 'bash',
  bash: 'bash',
  ps1: 'powershell',
  pl: 'perl',
  lua: 'lua',
  m: 'matlab',
  dart: 'dart',
  hs: 'haskell',
  jl: 'julia',
  html: 'html',
  css: 'css',
  scss: 'scss',
  vue: 'vue',
};

export function extensionOf(name: string): string {
  const base = name.toLowerCase().split('/').pop() ?? '';
  if (base === 'readme') return 'readme';
  const dot = base.lastIndexOf('.');
  return dot === -1 ? '' : base.slice(dot + 1);
}

export function mediaTypeOf(name: string): string {
  const ext = extensionOf(name);
  if (IMAGE_MEDIA_TYPES[ext]) return IMAGE_MEDIA_TYPES[ext];
  if (ext === 'pdf') return 'application/pdf';
  if (ext === 'json' || ext === 'ipynb') return 'application/json';
  if (ext === 'csv') return 'text/csv';
  if (ext === 'xml') return 'application/xml';
  if (ext === 'md') return 'text/markdown';
  return 'text/plain';
}
