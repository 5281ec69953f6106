import type { ListRunsResponse, PageInfo } from '../contract/list-runs.js';
import type { RunItem } from '../contract/run-item.js';
import { APIPromise } from '../internal/api-promise.js';

type FetchPage = (cursor: string) => Promise<RunsPage>;

/**
 * One page of runs. `for await (const run of page)` walks this page and every
 * following one, holding one page in memory at a time.
 */
export class RunsPage implements AsyncIterable<RunItem> {
  readonly runs: RunItem[];
  readonly pageInfo: PageInfo;
  /** The whole body, unknown members included. */
  readonly body: ListRunsResponse;

  constructor(
    body: ListRunsResponse,
    private readonly fetchPage: FetchPage,
  ) {
    this.body = body;
    this.runs = body.runs;
    this.pageInfo = body.page_info;
  }

  hasNextPage(): boolean {
    return this.pageInfo.has_next_page && Boolean(this.pageInfo.next_cursor);
  }

  /** The following page; throws when there is none (check `hasNextPage()` first). */
  getNextPage(): Promise<RunsPage> {
    const cursor = this.pageInfo.next_cursor;
    if (!this.hasNextPage() || !cursor) return Promise.reject(new Error('There is no next page: check hasNextPage() first.'));
    return this.fetchPage(cursor);
  }

  /** This page, then each following page. */
  async *iterPages(): AsyncGenerator<RunsPage, void, undefined> {
    let page: RunsPage = this;
    for (;;) {
      yield page;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RunItem, void, undefined> {
    for await (const page of this.iterPages()) yield* page.runs;
  }
}

/** Await it for the first page, or iterate it for every run across pages. */
export class PagePromise extends APIPromise<RunsPage> implements AsyncIterable<RunItem> {
  async *[Symbol.asyncIterator](): AsyncGenerator<RunItem, void, undefined> {
    const page = await this;
    yield* page;
  }
}
