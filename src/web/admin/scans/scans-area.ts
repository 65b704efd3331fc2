import { html } from '../../html.js';
import type { AdminArea } from '../routes.js';

/** Scans (CONTRACT §11). */
export const scansArea: AdminArea = {
  nav: { area: 'scans', label: 'Scans', path: 'scans', access: 'member' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/scans',
      access: 'member',
      handler: async (call) => call.render(200, { title: 'Scans', area: 'scans', body: html`<h1>Scans</h1>` }),
    },
  ],
};
