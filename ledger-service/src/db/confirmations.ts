import type { Tx } from './knex.ts';

/**
 * The confirmations AI connections have used (migration 022, kernel/confirmation.ts): taking
 * one inserts its row in the write's transaction; a token used before (or being used by a
 * write still running: the insert waits for it) is not taken again. Rows of expired tokens
 * go at the same time.
 */
export async function takeConfirmation(
  tx: Tx,
  use: { companyId: number; tokenHash: string; connectionId: string; tool: string; expiresAt: Date },
): Promise<boolean> {
  await tx('assistant_confirmations')
    .where({ company_id: use.companyId })
    .andWhere('expires_at', '<', tx.fn.now())
    .delete();
  const taken = await tx('assistant_confirmations')
    .insert({
      company_id: use.companyId,
      token_hash: use.tokenHash,
      connection_id: use.connectionId,
      tool: use.tool,
      expires_at: use.expiresAt,
    })
    .onConflict(['company_id', 'token_hash'])
    .ignore()
    .returning('token_hash');
  return taken.length === 1;
}
