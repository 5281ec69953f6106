import { extname } from 'node:path';

const BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.diff': 'text/x-diff',
  '.patch': 'text/x-diff',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
};

/** The MIME type of a file by its extension; unknown ones are plain bytes. */
export function mimeTypeOf(filename: string): string {
  return BY_EXTENSION[extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

/** Images become SCREENSHOT artifacts, everything else FILE. */
export function isImage(mimeType: string): boolean {
  return mimeType.startsWith('image/');
}
