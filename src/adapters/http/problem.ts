import type { SpecFormat } from '../../domain/spec/spec-document.js';
import type { ApplicationError } from '../../application/shared/application-error.js';
import type { FieldError } from '../../domain/shared/field-error.js';
import type { PlanLimitExceeded } from '../../domain/account/plan-allowance.js';
import type { OwnerOnlyAction } from '../../domain/share/share.aggregate.js';
import { PROBLEM_STATUS, type ProblemCode } from './openapi/problems.js';

/** An RFC 9457 problem document, with the contract's stable `code`. */
export interface Problem {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors?: readonly FieldError[];
  /** Where a spec failed to parse (1-based), for `unparseable_spec`. */
  readonly line?: number | null;
  readonly column?: number | null;
  /** Response headers that belong to this problem (`WWW-Authenticate`, `Allow`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Members of its own a problem carries (`breaking_change`: `counts` and `items`). */
  readonly members?: Readonly<Record<string, unknown>>;
}

/** Problem type URIs: a stable URN per code, documented in docs/http-api.md. */
const FORMAT_NAMES: Record<SpecFormat, string> = { 'swagger-2.0': 'Swagger 2.0', 'openapi-3.0': 'OpenAPI 3.0', 'openapi-3.1': 'OpenAPI 3.1' };

export function problemType(code: string): string {
  return `urn:specbase:problem:${code}`;
}

export const REALM = 'specbase';

