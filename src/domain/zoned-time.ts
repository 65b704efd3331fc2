/**
 * `2026-11-25 08:03:00-05:00`: an instant as the wall-clock time of a time zone, with that zone's offset at that
 * instant, to the second (docs/admin-app.md, "The CSV export"). Spreadsheets read it as text that sorts within one offset
 * and that any program can turn back into the exact instant. One formatter per zone, made once.
 */
export function zonedTimeFormatter(timeZone: string): (iso: string) => string {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  return (iso) => {
    const parts = format.formatToParts(new Date(iso));
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
    // `GMT-05:00`, or plain `GMT` at offset zero.
    const offset = part('timeZoneName').replace(/^GMT/, '') || '+00:00';
    return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}${offset}`;
  };
}
