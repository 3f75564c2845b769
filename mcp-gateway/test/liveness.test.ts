/**
 * The one rule of whether an AI connection lives (oauth/liveness.ts), at its edges. The
 * token endpoint, the MCP endpoint, the ledger check, consent and the housekeeping sweep
 * all call it (lifecycle.test.ts, token.test.ts and connectionCheck.test.ts run them
 * against a real ledger); here the rule itself.
 */
import t from 'tap';
import type { MemberInfo } from '../src/ledgerClient.ts';
import { LIFETIME } from '../src/oauth/lifetimes.ts';
import { idleCutoff, liveness, standingRefusal, type ConnectionState } from '../src/oauth/liveness.ts';

const now = 1_800_000_000_000;
const active = (lastUsed = now): ConnectionState => ({ state: 'active', end_reason: null, last_used_at: lastUsed });

t.test('ended is final, whatever else holds', async (t) => {
  t.same(liveness({ state: 'ended', end_reason: 'replaced', last_used_at: now }, now), {
    status: 'ended',
    reason: 'replaced',
  });
  t.same(
    liveness({ state: 'ended', end_reason: null, last_used_at: 0 }, now, { kind: 'access', expires_at: 0 }),
    { status: 'ended', reason: null },
    'before an expired token or idleness',
  );
});

t.test('an access token expires; a refresh token running out is the idle end', async (t) => {
  t.same(liveness(active(), now, { kind: 'access', expires_at: now }), { status: 'expired' }, 'at its expiry');
  t.same(liveness(active(), now, { kind: 'access', expires_at: now + 1 }), { status: 'live' }, 'a ms before');
  t.same(liveness(active(), now, { kind: 'refresh', expires_at: now }), { status: 'ends', reason: 'idle' });
});

t.test('90 days unused ends it; the sweep uses the same cutoff', async (t) => {
  t.same(liveness(active(now - LIFETIME.idle), now), { status: 'live' }, 'exactly 90 days: still live');
  t.same(liveness(active(now - LIFETIME.idle - 1), now), { status: 'ends', reason: 'idle' }, 'a ms more');
  t.equal(idleCutoff(now), now - LIFETIME.idle, 'housekeeping ends last_used_at < this');
});

t.test("the person's standing, in the ledger's order", async (t) => {
  const company = { dataset: 'a', name: 'A', ai_connections_enabled: true };
  const member: MemberInfo = {
    company,
    user_exists: true,
    user_active: true,
    role: 'owner',
    may_connect_assistants: true,
  };
  t.equal(standingRefusal(member), undefined, 'an active owner with the switch on may');
  t.equal(standingRefusal(undefined), 'company_gone');
  t.equal(standingRefusal({ ...member, user_exists: false, role: null }), 'user_deactivated');
  t.equal(standingRefusal({ ...member, user_active: false, may_connect_assistants: false }), 'user_deactivated');
  t.equal(standingRefusal({ ...member, role: null, may_connect_assistants: false }), 'membership_lost');
  t.equal(standingRefusal({ ...member, role: 'clerk', may_connect_assistants: false }), 'role_lost');
  t.equal(standingRefusal({ ...member, company: { ...company, ai_connections_enabled: false } }), 'ai_connections_off');
  t.equal(
    standingRefusal({
      ...member,
      role: 'clerk',
      may_connect_assistants: false,
      company: { ...company, ai_connections_enabled: false },
    }),
    'role_lost',
    'the first failing check names the reason',
  );
});
