/**
 * Attached and uploaded files on the app's pages: previewed from the gateway's own origin
 * (images as images, PDFs in a frame), everything else only downloaded.
 */
import type { Context } from 'koa';
import type { LedgerFile } from '../../ledgerClient.ts';
import { tr } from './language.ts';
import { type PageProps, renderErrorPage } from './ui.tsx';

/**
 * Shown inline (img or frame) from the gateway's origin; anything else is only downloaded. SVG is not: it can carry
 * script.
 */
export const PREVIEWABLE = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export interface AttachedFile {
  id: number;
  name: string;
  mediaType: string;
  size: number;
}

export function FilePreview({ file, href }: { file: AttachedFile; href: string }) {
  return (
    <figure data-file={file.name}>
      {file.mediaType.startsWith('image/') && PREVIEWABLE.has(file.mediaType) ? (
        <img class="preview" src={href} alt={tr('app.draft.attached', { name: file.name })} />
      ) : file.mediaType === 'application/pdf' ? (
        <iframe class="preview" src={href} title={tr('app.draft.attached', { name: file.name })}></iframe>
      ) : null}
      <figcaption>
        <a href={href} download={PREVIEWABLE.has(file.mediaType) ? undefined : file.name}>
          {file.name}
        </a>{' '}
        ({file.mediaType}, {Math.ceil(file.size / 1024)} KiB)
      </figcaption>
    </figure>
  );
}

/**
 * Answers a file's bytes as the ledger stored them: only a page of this origin may frame it,
 * nothing in it may load anything, and a type that could run script is only downloaded.
 */
export function sendFile(ctx: Context, file: LedgerFile, fallbackName: string): void {
  const inline = PREVIEWABLE.has(file.mediaType);
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
  );
  ctx.set('X-Frame-Options', 'SAMEORIGIN');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-store');
  ctx.set(
    'Content-Disposition',
    `${inline ? 'inline' : 'attachment'}; filename="${(file.name ?? fallbackName).replace(/[^\w.-]/g, '_')}"`,
  );
  ctx.type = inline ? file.mediaType : 'application/octet-stream';
  ctx.body = file.data;
}

/** Answers the file the ledger gave (`sendFile`), or a 404 page (`props`) when it gave none. */
export async function sendFileOr404(
  ctx: Context,
  props: PageProps,
  file: LedgerFile | undefined,
  fallbackName: string,
): Promise<void> {
  if (!file) return renderErrorPage(ctx, 404, props, tr('app.access.noFile'));
  sendFile(ctx, file, fallbackName);
}
