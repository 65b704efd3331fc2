import type { Command } from 'commander';
import { addFormField } from '../domain/forms/add-form-field.js';
import { builtInLabel, formItems, type FormItem } from '../domain/forms/form-layout.js';
import { setBuiltInField } from '../domain/forms/set-built-in-field.js';
import { moveFormField } from '../domain/forms/move-form-field.js';
import { removeFormField } from '../domain/forms/remove-form-field.js';
import { setFormAccent } from '../domain/forms/set-form-accent.js';
import { readSourceForm, type SourceForm } from '../domain/forms/source-form.js';
import type { CliKit, Render } from './kit.js';
import { table } from './render.js';
import { sourceIdOf } from './resolve.js';

/** Every field in the form's order: a built-in one by its name, an own one by its id. */
const formTable: Render = ((form: SourceForm) =>
  `accent: ${form.accent ?? 'default'}\n` +
  table(formItems(form.layout, form.fields), [
    ['ID', (i: FormItem) => (i.kind === 'built_in' ? i.field.name : i.field.id)],
    ['KIND', (i: FormItem) => (i.kind === 'built_in' ? 'built-in' : i.field.kind)],
    ['LABEL', (i: FormItem) => (i.kind === 'built_in' ? builtInLabel(i.field) : i.field.label)],
    ['SHOWN', (i: FormItem) => (i.kind === 'built_in' && !i.field.shown ? 'no' : 'yes')],
    ['REQUIRED', (i: FormItem) => (i.field.required ? 'yes' : 'no')],
    ['OPTIONS', (i: FormItem) => (i.kind === 'own' ? i.field.options.join(' | ') : '')],
  ])) as Render;

/** `leadscan source form|built-in|add-field|move-field|remove-field|accent`: the hosted form's fields (docs/cli.md). */
export function registerSourceForm(source: Command, { run, withJson }: CliKit) {
  withJson(source.command('form <source>'))
    .description("the hosted form's fields in order (built-in and own) and its accent colour (by id or token)")
    .action(run(async (ctx, ref: string) => readSourceForm(ctx, await sourceIdOf(ctx, ref)), formTable));
  withJson(source.command('built-in <source> <name>'))
    .description(
      'shape a built-in field of the hosted form (name, phone, email, address, notes): label, shown, required',
    )
    .option('--label <label>', 'what the visitor reads; "" for the default')
    .option('--hide', 'not on the form (at least one of name, phone, email stays)')
    .option('--show', 'on the form')
    .option('--required', 'the visitor must fill it in (hosted-form posts only; the API is unchanged)')
    .option('--optional', 'the visitor may leave it empty')
    .action(
      run(
        async (
          ctx,
          ref: string,
          name: string,
          opts: { label?: string; hide?: boolean; show?: boolean; required?: boolean; optional?: boolean },
        ) => {
          const sourceId = await sourceIdOf(ctx, ref);
          // What is not given stays as it is.
          const current = (await readSourceForm(ctx, sourceId)).layout.builtIns.find((b) => b.name === name);
          const change = {
            label: opts.label ?? current?.label ?? null,
            shown: opts.hide ? false : opts.show ? true : (current?.shown ?? true),
            required: opts.required ? true : opts.optional ? false : (current?.required ?? false),
          };
          await setBuiltInField({ ctx, input: { sourceId, name, change } });
          return readSourceForm(ctx, sourceId);
        },
        formTable,
      ),
    );
  withJson(source.command('add-field <source>'))
    .description('add a field to the hosted form: short_text, long_text, choice, checkboxes, date or consent')
    .requiredOption('--kind <kind>', 'short_text | long_text | choice | checkboxes | date | consent')
    .requiredOption('--label <label>', 'what the visitor reads; answers are stored under it')
    .option('--help-text <text>', 'shown under the label')
    .option('--option <option...>', 'choice and checkboxes: the options, in order')
    .option('--consent-text <text>', 'consent: the text next to the box')
    .option('--required', 'the visitor must answer it')
    .action(
      run(
        async (
          ctx,
          ref: string,
          opts: {
            kind: string;
            label: string;
            helpText?: string;
            option?: string[];
            consentText?: string;
            required?: boolean;
          },
        ) =>
          addFormField({
            ctx,
            input: {
              sourceId: await sourceIdOf(ctx, ref),
              field: {
                kind: opts.kind,
                label: opts.label,
                help: opts.helpText ?? null,
                options: opts.option ?? null,
                consentText: opts.consentText ?? null,
                required: Boolean(opts.required),
              },
            },
          }),
      ),
    );
  withJson(source.command('move-field <source> <fieldId>'))
    .description('move a field of the hosted form one place up or down (a built-in one by its name, e.g. phone)')
    .option('--up', 'one place up (the default is down)')
    .action(
      run(async (ctx, ref: string, fieldId: string, opts: { up?: boolean }) => {
        const sourceId = await sourceIdOf(ctx, ref);
        await moveFormField({ ctx, input: { sourceId, fieldId, direction: opts.up ? 'up' : 'down' } });
        return readSourceForm(ctx, sourceId);
      }, formTable),
    );
  withJson(source.command('remove-field <source> <fieldId>'))
    .description('remove a field from the hosted form; answers already received stay on their leads')
    .action(
      run(async (ctx, ref: string, fieldId: string) => {
        const sourceId = await sourceIdOf(ctx, ref);
        await removeFormField({ ctx, input: { sourceId, fieldId } });
        return readSourceForm(ctx, sourceId);
      }, formTable),
    );
  withJson(source.command('accent <source> <colour>'))
    .description('the hosted form\'s accent colour (#rrggbb, at least 4.5:1 with white); "" for the default')
    .action(
      run(async (ctx, ref: string, colour: string) => ({
        accent: await setFormAccent({ ctx, input: { sourceId: await sourceIdOf(ctx, ref), accent: colour } }),
      })),
    );
}
