import { InvalidInputError } from '../../domain/domain-errors.js';
import { parseListQuery } from '../../runs/parse-list-query.js';
import { page } from '../page-reply.js';
import { apiListParams } from '../runs-query.js';
import { runsPage } from '../runs-page.js';
import type { SignedInRoute } from '../signed-in-route.js';

/** `GET /`: the caller's runs, filtered and paged by the URL's query; a query the API refuses is named on the page. */
export const listRunsRoute: SignedInRoute = {
  method: 'GET',
  path: '/',
  async handle({ url, app, session, caller }) {
    const params = apiListParams(url.searchParams);
    const environments = (await app.catalog.listEnvironments(caller)).environments.map((e) => e.uid);
    const liveUrl = `/live/runs?${url.searchParams.toString()}`;
    try {
      const list = await app.reads.list(parseListQuery(params), caller);
      return page(runsPage({ session, url: url.searchParams, page: list, liveUrl, environments }));
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      return page(runsPage({ session, url: url.searchParams, page: undefined, error: error.message, liveUrl, environments }), 400);
    }
  },
};
