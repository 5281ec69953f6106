import { html, type SafeHtml } from './html.js';

/** Rows on one page of the schedules and named agents lists. */
export const LIST_PAGE_SIZE = 50;

/** Where a cursor-paged list is: the cursor it was opened with, and the next page's. */
export interface ListPage {
  cursor: string | undefined;
  next: string | undefined;
}

/** The page's `cursor` query parameter, when one was given. */
export const cursorOf = (url: URL) => url.searchParams.get('cursor') || undefined;

/** Links to the first page and the next one, as the runs table has them. */
export function listPager(path: string, where: ListPage, older: string): SafeHtml {
  if (!where.cursor && !where.next) return html``;
  return html`<nav class="pager" aria-label="Pages">${where.cursor ? html`<a href="${path}">First page</a>` : ''}${
    where.next ? html`<a href="${path}?cursor=${encodeURIComponent(where.next)}" rel="next">${older}</a>` : ''
  }</nav>`;
}
