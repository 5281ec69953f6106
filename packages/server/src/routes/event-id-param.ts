import type { IncomingMessage } from 'node:http';
import { invalidField } from '../domain/invalid-request-input.js';

/** A run event id from a header or query parameter: a whole number, 0 for "from the start". */
export function parseEventId(value: string | null | undefined, name: string): number {
  if (value === null || value === undefined || value.trim() === '') return 0;
  const text = value.trim();
  if (!/^\d{1,15}$/.test(text)) {
    throw invalidField(name, `"${text.slice(0, 40)}" is not an event id; use the id of the last event received (a whole number).`);
  }
  return Number(text);
}

/** Where a stream resumes: the `Last-Event-ID` header (sent by reconnecting browsers) wins over `?last_event_id=`. */
export function resumeFrom(req: IncomingMessage, url: URL): number {
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && header.trim() !== '') return parseEventId(header, 'Last-Event-ID');
  return parseEventId(url.searchParams.get('last_event_id'), 'last_event_id');
}
