import type { Plan } from '../../src/domain/scans/measure/index.js';
import type { FrozenPlans } from '../../src/domain/quotes/frozen-plans.js';
import type { QuoteView } from '../../src/domain/quotes/quote-view.js';
import { computeTotals } from '../../src/domain/money.js';
import { quoteDocument, type QuoteDocumentFrame } from '../../src/domain/quotes/quote-document.js';
import type { DocumentModel, Paper } from '../../src/domain/document-model.js';

/** An L-shaped room with a door and a window, `w` × `d` metres, turned by `turn` radians (a scan's own axes). */
export function roomPlan(w: number, d: number, turn = 0.3): Plan {
  const raw: Array<[number, number]> = [
    [0, 0],
    [w, 0],
    [w, d * 0.6],
    [w * 0.6, d * 0.6],
    [w * 0.6, d],
    [0, d],
  ];
  const rot = (p: [number, number]): [number, number] => [
    p[0] * Math.cos(turn) - p[1] * Math.sin(turn),
    p[0] * Math.sin(turn) + p[1] * Math.cos(turn),
  ];
  const outline = raw.map(rot);
  const walls = outline.map((a, i) => {
    const b = outline[(i + 1) % outline.length]!;
    return { a, b, length: Math.hypot(b[0] - a[0], b[1] - a[1]) };
  });
  return {
    outline,
    walls,
    openings: [
      { kind: 'door', a: rot([0.4, 0]), b: rot([1.3, 0]), width: 0.9 },
      { kind: 'window', a: rot([w, 0.5]), b: rot([w, 1.7]), width: 1.2 },
    ],
  };
}

export function frozenPlans(rooms: number): FrozenPlans {
  return {
    units: 'metric',
    rooms: Array.from({ length: rooms }, (_, i) => ({
      scanId: `scan_${i}`,
      room: i + 1,
      name: ['Kitchen', 'Living room', 'Hall', 'Bedroom'][i % 4]! + (i >= 4 ? ` ${i}` : ''),
      plan: roomPlan(3 + (i % 3), 2.5 + (i % 2) * 1.5, 0.2 * i),
    })),
  };
}

export const FRAME: QuoteDocumentFrame = {
  business: {
    name: 'Bright Floors Łódź',
    address: '12 Harbour Street\nToronto, ON M5V 1A1',
    phone: '+1 416 555 0100',
    email: 'hello@brightfloors.example',
    taxNumbers: [
      { name: 'GST/HST', value: '123456789 RT0001' },
      { name: 'QST', value: '1234567890 TQ0001' },
    ],
    logo: null,
  },
  locale: 'en-CA',
  timeZone: 'America/Toronto',
  units: 'metric',
  paper: 'LETTER',
};

const DESCRIPTIONS = [
  'Engineered oak flooring, 14 mm, brushed and oiled',
  'Underlay, acoustic 3 mm',
  'Skirting boards, primed MDF, painted white (two coats)',
  'Removal and disposal of the old carpet',
  'Levelling compound where the floor dips more than 3 mm over 2 m',
];

/** A sent quote with `count` lines (every seventh optional, every eleventh optional and not chosen). */
export function sentQuote(count: number, overrides: Partial<QuoteView> = {}): QuoteView {
  const lines = Array.from({ length: count }, (_, i) => ({
    id: `line_${i}`,
    description: `${DESCRIPTIONS[i % DESCRIPTIONS.length]!}${i >= DESCRIPTIONS.length ? ` (room ${Math.floor(i / 5) + 1})` : ''}`,
    quantity: 1000 + i * 137,
    unit: ['m2', 'm2', 'm', 'fixed', 'hour'][i % 5]!,
    unitPrice: 4250 + (i % 9) * 125,
    amount: 0,
    taxes: ['GST', 'QST'],
    optional: i % 7 === 6,
    chosen: i % 11 !== 10,
    source: null,
    sectionId: 'qsc_1',
  }));
  const rates = [
    { name: 'GST', rate: 5000 },
    { name: 'QST', rate: 9975 },
  ];
  const totals = computeTotals(lines, rates);
  lines.forEach((l, i) => (l.amount = totals.amounts[i]!));
  return {
    id: 'quote_1',
    number: 'Q-0007',
    revision: 2,
    status: 'sent',
    leadId: 'lead_1',
    workspaceId: 'ws_1',
    currency: 'CAD',
    customer: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+1 416 555 0199',
      address: '1 Analytical Engine Way\nToronto, ON',
    },
    title: 'Kitchen and living room floors',
    note: 'We start two weeks after you accept. The furniture is moved by us.',
    terms: 'Payment within 14 days of completion. Materials stay our property until paid in full.',
    lines,
    sections: [{ id: 'qsc_1', title: null, subtotal: totals.subtotal, choice: null, recommended: false, chosen: true }],
    deposit: null,
    showMeasurements: false,
    sendMessage: null,
    acceptanceVersion: null,
    sentChoices: null,
    subtotal: totals.subtotal,
    taxes: totals.taxes,
    total: totals.total,
    validUntil: '2026-12-26',
    createdAt: '2026-11-20T10:00:00.000Z',
    sentAt: '2026-11-26T15:30:00.000Z',
    viewedAt: null,
    viewCount: 0,
    acceptedAt: null,
    acceptedName: null,
    acceptanceHash: null,
    declinedAt: null,
    declineReason: null,
    withdrawnAt: null,
    customerUrl: 'https://example.test/q/abc',
    ...overrides,
  };
}

export function quoteModel(
  lines: number,
  options: { rooms?: number; paper?: Paper; accepted?: boolean; quote?: Partial<QuoteView> } = {},
): DocumentModel {
  return quoteDocument(
    sentQuote(lines, options.quote),
    { ...FRAME, paper: options.paper ?? FRAME.paper },
    options.rooms ? frozenPlans(options.rooms) : null,
    { accepted: options.accepted ?? false },
  );
}
