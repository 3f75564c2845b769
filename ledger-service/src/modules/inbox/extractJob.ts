import { fileJob } from '../../untrusted/index.ts';
import { FileTooLarge } from './bounds.ts';
import { extractFile, loadReaders, UnreadableFile, type Extraction } from './extract.ts';
import type { InboxMediaType } from './rules.ts';

export interface ExtractInput {
  data: Uint8Array;
  mediaType: InboxMediaType;
}

const refused = (err: unknown): err is Error => err instanceof UnreadableFile || err instanceof FileTooLarge;

/** Runs on a parsing thread (untrusted/pool.ts): an inbox file's bytes in, its text and QR codes out. */
export const extract = fileJob(
  (input: ExtractInput): Promise<Extraction> =>
    extractFile(Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength), input.mediaType),
  refused,
  // the readers load before the file's time starts (extract.ts)
  loadReaders,
);
