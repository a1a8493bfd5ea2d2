import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { agentPolicies, pathOf, Policies, PoliciesJson, policyMatcher, type Policy } from '../../src/ratelimit/policies.ts';

const agents: Policy = { name: 'agents', networks: ['160.79.104.0/21', '2001:db8::/32'], quota: 1200, windowSeconds: 60, key: 'address' };
const office: Policy = {
  name: 'office',
  networks: ['198.51.100.0/24', '2001:db8:1::/48'],
  quota: 5000,
  windowSeconds: 3600,
  key: 'network',
};
const everyone: Policy = { name: 'everyone-v4', networks: ['0.0.0.0/0'], quota: 10, windowSeconds: 60, key: 'address' };

/** Each problem as `[1].networks[0]: message`, as start-up prints them after the variable's name. */
function problems(value: unknown): string[] {
  const result = v.safeParse(Policies, value);
  return result.success ? [] : result.issues.map((issue) => `${pathOf(issue)}: ${issue.message}`);
}

describe('policyMatcher', () => {
  const policyFor = policyMatcher([agents, office]);

  it.each([
    ['160.79.104.0', 'agents'],
    ['160.79.104.9', 'agents'],
    ['160.79.111.255', 'agents'],
    ['2001:db8::1', 'agents'],
    ['2001:db8:ffff:ffff::1', 'agents'],
    ['198.51.100.200', 'office'],
  ])('puts %s under %s', (address, name) => {
    expect(policyFor(address)?.name).toBe(name);
  });

  it.each(['160.79.103.255', '160.79.112.0', '198.51.101.1', '2001:db9::1', '203.0.113.7', '::1', 'unknown', '', 'not an address'])(
    'leaves %s under default',
    (address) => {
      expect(policyFor(address)).toBeUndefined();
    },
  );

  it('gives the first matching entry, in the order written', () => {
    // 2001:db8:1::/48 (office) lies inside 2001:db8::/32 (agents), which comes first.
    expect(policyFor('2001:db8:1::5')?.name).toBe('agents');
    expect(policyMatcher([office, agents])('2001:db8:1::5')?.name).toBe('office');
    expect(policyMatcher([office, agents])('2001:db8:2::5')?.name).toBe('agents');
  });

  it.each(['::ffff:160.79.104.9', '::ffff:a04f:6809', '64:ff9b::160.79.104.9', '64:ff9b::a04f:6809', '[64:ff9b::a04f:6809]'])(
    'matches the IPv4-mapped or NAT64 %s as the IPv4 address it carries (160.79.104.9)',
    (address) => {
      expect(policyFor(address)?.name).toBe('agents');
    },
  );

  it('matches NAT64 64:ff9b::c000:207 as 192.0.2.7, and an IPv4 range holds no other IPv6 address', () => {
    const documentation = policyMatcher([{ ...agents, networks: ['192.0.2.0/24'] }]);
    expect(documentation('64:ff9b::c000:207')?.name).toBe('agents');
    expect(documentation('192.0.2.7')?.name).toBe('agents');
    expect(documentation('2001:db8::c000:207')).toBeUndefined();
    expect(documentation('::c000:207')).toBeUndefined();
    expect(policyMatcher([everyone])('2001:db8::1')).toBeUndefined();
    expect(policyMatcher([everyone])('64:ff9b::1')?.name).toBe('everyone-v4');
  });

  it('compares addresses, not their text: every IPv6 text form of one address matches alike', () => {
    for (const address of [
      '2001:DB8::1',
      '2001:0db8:0000:0000:0000:0000:0000:0001',
      '[2001:db8::1]',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8::1'),
    ]) {
      expect(policyFor(address)?.name, address).toBe('agents');
    }
  });

  it('matches /0, /32 and /128 networks', () => {
    const exact = policyMatcher([{ ...agents, networks: ['203.0.113.7/32', '2001:db8::7/128', '::/0'] }]);
    expect(exact('203.0.113.7')).toBeDefined();
    expect(exact('203.0.113.8')).toBeUndefined();
    expect(exact('2001:db8::7')).toBeDefined();
    expect(exact('fe80::1')).toBeDefined();
  });

  it('with no policies, everyone stays under default', () => {
    expect(policyMatcher([])('160.79.104.9')).toBeUndefined();
  });

  it('refuses a network that is not a CIDR, for an embedding app that skipped validation', () => {
    expect(() => policyMatcher([{ ...agents, networks: ['160.79.104.0'] }])).toThrow(
      /policy "agents": "160.79.104.0" is not an IPv4 or IPv6 network/,
    );
  });
});

