/**
 * The scope table of docs-service.md. `X.readonly` permits reads (GET, HEAD) of area X;
 * `X` permits every method of area X and so implies `X.readonly`.
 */
export const AREAS = ['api', 'api_release', 'api_share', 'api_page', 'webhook', 'profile'] as const;
export type Area = (typeof AREAS)[number];

export const SCOPES = AREAS.flatMap((area) => [area, `${area}.readonly`] as const);
export type Scope = Area | `${Area}.readonly`;

/** What an operation does to its area: reads are GET and HEAD, everything else writes. */
export type Access = 'read' | 'write';

export function isScope(value: unknown): value is Scope {
  return (SCOPES as readonly unknown[]).includes(value);
}

export function accessOfMethod(method: string): Access {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' ? 'read' : 'write';
}

/** The narrowest scope that grants `access` to `area`: what a 403 names as needed. */
export function requiredScope(area: Area, access: Access): Scope {
  return access === 'read' ? `${area}.readonly` : area;
}

export function scopesPermit(scopes: Iterable<Scope>, area: Area, access: Access): boolean {
  for (const scope of scopes) {
    if (scope === area) return true;
    if (access === 'read' && scope === `${area}.readonly`) return true;
  }
  return false;
}
