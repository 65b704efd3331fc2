import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

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
        description:
          'Lead intake and room-scan upload. Errors are application/problem+json with a stable `code`; every ' +
          'response carries `x-request-id`.',
      },
      servers: [{ url: baseUrl }],
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
