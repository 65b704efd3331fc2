/**
 * How dates read (docs/admin-app.md, "Dates"): one format on every page and in every email, the workspace's locale
 * (`November 27, 2026` in en-US, `27 novembre 2026` in fr-CA), made here and nowhere else. What machines read (JSON,
 * CSV, CLI flags, file names) stays `YYYY-MM-DD`.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const shownFormats = new Map<string, Intl.DateTimeFormat>();

function cached(map: Map<string, Intl.DateTimeFormat>, key: string, make: () => Intl.DateTimeFormat) {
  let format = map.get(key);
  if (!format) map.set(key, (format = make()));
  return format;
}

/** The calendar day (`YYYY-MM-DD`) an instant falls on in a time zone. */
export function zonedDay(iso: string, timeZone: string): string {
  return cached(
    dayFormats,
    timeZone,
    () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).format(new Date(iso));
}

/** A calendar day (`YYYY-MM-DD`) as people read it in `locale`: `November 27, 2026`. */
export function formatDay(day: string, locale: string): string {
  return cached(
    shownFormats,
    `d|${locale}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }),
  ).format(new Date(`${day}T12:00:00Z`));
}

/** An instant as people read it: its day in the workspace's time zone, in its locale. */
export function formatDayOf(iso: string, locale: string, timeZone: string): string {
  return formatDay(zonedDay(iso, timeZone), locale);
}

/** An instant with its time and zone: `November 27, 2026 at 3:04 PM (EST)`. */
export function formatDateTime(iso: string, locale: string, timeZone: string): string {
  const at = new Date(iso);
  const zone =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  const text = cached(
    shownFormats,
    `t|${locale}|${timeZone}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone }),
  ).format(at);
  return `${text} (${zone})`;
}
