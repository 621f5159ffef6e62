import type { Bind, MapToResolvedValueInjectOptions } from 'inversify';

/**
 * Binds `Class` to the one instance built from `deps`, given in the order its constructor takes
 * them: the class names its dependencies once, here, instead of in a factory and again in a list.
 */
export function construct<T, A extends unknown[]>(bind: Bind, Class: new (...args: A) => T, deps: MapToResolvedValueInjectOptions<A>): void {
  bind(Class).toResolvedValue((...args: A) => new Class(...args), deps);
}
