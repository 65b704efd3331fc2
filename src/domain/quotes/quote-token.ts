/**
 * The quote's customer link token: the shared link token of every sent document (src/domain/link-token.ts), under the
 * names the quote verbs use.
 */
export {
  mintLinkToken as mintQuoteToken,
  hashLinkToken as hashQuoteToken,
  isLinkToken as isQuoteToken,
} from '../link-token.js';
