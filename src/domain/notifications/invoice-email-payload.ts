/** What an invoice email is about, sealed in its outbox row (invoice-emails.ts says what it says). */
export type InvoiceEvent = 'sent' | 'receipt' | 'paid' | 'overdue';

export interface InvoicePayload {
  kind: 'invoice';
  event: InvoiceEvent;
  invoiceId: string;
  /** A receipt's payment. */
  paymentId?: string;
  /** The sent document's PDF, attached once rendered (docs/documents.md, "Where it goes"). */
  documentId?: string;
  /** Where the customer's answer goes (the sender), and the name the email gives. */
  replyTo?: string;
  senderName?: string;
}
