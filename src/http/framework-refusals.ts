import crypto from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.js';
import { httpStatusOf } from './error-statuses.js';
import { buildProblem, sendProblem } from './problem.js';

/** Longest request target read (the intake and scan URLs are under 100 characters and take no query string). */
export const MAX_URL_LENGTH = 8 * 1024;

/** How long a client refused by the HTTP parser gets to read the answer before its socket is closed. */
const CLOSE_AFTER_MS = 1000;

function refusalOf(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout', 'The request did not arrive in time; send it again');
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(
        'headers_too_large',
        `The request line and headers are over ${http.maxHeaderSize} bytes; send fewer or shorter headers`,
      );
    default:
      return new AppError('invalid_request', 'The request is not valid HTTP/1.1');
  }
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (slowloris 408, headers over the limit 431,
 * malformed HTTP 400); Fastify's default answer for those is a JSON body of its own. This one answers in the
 * API's own words (docs/api.md): problem+json with a stable code and a request id, then closes the connection.
 */
export function clientErrorHandler(baseUrl: string) {
  return function onClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
    // A reset socket has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const refusal = refusalOf(error);
    const requestId = crypto.randomUUID();
    this.log.info(
      { code: refusal.code, reqId: requestId, parserError: error.code },
      'request refused by the HTTP parser',
    );
    // As Node's own handler: an answer already under way cannot be replaced by another one.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(buildProblem(baseUrl, requestId, refusal));
    socket.end(
      `HTTP/1.1 ${httpStatusOf(refusal)} ${http.STATUS_CODES[httpStatusOf(refusal)]}\r\n` +
        'Content-Type: application/problem+json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
    // Half-closed: the client reads the answer; whatever it still sends is not read, and the socket goes soon.
    socket.resume();
    setTimeout(() => socket.destroy(), CLOSE_AFTER_MS).unref();
  };
}

/** 414 for a request target over MAX_URL_LENGTH, before routing. */
export function registerUrlLengthLimit(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.raw.url !== undefined && request.raw.url.length > MAX_URL_LENGTH) {
      throw new AppError('uri_too_long', `The URL is over ${MAX_URL_LENGTH} characters`);
    }
  });
}

/**
 * Fastify's own early refusals (a URL whose percent-encoding is broken, FST_ERR_BAD_URL) as problem+json. These
 * are answered before routing, so no route's error handler sees them.
 */
export function frameworkErrors(baseUrl: string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const refusal =
      error.code === 'FST_ERR_BAD_URL'
        ? new AppError('invalid_request', 'The URL is not valid: it has a broken percent-encoding')
        : new AppError('invalid_request', 'The request could not be routed');
    request.log.info({ code: refusal.code, fastifyCode: error.code }, 'request refused');
    void sendProblem(request, reply, refusal, baseUrl);
  };
}
