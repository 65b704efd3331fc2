import type { Command } from 'commander';
import { AppError } from '../domain/errors.js';
import { runFollowUps, type FollowUpRun } from '../domain/follow-ups/run-follow-ups.js';
import { latestServer } from '../domain/server-instances/server-record.js';
import type { CliKit, Render } from './kit.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const ranText: Render = ((r: FollowUpRun) =>
  r.emailOn
    ? `Queued ${plural(r.senderReminders, 'sender reminder')} ` +
      `and ${plural(r.customerReminders, 'customer reminder')}; the server sends them.\n`
    : 'Email is off on the server: no reminder was queued ' +
      '(the Needs follow-up list still shows what waits).\n') as Render;

/**
 * `leadscan jobs run follow-ups`: the follow-up job's pass now (docs/cli.md). It queues the reminders due into the
 * outbox, each once even while servers run the same job; the running server's notifier sends them. Whether email is
 * on is the server's (as it recorded at its start), as for `notify test`: without a server record, this shell's.
 */
export function registerJobsCommands(program: Command, { run, withJson }: CliKit) {
  const jobs = program.command('jobs').description("the server's background jobs, run now");
  withJson(jobs.command('run <job>'))
    .description('run one job now: follow-ups (the reminders of quotes without an answer)')
    .action(
      run(async (ctx, job: string) => {
        if (job !== 'follow-ups')
          throw new AppError('invalid_arguments', `No job "${job.slice(0, 40)}": the job is follow-ups`);
        const server = await latestServer(ctx);
        return runFollowUps({ ctx, input: { emailOn: server ? server.email.on : Boolean(ctx.mail) } });
      }, ranText),
    );
}
