/**
 * `2026-11-25 08:03:00-05:00`: an instant as the wall-clock time of a time zone, with that zone's offset at that
 * instant, to the second (docs/admin-app.md, "The CSV export"). Spreadsheets read it as text that sorts within one
 * offset and that any program can turn back into the exact instant. One formatter per zone, made once.
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
    const day = `${part('year')}-${part('month')}-${part('day')}`;
    return `${day} ${part('hour')}:${part('minute')}:${part('second')}${offset}`;
  };
}

/** The offset of `timeZone` from UTC at an instant, in milliseconds (east positive). */
function offsetMs(at: number, timeZone: string): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(new Date(at))
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
}

/**
 * The instant a day (`YYYY-MM-DD`) starts in a time zone, as ISO-8601 UTC: what "sent before that day" compares
 * with. On a day whose midnight a clock change skips, the first instant of the day.
 */
export function dayStartIn(day: string, timeZone: string): string {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  let at = midnight - offsetMs(midnight, timeZone);
  // Once more with the offset at the guess: right across a change of offset between the two.
  at = midnight - offsetMs(at, timeZone);
  return new Date(at).toISOString();
}
