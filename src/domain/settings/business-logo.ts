import { recordAudit } from '../audit/record-audit.js';
import type { DomainContext, WorkspaceVerbArgs } from '../context.js';
import { PAPERS, type Paper } from '../document-model.js';
import { AppError } from '../errors.js';

/** The logo's limits (docs/documents.md, "The logo and the paper"). */
export const MAX_LOGO_BYTES = 1024 * 1024;
export const MAX_LOGO_PIXELS = 2000;

export interface LogoImage {
  type: 'png' | 'jpeg';
  width: number;
  height: number;
}

const refuse = (message: string): never => {
  throw new AppError('invalid_fields', message, [{ field: 'logo', code: 'invalid', message }]);
};

/** A JPEG's size from its first start-of-frame marker; undefined when the markers end first. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return undefined;
}

/**
 * What an uploaded logo is, read from its bytes (never its name): a PNG or a JPEG, at most 1 MB and 2000 pixels
 * either way. SVG is refused with its own message (a drawing can carry script and links, and PDFs embed images only).
 */
export function checkLogo(bytes: Buffer): LogoImage {
  if (bytes.length === 0) refuse('Choose a PNG or JPEG file');
  if (bytes.length > MAX_LOGO_BYTES) refuse('The logo is larger than 1 MB; save it smaller');
  const head = bytes.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
  if (
    head.startsWith('<svg') ||
    (head.startsWith('<?xml') && head.includes('<svg')) ||
    head.startsWith('<!doctype svg')
  )
    refuse('SVG is not accepted: save the logo as a PNG or JPEG');
  let image: LogoImage | undefined;
  if (bytes.length > 24 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    image = { type: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  else if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    const size = jpegSize(bytes);
    if (size) image = { type: 'jpeg', ...size };
  }
  if (!image || image.width === 0 || image.height === 0) return refuse('This file is not a PNG or JPEG image');
  if (image.width > MAX_LOGO_PIXELS || image.height > MAX_LOGO_PIXELS)
    refuse(`The logo is ${image.width} × ${image.height} pixels; at most ${MAX_LOGO_PIXELS} either way`);
  return image;
}

/**
 * Settings → Business: the logo (a new one, or `remove`) and the paper of documents (`A4`, `LETTER`, or null for the
 * locale's). Sent documents keep the logo and paper they were frozen with (docs/documents.md, "Frozen at send").
 */
export async function setDocumentSettings({
  ctx,
  input,
}: WorkspaceVerbArgs<{ logo?: Buffer | 'remove'; paper?: Paper | null }>): Promise<void> {
  const image = input.logo && input.logo !== 'remove' ? checkLogo(input.logo) : undefined;
  if (input.paper !== undefined && input.paper !== null && !PAPERS.includes(input.paper))
    throw new AppError('invalid_fields', 'Paper is A4 or Letter', [
      { field: 'paper', code: 'invalid', message: 'Choose A4, Letter or by the number format' },
    ]);
  await ctx.store.writer.write(async (trx) => {
    const set = {
      ...(input.logo === 'remove' ? { logo: null, logo_type: null, logo_width: null, logo_height: null } : {}),
      ...(image && input.logo instanceof Buffer
        ? { logo: input.logo, logo_type: image.type, logo_width: image.width, logo_height: image.height }
        : {}),
      ...(input.paper !== undefined ? { paper: input.paper } : {}),
    };
    if (Object.keys(set).length === 0) return;
    const before =
      input.paper === undefined
        ? undefined
        : await trx.selectFrom('workspaces').select('paper').where('id', '=', ctx.workspaceId).executeTakeFirst();
    await trx.updateTable('workspaces').set(set).where('id', '=', ctx.workspaceId).execute();
    // A change of paper is a change of settings, audited as the Settings form's are (the logo has its own action).
    if (before !== undefined && (before.paper ?? null) !== (input.paper ?? null))
      await recordAudit(trx, ctx, {
        action: 'settings.changed',
        workspaceId: ctx.workspaceId,
        details: { paper: true },
      });
    if (input.logo !== undefined)
      await recordAudit(trx, ctx, {
        action: 'settings.logo_changed',
        workspaceId: ctx.workspaceId,
        details: image ? { png: image.type === 'png', width: image.width, height: image.height } : { removed: true },
      });
  });
}

/** The logo's bytes and type, for the customer's page and emails; undefined without one. */
export async function businessLogo({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { workspaceId: string };
}): Promise<{ bytes: Buffer; contentType: string } | undefined> {
  const row = await ctx.store.db
    .selectFrom('workspaces')
    .select(['logo', 'logo_type'])
    .where('id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!row?.logo || !row.logo_type) return undefined;
  return { bytes: Buffer.from(row.logo), contentType: row.logo_type === 'png' ? 'image/png' : 'image/jpeg' };
}

/** The paper Settings chose, and whether a logo is set, for the Settings page. */
export async function documentSettings({
  ctx,
}: WorkspaceVerbArgs<unknown>): Promise<{ paper: Paper | null; logo: LogoImage | null }> {
  const row = await ctx.store.db
    .selectFrom('workspaces')
    .select(['paper', 'logo_type', 'logo_width', 'logo_height'])
    .where('id', '=', ctx.workspaceId)
    .executeTakeFirstOrThrow();
  return {
    paper: (row.paper ?? null) as Paper | null,
    logo:
      row.logo_type && row.logo_width && row.logo_height
        ? { type: row.logo_type as LogoImage['type'], width: Number(row.logo_width), height: Number(row.logo_height) }
        : null,
  };
}
