/**
 * @module Per-network and per-agent rate-limit policies (RATE_LIMIT_POLICIES, `rateLimit.policies`):
 * the schema of the list and the matchers that pick a request's policy. An entry names networks or
 * agents (the origins of Web Bot Auth signers). The first entry with a network holding the address
 * wins; an address no entry lists stays under `default`. An IPv4-mapped or NAT64 address matches IPv4
 * networks as the IPv4 address it carries (the same rule that keys it). A verified agent is under the
 * first entry naming its origin.
 */
import * as v from 'valibot';
import { StartupError } from '../util/startup-error.ts';
import { contains, parseAddress, parseNetwork } from '../util/ipaddr.ts';
import { originOf } from '../agents/origin.ts';
import { once } from '../util/once.ts';

const whole = (what: string, min: number, max: number) =>
  v.pipe(
    v.number(`must be a whole number of ${what} from ${min} to ${max}`),
    v.integer(`must be a whole number of ${what} from ${min} to ${max}`),
    v.minValue(min, `must be a whole number of ${what} from ${min} to ${max}`),
    v.maxValue(max, `must be a whole number of ${what} from ${min} to ${max}`),
  );

const network = v.pipe(
  v.string('must be a CIDR string such as "160.79.104.0/21"'),
  v.rawCheck(({ dataset, addIssue }) => {
    const parsed = dataset.typed ? parseNetwork(dataset.value) : undefined;
    if (typeof parsed === 'string') addIssue({ message: parsed });
  }),
);

/** Parsed when a policy first names an agent, not when the module loads: most starts name none. */
const loopbackNetworks = once(() => [parseNetwork('127.0.0.0/8'), parseNetwork('::1/128')] as const);
const AGENT_USAGE = 'must be an agent\'s origin such as "https://chatgpt.com" (no path, query or user)';

/** An agent's origin as a policy names it: https, or http on a loopback address (for tests); written as its origin. */
const agent = v.pipe(
  v.string(AGENT_USAGE),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const origin = originOf(dataset.value);
    if (origin === undefined) {
      addIssue({ message: `"${dataset.value}" ${AGENT_USAGE}` });
      return NEVER;
    }
    const host = new URL(origin).hostname;
    const address = parseAddress(host);
    const loopback =
      address !== undefined && loopbackNetworks().some((network) => typeof network !== 'string' && contains(network, address));
    if (origin.startsWith('http:') && !loopback) {
      addIssue({
        message: `"${dataset.value}" must use https (http only on a loopback address, such as http://127.0.0.1:8080, for tests)`,
      });
      return NEVER;
    }
    return origin;
  }),
);

const MEMBERS = 'name, networks or agents, quota, windowSeconds and optionally key';

const Entry = v.strictObject(
  {
    name: v.pipe(
      v.string('must be a string'),
      v.regex(/^[A-Za-z0-9_-]+$/, 'must be a token: letters, digits, "_" and "-"'),
      v.check((name) => name !== 'default', '"default" names the policy of every other client: choose another name'),
    ),
    networks: v.optional(v.pipe(v.array(network, 'must be a list of CIDR strings'), v.minLength(1, 'must list at least one network'))),
    /** Origins of Web Bot Auth signers (`https://chatgpt.com`): a request one of them signed counts here, by its agent. */
    agents: v.optional(
      v.pipe(
        v.array(agent, 'must be a list of agent origins such as "https://chatgpt.com"'),
        v.minLength(1, 'must list at least one agent origin'),
        v.maxLength(100, 'lists more than 100 agent origins'),
      ),
    ),
    quota: whole('requests', 1, 1_000_000_000),
    windowSeconds: whole('seconds', 1, 86_400),
    /**
     * `address`: each client (or IPv6 prefix), or each agent, counts on its own; `network`: the whole
     * policy shares one count.
     */
    key: v.optional(v.picklist(['address', 'network'], 'must be "address" or "network"'), 'address'),
  },
  (issue) =>
    issue.expected === 'never'
      ? `is not a member of a policy: write ${MEMBERS}`
      : issue.input === undefined
        ? 'is missing: every policy has a name, networks or agents, a quota and a windowSeconds'
        : `must be an object with ${MEMBERS}`,
);

