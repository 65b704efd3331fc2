import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../domain/errors.js';
import type { UploadedFile } from './admin-route.js';

/**
 * The admin app's form bodies (docs/security.md, "Form bodies"). A form's text is at most FORM_LIMIT bytes, in
 * either encoding: urlencoded (what every form posts) is read by @fastify/formbody under it; multipart/form-data is
 * read only by a route that declares an upload, and only once the gate has checked the session and the origin, with
 * the form's token checked before the first byte of a file. Every other route refuses a multipart body without
 * reading it.
 */
export const FORM_LIMIT = 64 * 1024;

const unreadable = () =>
  new AppError(
    'unreadable_body',
    'The form could not be read: it was not sent the way this page sends it. Nothing was changed; reload the page ' +
      'and send it again',
  );

const tooLarge = () =>
  new AppError(
    'body_too_large',
    `The form is larger than ${FORM_LIMIT / 1024} KiB of text. Nothing was changed; shorten what was typed and send ` +
      `it again`,
  );

/** The length a request declares, if it declares one. */
function declaredLength(request: FastifyRequest): number | undefined {
  const value = Number(request.headers['content-length']);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Whether a POST came as multipart/form-data (its parser marks it without reading it). */
export function isMultipartPost(request: FastifyRequest): boolean {
  return request.method === 'POST' && request.isMultipart();
}

/**
 * Refuses a multipart body on a route that takes no upload, without reading it: 413 when it declares more than the
 * form limit, else 400. The connection closes after the answer, so the unread body is not drained either.
 */
export function refuseMultipart(request: FastifyRequest, reply: FastifyReply): never {
  reply.header('connection', 'close');
  throw (declaredLength(request) ?? 0) > FORM_LIMIT ? tooLarge() : unreadable();
}

/** A client that hung up mid-body: not a malformed form (toAppError says client_aborted). */
function clientGone(request: FastifyRequest): boolean {
  return request.raw.destroyed || request.raw.readableAborted;
}

/**
 * Reads an upload route's multipart form: its text fields (at most FORM_LIMIT bytes in all) and at most one file of up
 * to `maxBytes` (a larger one arrives cut, `truncated`). `checkFields` runs on the text fields before the first file
 * part is read (the form's token comes first in every form of ours), or at the end when there is no file. A body that
 * declares more than the file and the form limit together is refused (413) before it is read; a malformed one is 400.
 * Answers the body as the gate's handlers read it: text fields by name (a list for a repeated one), the file as an
 * UploadedFile.
 */
export async function readUploadForm(
  request: FastifyRequest,
  reply: FastifyReply,
  upload: { maxBytes: number },
  checkFields: (fields: Record<string, string>) => void,
): Promise<Record<string, string | string[] | UploadedFile>> {
  if ((declaredLength(request) ?? 0) > upload.maxBytes + FORM_LIMIT) {
    reply.header('connection', 'close');
    throw tooLarge();
  }
  const body: Record<string, string | string[] | UploadedFile> = {};
  const fields: Record<string, string> = {};
  let textBytes = 0;
  let checked = false;
  const check = () => {
    if (!checked) checkFields(fields);
    checked = true;
  };
  try {
    const parts = request.parts({
      limits: { fields: 50, fieldSize: FORM_LIMIT, files: 1, fileSize: upload.maxBytes, parts: 51 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : '';
        textBytes += Buffer.byteLength(part.fieldname) + Buffer.byteLength(value);
        if (textBytes > FORM_LIMIT || part.valueTruncated || part.fieldnameTruncated) throw tooLarge();
        const seen = body[part.fieldname];
        body[part.fieldname] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen as string]), value];
        fields[part.fieldname] ??= value;
        continue;
      }
      // The token is checked before a byte of the file is read.
      check();
      const data = await part.toBuffer();
      body[part.fieldname] = { filename: part.filename, data, truncated: part.file.truncated };
    }
  } catch (error) {
    if (clientGone(request)) throw error;
    // What was not read is not drained either.
    reply.header('connection', 'close');
    if (isAppError(error)) throw error;
    const code = (error as { code?: string }).code ?? '';
    throw /LIMIT|TOO_LARGE/.test(code) ? tooLarge() : unreadable();
  }
  check();
  return body;
}
