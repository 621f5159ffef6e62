/** Accounts and users have positive integer ids, assigned by storage. */
export type AccountId = number;
export type UserId = number;

export function isPositiveId(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}
