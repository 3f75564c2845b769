import type { Tx } from '../../db/knex.ts';
import type { BankRule, BankRuleInput, RuleAction, RuleConditions } from './rules.ts';

/** The company's bank rules (table bank_rules, migration 035). Runs inside the tenant transaction. */

interface RuleRow {
  id: number | string;
  name: string;
  priority: number;
  auto: boolean;
  conditions: RuleConditions;
  action: RuleAction;
}

const COLUMNS = ['id', 'name', 'priority', 'auto', 'conditions', 'action'];

const toRule = (r: RuleRow): BankRule => ({
  id: Number(r.id),
  name: r.name,
  priority: r.priority,
  auto: r.auto,
  conditions: r.conditions,
  action: r.action,
});

/** Every rule of the company in the order they are tried: priority, then id. */
export async function listRules(tx: Tx, companyId: number): Promise<BankRule[]> {
  const rows = await tx('bank_rules')
    .where({ company_id: companyId })
    .orderBy([{ column: 'priority' }, { column: 'id' }])
    .select<RuleRow[]>(COLUMNS);
  return rows.map(toRule);
}

export async function findRule(tx: Tx, companyId: number, id: number): Promise<BankRule | undefined> {
  const row = await tx('bank_rules').where({ company_id: companyId, id }).first<RuleRow | undefined>(COLUMNS);
  return row && toRule(row);
}

/** Locks the company's rules (creating, reordering), so two writers number priorities one after the other. */
export async function lockRules(tx: Tx, companyId: number): Promise<void> {
  await tx('bank_rules').where({ company_id: companyId }).forUpdate().select('id');
}

export async function nextPriority(tx: Tx, companyId: number): Promise<number> {
  const row = await tx('bank_rules').where({ company_id: companyId }).max({ p: 'priority' }).first();
  return row?.p === null || row?.p === undefined ? 10 : Number(row.p) + 10;
}

export async function countRules(tx: Tx, companyId: number): Promise<number> {
  const row = await tx('bank_rules').where({ company_id: companyId }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

const values = (input: BankRuleInput, priority: number) => ({
  name: input.name,
  priority,
  auto: input.auto ?? false,
  conditions: JSON.stringify(input.conditions),
  action: JSON.stringify(input.action),
});

export async function insertRule(tx: Tx, companyId: number, input: BankRuleInput, priority: number): Promise<number> {
  const [row] = await tx('bank_rules')
    .insert({ company_id: companyId, ...values(input, priority) })
    .returning<{ id: number | string }[]>('id');
  return Number(row!.id);
}

export async function updateRule(
  tx: Tx,
  companyId: number,
  id: number,
  input: BankRuleInput,
  priority: number,
): Promise<void> {
  await tx('bank_rules')
    .where({ company_id: companyId, id })
    .update({ ...values(input, priority), updated_at: tx.fn.now() });
}

export async function deleteRule(tx: Tx, companyId: number, id: number): Promise<boolean> {
  return (await tx('bank_rules').where({ company_id: companyId, id }).delete()) > 0;
}

/** New priorities 10, 20, 30, … in the order of `ids`, in one statement. */
export async function setPriorities(tx: Tx, companyId: number, ids: readonly number[]): Promise<void> {
  await tx.raw(
    `update bank_rules r set priority = x.priority, updated_at = now()
       from jsonb_to_recordset(?::jsonb) as x(id bigint, priority int)
      where r.company_id = ? and r.id = x.id`,
    [JSON.stringify(ids.map((id, i) => ({ id, priority: (i + 1) * 10 }))), companyId],
  );
}

/** The tax code's account number, if the company has the code. */
export async function taxCodeAccount(tx: Tx, companyId: number, code: string): Promise<string | undefined> {
  const row = await tx('taxes as x')
    .join('accounts as a', (j) => j.on('a.id', 'x.account_id').andOn('a.company_id', 'x.company_id'))
    .where({ 'x.company_id': companyId, 'x.code': code })
    .first<{ accno: string } | undefined>('a.accno');
  return row?.accno;
}
