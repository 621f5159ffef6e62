/**
 * A typed dependency-injection token. A port is an interface plus a token of the same name, so the
 * composition root can bind it without the core knowing any container.
 */
export type Token<T> = symbol & { readonly __port?: T };

export function token<T>(name: string): Token<T> {
  return Symbol.for(`specbase:${name}`);
}
