import { MAX_BANK_RULES } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { findBankAccount, findChartAccount } from '../bank/index.ts';
import { getParty } from '../parties/index.ts';
import { checkDimensions, loadDimensionCatalogue, namesDimensions } from '../dimensions/index.ts';
import { checkRuleShape, partySide, type BankRule, type BankRuleInput } from './rules.ts';
import {
  countRules,
  deleteRule,
  findRule,
  insertRule,
  listRules,
  lockRules,
  nextPriority,
  setPriorities,
  taxCodeAccount,
  updateRule,
} from './store.ts';

/**
 * The company's bank rules (docs/bank.md "Bank rules"): checked (rules.ts for their shape, here
 * for what they name: accounts, tax code, party, bank account, dimensions), stored in order, audited.
 */

async function chartAccount(c: ServiceContext, accno: string, field: string): Promise<void> {
  const account = await findChartAccount(c.tx, c.company.id, accno);
  if (!account) throw ruleInvalid(`Account ${accno} does not exist in the chart of accounts.`, field);
  if (account.links.includes('AR') || account.links.includes('AP')) {
    throw ruleInvalid(
      `Account ${accno} is a receivables or payables control account: settle documents with a settle rule instead.`,
      field,
    );
  }
}

/** Everything a rule names must exist in the company: else 400 naming the field, nothing stored. */
async function checkRule(c: ServiceContext, input: BankRuleInput): Promise<void> {
  checkRuleShape(input);
  const { conditions: cond, action } = input;
  if (cond.bank_account_id !== undefined && !(await findBankAccount(c.tx, c.company.id, cond.bank_account_id)))
    throw ruleInvalid(`No bank account with id ${cond.bank_account_id}.`, '/conditions/bank_account_id');
  if (action.kind === 'book') {
    await chartAccount(c, action.account, '/action/account');
    if (action.tax !== undefined && (await taxCodeAccount(c.tx, c.company.id, action.tax)) === undefined)
      throw ruleInvalid(`No tax code ${action.tax} (GET /system/taxes).`, '/action/tax');
    if (namesDimensions([action]))
      checkDimensions(action.dimensions, await loadDimensionCatalogue(c.tx, c.company.id), '/action/dimensions');
  } else {
    await chartAccount(c, action.difference_account, '/action/difference_account');
  }
  const partyId = action.kind === 'settle' ? action.party_id : action.party_id;
  if (partyId !== undefined) {
    const side = partySide(input);
    if (!(await getParty(c.tx, c.company.id, side, partyId)))
      throw ruleInvalid(`No ${side} with id ${partyId}.`, '/action/party_id');
  }
}

export async function bankRules(c: ServiceContext): Promise<BankRule[]> {
  return listRules(c.tx, c.company.id);
}

export async function bankRuleById(c: ServiceContext, id: number): Promise<BankRule> {
  const rule = await findRule(c.tx, c.company.id, id);
  if (!rule) throw notFound(`No bank rule with id ${id}.`);
  return rule;
}

export async function addBankRule(c: ServiceContext, input: BankRuleInput): Promise<{ id: number }> {
  await checkRule(c, input);
  await lockRules(c.tx, c.company.id);
  if ((await countRules(c.tx, c.company.id)) >= MAX_BANK_RULES)
    throw conflict(`The company has ${MAX_BANK_RULES} bank rules, the most it may have.`);
  const priority = input.priority ?? (await nextPriority(c.tx, c.company.id));
  const id = await insertRule(c.tx, c.company.id, input, priority);
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_rule', id, 'create', { ...input, priority });
  return { id };
}

export async function changeBankRule(c: ServiceContext, id: number, input: BankRuleInput): Promise<BankRule> {
  const current = await bankRuleById(c, id);
  await checkRule(c, input);
  const priority = input.priority ?? current.priority;
  await updateRule(c.tx, c.company.id, id, input, priority);
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_rule', id, 'update', { ...input, priority });
  return bankRuleById(c, id);
}

export async function removeBankRule(c: ServiceContext, id: number): Promise<void> {
  const current = await bankRuleById(c, id);
  await deleteRule(c.tx, c.company.id, id);
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_rule', id, 'delete', { name: current.name });
}

/** The new order: `ids` must name every rule of the company once (else 400 naming the ids missing or unknown). */
export async function orderBankRules(c: ServiceContext, ids: readonly number[]): Promise<BankRule[]> {
  await lockRules(c.tx, c.company.id);
  const known = new Set((await listRules(c.tx, c.company.id)).map((r) => r.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw ruleInvalid(`No bank rules with ids ${unknown.join(', ')}.`, '/ids');
  const missing = [...known].filter((id) => !ids.includes(id));
  if (missing.length > 0) throw ruleInvalid(`ids must name every bank rule; missing: ${missing.join(', ')}.`, '/ids');
  await setPriorities(c.tx, c.company.id, ids);
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_rule', null, 'order', { ids });
  return listRules(c.tx, c.company.id);
}
