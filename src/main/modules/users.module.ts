import { ListConnectedApps, WithdrawConnectedApp } from '../../application/identity/connected-apps.use-cases.js';
import { ConsentRepository, OAuthClientRepository } from '../../application/ports/identity-repositories.port.js';
import { ContainerModule } from 'inversify';
import { PlanSettings, Plans } from '../../application/accounts/plans.js';
import { PasswordGuard } from '../../application/auth/password-guard.js';
import { TokenCache } from '../../application/auth/token-cache.js';
import { BootstrapDemo } from '../../application/bootstrap/bootstrap-demo.use-case.js';
import { AccountRepository } from '../../application/ports/account-repository.port.js';
import { ApiTokenRepository } from '../../application/ports/api-token-repository.port.js';
import { Clock } from '../../application/ports/clock.port.js';
import { IdGenerator } from '../../application/ports/id-generator.port.js';
import { Mailer } from '../../application/ports/mailer.port.js';
import { PasswordHasher } from '../../application/ports/password-hasher.port.js';
import { TokenGenerator } from '../../application/ports/token-generator.port.js';
import { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import { UserRepository } from '../../application/ports/user-repository.port.js';
import { CreateApiToken } from '../../application/tokens/create-api-token.use-case.js';
import { ListApiTokens, RevokeApiToken } from '../../application/tokens/manage-api-tokens.use-cases.js';
import { ConfirmEmailVerification, RequestEmailVerification } from '../../application/users/email-verification.use-cases.js';
import { ChangePassword, GetProfile, UpdateProfile } from '../../application/users/profile.use-cases.js';
import { RegisterUser } from '../../application/users/register-user.use-case.js';
import { VerifyEmail } from '../../application/users/verify-email.use-case.js';
import type { Config } from '../config.js';
import { ConfigToken } from '../tokens.js';
import type { ProfileUseCases, TokenUseCases } from '../../adapters/http/user.routes.js';
import type { EmailVerificationUseCases } from '../../adapters/http/email-verification.routes.js';
import { token } from '../../application/shared/token.js';
import { AuthenticatePassword } from '../../application/auth/authenticate-password.use-case.js';
import { construct } from './wiring.js';

/** What the Profile routes need. */
export const ProfileUseCasesToken = token<ProfileUseCases>('ProfileUseCases');
/** What the Token routes need. */
export const TokenUseCasesToken = token<TokenUseCases>('TokenUseCases');
/** What the EmailVerification routes need. */
export const EmailVerificationUseCasesToken = token<EmailVerificationUseCases>('EmailVerificationUseCases');

/** Users and their credentials: registration, the profile, passwords, API tokens, e-mail verification, the demo bootstrap. */
export const usersModule = new ContainerModule(({ bind }) => {
  construct(bind, RegisterUser, [UnitOfWork, PasswordHasher, PlanSettings, Clock]);
  construct(bind, VerifyEmail, [UnitOfWork]);
  bind(RequestEmailVerification).toResolvedValue(
    (uow: UnitOfWork, generator: TokenGenerator, mailer: Mailer, clock: Clock, config: Config) =>
      new RequestEmailVerification(uow, generator, mailer, clock, `${config.publicUrl}/user/email/verify`),
    [UnitOfWork, TokenGenerator, Mailer, Clock, ConfigToken],
  );
  construct(bind, ConfirmEmailVerification, [UnitOfWork, TokenGenerator, Clock]);
  construct(bind, CreateApiToken, [UnitOfWork, Plans, IdGenerator, TokenGenerator, Clock]);
  construct(bind, GetProfile, [UserRepository, AccountRepository, Clock]);
  construct(bind, UpdateProfile, [UnitOfWork, AccountRepository, Clock]);
  construct(bind, ChangePassword, [UnitOfWork, UserRepository, PasswordHasher, PasswordGuard, Clock]);
  construct(bind, ListApiTokens, [ApiTokenRepository]);
  construct(bind, RevokeApiToken, [ApiTokenRepository, TokenCache]);
  construct(bind, BootstrapDemo, [UserRepository, RegisterUser, CreateApiToken, TokenGenerator]);
  construct(bind, ListConnectedApps, [ConsentRepository, OAuthClientRepository]);
  construct(bind, WithdrawConnectedApp, [UnitOfWork, Clock]);
  bind(ProfileUseCasesToken).toResolvedValue(
    (getProfile: GetProfile, updateProfile: UpdateProfile, changePassword: ChangePassword, connectedApps: ListConnectedApps, withdrawApp: WithdrawConnectedApp) => ({ get: getProfile, update: updateProfile, changePassword, connectedApps, withdrawApp }),
    [GetProfile, UpdateProfile, ChangePassword, ListConnectedApps, WithdrawConnectedApp],
  );
  bind(TokenUseCasesToken).toResolvedValue((authenticatePassword: AuthenticatePassword, listApiTokens: ListApiTokens, createApiToken: CreateApiToken, revokeApiToken: RevokeApiToken) => ({ authenticate: authenticatePassword, list: listApiTokens, create: createApiToken, revoke: revokeApiToken }), [AuthenticatePassword, ListApiTokens, CreateApiToken, RevokeApiToken]);
  bind(EmailVerificationUseCasesToken).toResolvedValue((requestEmailVerification: RequestEmailVerification, confirmEmailVerification: ConfirmEmailVerification) => ({ request: requestEmailVerification, confirm: confirmEmailVerification }), [RequestEmailVerification, ConfirmEmailVerification]);
});
