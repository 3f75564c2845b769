import t from 'tap';
import { deflateSync } from 'node:zlib';
import { fixture, IMAGE_PDF, PHOTO, VECTOR } from '../../../test/fixtures/inbox/fixtures.ts';
import { hugePng, inflatingPdf } from '../../../test/fixtures/hostile/files.ts';
import { assertImageSize, assertPdfInflation, FileTooLarge, imageDimensions } from './bounds.ts';

t.test('image dimensions are read from the header (PNG IHDR, JPEG start of frame), before any decoding', async (t) => {
  const png = imageDimensions(fixture(PHOTO.files[0]!), 'image/png');
  const jpeg = imageDimensions(fixture(PHOTO.files[1]!), 'image/jpeg');
  t.ok(png && png.width > 100 && png.height > 100, `PNG ${png?.width} × ${png?.height}`);
  t.same(jpeg, png, 'the JPEG of the same photo has the same size');
  t.same(imageDimensions(hugePng(30_000, 30_000), 'image/png'), { width: 30_000, height: 30_000 });
  t.equal(imageDimensions(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png'), undefined, 'truncated header');
  t.equal(imageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]), 'image/jpeg'), undefined, 'no frame');
});

t.test('images above 12 Mpx are refused with their size; the fixtures pass', async (t) => {
  t.throws(
    () => assertImageSize(hugePng(30_000, 30_000), 'image/png'),
    new FileTooLarge('The image is 30000 × 30000 pixels (900.0 Mpx); the inbox reads images up to 12 Mpx.'),
  );
  t.throws(() => assertImageSize(hugePng(4_001, 3_000), 'image/png'), { message: /4001 × 3000 pixels/ }, 'just above');
  t.doesNotThrow(() => assertImageSize(hugePng(4_000, 3_000), 'image/png'), '12 Mpx exactly');
  t.doesNotThrow(() => assertImageSize(fixture(PHOTO.files[0]!), 'image/png'));
  t.doesNotThrow(() => assertImageSize(fixture(PHOTO.files[1]!), 'image/jpeg'));
  t.throws(() => assertImageSize(Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg'), { message: /header gives no size/ });
});

t.test('PDF streams are bounded by what they inflate to: one stream, and all together', async (t) => {
  const bomb = await inflatingPdf(120);
  t.throws(() => assertPdfInflation(bomb), { message: /a compressed stream that inflates to more than 100 MiB/ });
  // the real QR-bills pass
  for (const file of [VECTOR.file, IMAGE_PDF.file]) t.doesNotThrow(() => assertPdfInflation(fixture(file)), file);
  // three streams of 1 MiB each: within 1 MiB per stream and 2 MiB together is too much together
  const stream = deflateSync(Buffer.alloc(1024 * 1024, 0x20));
  const pdf = Buffer.concat([
    Buffer.from('%PDF-1.4\n'),
    ...[1, 2, 3].map((n) =>
      Buffer.concat([
        Buffer.from(`${n} 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\r\n`),
        stream,
        Buffer.from('\nendstream\nendobj\n'),
      ]),
    ),
  ]);
  t.doesNotThrow(() => assertPdfInflation(pdf, 1024 * 1024, 3 * 1024 * 1024));
  t.throws(() => assertPdfInflation(pdf, 1024 * 1024, 2 * 1024 * 1024), {
    message: /inflate to more than 2 MiB together/,
  });
  t.throws(() => assertPdfInflation(pdf, 512 * 1024, 8 * 1024 * 1024), {
    message: /a compressed stream that inflates to more than 0.5 MiB/,
  });
  // a broken stream is left to the PDF reader
  t.doesNotThrow(() =>
    assertPdfInflation(Buffer.from('%PDF-1.4\n1 0 obj\n<< >>\nstream\n\x78\x9cgarbage\nendstream\n')),
  );
});
