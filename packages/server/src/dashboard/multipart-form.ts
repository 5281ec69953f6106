/** A file posted with a form, as the browser named and typed it. */
export interface PostedFile {
  /** The form field it came in (`attachments`). */
  field: string;
  fileName: string;
  mimeType: string;
  /** Its bytes as received (a view into the body read). */
  data: Buffer;
}

export interface MultipartLimits {
  /** Parts (fields and files) in one form. */
  maxParts: number;
  /** Bytes of all text fields together. */
  maxFieldBytes: number;
}

/** A multipart body the parser refuses: `field` names what is at fault when known. */
export class MultipartError extends Error {
  override name = 'MultipartError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
/** A part's headers: Content-Disposition and Content-Type with a long file name fit many times over. */
const MAX_PART_HEADER_BYTES = 8 * 1024;
const MIME_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/** The `boundary` parameter of a `multipart/form-data` Content-Type, or undefined. */
export function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  // RFC 2046: 1-70 characters of a restricted set.
  return boundary && /^[0-9A-Za-z'()+_,\-./:=? ]+$/.test(boundary) ? boundary : undefined;
}

/** A parameter of a Content-Disposition header (`name="x"`), quoted or not. */
function parameter(header: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s;]*))`, 'i').exec(header);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

/** The last segment of a name some browsers send with its folders. */
const baseName = (name: string) => name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);

/**
 * Parses a `multipart/form-data` body already read whole (and so bounded by its reader):
 * text fields into URLSearchParams, files with their bytes. Searches are Buffer.indexOf
 * (linear); parts, header sizes and text bytes are capped; an empty file input is dropped.
 */
export function parseMultipart(body: Buffer, boundary: string, limits: MultipartLimits): { fields: URLSearchParams; files: PostedFile[] } {
  const delimiter = Buffer.from(`--${boundary}`);
  const between = Buffer.from(`\r\n--${boundary}`);
  const fields = new URLSearchParams();
  const files: PostedFile[] = [];
  let fieldBytes = 0;
  let at = body.indexOf(delimiter);
  if (at < 0) throw new MultipartError('', 'the form has no parts (no boundary found).');
  at += delimiter.length;
  for (let parts = 0; ; parts++) {
    // After a delimiter: `--` ends the body, CRLF starts a part.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) break;
    if (!body.subarray(at, at + 2).equals(CRLF)) throw new MultipartError('', 'the form is not well-formed multipart (a boundary is not followed by a line end).');
    if (parts >= limits.maxParts) throw new MultipartError('', `the form has more than ${limits.maxParts} parts.`);
    const headerStart = at + 2;
    const headerEnd = body.indexOf(HEADER_END, headerStart);
    if (headerEnd < 0 || headerEnd - headerStart > MAX_PART_HEADER_BYTES) throw new MultipartError('', 'a part of the form has no end to its headers, or headers that are too long.');
    const dataStart = headerEnd + HEADER_END.length;
    const dataEnd = body.indexOf(between, dataStart);
    if (dataEnd < 0) throw new MultipartError('', 'the form ended before its closing boundary.');
    at = dataEnd + between.length;

    let disposition = '';
    let type = '';
    for (const line of body.subarray(headerStart, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      if (name === 'content-disposition') disposition = line.slice(colon + 1).trim();
      else if (name === 'content-type') type = line.slice(colon + 1).trim();
    }
    const name = parameter(disposition, 'name');
    if (!/^form-data\b/i.test(disposition) || name === undefined) throw new MultipartError('', 'a part of the form has no Content-Disposition: form-data with a name.');
    const data = body.subarray(dataStart, dataEnd);
    const fileName = parameter(disposition, 'filename');
    if (fileName === undefined) {
      fieldBytes += data.length;
      if (fieldBytes > limits.maxFieldBytes) throw new MultipartError(name, `the form's text is larger than ${limits.maxFieldBytes} bytes.`);
      fields.append(name, data.toString('utf8'));
      continue;
    }
    // A file input left empty still sends a part, without a name and without bytes.
    if (fileName === '' && data.length === 0) continue;
    const mimeType = type.split(';')[0]!.trim().toLowerCase();
    files.push({ field: name, fileName: baseName(fileName), mimeType: MIME_TYPE.test(mimeType) ? mimeType : 'application/octet-stream', data });
  }
  return { fields, files };
}
