/** What the HTTP adapter needs of a logger; pino's Logger satisfies it. */
export interface HttpLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
  child(bindings: Record<string, unknown>): HttpLogger;
}
