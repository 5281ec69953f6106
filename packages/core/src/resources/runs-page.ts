import type { ListRunsResponse, PageInfo } from '../contract/list-runs.js';
import type { RunItem } from '../contract/run-item.js';
import type { WithResponse } from '../internal/api-promise.js';

type FetchPage = (cursor: string) => Promise<RunsPage>;

/**
 * One page of runs. `for await (const run of page)` walks this page and every
 * following one in this page's order, holding one page in memory at a time.
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

/**
 * What `client.runs.list()` returns. Await it for the first page (in the order the query
 * asks, by default the most recently updated first), or iterate it for every run on every
 * page: the walk then sorts by `created_at` (then by id), unless the query names a sort,
 * because a run's creation time never changes. Sorted by `updated_at`, a run updated
 * during the walk would jump ahead of the cursor (and be missed) or behind it (and be seen
 * twice). Nothing is sent until it is awaited or iterated.
 */
export class PagePromise implements PromiseLike<RunsPage>, AsyncIterable<RunItem> {
  private first: Promise<WithResponse<RunsPage>> | undefined;

  constructor(
    private readonly fetchFirst: () => Promise<WithResponse<RunsPage>>,
    private readonly fetchWalkStart: () => Promise<WithResponse<RunsPage>>,
  ) {}

  /** The first page together with the raw response facts (status, headers, url). */
  withResponse(): Promise<WithResponse<RunsPage>> {
    return (this.first ??= this.fetchFirst());
  }

  then<R1 = RunsPage, R2 = never>(
    onfulfilled?: ((value: RunsPage) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.withResponse()
      .then((r) => r.data)
      .then(onfulfilled, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<RunsPage | R> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<RunsPage> {
    return this.then().finally(onfinally);
  }

  /** Every page of the walk (in the stable order), one at a time. */
  async *iterPages(): AsyncGenerator<RunsPage, void, undefined> {
    const { data } = await this.fetchWalkStart();
    yield* data.iterPages();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RunItem, void, undefined> {
    for await (const page of this.iterPages()) yield* page.runs;
  }

  get [Symbol.toStringTag]() {
    return 'PagePromise';
  }
}
