/** What the HTTP adapter needs of a metrics adapter (PromMetrics satisfies it; main wires the two). */
export interface HttpMetrics {
  /** One answered request; called for every request, so it must be cheap and never throw. */
  requestServed(request: { readonly route: string | null; readonly method: string; readonly status: number; readonly seconds: number }): void;
  /** The figures for `GET /metrics`: the body and its media type. */
  exposition(): Promise<{ readonly contentType: string; readonly body: string }>;
}
