import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/**
 * TRUST_PROXY as Fastify's trustProxy. proxy-addr walks X-Forwarded-For from the right (the socket's peer first)
 * and stops at the first address it does not trust; that address is the client. So the client IP is always the
 * right-most untrusted one, and entries a client wrote itself (left of what the proxies appended) are never used.
 *
 * A hop count becomes a function trusting that many hops: Fastify's own numeric trustProxy trusts nothing.
 */
export function trustProxyOption(trustProxy: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trustProxy === 'number') return (_address: string, hop: number) => hop < trustProxy;
  return trustProxy;
}
