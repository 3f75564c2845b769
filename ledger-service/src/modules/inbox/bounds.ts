import { constants, inflateSync } from 'node:zlib';

/**
 * What reading an inbox file would cost, checked from its bytes before anything is decoded.
 * The parsing thread's V8 heap limit (untrusted/pool.ts) does not cover the memory of the
 * image decoder (ZXing's wasm) or of inflated PDF streams, and a small file can stand for a
 * huge one: a 110 KB PNG can declare 30,000 × 30,000 pixels (3.6 GB decoded), a 300 KB PDF
 * page can inflate to 300 MB. Such files are refused with a reason; nothing is decoded.
 */

/** Largest image the inbox decodes, in pixels (a full A4 page scanned at 300 dpi is 8.7 Mpx). */
export const MAX_IMAGE_PIXELS = 12_000_000;
/** Largest inflated size of one compressed PDF stream, and of all of them together. */
export const MAX_PDF_STREAM_BYTES = 100 * 1024 * 1024;
export const MAX_PDF_INFLATED_BYTES = 256 * 1024 * 1024;

/** Why a file is not read; the entry fails with this message. */
export class FileTooLarge extends Error {}

/** Width and height as the image's header declares them; undefined when the header cannot be read. */
export function imageDimensions(
  data: Buffer,
  mediaType: 'image/png' | 'image/jpeg',
): { width: number; height: number } | undefined {
  if (mediaType === 'image/png') {
    // signature (8), IHDR chunk length (4) and type (4), then width and height (PNG 1.2 §11.2.2)
    if (data.length < 24 || data.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  // JPEG: walk the marker segments to the first start-of-frame (SOF0–SOF15 but DHT C4, JPG C8, DAC CC)
  let at = 2;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // markers without a length: RST0–7, SOI, EOI, TEM
    if ((marker >= 0xd0 && marker <= 0xd9) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = data.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > data.length) return undefined;
      return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** Refuses an image whose header declares more than MAX_IMAGE_PIXELS (or cannot be read). */
export function assertImageSize(data: Buffer, mediaType: 'image/png' | 'image/jpeg'): void {
  const size = imageDimensions(data, mediaType);
  if (!size) throw new FileTooLarge('The image cannot be decoded: its header gives no size.');
  const pixels = size.width * size.height;
  if (pixels > MAX_IMAGE_PIXELS) {
    throw new FileTooLarge(
      `The image is ${size.width} × ${size.height} pixels (${(pixels / 1e6).toFixed(1)} Mpx); the inbox reads ` +
        `images up to ${MAX_IMAGE_PIXELS / 1e6} Mpx.`,
    );
  }
}

const isZlibHeader = (b0: number, b1: number) => (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;

/**
 * Inflates every zlib-compressed stream of the PDF (what FlateDecode is), each only up to
 * what is still allowed, and refuses the file past MAX_PDF_STREAM_BYTES for one stream or
 * MAX_PDF_INFLATED_BYTES for all. Streams are found by their `stream`/`endstream` keywords,
 * which also finds those inside object streams' containers; a stream that does not inflate
 * is left to the PDF reader to judge.
 */
export function assertPdfInflation(
  data: Buffer,
  perStream = MAX_PDF_STREAM_BYTES,
  total = MAX_PDF_INFLATED_BYTES,
): void {
  let inflated = 0;
  for (let at = data.indexOf('stream', 0, 'latin1'); at >= 0; at = data.indexOf('stream', at, 'latin1')) {
    const keywordEnd = at + 6;
    // "endstream" ends a stream; "stream" starts one only when an end of line follows
    if (at >= 3 && data.toString('latin1', at - 3, at) === 'end') {
      at = keywordEnd;
      continue;
    }
    let start = keywordEnd;
    if (data[start] === 0x0d) start++;
    if (data[start] !== 0x0a && start === keywordEnd) {
      at = keywordEnd;
      continue;
    }
    if (data[start] === 0x0a) start++;
    let end = data.indexOf('endstream', start, 'latin1');
    if (end < 0) end = data.length;
    if (end - start >= 2 && isZlibHeader(data[start]!, data[start + 1]!)) {
      const allowed = Math.max(1, Math.min(perStream, total - inflated));
      try {
        inflated += inflateSync(data.subarray(start, end), {
          maxOutputLength: allowed,
          finishFlush: constants.Z_SYNC_FLUSH,
        }).length;
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new FileTooLarge(
            allowed === perStream
              ? `The PDF has a compressed stream that inflates to more than ${perStream / 1024 / 1024} MiB; the ` +
                  `inbox does not read it.`
              : `The PDF's compressed streams inflate to more than ${total / 1024 / 1024} MiB together; the ` +
                  `inbox does not read it.`,
          );
        }
        // a broken stream is the PDF reader's to judge
      }
    }
    at = end + 9;
  }
}
