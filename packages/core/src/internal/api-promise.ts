import type { ResponseHeaders } from '../errors/api-error.js';

/** What came back besides the parsed body. */
export interface ResponseInfo {
  status: number;
  headers: ResponseHeaders;
  /** The final URL requested. */
  url: string;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
}

export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

/**
 * The result of every client call: await it for the parsed data, or call
 * `.withResponse()` for the data together with status and headers.
 */
export class APIPromise<T> implements PromiseLike<T> {
  constructor(private readonly responsePromise: Promise<WithResponse<T>>) {}

  /** The parsed data and the raw response facts (status, headers, url). */
  withResponse(): Promise<WithResponse<T>> {
    return this.responsePromise;
  }

  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // One reaction, not two chained: the data goes straight to the caller's callback.
    return this.responsePromise.then(
      onfulfilled ? (r) => onfulfilled(r.data) : (r) => r.data as unknown as R1,
      onrejected,
    );
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  get [Symbol.toStringTag]() {
    return 'APIPromise';
  }
}
