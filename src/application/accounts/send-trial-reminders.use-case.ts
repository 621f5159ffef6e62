import { planRecord, TRIAL_REMINDER_LEAD_MS } from '../../domain/account/account.aggregate.js';
import { ok } from '../../domain/shared/result.js';
import type { AccountRepository } from '../ports/account-repository.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { Mailer } from '../ports/mailer.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';

/** Accounts looked at per round: a round is cheap, and the next one takes the rest. */
const BATCH = 50;

/**
 * Tells each account, once, that its trial of the Private plan ends within three days: a round of
 * the worker's scheduled work. The account is marked first, in a transaction of its own and only
 * for the trial that was read (one worker of several wins; a trial the operator restarted meanwhile
 * is not marked), then the message goes to the account's first user through the mailer; a message
 * that cannot be handed over unmarks it for a later round. A crash between the two loses that one
 * message rather than sending it twice. Every account listed is marked, so none is listed again.
 */
export class SendTrialReminders {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly users: UserRepository,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  /** One round; returns how many messages were handed to the mailer. */
  async execute(): Promise<number> {
    const now = this.clock.now();
    let sent = 0;
    for (const id of await this.accounts.trialsEnding(now, new Date(now.getTime() + TRIAL_REMINDER_LEAD_MS), BATCH)) {
      const account = await this.accounts.get(id);
      if (!account || !account.trialReminderDue(now)) continue;
      const { trialEndDate } = account.planAt(now);
      const claimed = await this.uow.run(async (tx) => ok(await tx.accounts.claimTrialReminder(id, trialEndDate!, now)));
      if (!claimed.ok || !claimed.value) continue;
      const owner = await this.users.ownerOf(id);
      // An account without a user has nobody to tell: marked, so that it is not listed again.
      if (!owner) continue;
      try {
        await this.mailer.send({
          to: owner.email,
          subject: 'Your Specbase trial of the Private plan ends soon',
          text: [
            `Hello ${owner.nickname},`,
            '',
            `the trial of the Private plan of your Specbase account (${this.publicUrl}, account ${id}) ends on ${planRecord(account.planAt(now)).trialEndDate}.`,
            '',
            'After that the account continues on the free plan: your private APIs stay private and',
            'readable by you and those you shared them with, and nothing you stored is deleted or made',
            'public; new private APIs, and making an API private, need the Private plan again.',
            '',
            'To stay on the Private plan, ask the operator of this Specbase service.',
          ].join('\n'),
        });
        sent += 1;
      } catch (error) {
        await this.accounts.releaseTrialReminder(id);
        throw error;
      }
    }
    return sent;
  }
}
