import type { Icon } from '@modelcontextprotocol/server';

/** Strokes in a grey that reads on light and dark backgrounds alike (hosts draw these as images). */
const STROKE = '#6b7280';

/** A 24x24 line drawing as the inline SVG icon hosts show beside the server or a tool. */
function svgIcon(paths: string): Icon[] {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="${STROKE}" ` +
    `stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${paths}</svg>`;
  return [{ src: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, mimeType: 'image/svg+xml', sizes: ['any'] }];
}

/** The server's own: a cloud with a run starting in it. */
export const SERVER_ICONS = svgIcon('<path d="M7 18h10a4 4 0 0 0 .5-7.97A6 6 0 0 0 6 10a4 4 0 0 0 1 8z"/><path d="M11 11.5v4l3-2z"/>');

const start = svgIcon('<circle cx="12" cy="12" r="9"/><path d="M10 8.5v7l5.5-3.5z"/>');
const wait = svgIcon('<path d="M7 3h10M7 21h10M8 3c0 5 8 5 8 9s-8 4-8 9M16 3c0 5-8 5-8 9s8 4 8 9"/>');
const read = svgIcon('<path d="M6 3h8l4 4v14H6z"/><path d="M14 3v4h4M9 12h6M9 16h6"/>');
const list = svgIcon('<path d="M9 6h11M9 12h11M9 18h11"/><circle cx="4.5" cy="6" r="1"/><circle cx="4.5" cy="12" r="1"/><circle cx="4.5" cy="18" r="1"/>');
const stop = svgIcon('<circle cx="12" cy="12" r="9"/><rect x="9" y="9" width="6" height="6"/>');
const clock = svgIcon('<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>');
const link = svgIcon('<path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1"/>');

const TOOL_ICONS: Record<string, Icon[]> = {
  create_run: start,
  follow_up_run: start,
  wait_for_run: wait,
  get_run: read,
  get_run_output: read,
  get_run_conversation: read,
  cancel_run: stop,
  delete_schedule: stop,
  create_schedule: clock,
  pause_schedule: clock,
  resume_schedule: clock,
  list_schedules: clock,
  list_webhooks: link,
  create_webhook: link,
};

/** A tool's icons: by what it does, a list for the listing tools. */
export function toolIcons(name: string): Icon[] {
  return TOOL_ICONS[name] ?? list;
}
