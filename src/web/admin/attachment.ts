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
    .header('content-disposition', contentDisposition(file.filename));
  if (file.noStore) reply.header('cache-control', 'no-store');
  return reply.send(file.body);
}

/**
 * `attachment` with the file name as a browser saves it (RFC 6266): a plain ASCII name as it is; a name with other
 * characters (a customer's "Gagné", a quote mark) as `filename*` in UTF-8, with an ASCII stand-in for old clients.
 */
export function contentDisposition(filename: string): string {
  if (/^[A-Za-z0-9 ._()-]+$/.test(filename)) return `attachment; filename="${filename}"`;
  const ascii = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ._()-]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
