import { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** How long a refused client gets to read our answer while what it still sends is discarded. */
export const LINGER_MS = 2000;
/** At most this much of an unread body is discarded before the socket is closed anyway. */
export const LINGER_MAX_BYTES = 256 * 1024;

const lingering = new WeakSet<Socket>();

/**
 * Half-closes the socket (our answer is out, FIN follows it) and discards what the client still sends, for at
 * most LINGER_MS or LINGER_MAX_BYTES, then closes it. Closing at once with unread bytes in the receive buffer
 * makes the kernel send a TCP reset, which can destroy our answer before the client reads it; reading the whole
 * body instead (what Node does to keep a connection alive) lets a refused client make us take in 100 MiB.
 */
function linger(socket: Socket): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  let discarded = 0;
  socket.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_MAX_BYTES) socket.destroy();
  });
  socket.end();
  socket.resume();
}

/**
 * Answers with `Connection: close` and lingers (see linger) instead of reading the rest of the body. For every
 * answer sent before the request body was read: a refused token, key or rate limit, a body over the limit, an
 * encoding we do not read.
 */
export function closeAfterReply(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('connection', 'close');
  const socket = request.raw.socket as Socket | null;
  // Only a real connection lingers (an injected request's stand-in socket has nothing to close).
  if (!(socket instanceof Socket)) return;
  // Node ends a `Connection: close` response with socket.destroySoon(), which destroys the socket (and so resets
  // it) once our answer is written; this socket lingers instead.
  if (typeof socket.destroySoon === 'function') {
    socket.destroySoon = function lingerThenClose(this: Socket) {
      linger(this);
    };
  }
  // Guard, should Node stop calling destroySoon: linger once the answer is written either way (linger runs once).
  reply.raw.once('finish', () => linger(socket));
}

/** Every answer, in every route, sent while the request body is still unread closes the connection politely. */
export function registerLingeringClose(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    closeAfterReply(request, reply);
    return payload;
  });
}
