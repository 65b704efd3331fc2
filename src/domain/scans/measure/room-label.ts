/**
 * A room's name from its RoomPlan sections (docs/admin-app.md, "Room names"): RoomPlan labels a captured room's
 * sections (`sections: [{ label: { "diningRoom": {} }, … }]`, at the room object's top level or one level down, where
 * the CapturedRoom sits). The labels are camelCase identifiers; a person reads "Dining room". `unidentified` says
 * nothing and is left out; several distinct labels are joined ("Kitchen & Dining room"). Bounded: a few labels of a
 * few dozen characters, whatever the upload holds.
 */
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const MAX_LABELS = 3;
const MAX_LABEL_LENGTH = 40;
const MAX_SECTIONS_READ = 64;
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9]*(?:[ _-][A-Za-z0-9]+)*$/;

/** `diningRoom` → `Dining room`, `living_room` → `Living room`, `TVRoom` → `Tv room`. Null for anything else. */
export function humaniseLabel(label: string): string | null {
  const text = label.trim();
  if (text.length === 0 || text.length > MAX_LABEL_LENGTH || !IDENTIFIER.test(text)) return null;
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[ _-]+/)
    .map((w) => w.toLowerCase());
  if (words.join(' ') === 'unidentified') return null;
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/**
 * A label as exported: Swift's Codable writes RoomPlan's `Section.Label` enum as an object with one key, the case's
 * name (`{ "diningRoom": {} }`); some apps write the raw string (`"diningRoom"`).
 */
function labelText(label: unknown): string | null {
  if (typeof label === 'string') return label;
  if (!isObject(label)) return null;
  const keys = Object.keys(label);
  return keys.length === 1 ? keys[0]! : null;
}

function labelsIn(value: Json): string[] {
  const sections = value.sections;
  if (!Array.isArray(sections)) return [];
  const found: string[] = [];
  for (const section of sections.slice(0, MAX_SECTIONS_READ)) {
    if (!isObject(section)) continue;
    const label = humaniseLabel(labelText(section.label) ?? '');
    if (label && !found.includes(label)) found.push(label);
    if (found.length === MAX_LABELS) break;
  }
  return found;
}

/** The room's name from its section labels, or null when it has none that says something. */
export function roomLabelOf(value: unknown): string | null {
  if (!isObject(value)) return null;
  let labels = labelsIn(value);
  if (labels.length === 0) {
    let looked = 0;
    for (const key in value) {
      if (++looked > 64) break;
      const inner = value[key];
      if (isObject(inner)) labels = labelsIn(inner);
      if (labels.length > 0) break;
    }
  }
  return labels.length > 0 ? labels.join(' & ') : null;
}
