import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

/**
 * Reading PDFs in tests: the text through poppler's `pdftotext`, pages as PNG through
 * `pdftoppm` (apt package poppler-utils), and QR codes decoded by ZXing (zxing-wasm). The
 * wasm binary is loaded from the installed package, never from its default CDN.
 */

const run = promisify(execFile);

async function withPdfFile<T>(pdf: Buffer, use: (dir: string, file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    return await use(dir, file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text of every page, in reading order with the layout kept (`pdftotext -layout`). */
export async function pdfText(pdf: Buffer): Promise<string> {
  return withPdfFile(
    pdf,
    async (_dir, file) => (await run('pdftotext', ['-layout', file, '-'], { maxBuffer: 16 << 20 })).stdout,
  );
}

/** Number of pages (`pdfinfo`). */
export async function pdfPageCount(pdf: Buffer): Promise<number> {
  return withPdfFile(pdf, async (_dir, file) => {
    const { stdout } = await run('pdfinfo', [file]);
    return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
  });
}

/** One page rendered as PNG at the given resolution (`pdftoppm -r <dpi> -png`); pages count from 1. */
export async function pdfPagePng(pdf: Buffer, page = 1, dpi = 200): Promise<Buffer> {
  return withPdfFile(pdf, async (dir, file) => {
    await run('pdftoppm', [
      '-r',
      String(dpi),
      '-png',
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      file,
      join(dir, 'page'),
    ]);
    return readFile(join(dir, 'page.png'));
  });
}

let zxingReady: Promise<unknown> | undefined;
function zxing(): Promise<unknown> {
  zxingReady ??= (async () => {
    const wasmPath = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
    const wasmBinary = await readFile(wasmPath);
    return prepareZXingModule({
      overrides: {
        wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength),
      },
      fireImmediately: true,
    });
  })();
  return zxingReady;
}

/** The texts of the QR codes found in a PNG image. */
export async function decodeQrCodes(png: Buffer): Promise<string[]> {
  await zxing();
  const results = await readBarcodes(new Uint8Array(png), {
    formats: ['QRCode'],
    tryHarder: true,
    maxNumberOfSymbols: 4,
  });
  return results.filter((r) => r.isValid).map((r) => r.text);
}

/** The fields of a Swiss QR code payload (SPC, version 0200, Swiss Implementation Guidelines §4.3). */
export interface SwissQrPayload {
  iban: string;
  creditor: { name: string; street: string; houseNumber: string; zip: string; city: string; country: string };
  amount: string;
  currency: string;
  debtor: { name: string; street: string; houseNumber: string; zip: string; city: string; country: string };
  referenceType: string;
  reference: string;
  message: string;
}

/** Splits an SPC payload into its fields (structured addresses, type S). */
export function parseSwissQr(text: string): SwissQrPayload {
  const f = text.split(/\r?\n/);
  if (f[0] !== 'SPC' || f[1] !== '0200') throw new Error(`not a Swiss QR code: ${f.slice(0, 2).join(' ')}`);
  const address = (i: number) => ({
    name: f[i + 1] ?? '',
    street: f[i + 2] ?? '',
    houseNumber: f[i + 3] ?? '',
    zip: f[i + 4] ?? '',
    city: f[i + 5] ?? '',
    country: f[i + 6] ?? '',
  });
  return {
    iban: f[3] ?? '',
    creditor: address(4),
    amount: f[18] ?? '',
    currency: f[19] ?? '',
    debtor: address(20),
    referenceType: f[27] ?? '',
    reference: f[28] ?? '',
    message: f[29] ?? '',
  };
}
