import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import { assertImageSize, assertPdfInflation, MAX_IMAGE_PIXELS } from './bounds.ts';
import type { InboxMediaType } from './rules.ts';

/**
 * Reads what an inbox file carries: the text of a PDF and the QR codes on it. PDF pages
 * are rendered with pdfjs-dist onto a @napi-rs/canvas (prebuilt binaries, no system
 * packages), whatever draws the QR code — vector paths or an embedded image; PNG and JPEG
 * files go to the decoder as they are. QR codes are decoded by ZXing (zxing-wasm), whose
 * wasm binary is loaded from the installed package, never from its default CDN.
 *
 * Runs on a parsing thread (extractJob.ts, untrusted/pool.ts), never on the serving one;
 * bounds.ts refuses what would be too large to decode before anything is decoded.
 */

export interface Extraction {
  /** the PDF's text, pages joined by blank lines; empty for images */
  text: string;
  /** the texts of the QR codes found (pages searched last to first: the payment part is on the last page) */
  qrCodes: string[];
}

/** An unreadable file (corrupt PDF, broken image): the entry fails with this message. */
export class UnreadableFile extends Error {}

const require = createRequire(import.meta.url);

/** Pages looked at for a QR-bill (from the last) and text (from the first). */
const MAX_QR_PAGES = 3;
const MAX_TEXT_PAGES = 20;
/**
 * 150 dpi: the QR-bill's 46 mm code is ~270 px, its modules (≥ 0.4 mm) ~3.5 px — enough for
 * ZXing, a quarter of the pixels of 300 dpi. Pages that are large scans are drawn smaller.
 */
const RENDER_SCALE = 150 / 72;
const MAX_PIXELS = MAX_IMAGE_PIXELS;

const QR_OPTIONS: ReaderOptions = {
  formats: ['QRCode'],
  tryHarder: true,
  tryRotate: true,
  tryDownscale: true,
  maxNumberOfSymbols: 4,
};

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
let zxing: Promise<unknown> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

function loadZxing(): Promise<unknown> {
  zxing ??= (async () => {
    const wasm = await readFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    return prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    });
  })();
  return zxing;
}

/**
 * Loads pdfjs and ZXing's wasm. A parsing thread does this before its first job begins
 * (extractJob.ts): the file's time limit (untrusted/pool.ts) is for reading the file, not for
 * compiling the readers, which takes seconds on a loaded machine.
 */
export async function loadReaders(): Promise<void> {
  await Promise.all([loadPdfJs(), loadZxing()]);
}

/** pdfjs's standard fonts (Helvetica & co.) from the package, so text-only pages render without warnings or fetches. */
const standardFontDataUrl = `${join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

async function decodePixels(data: Uint8ClampedArray, width: number, height: number): Promise<string[]> {
  await loadZxing();
  const image = { data, width, height, colorSpace: 'srgb' } as unknown as ImageData;
  const found = await readBarcodes(image, QR_OPTIONS);
  return found.filter((r) => r.isValid).map((r) => r.text);
}

/**
 * PNG and JPEG go to ZXing as they are: it decodes them itself (stb_image, inside the wasm
 * sandbox) and tries rotations and downscaled copies. Not through the canvas package, whose
 * native image decoder crashes the process on a truncated PNG.
 */
async function fromImage(data: Buffer, mediaType: 'image/png' | 'image/jpeg'): Promise<Extraction> {
  // the header's size first: the decoder would allocate whatever the header declares
  assertImageSize(data, mediaType);
  await loadZxing();
  const found = await readBarcodes(new Uint8Array(data), QR_OPTIONS);
  const broken = found.find((r) => !r.isValid && /load image/i.test(r.error));
  if (broken) throw new UnreadableFile(`The image cannot be decoded: ${broken.error}.`);
  return { text: '', qrCodes: found.filter((r) => r.isValid).map((r) => r.text) };
}

async function fromPdf(data: Buffer): Promise<Extraction> {
  // what its streams inflate to first: pdfjs would inflate a page's content whole
  assertPdfInflation(data);
  const { getDocument } = await loadPdfJs();
  const task = getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl,
    // images above this are not decoded (a JPEG2000 or JBIG2 image can declare any size)
    maxImageSize: MAX_IMAGE_PIXELS,
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => {});
    throw new UnreadableFile(`The PDF cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    const texts: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_TEXT_PAGES); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      texts.push(
        content.items
          .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
          .join('')
          .trim(),
      );
      page.cleanup();
    }
    const qrCodes: string[] = [];
    for (let n = doc.numPages; n >= Math.max(1, doc.numPages - MAX_QR_PAGES + 1) && qrCodes.length === 0; n--) {
      const page = await doc.getPage(n);
      const base = page.getViewport({ scale: 1 });
      const scale = Math.min(RENDER_SCALE, Math.sqrt(MAX_PIXELS / (base.width * base.height)));
      const viewport = page.getViewport({ scale });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
      qrCodes.push(...(await decodePixels(pixels.data, pixels.width, pixels.height)));
      page.cleanup();
    }
    return { text: texts.filter(Boolean).join('\n\n'), qrCodes };
  } catch (err) {
    if (err instanceof UnreadableFile) throw err;
    throw new UnreadableFile(`The PDF cannot be rendered: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await doc.destroy().catch(() => {});
  }
}

export async function extractFile(data: Buffer, mediaType: InboxMediaType): Promise<Extraction> {
  return mediaType === 'application/pdf' ? fromPdf(data) : fromImage(data, mediaType);
}
