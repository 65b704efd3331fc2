import { afterEach, beforeEach } from 'vitest';
import type { BackendName } from './backends.js';
import { createAdminFixture, type AdminFixture } from './admin-security.js';
import { createWorld, type TestWorld } from './test-app.js';

/** The admin fixture of the running test, plus a way to start over inside it. */
export interface AdminFixtureHandle extends AdminFixture {
  /** Closes this test's world and makes a fresh one with a new fixture (after a step that used up what later steps need). */
  renew(): Promise<void>;
}

/**
 * Registers, in the calling describe block, a fresh world and `createAdminFixture` before each test and the world's
 * close after it. Test helpers are written at describe time, before any fixture exists, so what comes back reads the
 * current test's fixture on each property access (`f.home`, `f.world.store`, …) rather than holding one.
 */
export function useAdminFixture(backend: BackendName): AdminFixtureHandle {
  let world: TestWorld | undefined;
  let fixture: AdminFixture | undefined;
  const open = async () => {
    world = await createWorld(backend);
    fixture = await createAdminFixture(world);
  };
  const close = async () => {
    await world?.close();
    world = undefined;
    fixture = undefined;
  };
  beforeEach(open);
  afterEach(close);

  const current = (): AdminFixture => {
    if (!fixture) throw new Error('useAdminFixture: the fixture exists only while a test runs');
    return fixture;
  };
  return {
    get world() {
      return current().world;
    },
    get app() {
      return current().app;
    },
    get home() {
      return current().home;
    },
    get away() {
      return current().away;
    },
    get owner() {
      return current().owner;
    },
    get member() {
      return current().member;
    },
    get stranger() {
      return current().stranger;
    },
    get homeScanId() {
      return current().homeScanId;
    },
    get awayScanId() {
      return current().awayScanId;
    },
    get extra() {
      return current().extra;
    },
    async renew() {
      await close();
      await open();
    },
  };
}
