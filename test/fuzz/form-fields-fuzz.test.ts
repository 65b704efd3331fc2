import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFormField } from '../../src/domain/forms/add-form-field.js';
import { answerName, FORM_FIELD_KINDS } from '../../src/domain/forms/form-definition.js';
import { readSourceForm } from '../../src/domain/forms/source-form.js';
import { removeFormField } from '../../src/domain/forms/remove-form-field.js';
import { ERROR_CODES, isAppError } from '../../src/domain/errors.js';
import { describeEachBackend } from '../helpers/backends.js';
import { agedStamp } from '../helpers/form-stamp.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

/**
 * The source's own form fields under random definitions and random answers: a definition is taken or refused with a
 * field error (never anything else), and every post of answers, to the API and to the no-script form, is answered
 * without a 5xx, with a closed error code. `npm run fuzz` runs more (FUZZ_RUNS).
 */
const RUNS = Math.max(60, Math.floor(Number(process.env.FUZZ_RUNS ?? 1200) / 10));

const anyText = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('', ' ', 'name', 'Email', '__proto__', 'constructor', '\u0000', 'a\nb'),
);
const definition = fc.record({
  kind: fc.oneof(fc.constantFrom(...FORM_FIELD_KINDS), fc.string({ maxLength: 12 })),
  label: anyText,
  help: fc.option(anyText, { nil: undefined }),
  required: fc.boolean(),
  options: fc.option(fc.oneof(fc.array(anyText, { maxLength: 25 }), anyText), { nil: undefined }),
  consentText: fc.option(anyText, { nil: undefined }),
});
const answer = fc.oneof(
  anyText,
  fc.array(anyText, { maxLength: 5 }),
  fc.constantFrom('2026-02-29', '2024-02-29', 'yes', 'Kitchen', null, 12, true),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

describeEachBackend('fuzz: own form fields and their answers', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;

  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
  });
  afterAll(async () => {
    await world?.close();
  });

  it(
    `takes or refuses ${RUNS} random definitions and answers them without a 5xx`,
    { timeout: 120_000 + RUNS * 400 },
    async () => {
      const app = await world.app();
      const sourceId = seeded.source.id;
      await fc.assert(
        fc.asyncProperty(
          fc.array(definition, { minLength: 1, maxLength: 3 }),
          fc.array(answer, { maxLength: 8 }),
          fc.boolean(),
          async (defs, answers, noScript) => {
            for (const def of defs) {
              try {
                await addFormField({ ctx: world.ctx, input: { sourceId, field: def } });
              } catch (error) {
                if (!isAppError(error) || error.code !== 'invalid_fields') throw error;
                expect(error.fieldErrors?.length).toBeGreaterThan(0);
              }
            }
            // Keep the form within its bound for the next run: drop the oldest fields past 10.
            const form = await readSourceForm(world.ctx, sourceId);
            const body: Record<string, unknown> = { name: 'Fuzz', formStamp: agedStamp(world, sourceId) };
            form.fields.forEach((field, i) => {
              if (i < answers.length) body[answerName(field)] = answers[i];
            });
            const res = noScript
              ? await app.inject({
                  method: 'POST',
                  url: `/f/${seeded.source.token}`,
                  headers: { 'content-type': 'application/x-www-form-urlencoded' },
                  payload: new URLSearchParams(
                    Object.entries(body).flatMap(([k, v]): Array<[string, string]> =>
                      Array.isArray(v)
                        ? v.map((x) => [k, String(x)])
                        : [[k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? '')]],
                    ),
                  ).toString(),
                })
              : await app.inject({ method: 'POST', url: `/api/intake/${seeded.source.token}`, payload: body });
            expect(res.statusCode).toBeLessThan(500);
            if (!noScript && res.statusCode !== 200) expect(ERROR_CODES).toContain(res.json<{ code: string }>().code);
            for (const field of form.fields.slice(0, Math.max(0, form.fields.length - 10))) {
              await removeFormField({ ctx: world.ctx, input: { sourceId, fieldId: field.id } });
            }
          },
        ),
        { numRuns: RUNS },
      );
      // Still serving.
      expect((await app.inject({ method: 'GET', url: `/f/${seeded.source.token}` })).statusCode).toBe(200);
    },
  );
});
