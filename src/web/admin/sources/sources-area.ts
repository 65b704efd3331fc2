import type { AdminArea } from '../routes.js';

/** Sources (CONTRACT §11), owner only. */
export const sourcesArea: AdminArea = {
  nav: { area: 'sources', label: 'Sources', path: 'sources', access: 'owner' },
  routes: [],
};
