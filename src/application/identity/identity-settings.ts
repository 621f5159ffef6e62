/** What the identity service is configured with. */
export interface IdentitySettings {
  /** `PUBLIC_URL`: the `iss` of every token, no trailing slash. */
  readonly issuer: string;
  /** `SCOPE_BASE`: the prefix of Google-style scope names (`{scope_base}/auth/userinfo.email`). */
  readonly scopeBase: string;
}
export const IDENTITY_SETTINGS = 'IdentitySettings';
