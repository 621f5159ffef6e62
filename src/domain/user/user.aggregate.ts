import type { AccountId, UserId } from '../account/account.js';
import { err, ok, type Result } from '../shared/result.js';
import type { FieldError } from '../shared/field-error.js';
import { checkPassword } from './password-policy.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NICKNAME = /^[a-z0-9_.-]{1,64}$/;

export interface UserProfile {
  readonly nickname: string;
  readonly name: string | null;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly picture: string | null;
  readonly locale: string | null;
}

export interface UserState extends UserProfile {
  readonly id: UserId;
  readonly accountId: AccountId;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly passwordHash: string;
  readonly creationDate: Date;
}

/** A user not yet stored: storage assigns the integer id. */
export type NewUser = Omit<UserState, 'id'>;

/** A registration checked and its password hashed, before its account exists (`NewUser` once it has one). */
export type UserDraft = Omit<NewUser, 'accountId'>;

export type UserError = { readonly kind: 'InvalidField' } & FieldError;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A nickname derived from the local part of a valid e-mail (never empty) when none is given. */
function nicknameFromEmail(email: string): string {
  const local = email.split('@')[0]!.toLowerCase().replace(/[^a-z0-9_.-]/g, '-').slice(0, 64);
  return /^\.+$/.test(local) ? 'user' : local;
}

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email);
}

const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;

function checkProfileField(field: keyof UserProfile, value: unknown): Result<string | null, UserError> {
  const invalid = (message: string) => err({ kind: 'InvalidField' as const, field, message });
  if (field === 'nickname') {
    return typeof value === 'string' && NICKNAME.test(value) && !/^\.+$/.test(value) ? ok(value) : invalid('must be 1-64 of a-z, 0-9, "-", "_", "."');
  }
  if (value === null) return ok(null);
  if (typeof value !== 'string') return invalid('must be a string or null');
  switch (field) {
    case 'name':
    case 'givenName':
    case 'familyName':
      return value.trim().length > 0 && value.length <= 200 ? ok(value) : invalid('must be 1-200 characters, not only spaces');
    case 'picture': {
      const url = URL.canParse(value) ? new URL(value) : undefined;
      return url && (url.protocol === 'https:' || url.protocol === 'http:') && value.length <= 2048 ? ok(value) : invalid('must be an http or https URL');
    }
    case 'locale':
      return LOCALE.test(value) ? ok(value) : invalid('must be a language tag such as "en" or "pt-BR"');
  }
}

/** The profile as the User-API shows it. */
export interface ProfileRecord {
  readonly id: UserId;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly nickname: string;
  readonly name: string | null;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly picture: string | null;
  readonly locale: string | null;
  readonly accountId: AccountId;
}

export class User {
  private constructor(private state: UserState) {}

  /**
   * Validates a registration and returns the user to store, without its account (made with it,
   * in the caller's transaction). The password is checked against the policy here, then hashed by
   * the caller (`hash`), so the plain text never leaves this call.
   * Errors: `InvalidField` for `email`, `password`, `nickname` or `name`.
   */
  static async register(
    input: {
      readonly email: string;
      readonly password: string;
      readonly nickname?: string | undefined;
      readonly name?: string | undefined;
      readonly emailVerified: boolean;
    },
    hash: (password: string) => Promise<string>,
    now: Date,
  ): Promise<Result<UserDraft, UserError>> {
    const email = normaliseEmail(input.email);
    if (!isValidEmail(email)) {
      return err({ kind: 'InvalidField', field: 'email', message: 'must be an e-mail address' });
    }
    const password = checkPassword(input.password, email);
    if (!password.ok) return err({ kind: 'InvalidField', field: 'password', message: password.error.message });
    const nickname = input.nickname ?? nicknameFromEmail(email);
    if (!NICKNAME.test(nickname) || /^\.+$/.test(nickname)) {
      return err({ kind: 'InvalidField', field: 'nickname', message: 'must be 1-64 of a-z, 0-9, "-", "_", "."' });
    }
    // The profile's rule: a name given at registration is one the user could have set later.
    const name = input.name === undefined ? ok(null) : checkProfileField('name', input.name);
    if (!name.ok) return name;
    return ok({
      email,
      emailVerified: input.emailVerified,
      passwordHash: await hash(input.password),
      nickname,
      name: name.value,
      givenName: null,
      familyName: null,
      picture: null,
      locale: null,
      creationDate: now,
    });
  }

  static rehydrate(state: UserState): User {
    return new User(state);
  }

  get id(): UserId {
    return this.state.id;
  }
  get accountId(): AccountId {
    return this.state.accountId;
  }
  get email(): string {
    return this.state.email;
  }
  get emailVerified(): boolean {
    return this.state.emailVerified;
  }
  get nickname(): string {
    return this.state.nickname;
  }
  get passwordHash(): string {
    return this.state.passwordHash;
  }

  /**
   * Changes profile fields; `null` clears an optional one. Errors: `InvalidField` for nickname
   * (1-64 of a-z 0-9 - _ .), name, givenName, familyName (at most 200 characters), picture (an
   * http(s) URL of at most 2048 characters) or locale (a BCP 47 tag such as `en` or `pt-BR`).
   */
  updateProfile(changes: { readonly [K in keyof UserProfile]?: unknown }): Result<void, UserError> {
    let next: UserState = this.state;
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      const checked = checkProfileField(field as keyof UserProfile, value);
      if (!checked.ok) return checked;
      next = { ...next, [field]: checked.value };
    }
    this.state = next;
    return ok();
  }

  /** Replaces the password hash; the caller has checked the current password and the policy. */
  changePassword(passwordHash: string): void {
    this.state = { ...this.state, passwordHash };
  }

  /** Idempotent: verifying a verified address changes nothing. */
  verifyEmail(): void {
    this.state = { ...this.state, emailVerified: true };
  }

  snapshot(): UserState {
    return this.state;
  }

  toProfile(): ProfileRecord {
    const { id, email, emailVerified, nickname, name, givenName, familyName, picture, locale, accountId } = this.state;
    return { id, email, emailVerified, nickname, name, givenName, familyName, picture, locale, accountId };
  }
}
