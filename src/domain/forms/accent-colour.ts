import { AppError } from '../errors.js';

/** The hosted form's default accent (its button and focus colour). */
export const DEFAULT_ACCENT = '#1f5fd1';

/** WCAG AA for normal text: the accent carries white text (the Send button) and is drawn on white (links, focus). */
export const MIN_CONTRAST = 4.5;

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

/** `#rrggbb` in lower case, or null when the text is not a hex colour. */
export function normalizeHex(text: string): string | null {
  const match = HEX.exec(text.trim());
  if (!match) return null;
  const hex = match[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

/**
 * The WCAG contrast ratio of a `#rrggbb` colour against white (1 to 21). Self-contained (no outer names): the admin
 * app's script runs this very function's source for the editor's live hint (web/admin/assets/index.ts), so the page
 * and the check on Save cannot disagree.
 */
export function contrastWithWhite(hex: string): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const n = Number.parseInt(hex.slice(1), 16);
  const luminance = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return 1.05 / (luminance + 0.05);
}

/**
 * An owner's accent colour, checked: a colour under AA contrast with white is refused (not silently darkened), so
 * what the owner sees in the editor is what visitors get. Empty means the default.
 */
export function checkAccent(text: string): string | null {
  if (text.trim() === '') return null;
  const hex = normalizeHex(text);
  if (!hex) {
    throw new AppError('invalid_fields', 'The accent colour is a hex colour such as #1f5fd1', [
      { field: 'accent', code: 'invalid', message: 'Use a hex colour such as #1f5fd1' },
    ]);
  }
  const ratio = contrastWithWhite(hex);
  if (ratio < MIN_CONTRAST) {
    const message =
      `${hex} has a contrast of ${ratio.toFixed(2)}:1 with white; the form needs at ` +
      `least ${MIN_CONTRAST}:1 (WCAG AA) so the button text stays readable. Choose a darker colour.`;
    throw new AppError('invalid_fields', message, [{ field: 'accent', code: 'invalid', message }]);
  }
  return hex;
}
