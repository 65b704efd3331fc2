import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { AppError } from '../domain/errors.js';
import { addPriceListItem } from '../domain/price-list/add-price-list-item.js';
import { exportPriceList } from '../domain/price-list/export-price-list.js';
import { importPriceList } from '../domain/price-list/import-price-list.js';
import { listPriceList } from '../domain/price-list/list-price-list.js';
import { hundredthsText, UNIT_LABELS, type PriceListItem } from '../domain/price-list/price-list-item.js';
import { removePriceListItem } from '../domain/price-list/remove-price-list-item.js';
import { amountText, rateText } from '../domain/money.js';
import { getWorkspaceSettings } from '../domain/settings/workspace-settings.js';
import type { CliKit, Render } from './kit.js';
import { table } from './render.js';
import { priceListItemContextOf, workspaceIdOf } from './resolve.js';

/** The CLI is the operator's: it acts with an owner's rights, as on every other management command. */
const CLI_ROLE = 'owner' as const;

const listed: Render = ((items: Array<PriceListItem & { currency: string }>) =>
  table(items, [
    ['ID', (i) => i.id],
    ['NAME', (i) => i.name],
    ['UNIT', (i) => UNIT_LABELS[i.unit]],
    ['PRICE', (i) => `${amountText(i.unitPrice, i.currency)} ${i.currency}`],
    ['TAXES', (i) => i.taxes.join(', ')],
    [
      'MEASURE',
      (i) =>
        [
          i.measure ?? '',
          i.waste ? `+${rateText(i.waste)} %` : '',
          i.coats !== 100 ? `×${hundredthsText(i.coats)}` : '',
          i.pack ? `pack ${hundredthsText(i.pack)}` : '',
        ]
          .filter(Boolean)
          .join(' '),
    ],
  ])) as Render;

const splitList = (value: string) =>
  value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** `leadscan price-list …` (docs/quotes.md, "The price list"). */
export function registerPriceListCommands(program: Command, { run, withJson }: CliKit) {
  const priceList = program.command('price-list').description("a workspace's price list (what quotes are priced from)");
  withJson(priceList.command('list'))
    .description('the items of a workspace, by name (prices as integers in the smallest currency unit with --json)')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(
      run(async (ctx, opts: { workspace: string }) => {
        const workspaceId = await workspaceIdOf(ctx, opts.workspace);
        const { currency } = await getWorkspaceSettings({ ctx, input: { workspaceId } });
        return (await listPriceList({ ctx, input: { workspaceId } })).map((item) => ({ ...item, currency }));
      }, listed),
    );
  withJson(priceList.command('export'))
    .description('the price list as CSV on stdout (a header row, one row an item)')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(
      run(
        async (ctx, opts: { workspace: string }) =>
          exportPriceList({ ctx, input: { workspaceId: await workspaceIdOf(ctx, opts.workspace) } }),
        ((csv: string) => csv) as Render,
      ),
    );
  withJson(priceList.command('add'))
    .description('add an item')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .requiredOption('--name <name>', 'what it is, e.g. "Paint walls (2 coats)"')
    .requiredOption('--unit <unit>', 'm2, ft2, m, ft, m3, ft3, each, hour or fixed')
    .requiredOption('--price <amount>', "unit price as a decimal in the workspace's currency, e.g. 42.50")
    .option(
      '--measure <measure>',
      'the room figure it is priced by: floor_area, ceiling_area, wall_area_net, wall_area_gross, ' +
        'perimeter, skirting, volume, doors, windows',
    )
    .option('--waste <percent>', 'waste allowance in percent, e.g. 10')
    .option('--coats <n>', 'multiplier (coats), e.g. 2')
    .option('--pack <amount>', "what one pack covers in the item's unit; lines then count whole packs")
    .option(
      '--taxes <names>',
      'comma-separated tax names (default: the workspace\'s taxes that are on by default); "" for none',
    )
    .option(
      '--customer-description <text>',
      'what the customer reads under the name on a quote line, e.g. "Washable matt finish, two coats"',
    )
    .action(
      run(
        async (
          ctx,
          opts: {
            workspace: string;
            name: string;
            unit: string;
            price: string;
            measure?: string;
            waste?: string;
            coats?: string;
            pack?: string;
            taxes?: string;
            customerDescription?: string;
          },
        ) => {
          const { workspace, taxes, ...item } = opts;
          return addPriceListItem({
            ctx,
            input: {
              workspaceId: await workspaceIdOf(ctx, workspace),
              role: CLI_ROLE,
              item: { ...item, ...(taxes !== undefined ? { taxes: splitList(taxes) } : {}) },
            },
          });
        },
        ((item: PriceListItem) => `Added ${item.name} (${item.id}).\n`) as Render,
      ),
    );
  withJson(priceList.command('remove <item>'))
    .description('remove an item by its id; quotes priced from it keep their lines')
    .action(
      run(
        async (ctx, itemId: string) =>
          removePriceListItem({ ctx: await priceListItemContextOf(ctx, itemId), input: { itemId, role: CLI_ROLE } }),
        ((item: PriceListItem) => `Removed ${item.name} (${item.id}).\n`) as Render,
      ),
    );
  withJson(priceList.command('import <file>'))
    .description("add items from a CSV file (the export's columns); a row named like an existing item replaces it")
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(
      run(
        async (ctx, file: string, opts: { workspace: string }) => {
          let csv: string;
          try {
            csv = await fs.readFile(file, 'utf8');
          } catch (error) {
            throw new AppError(
              'invalid_arguments',
              `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
            );
          }
          return importPriceList({
            ctx,
            input: { workspaceId: await workspaceIdOf(ctx, opts.workspace), role: CLI_ROLE, csv },
          });
        },
        ((r: { added: number; updated: number }) => `Imported: ${r.added} added, ${r.updated} updated.\n`) as Render,
      ),
    );
}
