import type { Command } from 'commander';
import type { DomainContext, WorkspaceContext } from '../domain/context.js';
import { AppError } from '../domain/errors.js';
import { addQuoteSection } from '../domain/quotes/add-quote-section.js';
import { moveLineToSection } from '../domain/quotes/move-line-to-section.js';
import { moveQuoteSection } from '../domain/quotes/move-quote-section.js';
import { offerChoice } from '../domain/quotes/offer-choice.js';
import { loadContent } from '../domain/quotes/quote-view.js';
import { removeQuoteSection } from '../domain/quotes/remove-quote-section.js';
import { renameQuoteSection } from '../domain/quotes/rename-quote-section.js';
import { setQuoteDeposit } from '../domain/quotes/set-quote-deposit.js';
import { undoChoice } from '../domain/quotes/undo-choice.js';
import { positiveInteger, type CliKit, type Render } from './kit.js';
import { quoteContextOf } from './resolve.js';

/** The quote Q names (an id or a number: its latest revision), in its workspace's context. */
async function quoteOf(ctx: DomainContext, ref: string): Promise<{ wctx: WorkspaceContext; quoteId: string }> {
  const quote = await quoteContextOf(ctx, ref);
  return { wctx: quote.ctx, quoteId: quote.quoteId };
}

/** A section S of the quote: its id (`quotes show --json`'s `sections[].id`) or its place, counted from 1. */
async function sectionOf(ctx: DomainContext, quoteId: string, ref: string): Promise<string> {
  const value = ref.trim();
  if (!/^\d+$/.test(value)) return value;
  const { sections } = await loadContent(ctx.store.db, quoteId);
  const section = sections[Number(value) - 1];
  if (!section)
    throw new AppError('quote_section_not_found', `This quote has no section ${value} (it has ${sections.length})`);
  return section.id;
}

/**
 * `leadscan quotes section …`, `quotes line move`, `quotes choice`, `quotes deposit` (docs/cli.md): a draft's sections,
 * alternatives and deposit, the same verbs as the builder's. Each answers the quote as `quotes show` does.
 */
export function registerQuoteSectionCommands(
  quotes: Command,
  kit: CliKit,
  answer: { json: (view: never) => unknown; shown: Render },
) {
  const { run, withJson } = kit;
  const json = answer.json as (view: unknown) => unknown;
  const section = quotes.command('section').description("a draft's sections (headings with subtotals)");
  withJson(section.command('add <quote>'))
    .description('add a section after the last one')
    .requiredOption('--title <title>', 'its heading ("" for none)')
    .action(
      run(async (ctx, ref: string, opts: { title: string }) => {
        const { wctx, quoteId } = await quoteOf(ctx, ref);
        return json(await addQuoteSection({ ctx: wctx, input: { quoteId, title: opts.title } }));
      }, answer.shown),
    );
  withJson(section.command('rename <quote> <section>'))
    .description('give a section a new heading; the section by id or place (from 1)')
    .requiredOption('--title <title>', 'its heading ("" for none)')
    .action(
      run(async (ctx, ref: string, sectionRef: string, opts: { title: string }) => {
        const { wctx, quoteId } = await quoteOf(ctx, ref);
        const sectionId = await sectionOf(ctx, quoteId, sectionRef);
        return json(await renameQuoteSection({ ctx: wctx, input: { quoteId, sectionId, title: opts.title } }));
      }, answer.shown),
    );
  withJson(section.command('move <quote> <section>'))
    .description('move a section, with its lines, to another place')
    .requiredOption('--position <n>', 'its new place, from 1 (past the end: last)')
    .action(
      run(async (ctx, ref: string, sectionRef: string, opts: { position: string }) => {
        const { wctx, quoteId } = await quoteOf(ctx, ref);
        const sectionId = await sectionOf(ctx, quoteId, sectionRef);
        const to = positiveInteger(opts.position);
        return json(await moveQuoteSection({ ctx: wctx, input: { quoteId, sectionId, to } }));
      }, answer.shown),
    );
  withJson(section.command('remove <quote> <section>'))
    .description('remove a section; its lines move to the nearest section above that is not an alternative')
    .action(
      run(async (ctx, ref: string, sectionRef: string) => {
        const { wctx, quoteId } = await quoteOf(ctx, ref);
        const sectionId = await sectionOf(ctx, quoteId, sectionRef);
        return json(await removeQuoteSection({ ctx: wctx, input: { quoteId, sectionId } }));
      }, answer.shown),
    );
  const line = quotes.command('line').description("a draft's lines");
  withJson(line.command('move <quote> <line>'))
    .description('move a line to another section (after its lines)')
    .requiredOption('--section <section>', 'the section, by id or place (from 1)')
    .action(
      run(async (ctx, ref: string, lineId: string, opts: { section: string }) => {
        const { wctx, quoteId } = await quoteOf(ctx, ref);
        const sectionId = await sectionOf(ctx, quoteId, opts.section);
        return json(await moveLineToSection({ ctx: wctx, input: { quoteId, lineId: lineId.trim(), sectionId } }));
      }, answer.shown),
    );
  withJson(quotes.command('choice <quote>'))
    .description('offer 2 to 4 sections as one choice ("choose one"), one recommended; --none undoes choices')
    .option('--sections <s1,s2,…>', 'the sections offered, by id or place (from 1), comma-separated')
    .option('--recommended <section>', 'the one recommended (chosen until the customer picks another)')
    .option('--none', 'undo the choice of the sections named (every choice of the quote when none are named)')
    .action(
      run(async (ctx, ref: string, opts: { sections?: string; recommended?: string; none?: boolean }) => {
        const { wctx, quoteId } = await quoteOf(ctx, ref);
        const named = (opts.sections ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const sectionIds = await Promise.all(named.map((s) => sectionOf(ctx, quoteId, s)));
        if (opts.none) {
          return json(
            await undoChoice({ ctx: wctx, input: { quoteId, ...(sectionIds.length > 0 ? { sectionIds } : {}) } }),
          );
        }
        if (opts.recommended === undefined)
          throw new AppError('invalid_arguments', 'Give --sections S1,S2 and --recommended S (or --none to undo)');
        const recommendedId = await sectionOf(ctx, quoteId, opts.recommended);
        return json(await offerChoice({ ctx: wctx, input: { quoteId, sectionIds, recommendedId } }));
      }, answer.shown),
    );
  withJson(quotes.command('deposit <quote> <deposit>'))
    .description("the deposit a draft asks, taxes included: 30%, an amount in the quote's currency (500.00) or none")
    .action(
      run(async (ctx, ref: string, deposit: string) => {
        const { wctx, quoteId } = await quoteOf(ctx, ref);
        return json(await setQuoteDeposit({ ctx: wctx, input: { quoteId, deposit } }));
      }, answer.shown),
    );
}
