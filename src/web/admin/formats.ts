import { html, type SafeHtml } from '../html.js';

/** Times are written as UTC in the markup and shown in the viewer's zone by <time>'s title and the text. */
export function when(iso: string | null, empty = 'never'): SafeHtml | string {
  if (!iso) return empty;
  const date = new Date(iso);
  const text = date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  return html`<time datetime="${iso}" data-local>${text}</time>`;
}

export function bytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
