import type { Page } from 'playwright-core';
import type { TestWorld } from './test-app.js';

/** A stamp of a form rendered `ageMs` ago (docs/security.md): what a person's post carries after filling it in. */
export function agedStamp(world: TestWorld, sourceId: string, ageMs = 10_000): string {
  return world.ctx.formStamps.make(sourceId, new Date(world.ctx.clock.now().getTime() - ageMs));
}

/**
 * Makes the open form look rendered ten seconds ago, as if a person had been filling it in: browser tests type in
 * milliseconds, which the render stamp rightly takes for a bot (too_fast). Frames are included (an embedded form).
 */
export async function ageFormStamp(page: Page, world: TestWorld, sourceId: string): Promise<void> {
  const stamp = agedStamp(world, sourceId);
  for (const frame of page.frames()) {
    // A string, run in the page (the tests' own types have no DOM).
    await frame.evaluate(
      `(() => { const input = document.querySelector('input[name="formStamp"]'); if (input) input.value = ${JSON.stringify(stamp)}; })()`,
    );
  }
}
