import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { mailableAddress, mailboxKey } from '../email-address.js';
import { html } from '../html.js';
import { page, type RenderedEmail } from './email-page.js';
import { enqueueEmail } from './outbox.js';

/**
 * The confirmation to the person who sent a form (docs/notifications.md, "Confirmation to the sender"):
 * per source, off by default. It says the request arrived, with the business's name and contact, Reply-To the
 * business's email, and nothing the visitor typed (not even their name): the form cannot carry a message to a
 * stranger whose address someone else typed. At most one per mailbox per workspace per UTC day, at most
 * CONFIRMATIONS_PER_SOURCE_PER_DAY per source per UTC day; never for a quarantined post.
 */
export const CONFIRMATIONS_PER_SOURCE_PER_DAY = 100;

/** What the email says, read when it is sent: the business as the workspace's settings describe it now. */
export interface ConfirmationContent {
  kind: 'confirmation';
  businessName: string;
  businessEmail: string;
  businessPhone: string | null;
  businessAddress: string | null;
}

/**
 * The keyed hash an address is counted under: its mailbox (`mailboxKey`: `victim+1@` and `victim+2@` are one person),
 * never the address in clear.
 */
const addressHash = (ctx: DomainContext, address: string) =>
  ctx.secrets.fingerprint(`confirmation:${mailboxKey(address)}`);

/**
 * Queues the confirmation for an accepted lead, in a write of its own right after the lead's commit (the lead's
 * write is a hot write, data only and batched with other posts; the confirmation's counting is not something to put
 * in that batch). A lead is never refused or delayed past this for it: the caller has its 200 either way. Returns
 * whether an email was queued. Costs nothing when the source has it off or the lead gave no address mail can go to.
 */
export async function queueSenderConfirmation(
  ctx: DomainContext,
  input: {
    source: { id: string; workspaceId: string; confirmSender: boolean };
    email: string | null;
    receivedAt: string;
  },
): Promise<boolean> {
  const { source } = input;
  if (!source.confirmSender || !ctx.mail) return false;
  const to = mailableAddress(input.email);
  if (!to) return false;
  const day = input.receivedAt.slice(0, 10);
  const hash = addressHash(ctx, to);
  return ctx.store.writer.write(async (trx) => {
    // The primary key decides "first for this address today", also between posts racing on several instances.
    const first = await trx
      .insertInto('confirmation_sends')
      .values({ workspace_id: source.workspaceId, address_hash: hash, day })
      .onConflict((oc) => oc.columns(['workspace_id', 'address_hash', 'day']).doNothing())
      .executeTakeFirst();
    if (Number(first.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
    await trx
      .insertInto('confirmation_counts')
      .values({ workspace_id: source.workspaceId, source_id: source.id, day, sent: 0 })
      .onConflict((oc) => oc.columns(['source_id', 'day']).doNothing())
      .execute();
    // One row per source and day, raised only below the limit: concurrent posts wait for its row lock and re-check.
    const counted = await trx
      .updateTable('confirmation_counts')
      .set((eb) => ({ sent: eb('sent', '+', 1) }))
      .where('source_id', '=', source.id)
      .where('day', '=', day)
      .where('sent', '<', CONFIRMATIONS_PER_SOURCE_PER_DAY)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) return false;
    await enqueueEmail(trx, ctx, {
      purpose: 'confirmation',
      to,
      workspaceId: source.workspaceId,
      payload: { kind: 'confirmation' },
    });
    return true;
  });
}

/** The business as the confirmation names it; undefined (the email is dropped) once the business email is gone. */
export async function confirmationContent(
  ctx: DomainContext,
  workspaceId: string | null,
): Promise<ConfirmationContent | undefined> {
  if (workspaceId === null) return undefined;
  const workspace = await ctx.store.db
    .selectFrom('workspaces')
    .select(['name', 'business_email', 'business_phone', 'business_address'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  const businessEmail = mailableAddress(workspace?.business_email);
  if (!workspace || !businessEmail) return undefined;
  return {
    kind: 'confirmation',
    businessName: workspace.name,
    businessEmail,
    businessPhone: workspace.business_phone?.trim() || null,
    businessAddress: workspace.business_address?.trim() || null,
  };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function renderConfirmation(content: ConfirmationContent): RenderedEmail {
  const name = content.businessName;
  const subject = oneLine(`We got your request · ${name}`);
  const paragraphs = [
    `Thank you for contacting ${name}. Your request arrived, and we will get back to you soon.`,
    'To add anything, reply to this email.',
    `If you did not send a request to ${name}, someone else typed your address; ignore this email, nothing more ` +
      `will follow.`,
  ];
  const contact = [name, content.businessPhone, content.businessEmail, content.businessAddress].filter(
    (line): line is string => Boolean(line),
  );
  const tel = content.businessPhone ? `tel:${content.businessPhone.replace(/[^\d+]/g, '')}` : null;
  const body = html`${paragraphs.map((p) => html`<p style="margin:0 0 16px">${p}</p>`)}
<p style="margin:0 0 16px;color:#374151">${name}${
    content.businessPhone ? html`<br><a href="${tel}" style="color:#1d4ed8">${content.businessPhone}</a>` : ''
  }<br><a href="mailto:${content.businessEmail}" style="color:#1d4ed8">${content.businessEmail}</a>${
    content.businessAddress ? html`<br><span style="white-space:pre-line">${content.businessAddress}</span>` : ''
  }</p>`;
  return {
    subject,
    text: ['We got your request', '', ...paragraphs.flatMap((p) => [p, '']), ...contact].join('\n'),
    html: page('We got your request', body, undefined),
    replyTo: content.businessEmail,
  };
}

/**
 * Erasing a person (domain/persons/erase-person.ts): their confirmation records go, by their addresses' hashes;
 * their waiting confirmations go with the outbox rows to their addresses.
 */
export async function forgetConfirmations(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  workspaceId: string,
  addresses: string[],
): Promise<void> {
  if (addresses.length === 0) return;
  await trx
    .deleteFrom('confirmation_sends')
    .where('workspace_id', '=', workspaceId)
    .where(
      'address_hash',
      'in',
      addresses.map((a) => addressHash(ctx, a)),
    )
    .execute();
}
