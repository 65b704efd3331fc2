import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/** `https://leads.example.com/leadscan/` → `/leadscan`; no path → `/`. */
export function serverPath(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '') || '/';
}

/**
 * The OpenAPI 3.1 document is generated from the route schemas (the same schemas that validate requests and
 * serialize responses), served at /openapi.json; /docs renders it with assets served locally, no internet.
 */
export async function registerOpenApi(app: FastifyInstance, baseUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Leadscan',
        version: '1',
        license: { name: 'UNLICENSED (proprietary; see package.json)', identifier: 'LicenseRef-UNLICENSED' },
        description:
          'Lead intake and room-scan upload. Errors are application/problem+json with a stable `code`; every ' +
          'response carries `x-request-id`. Refusals from the HTTP layer are problem+json too: 408 `request_timeout` ' +
          '(headers not complete within HEADERS_TIMEOUT_MS), 414 `uri_too_long` (URL over 8 KiB), 431 ' +
          '`headers_too_large` (request line and headers over 16 KiB). Both write endpoints read gzip, deflate and ' +
          'br ' +
          'bodies (Content-Encoding).',
      },
      // The path of PUBLIC_BASE_URL only: a relative server URL resolves against the page that shows the document,
      // so "Try it out" posts to the origin the reference was opened from (127.0.0.1 or localhost alike, no CORS).
      servers: [{ url: serverPath(baseUrl), description: 'This server' }],
      tags: [
        { name: 'Lead intake', description: 'Anonymous lead posts from forms, sites and automations' },
        { name: 'Scan upload', description: 'Measured rooms from a scanning app' },
        { name: 'Operations', description: 'Health and readiness' },
      ],
      components: {
        securitySchemes: {
          scanKey: { type: 'apiKey', in: 'header', name: 'x-scan-key', description: 'Workspace upload key' },
        },
      },
    },
    refResolver: {
      // Keep schema names ("Problem") in the document instead of def-0, def-1.
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { defaultModelsExpandDepth: 0 } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
