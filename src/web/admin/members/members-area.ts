import type { AdminArea } from '../routes.js';

/** Members (CONTRACT §11), owner only. */
export const membersArea: AdminArea = {
  nav: { area: 'members', label: 'Members', path: 'members', access: 'owner' },
  routes: [],
};
