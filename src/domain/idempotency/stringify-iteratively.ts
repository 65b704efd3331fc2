type Frame =
  | { items: unknown[]; index: number; keys?: undefined }
  | { object: Record<string, unknown>; keys: string[]; index: number; first: boolean };

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * `JSON.stringify(value)` for plain JSON data (what JSON.parse or a form parser produced), written with an explicit
 * stack instead of recursion: a body nested 100,000 levels deep is hashed like any other instead of overflowing the
 * call stack. The text is the same as JSON.stringify's, so hashes recorded before this existed still match.
 */
export function stringifyIteratively(value: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];

  const open = (item: unknown): void => {
    if (item === null || typeof item !== 'object') {
      // Primitives: JSON.stringify itself, which does not recurse for them (non-finite numbers become null).
      out.push(isSkipped(item) ? 'null' : JSON.stringify(item));
    } else if (Array.isArray(item)) {
      out.push('[');
      stack.push({ items: item, index: 0 });
    } else {
      out.push('{');
      stack.push({ object: item as Record<string, unknown>, keys: Object.keys(item), index: 0, first: true });
    }
  };

  open(value);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.keys === undefined) {
      if (frame.index < frame.items.length) {
        if (frame.index > 0) out.push(',');
        open(frame.items[frame.index++]);
      } else {
        out.push(']');
        stack.pop();
      }
      continue;
    }
    let opened = false;
    while (frame.index < frame.keys.length) {
      const key = frame.keys[frame.index++]!;
      const item = frame.object[key];
      if (isSkipped(item)) continue;
      if (!frame.first) out.push(',');
      frame.first = false;
      out.push(JSON.stringify(key), ':');
      open(item);
      opened = true;
      break;
    }
    if (!opened) {
      out.push('}');
      stack.pop();
    }
  }
  return out.join('');
}
