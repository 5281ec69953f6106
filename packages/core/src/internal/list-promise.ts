import type { PageInfo } from '../contract/list-runs.js';
import { APIPromise, type WithResponse } from './api-promise.js';

/**
 * A list call's result: await it for the first page's body, or
 * `for await (const item of ...)` for every item on every page, one page in memory at a time.
 */
export class ListPromise<B extends { page_info?: PageInfo | undefined }, T> extends APIPromise<B> implements AsyncIterable<T> {
  constructor(
    first: () => Promise<WithResponse<B>>,
    private readonly items: (body: B) => T[],
    private readonly fetchPage: (cursor: string) => Promise<WithResponse<B>>,
  ) {
    let promise: Promise<WithResponse<B>>;
    try {
      promise = first();
    } catch (error) {
      promise = Promise.reject(error);
    }
    super(promise);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    let body: B = await this;
    for (;;) {
      yield* this.items(body);
      const info = body.page_info;
      // A server that does not page answers everything at once, without page_info.
      if (!info?.has_next_page || !info.next_cursor) return;
      body = (await this.fetchPage(info.next_cursor)).data;
    }
  }
}