export const Policy = v.pipe(
  Entry,
  // Checked even when another member is wrong, so that every problem of an entry is named at once.
  v.rawCheck(({ dataset, addIssue }) => {
    const { networks, agents } = (dataset.value ?? {}) as { networks?: unknown; agents?: unknown };
    if (typeof dataset.value !== 'object' || dataset.value === null) return;
    if (networks === undefined && agents === undefined) {
      addIssue({ message: 'names neither networks nor agents: every policy lists one of them' });
    } else if (networks !== undefined && agents !== undefined) {
      addIssue({
        message: 'names both networks and agents: write two policies, one for each',
        path: [{ type: 'object', origin: 'value', input: dataset.value as Record<string, unknown>, key: 'agents', value: agents }],
      });
    }
  }),
);
export type Policy = v.InferOutput<typeof Policy>;
/**
 * A policy as written: `key` may be left out. Stated, not inferred, as the package's public API
 * states its types (JSR's "no slow types"); the check below keeps it equal to the schema's input.
 */
export type PolicyInput = {
  name: string;
  /** Networks (CIDR strings) whose clients count under this policy; or `agents`, not both. */
  networks?: string[];
  /** Origins of Web Bot Auth signers (`https://chatgpt.com`) whose signed requests count here, by agent. */
  agents?: string[];
  quota: number;
  windowSeconds: number;
  /** `address` (the default): each client, or agent, counts on its own; `network`: the whole policy shares one count. */
  key?: 'address' | 'network';
};
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** A compile error when PolicyInput and the schema's input differ (not exported, so not in the declarations). */
// biome-ignore lint/correctness/noUnusedVariables: a check the compiler makes, used by nothing else
type PolicyInputHolds = Holds<Same<PolicyInput, v.InferInput<typeof Policy>>>;

export const Policies = v.pipe(
  v.array(Policy, 'must be a JSON array of policies'),
  // The name is what the headers show: two entries with one name could not be told apart.
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const first = new Map<string, number>();
    dataset.value.forEach((policy, index) => {
      const earlier = first.get(policy.name);
      if (earlier === undefined) {
        first.set(policy.name, index);
        return;
      }
      addIssue({
        message: `"${policy.name}" already names entry [${earlier}]: give each policy its own name`,
        path: [
          { type: 'array', origin: 'value', input: dataset.value, key: index, value: policy },
          { type: 'object', origin: 'value', input: policy, key: 'name', value: policy.name },
        ],
      });
    });
  }),
);

/** RATE_LIMIT_POLICIES as written: JSON text holding the list. */
export const PoliciesJson = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return JSON.parse(dataset.value) as unknown;
    } catch (error) {
      addIssue({ message: `is not valid JSON (${(error as Error).message}): write a JSON array of policies` });
      return NEVER;
    }
  }),
  Policies,
);

/** Where an issue lies inside the list, as `[1].networks[0]` (empty for the list itself). */
export function pathOf(issue: v.BaseIssue<unknown>, skip = 0): string {
  return (issue.path ?? [])
    .slice(skip)
    .map((item) => (typeof item.key === 'number' ? `[${item.key}]` : `.${String(item.key)}`))
    .join('');
}

/**
 * The policy of a client address (`policyFor('160.79.104.9')`), or undefined when it stays under
 * `default`. Addresses are compared as parsed numbers, so every text form of one address matches alike.
 */
export function policyMatcher(policies: readonly Policy[]): (address: string) => Policy | undefined {
  const entries = policies.map((policy) => ({
    policy,
    networks: (policy.networks ?? []).map((text) => {
      const network = parseNetwork(text);
      if (typeof network === 'string') throw new TypeError(`policy "${policy.name}": ${network}`);
      return network;
    }),
  }));
  if (entries.length === 0) return () => undefined;
  return function policyFor(address) {
    const parsed = parseAddress(address);
    if (!parsed) return undefined;
    return entries.find(({ networks }) => networks.some((network) => contains(network, parsed)))?.policy;
  };
}

/** The policy of each agent origin a policy names (the first entry naming it wins). */
export function agentPolicies(policies: readonly Policy[]): Map<string, Policy> {
  const byOrigin = new Map<string, Policy>();
  for (const policy of policies) for (const origin of policy.agents ?? []) if (!byOrigin.has(origin)) byOrigin.set(origin, policy);
  return byOrigin;
}

/**
 * An embedding app's `rateLimit.policies`, checked as RATE_LIMIT_POLICIES is: a bad entry is a
 * StartupError naming it (`rateLimit.policies[1].networks[0]: ...`).
 */
export function checkPolicies(given: readonly PolicyInput[] | undefined): Policy[] {
  if (given === undefined) return [];
  const result = v.safeParse(Policies, given);
  if (result.success) return result.output;
  const lines = result.issues.map((issue) => `  rateLimit.policies${pathOf(issue)}: ${issue.message}`);
  throw new StartupError(`Invalid rate-limit policies:\n${lines.join('\n')}`);
}
