/**
 * The tab icon: the top bar's brand mark (a rounded square in the accent colour). Pages link the SVG; the ICO
 * answers browsers and tools that ask for /favicon.ico on their own, so that request never ends in a 404.
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="2" width="28" height="28" rx="7" ' +
  'fill="#1f5fd1"/><rect x="9" y="9" width="14" height="14" rx="3" fill="#fff" fill-opacity=".9"/></svg>\n';

const SIZE = 16;
const ACCENT = { r: 0x1f, g: 0x5f, b: 0xd1 };

function inside(x: number, y: number, from: number, to: number, radius: number): boolean {
  if (x < from || x > to || y < from || y > to) return false;
  const cx = Math.min(Math.max(x, from + radius), to - radius);
  const cy = Math.min(Math.max(y, from + radius), to - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** A 16×16 32-bit ICO (one BMP image) of the same mark, made once at start-up: 1,150 bytes. */
function faviconIco(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row += 1) {
    // BMP rows run bottom-up.
    const y = SIZE - 1 - row + 0.5;
    for (let col = 0; col < SIZE; col += 1) {
      const x = col + 0.5;
      const at = (row * SIZE + col) * 4;
      if (inside(x, y, 5, 11, 1.5)) pixels.set([0xf2, 0xf2, 0xf2, 0xff], at);
      else if (inside(x, y, 1, 15, 3.5)) pixels.set([ACCENT.b, ACCENT.g, ACCENT.r, 0xff], at);
    }
  }
  const mask = Buffer.alloc(SIZE * 4); // 1 bit a pixel, rows padded to 4 bytes; alpha decides, so all zero.
  const header = Buffer.alloc(6 + 16 + 40);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(40 + pixels.length + mask.length, 14);
  header.writeUInt32LE(22, 18); // offset of the image
  header.writeUInt32LE(40, 22); // BITMAPINFOHEADER
  header.writeInt32LE(SIZE, 26);
  header.writeInt32LE(SIZE * 2, 30); // colour rows and mask rows
  header.writeUInt16LE(1, 34);
  header.writeUInt16LE(32, 36);
  return Buffer.concat([header, pixels, mask]);
}

export const FAVICON_ICO = faviconIco();
