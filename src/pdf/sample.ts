import type { DocumentModel } from '../domain/document-model.js';

/**
 * A small document for `leadscan doctor`'s test render: every part of the layout once (business block, a line in
 * Latin, Greek and Cyrillic, totals, a text, a plan), nothing of anyone's data.
 */
export function sampleDocument(): DocumentModel {
  return {
    v: 1,
    kind: 'quote',
    heading: 'Quote',
    number: 'Q-0000',
    revision: 1,
    footerLabel: 'Q-0000',
    fileName: 'Q-0000.pdf',
    meta: { title: 'Quote Q-0000 — Test render', author: 'Test render', createdAt: '2026-01-01T00:00:00.000Z' },
    paper: 'A4',
    locale: 'en-US',
    business: { name: 'Test render', address: null, phone: null, email: null, taxNumbers: [], logo: null },
    customer: { label: 'Prepared for', name: 'Łukasz Ørsted-Straße', address: null, email: null, phone: null },
    dates: [{ label: 'Date', value: 'January 1, 2026' }],
    title: null,
    sections: [
      {
        heading: null,
        choice: null,
        subtotal: null,
        lines: [
          {
            description: 'Latin ő ß, Ελληνικά, Кириллица',
            quantity: '1',
            unit: '',
            unitPrice: '$1.00',
            amount: '$1.00',
            optional: false,
            chosen: true,
          },
        ],
      },
    ],
    totals: [{ label: 'Total', value: '$1.00', strong: true }],
    texts: [{ heading: 'Terms', body: 'A test render.' }],
    plans: [
      {
        name: 'Room',
        shapes: [
          {
            kind: 'floor',
            points: [
              [0, 0],
              [3, 0],
              [3, 2],
              [0, 2],
            ],
            closed: true,
          },
        ],
        labels: [{ at: [1.5, 0], normal: [0, -1], anchor: 'middle', text: '3.00 m' }],
        scale: { metres: 1, label: '1 m' },
      },
    ],
    plansNote: null,
    acceptance: null,
  };
}
