import type { AccountId } from '../account/account.js';
import { EVENT_NAMES, type EventName } from '../events/domain-event.js';
import type { FieldError } from '../shared/field-error.js';
import { err, ok, type Result } from '../shared/result.js';
import { formatTimestamp } from '../shared/time.js';
import type { Uuid } from '../shared/ids.js';

export type WebhookId = Uuid<'Webhook'>;

export const SECRET_MIN_LENGTH = 16;
export const SECRET_MAX_LENGTH = 256;
const URL_MAX_LENGTH = 2048;
/** What `lastResponse.body` keeps of a response. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface LastResponse {
  readonly status: number | null;
  readonly body: string;
  readonly durationMs: number;
  readonly date: Date;
}

export interface WebhookState {
  readonly id: WebhookId;
  readonly accountId: AccountId;
  readonly targetUrl: string;
  readonly events: readonly EventName[];
  readonly secret: string;
  readonly active: boolean;
  readonly creationDate: Date;
  readonly updateDate: Date;
  readonly lastResponse: LastResponse | null;
  /** First failure since the last success; null while the webhook works. */
  readonly failingSince: Date | null;
  /** Why the service deactivated it (shown to its owner); null otherwise. */
  readonly deactivationReason: string | null;
}

/** The webhook record of the contract; the secret is never read back. */
export interface WebhookRecord {
  readonly id: WebhookId;
  readonly targetUrl: string;
  readonly events: readonly EventName[];
  readonly active: boolean;
  readonly secretSet: true;
  readonly creationDate: string;
  readonly lastResponse: { readonly status: number | null; readonly body: string; readonly durationMs: number; readonly date: string } | null;
  readonly deactivationReason: string | null;
  readonly [key: string]: unknown;
}

export type WebhookError = { readonly kind: 'InvalidField' } & FieldError;

function invalid(field: string, message: string): Result<never, WebhookError> {
  return err({ kind: 'InvalidField', field, message });
}

/** http or https, absolute, no credentials, at most 2048 characters. Addresses are the adapter's to vet. */
export function checkTargetUrl(value: unknown): Result<string, WebhookError> {
  if (typeof value !== 'string' || value.length > URL_MAX_LENGTH) return invalid('targetUrl', `must be an http or https URL of at most ${URL_MAX_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return invalid('targetUrl', 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return invalid('targetUrl', 'only http and https targets are allowed');
  if (url.username !== '' || url.password !== '') return invalid('targetUrl', 'must not carry a user name or password');
  return ok(value);
}

function checkEvents(value: unknown): Result<EventName[], WebhookError> {
  if (!Array.isArray(value) || value.length === 0) return invalid('events', `must be a non-empty list of: ${EVENT_NAMES.join(', ')}`);
  for (const name of value) {
    if (!(EVENT_NAMES as readonly unknown[]).includes(name)) {
      return invalid('events', `unknown event ${JSON.stringify(name)}; known: ${EVENT_NAMES.join(', ')}`);
    }
  }
  return ok([...new Set(value as EventName[])]);
}

function checkSecret(value: unknown): Result<string, WebhookError> {
  if (typeof value !== 'string' || [...value].length < SECRET_MIN_LENGTH || [...value].length > SECRET_MAX_LENGTH) {
    return invalid('secret', `must be ${SECRET_MIN_LENGTH}-${SECRET_MAX_LENGTH} characters`);
  }
  return ok(value);
}

export class Webhook {
  private constructor(private state: WebhookState) {}

  /**
   * A new webhook, inactive unless `active` is true. `secret` is the caller's or generated.
   * Errors: `InvalidField` for targetUrl, events or secret.
   */
  static create(
    input: { readonly id: WebhookId; readonly accountId: AccountId; readonly targetUrl: unknown; readonly events: unknown; readonly secret: unknown; readonly active?: boolean | undefined },
    now: Date,
  ): Result<Webhook, WebhookError> {
    const targetUrl = checkTargetUrl(input.targetUrl);
    if (!targetUrl.ok) return targetUrl;
    const events = checkEvents(input.events);
    if (!events.ok) return events;
    const secret = checkSecret(input.secret);
    if (!secret.ok) return secret;
    return ok(
      new Webhook({
        id: input.id,
        accountId: input.accountId,
        targetUrl: targetUrl.value,
        events: events.value,
        secret: secret.value,
        active: input.active === true,
        creationDate: now,
        updateDate: now,
        lastResponse: null,
        failingSince: null,
        deactivationReason: null,
      }),
    );
  }

  static rehydrate(state: WebhookState): Webhook {
    return new Webhook(state);
  }

  get id(): WebhookId {
    return this.state.id;
  }
  get accountId(): AccountId {
    return this.state.accountId;
  }
  get targetUrl(): string {
    return this.state.targetUrl;
  }
  get secret(): string {
    return this.state.secret;
  }
  get active(): boolean {
    return this.state.active;
  }
  get failingSince(): Date | null {
    return this.state.failingSince;
  }

  subscribesTo(event: EventName): boolean {
    return this.state.events.includes(event);
  }

  /** Changes target URL, events and/or secret. Errors: `InvalidField`. */
  update(changes: { readonly targetUrl?: unknown; readonly events?: unknown; readonly secret?: unknown }, now: Date): Result<void, WebhookError> {
    let next = this.state;
    if (changes.targetUrl !== undefined) {
      const targetUrl = checkTargetUrl(changes.targetUrl);
      if (!targetUrl.ok) return targetUrl;
      next = { ...next, targetUrl: targetUrl.value };
    }
    if (changes.events !== undefined) {
      const events = checkEvents(changes.events);
      if (!events.ok) return events;
      next = { ...next, events: events.value };
    }
    if (changes.secret !== undefined) {
      const secret = checkSecret(changes.secret);
      if (!secret.ok) return secret;
      next = { ...next, secret: secret.value };
    }
    this.state = { ...next, updateDate: now };
    return ok();
  }

  /** Turns deliveries on; clears a deactivation reason and the failure streak. */
  activate(now: Date): void {
    this.state = { ...this.state, active: true, deactivationReason: null, failingSince: null, updateDate: now };
  }

  /** Turns deliveries off, by its owner (no reason) or by the service (with the reason shown). */
  deactivate(reason: string | null, now: Date): void {
    this.state = { ...this.state, active: false, deactivationReason: reason, updateDate: now };
  }

  /** Keeps the response of the latest attempt; a 2xx ends a failure streak, anything else starts or extends it. */
  recordResponse(response: { readonly status: number | null; readonly body: string; readonly durationMs: number }, now: Date): void {
    const success = response.status !== null && response.status >= 200 && response.status < 300;
    this.state = {
      ...this.state,
      lastResponse: { status: response.status, body: truncate(response.body), durationMs: response.durationMs, date: now },
      failingSince: success ? null : (this.state.failingSince ?? now),
    };
  }

  snapshot(): WebhookState {
    return this.state;
  }

  toRecord(): WebhookRecord {
    const s = this.state;
    return {
      id: s.id,
      targetUrl: s.targetUrl,
      events: s.events,
      active: s.active,
      secretSet: true,
      creationDate: formatTimestamp(s.creationDate),
      lastResponse: s.lastResponse && { ...s.lastResponse, date: formatTimestamp(s.lastResponse.date) },
      deactivationReason: s.deactivationReason,
    };
  }
}

function truncate(body: string): string {
  const bytes = new TextEncoder().encode(body);
  return bytes.length <= RESPONSE_EXCERPT_BYTES ? body : new TextDecoder().decode(bytes.slice(0, RESPONSE_EXCERPT_BYTES)).replace(/\uFFFD$/, '');
}
