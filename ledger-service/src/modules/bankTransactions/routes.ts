import { contracts } from '@ledger/shared';
import type { Context } from 'koa';
import { companyIdOf, fileJobsOf } from '../../kernel/deps.ts';
import { idParam } from '../../kernel/params.ts';
import { textBodyType } from '../../kernel/body.ts';
import { Prepared, route } from '../../kernel/route.ts';
import type { ParsedStatement } from './rules.ts';
import { bankTransactionById, bookBankTransaction, importStatements, listBankTransactions } from './service.ts';
import { previewRules, reconcile, reconciliation, ruleFromLine, unreconcile } from './automation.ts';
import { readStatementFile } from './statementFile.ts';

/** The import's body once read: the statements of the file (parsed on a parsing thread) and its media type. */
interface StatementUpload {
  statements: ParsedStatement[];
  mediaType: string;
}

/**
 * The file is parsed before the request's transaction begins (prepareBody runs after the
 * permission check, outside it): no database connection waits while a thread reads it.
 * The kernel read it as text and accepted its media type (contract textBody).
 */
async function readUpload(ctx: Context): Promise<Prepared<StatementUpload>> {
  const text = ctx.request.body as string;
  const mediaType = textBodyType(ctx) ?? '';
  const statements = await readStatementFile(fileJobsOf(ctx), text, mediaType, companyIdOf(ctx));
  return new Prepared(text, { statements, mediaType });
}

/** Bank statement import, the imported transactions, the rules' preview and reconciliation. */
export const bankTransactionRoutes = [
  route(
    contracts.importBankTransactions,
    async (req) => importStatements(req, req.prepared.statements, req.prepared.mediaType, req.query),
    { prepareBody: readUpload },
  ),
  route(contracts.listBankTransactions, async (req) => listBankTransactions(req, req.query)),
  route(contracts.getBankTransaction, async (req) =>
    bankTransactionById(req, idParam(req.params.id, 'bank transaction')),
  ),
  route(contracts.bookBankTransaction, async (req) =>
    bookBankTransaction(req, idParam(req.params.id, 'bank transaction'), req.body),
  ),
  // bank automation (automation.ts): the rules' preview, a rule from a booked line, reconciliation
  route(contracts.previewBankRules, async (req) => previewRules(req, req.body)),
  route(contracts.createBankRuleFromTransaction, async (req) =>
    ruleFromLine(req, idParam(req.params.id, 'bank transaction'), req.body),
  ),
  route(contracts.getBankReconciliation, async (req) =>
    reconciliation(req, idParam(req.params.id, 'bank account'), req.query.date),
  ),
  route(contracts.reconcileBankAccount, async (req) =>
    reconcile(req, idParam(req.params.id, 'bank account'), req.body),
  ),
  route(contracts.unreconcileBankAccount, async (req) => {
    await unreconcile(req, idParam(req.params.id, 'bank account'), req.query.date);
    return undefined;
  }),
];
