/** One operation of the OpenAPI document, as a route carries it beside its handler. */
export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  /** An extension of this server, not part of the published API. */
  'x-agent-runs-extension'?: true;
  /** The parameters besides the path's own: those come from the route's path. */
  parameters?: readonly unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

/** What the document reads of a route. */
export interface DocumentedRoute {
  method: string;
  /** A path such as `/api/v1/agent/runs/:runId`. */
  path: string;
  /** False: the operation is served without a key (`security: []`). */
  auth: boolean | 'worker';
  /** True where an agent's run token is accepted beside an API key (within the token's scope). */
  runToken?: true | undefined;
  /**
   * The route's operation. Every route under `/api/v1/` carries one; `false` only for the
   * one the document does not describe (the document itself). A function when the operation
   * converts contract schemas (query parameters), so that is done with the document, not at start.
   */
  openapi?: OpenApiOperation | (() => OpenApiOperation) | false;
}
