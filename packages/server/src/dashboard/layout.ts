import { html, type SafeHtml } from './html.js';
import type { DashboardSession } from './dashboard-sessions.js';

export const ASSET_PATH = '/dashboard-assets';

const NAV: readonly [string, string][] = [
  ['/', 'Runs'],
  ['/new', 'Start a run'],
  ['/schedules', 'Schedules'],
  ['/environments', 'Environments'],
  ['/skills', 'Skills'],
  ['/agents', 'Named agents'],
  ['/workers', 'Workers'],
  ['/quota', 'Quotas'],
];

export interface LayoutInput {
  title: string;
  /** The nav entry this page belongs to. */
  section?: string;
  session?: DashboardSession | undefined;
  body: SafeHtml;
  /** The page's script, the dashboard's by default (the session page has one of its own); null for none. */
  script?: string | null;
  /** More of the head (a refresh while a page without its script is live). */
  head?: SafeHtml | undefined;
  /** The whole title, when ` · agent-runs` should not follow the page's. */
  fullTitle?: string;
}

/** Every page (the dashboard's and a run's session page): skip link, navigation, who is signed in, the one stylesheet and a script. */
export function layout({ title, section, session, body, script = `${ASSET_PATH}/dashboard.js`, head, fullTitle }: LayoutInput): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET_PATH}/dashboard.css">
<title>${fullTitle ?? `${title} · agent-runs`}</title>
${script ? html`<script src="${script}" defer></script>` : ''}
${head}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/">agent-runs</a>
${
  session
    ? html`<nav aria-label="Main"><ul>${NAV.map(
        ([href, label]) => html`<li><a href="${href}"${section === href ? html` aria-current="page"` : ''}>${label}</a></li>`,
      )}</ul></nav>
<form method="post" action="/sign-out" class="who"><input type="hidden" name="csrf" value="${session.csrf}"><span>${session.principal}</span> <button type="submit">Sign out</button></form>`
      : ''
}
</header>
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>
`;
}

/** A time shown in the viewer's zone by the script (UTC without it), the exact time on hover. */
export function time(iso: string | null | undefined): SafeHtml {
  if (!iso) return html`<span class="muted">—</span>`;
  const text = iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return html`<time datetime="${iso}" title="${iso}">${text}</time>`;
}

/** How long ago, as the runs table shows it: the script writes "5m ago" (the exact time on hover); without it, the time in UTC. */
export function age(iso: string): SafeHtml {
  return html`<time datetime="${iso}" title="${iso}" data-age>${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>`;
}

/** A duration such as `4m 12s`. */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h}h ${m % 60}m` : `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** A form's hidden CSRF field. */
export function csrfField(session: DashboardSession): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${session.csrf}">`;
}

/** A message of what went wrong, at the top of a form. */
export function errorNote(message: string | undefined): SafeHtml {
  return message ? html`<p class="error" role="alert">${message}</p>` : html``;
}
