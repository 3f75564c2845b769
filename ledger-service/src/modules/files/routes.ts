import { contracts } from '@ledger/shared';
import type { Context } from 'koa';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';
import { noneMatchHits } from '../../kernel/caching.ts';
import { documentContent, listDocuments, readDocument } from './service.ts';
import { byteRange, safeFileName } from './rules.ts';

/** Documents (docs/documents.md): every stored file, its metadata and its bytes. */

export const documentUrlBase = (req: { ctx: Context; company: { dataset: string } }) =>
  `${req.ctx.protocol}://${req.ctx.host}/client/${req.company.dataset}/documents`;

export const fileRoutes = [
  route(contracts.listStoredDocuments, async (req) =>
    listDocuments(req.tx, req.company.id, req.query, documentUrlBase(req)),
  ),
  route(contracts.getStoredDocument, async (req) =>
    readDocument(req.tx, req.company.id, idParam(req.params.id, 'document'), documentUrlBase(req)),
  ),
  route(contracts.getDocumentContent, async (req) => {
    const { ctx } = req;
    const { row, data } = await documentContent(req.tx, req.company.id, idParam(req.params.id, 'document'));
    // the content never changes under an id (documents are content-addressed): its hash is a strong validator
    const etag = `"${row.sha256}"`;
    ctx.set('ETag', etag);
    ctx.set('Accept-Ranges', 'bytes');
    ctx.set('Cache-Control', 'private, max-age=3600');
    // an ASCII filename for every client, the exact name as filename* (RFC 6266)
    const name = safeFileName(row.name);
    ctx.attachment(name, { type: 'attachment', fallback: name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') });
    if (noneMatchHits(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304;
      ctx.body = null;
      return undefined;
    }
    ctx.type = row.media_type;
    // If-Range: a range only applies while the client's copy is this one
    const ifRange = ctx.get('If-Range');
    const range =
      ifRange && ifRange !== etag ? { kind: 'whole' as const } : byteRange(ctx.get('Range') || undefined, data.length);
    if (range.kind === 'unsatisfiable') {
      ctx.set('Content-Range', `bytes */${data.length}`);
      ctx.status = 416;
      ctx.type = 'application/json';
      return {
        error: {
          code: 'range_not_satisfiable',
          message: `The range ${ctx.get('Range')} lies outside the document (${data.length} bytes).`,
        },
      };
    }
    if (range.kind === 'partial') {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${data.length}`);
      return data.subarray(range.start, range.end + 1);
    }
    return data;
  }),
];