export function invalidToken(detail = 'The access token is missing, malformed, unknown or revoked.'): Problem {
  return problemOf('invalid_token', detail, { headers: { 'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_token"` } });
}

/** Thrown by HTTP code for problems found before a use case runs (bad JSON, wrong media type...). */
export class HttpProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

export function validationProblem(errors: readonly FieldError[]): Problem {
  const first = errors[0];
  return problemOf('validation_failed', first ? `${first.field}: ${first.message}` : 'The request is not valid.', { errors });
}

const QUOTA_WORDS: Record<PlanLimitExceeded['quota'], string> = {
  apis: 'APIs',
  webhooks: 'webhooks',
  apiTokens: 'API tokens',
  pagesPerApi: 'pages of this API',
  importBytes: 'bytes in one document',
  privateApis: 'private APIs',
};

function planLimitDetail(error: PlanLimitExceeded): string {
  const plan = error.plan === 'free' ? 'The free plan' : 'The Private plan';
  if (error.quota === 'privateApis') return `${plan} has no private APIs: make it public, or ask for the Private plan. Private APIs kept from before stay private and readable.`;
  if (error.quota === 'importBytes') return `${plan} takes at most ${error.limit} ${QUOTA_WORDS.importBytes}; this one has ${error.current}.`;
  return `${plan} allows ${error.limit} ${QUOTA_WORDS[error.quota]}, and ${error.current} exist: delete one, or ask for a larger plan.`;
}

/** What each owner-only action is, in the sentence "Only the API owner's account may ...". */
const OWNER_ONLY_WORDS: Record<OwnerOnlyAction, string> = {
  deleteApi: 'delete the API',
  listShares: 'list its shares',
  getShare: 'read its shares',
  createShare: 'share it',
  updateShare: 'change a share',
  deleteShare: 'revoke a share',
};

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  412: 'Precondition Failed',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
};

/** A problem of `code`, its status taken from the one table of codes (`PROBLEM_STATUS`). */
export function problemOf(code: ProblemCode, detail: string, extra: Omit<Problem, 'status' | 'code' | 'title' | 'detail'> = {}): Problem {
  const status = PROBLEM_STATUS[code];
  return { status, code, title: TITLES[status] ?? 'Error', detail, ...extra };
}

function breakingChangeDetail(error: Extract<ApplicationError, { kind: 'BreakingChange' }>): string {
  const refusal = error.refusal;
  const changes = (n: number) => `${n} breaking change${n === 1 ? '' : 's'}`;
  const allowed = error.counts.breaking - refusal.counted;
  const what = allowed === 0 ? changes(error.counts.breaking) : `${changes(refusal.counted)} besides ${allowed} operation${allowed === 1 ? '' : 's'} removed after ${allowed === 1 ? 'its' : 'their'} sunset (allowRemovalAfterSunset lets those through)`;
  return refusal.kind === 'BreakingChangeRefused'
    ? `The spec has ${what} and the API's breakingChangePolicy is refuse: fix them, or send allowBreaking=<reason>.`
    : `The spec has ${what} and the API's breakingChangePolicy is requireMajor: release it as a new major version${refusal.highestMajor === null ? '' : ` (above ${refusal.highestMajor})`} with release=<version>, or send allowBreaking=<reason>.`;
}

/**
 * The one mapping from application errors to HTTP: code (hence status) and wording of each kind,
 * exhaustive, so a new kind fails the build until it is given both.
 */
export function problemFor(error: ApplicationError): Problem {
  switch (error.kind) {
    case 'Unauthenticated':
      return invalidToken();
    case 'InsufficientScope':
      return problemOf('insufficient_scope', `The token lacks the scope this operation needs: ${error.scope}.`, {
        headers: { 'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${error.scope}"` },
      });
    case 'RateLimited': {
      const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
      return problemOf('rate_limited', `Too many requests: try again in ${seconds} s.`, { headers: { 'Retry-After': String(seconds) } });
    }
    case 'EmailNotVerified':
      return problemOf('email_not_verified', 'Verify your e-mail address first.');
    case 'ShareRoleForbids':
      return problemOf('forbidden', `The API is shared with you as ${error.role}, which does not allow this.`, { members: { role: error.role } });
    case 'OwnerOnly':
      return problemOf('forbidden', `Only the API owner’s account may ${OWNER_ONLY_WORDS[error.action]}; the API is shared with you as ${error.role}.`, {
        members: { role: error.role, action: error.action },
      });
    case 'OwnerOnlyField':
      return problemOf('forbidden', `Only the API owner’s account may change ${error.fields.map((f) => `\`${f}\``).join(', ')}; the API is shared with you as ${error.role}. Nothing was changed.`, {
        members: { role: error.role, field: error.fields[0] },
      });
    case 'NotFound':
      return problemOf('not_found', `No such ${error.resource}.`);
    case 'PlanLimit':
      return problemOf('plan_limit', planLimitDetail(error), { members: { plan: error.plan, quota: error.quota, limit: error.limit, current: error.current } });
    case 'Validation':
      return validationProblem(error.errors);
    case 'RevisionConflict':
      return problemOf(
        'revision_conflict',
        error.actual === null
          ? `The resource changed while this request ran; revision ${error.expected} is no longer current.`
          : `If-Match names revision ${error.expected}, but the current revision is ${error.actual}.`,
      );
    case 'DuplicateNickname':
      return problemOf('duplicate_nickname', `the account already has an API with nickname "${error.nickname}"`);
    case 'UnparseableSpec':
      return problemOf(
        'unparseable_spec',
        error.line === null ? `The spec could not be read: ${error.message}` : `The spec could not be read at line ${error.line}, column ${error.column}: ${error.message}`,
        { line: error.line, column: error.column },
      );
    case 'InvalidSpec': {
      const what = error.format === undefined ? 'The spec is not accepted' : `The spec is not valid ${FORMAT_NAMES[error.format]}`;
      const first = error.errors[0];
      return problemOf('invalid_spec', `${what}: ${first ? `${first.field}: ${first.message}` : 'see errors'}`, { errors: error.errors });
    }
    case 'BreakingChange':
      return problemOf('breaking_change', breakingChangeDetail(error), { members: { counts: error.counts, items: error.items, ...(error.truncated ? { truncated: true } : {}) } });
    case 'DuplicateVersion':
      return problemOf('duplicate_version', `the API already has a release ${error.version}`);
    case 'InvalidTransition':
      return problemOf('invalid_transition', `a release that is ${error.from} cannot become ${error.to}`);
    case 'NoSpec':
      return problemOf('no_spec', 'the API has no spec to release yet: import or PUT one first');
    case 'DuplicateSlug':
      return problemOf('duplicate_slug', `the API already has a page with slug "${error.slug}"`);
    case 'DuplicateShare':
      return problemOf('duplicate_share', 'the API is already shared with this user: change the role of that share instead');
    case 'UnknownUser':
      return problemOf('unknown_user', 'No user has this e-mail address.');
    case 'OwnAccount':
      return problemOf('own_account', 'This user belongs to the API’s own account and has access already.');
    case 'WebhookInactive':
      return problemOf('webhook_inactive', 'activate the webhook before redelivering to it');
    case 'DuplicateEmail':
      return problemOf('duplicate_email', 'a user with this e-mail address exists');
    case 'EmailAlreadyVerified':
      return problemOf('email_already_verified', 'This e-mail address is verified already.');
    case 'WrongPassword':
      return problemOf('wrong_password', 'The current password is wrong.');
    case 'WeakPassword':
      return problemOf('weak_password', `The new password is refused: ${error.errors[0]?.message ?? 'see errors'}`, { errors: error.errors });
  }
}
