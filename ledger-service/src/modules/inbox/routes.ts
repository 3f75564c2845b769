import { contracts } from '@ledger/shared';
import type { Context } from 'koa';
import type { LedgerConfig } from '../../config.ts';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';
import { ApiError } from '../../kernel/errors.ts';
import { parseDataUri, documentContext, optionalBody } from '../arap/index.ts';
import { documentUrlBase } from '../files/index.ts';
import { INBOX_QUEUE } from '../../db/migrations/013_documents.ts';
import { inboxBody } from './body.ts';
import { sniffMediaType } from './rules.ts';
import { book, discard, inboxEntry, listInbox, upload, type Upload } from './service.ts';

/** The AI inbox (docs/documents.md): upload, list, read, book, discard. */

const urls = (req: { ctx: Context; company: { dataset: string } }) => ({ documents: documentUrlBase(req) });
const entryId = (raw: string) => idParam(raw, 'inbox entry');

/** The uploaded file: a data URI, or plain base64 with media_type; its type told by its bytes. */
function uploadOf(ctx: Context, body: { name: string; data: string; media_type?: string }): Upload {
  const limit = (ctx.config as LedgerConfig).fileLimit;
  const uri = body.data.startsWith('data:')
    ? body.data
    : body.media_type
      ? `data:${body.media_type};base64,${body.data}`
      : undefined;
  if (!uri)
    throw new ApiError(
      'invalid_request',
      'data must be a data URI (data:<media_type>;base64,…), or base64 with media_type.',
      '/media_type',
    );
  const file = parseDataUri(body.name, uri, limit, '/data');
  if (file.data.length === 0) throw new ApiError('invalid_request', 'The file is empty.', '/data');
  return { name: file.name, mediaType: sniffMediaType(file.data, file.mediaType), data: file.data };
}

export const inboxRoutes = [
  route(contracts.listInbox, async (req) => listInbox(req.tx, req.company.id, req.query, urls(req))),
  route(
    contracts.uploadToInbox,
    async (req) =>
      upload(req, uploadOf(req.ctx, req.body), (req.ctx.config as LedgerConfig).inboxQueue ?? INBOX_QUEUE, urls(req)),
    { prepareBody: inboxBody },
  ),
  route(contracts.getInboxEntry, async (req) => inboxEntry(req.tx, req.company.id, entryId(req.params.id), urls(req))),
  route(
    contracts.bookInboxEntry,
    async (req) => {
      const c = {
        ...documentContext({ ...req, params: { vc: 'vendor' as const } }, 'transaction'),
        vc: 'vendor' as const,
      };
      return book(c, entryId(req.params.id), req.body);
    },
    { prepareBody: optionalBody },
  ),
  route(contracts.discardInboxEntry, async (req) => {
    await discard(req, entryId(req.params.id));
  }),
];
