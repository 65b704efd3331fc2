import type { FastifyReply } from 'fastify';

/** An Excel workbook (the .xlsx downloads beside the CSVs). */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A download: the body exactly as given (no re-serialization, no charset rewrite) under a file name the browser
 * saves it as. `noStore` for what must not stay in a cache (a person's data).
 */
export function sendAttachment(
  reply: FastifyReply,
  file: { contentType: string; filename: string; body: unknown; noStore?: boolean },
) {
  reply
    .code(200)
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`);
  if (file.noStore) reply.header('cache-control', 'no-store');
  return reply.send(file.body);
}
