import { err, ok, type Result } from '../shared/result.js';

export type PasswordRule = 'too_short' | 'too_long' | 'too_few_distinct_characters' | 'contains_email';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
const MIN_DISTINCT_CHARACTERS = 5;

const MESSAGES: Record<PasswordRule, string> = {
  too_short: `must be at least ${PASSWORD_MIN_LENGTH} characters`,
  too_long: `must be at most ${PASSWORD_MAX_LENGTH} characters`,
  too_few_distinct_characters: `must contain at least ${MIN_DISTINCT_CHARACTERS} different characters`,
  contains_email: 'must not contain the e-mail address or its local part',
};

export interface PasswordViolation {
  readonly rule: PasswordRule;
  readonly message: string;
}

/**
 * The password policy (NIST SP 800-63B in spirit: length over composition rules).
 * Length counts Unicode code points, so a passphrase in any script is measured fairly.
 */
export function checkPassword(password: string, email: string): Result<void, PasswordViolation> {
  const characters = [...password];
  const violation = (rule: PasswordRule) => err({ rule, message: MESSAGES[rule] });
  if (characters.length < PASSWORD_MIN_LENGTH) return violation('too_short');
  if (characters.length > PASSWORD_MAX_LENGTH) return violation('too_long');
  if (new Set(characters).size < MIN_DISTINCT_CHARACTERS) return violation('too_few_distinct_characters');
  const lower = password.toLowerCase();
  const localPart = email.toLowerCase().split('@')[0]!;
  if (lower.includes(email.toLowerCase()) || (localPart.length >= 4 && lower.includes(localPart))) {
    return violation('contains_email');
  }
  return ok();
}