describe('the RATE_LIMIT_POLICIES schema', () => {
  it('accepts the contract example; key defaults to address', () => {
    const { key: _, ...written } = agents;
    expect(v.parse(Policies, [written])).toEqual([agents]);
    expect(v.parse(PoliciesJson, JSON.stringify([written, office]))).toEqual([agents, office]);
    expect(v.parse(Policies, [])).toEqual([]);
  });

  it('names each bad entry and member', () => {
    expect(
      problems([
        agents,
        { name: 'office', networks: ['10.0.0.0/33', '10.1.0.0/16'], quota: 0, windowSeconds: 86_401, key: 'client' },
        { name: 'default', networks: [], quota: 1.5, windowSeconds: '60', extra: true },
        'agents',
      ]),
    ).toEqual([
      '[1].networks[0]: "10.0.0.0/33": an IPv4 prefix length is 0 to 32',
      '[1].quota: must be a whole number of requests from 1 to 1000000000',
      '[1].windowSeconds: must be a whole number of seconds from 1 to 86400',
      '[1].key: must be "address" or "network"',
      '[2].name: "default" names the policy of every other client: choose another name',
      '[2].networks: must list at least one network',
      '[2].quota: must be a whole number of requests from 1 to 1000000000',
      '[2].windowSeconds: must be a whole number of seconds from 1 to 86400',
      '[2].extra: is not a member of a policy: write name, networks or agents, quota, windowSeconds and optionally key',
      '[3]: must be an object with name, networks or agents, quota, windowSeconds and optionally key',
    ]);
  });

  it.each([
    ['agents team', 'must be a token'],
    ['', 'must be a token'],
    ['"agents"', 'must be a token'],
    ['agentés', 'must be a token'],
  ])('refuses the name %j', (name, reason) => {
    expect(problems([{ ...agents, name }])).toEqual([`[0].name: ${reason}: letters, digits, "_" and "-"`]);
  });

  it('accepts names made of letters, digits, "_" and "-"', () => {
    expect(problems([{ ...agents, name: 'Agent_hosts-2' }])).toEqual([]);
  });

  it('refuses two entries with one name, since the headers could not tell them apart', () => {
    expect(problems([agents, office, { ...office, networks: ['192.0.2.0/24'] }])).toEqual([
      '[2].name: "office" already names entry [1]: give each policy its own name',
    ]);
  });

  it('refuses what is not a list, missing members, and text that is not JSON', () => {
    expect(problems({ agents })).toEqual([': must be a JSON array of policies']);
    expect(problems([{ name: 'agents' }])).toEqual([
      '[0].quota: is missing: every policy has a name, networks or agents, a quota and a windowSeconds',
      '[0].windowSeconds: is missing: every policy has a name, networks or agents, a quota and a windowSeconds',
      '[0]: names neither networks nor agents: every policy lists one of them',
    ]);
    expect(problems([{ ...agents, networks: '160.79.104.0/21' }])).toEqual(['[0].networks: must be a list of CIDR strings']);
    expect(problems([{ ...agents, networks: [21] }])).toEqual(['[0].networks[0]: must be a CIDR string such as "160.79.104.0/21"']);
    const result = v.safeParse(PoliciesJson, "[{name: 'agents'}]");
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toMatch(/^is not valid JSON \(.+\): write a JSON array of policies$/);
  });
});

describe('policies naming agents (Web Bot Auth)', () => {
  const chatgpt = { name: 'chatgpt', agents: ['https://chatgpt.com'], quota: 600, windowSeconds: 60 };

  it('accepts the contract example, each origin written as its origin', () => {
    expect(v.parse(Policies, [chatgpt])).toEqual([{ ...chatgpt, key: 'address' }]);
    const written = {
      ...chatgpt,
      agents: ['https://Agent.Bot.GOOG/', 'https://example.com:443', 'http://127.0.0.1:8080', 'http://[::1]:9'],
    };
    expect(v.parse(Policies, [written])[0]!.agents).toEqual([
      'https://agent.bot.goog',
      'https://example.com',
      'http://127.0.0.1:8080',
      'http://[::1]:9',
    ]);
  });

  it('refuses what is not an origin, http off loopback, and both or neither of networks and agents', () => {
    expect(
      problems([
        { ...chatgpt, agents: ['chatgpt.com', 'https://chatgpt.com/agent', 'https://u:p@chatgpt.com', 'https://chatgpt.com/?a', 7] },
        { ...chatgpt, name: 'plain', agents: ['http://chatgpt.com', 'http://localhost:8080', 'ftp://chatgpt.com'] },
        { ...chatgpt, name: 'both', networks: ['192.0.2.0/24'] },
        { ...chatgpt, name: 'empty', agents: [] },
        { name: 'neither', quota: 1, windowSeconds: 1 },
      ]),
    ).toEqual([
      '[0].agents[0]: "chatgpt.com" must be an agent\'s origin such as "https://chatgpt.com" (no path, query or user)',
      '[0].agents[1]: "https://chatgpt.com/agent" must be an agent\'s origin such as "https://chatgpt.com" (no path, query or user)',
      '[0].agents[2]: "https://u:p@chatgpt.com" must be an agent\'s origin such as "https://chatgpt.com" (no path, query or user)',
      '[0].agents[3]: "https://chatgpt.com/?a" must be an agent\'s origin such as "https://chatgpt.com" (no path, query or user)',
      '[0].agents[4]: must be an agent\'s origin such as "https://chatgpt.com" (no path, query or user)',
      '[1].agents[0]: "http://chatgpt.com" must use https (http only on a loopback address, such as http://127.0.0.1:8080, for tests)',
      '[1].agents[1]: "http://localhost:8080" must use https (http only on a loopback address, such as http://127.0.0.1:8080, for tests)',
      '[1].agents[2]: "ftp://chatgpt.com" must be an agent\'s origin such as "https://chatgpt.com" (no path, query or user)',
      '[2].agents: names both networks and agents: write two policies, one for each',
      '[3].agents: must list at least one agent origin',
      '[4]: names neither networks nor agents: every policy lists one of them',
    ]);
  });

  it('gives each origin the first policy naming it, and leaves networks to the address matcher', () => {
    const policies = v.parse(Policies, [
      chatgpt,
      { ...chatgpt, name: 'both-agents', agents: ['https://chatgpt.com', 'https://agent.bot.goog'] },
    ]);
    const byAgent = agentPolicies(policies);
    expect([...byAgent].map(([origin, policy]) => [origin, policy.name])).toEqual([
      ['https://chatgpt.com', 'chatgpt'],
      ['https://agent.bot.goog', 'both-agents'],
    ]);
    expect(policyMatcher(policies)('160.79.104.9')).toBeUndefined();
  });
});
