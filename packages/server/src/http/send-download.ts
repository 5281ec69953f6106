import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { ApiProblem } from './api-problem.js';
import type { OpenedFile } from './reply.js';
import { sendProblem } from './respond.js';

/** `attachment; filename=...` with an ASCII fallback and the exact name in RFC 5987 form. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Sends bytes an agent made. They are hostile: always a download, never sniffed, and
 * sandboxed should a browser render them anyway (an HTML or SVG file cannot script this origin).
 */
export function sendDownload(res: ServerResponse, body: Buffer, contentType: string, filename: string): void {
  res.writeHead(200, downloadHeaders(body.length, contentType, filename));
  res.end(body);
}

/** The same for a file on disk, streamed (an agent's file may be large); `open` decides how it is opened. */
export function sendFileDownload(res: ServerResponse, open: () => OpenedFile | undefined, contentType: string, filename: string): void {
  const file = open();
  if (!file) {
    sendProblem(res, new ApiProblem('resource_not_found', `"${filename}" is no longer a regular file.`), filename);
    return;
  }
  const { fd, size } = file;
  res.writeHead(200, downloadHeaders(size, contentType, filename));
  createReadStream('', { fd, start: 0, end: Math.max(0, size - 1) })
    .on('error', () => res.destroy())
    .pipe(res);
}

function downloadHeaders(length: number, contentType: string, filename: string): Record<string, string | number> {
  return {
    'content-type': contentType,
    'content-length': length,
    'content-disposition': contentDisposition(filename),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-store',
  };
}
