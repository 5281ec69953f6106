import type { IncomingMessage, ServerResponse } from 'node:http';
import { isReply } from './reply.js';
import { sendHtml, sendJson } from './respond.js';
import { sendDownload, sendFileDownload } from './send-download.js';

/** Writes what a route returned: a plain value as a JSON body with 200, a Reply as it says. */
export function sendResult(req: IncomingMessage, res: ServerResponse, result: unknown): void {
  if (!isReply(result)) {
    sendJson(res, 200, result);
    return;
  }
  switch (result.reply) {
    case 'json':
      sendJson(res, result.status, result.value, result.headers);
      return;
    case 'empty':
      res.writeHead(result.status, result.headers).end();
      return;
    case 'html':
      sendHtml(res, result.status, result.html);
      return;
    case 'bytes':
      res.writeHead(result.status, { ...result.headers, 'content-length': Buffer.byteLength(result.body) });
      res.end(result.body);
      return;
    case 'download':
      sendDownload(res, result.body, result.contentType, result.filename);
      return;
    case 'file-download':
      sendFileDownload(res, result.open, result.contentType, result.filename);
      return;
    case 'stream':
      result.open(req, res);
      return;
  }
}
