/**
 * @module Per-network rate-limit policies (RATE_LIMIT_POLICIES, `rateLimit.policies`): the schema of
 * the list and the matcher that picks a client address's policy. The first entry with a network
 * holding the address wins; an address no entry lists stays under `default`. An IPv4-mapped or NAT64
 * address matches IPv4 networks as the IPv4 address it carries (the same rule that keys it).
 */
import * as v from 'valibot';
import { StartupError } from '../startup-error.ts';
import { compress, embeddedIpv4, ipv4Bytes, ipv6Groups } from './client.ts';

/** An address or network as 16-bit groups: two for IPv4, eight for IPv6. */
interface Bits {
  family: 4 | 6;
  groups: number[];
}

interface Network extends Bits {
  prefix: number;
}

const ipv4Groups = (bytes: number[]) => [(bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!];

/** A client address as its bits, IPv4 for one that carries an IPv4 address; undefined if it is no address. */
function addressBits(address: string): Bits | undefined {
  const groups = address.includes(':') ? ipv6Groups(address) : undefined;
  if (groups) {
    const carried = embeddedIpv4(groups);
    return carried ? { family: 4, groups: ipv4Groups(ipv4Bytes(carried)!) } : { family: 6, groups };
  }
  const bytes = ipv4Bytes(address);
  return bytes && { family: 4, groups: ipv4Groups(bytes) };
}

/** The first `prefix` bits of each group kept, the rest zero. */
function masked(groups: number[], prefix: number): number[] {
  return groups.map((group, index) => group & ((0xffff << (16 - Math.min(16, Math.max(0, prefix - index * 16)))) & 0xffff));
}

function textOf({ family, groups }: Bits): string {
  return family === 4 ? [groups[0]! >> 8, groups[0]! & 0xff, groups[1]! >> 8, groups[1]! & 0xff].join('.') : compress(groups);
}

/** A CIDR (`160.79.104.0/21`, `2001:db8::/32`), or the reason it is not one. */
export function parseNetwork(text: string): Network | string {
  const usage = `"${text}" is not an IPv4 or IPv6 network in CIDR notation, such as 160.79.104.0/21 or 2001:db8::/32`;
  const match = /^([0-9A-Fa-f:.]+)\/(\d{1,3})$/.exec(text);
  if (!match) return usage;
  const address = match[1]!;
  const groups = address.includes(':') ? ipv6Groups(address) : ipv4Bytes(address) && ipv4Groups(ipv4Bytes(address)!);
  if (!groups) return usage;
  const family = groups.length === 8 ? 6 : 4;
  const prefix = Number(match[2]);
  const most = family === 4 ? 32 : 128;
  if (prefix > most) return `"${text}": an IPv${family} prefix length is 0 to ${most}`;
  const network: Network = { family, groups: masked(groups, prefix), prefix };
  if (network.groups.some((group, index) => group !== groups[index])) {
    return `"${text}" has address bits set past its /${prefix} prefix: write ${textOf(network)}/${prefix}`;
  }
  const carried = family === 6 && prefix >= 96 ? embeddedIpv4(groups) : undefined;
  if (carried) return `"${text}" holds IPv4 addresses, which are matched as IPv4: write ${carried}/${prefix - 96}`;
  return network;
}

function contains(network: Network, address: Bits): boolean {
  if (network.family !== address.family) return false;
  return masked(address.groups, network.prefix).every((group, index) => group === network.groups[index]);
}

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

export const Policy = v.strictObject(
  {
    name: v.pipe(
      v.string('must be a string'),
      v.regex(/^[A-Za-z0-9_-]+$/, 'must be a token: letters, digits, "_" and "-"'),
      v.check((name) => name !== 'default', '"default" names the policy of every other client: choose another name'),
    ),
    networks: v.pipe(v.array(network, 'must be a list of CIDR strings'), v.minLength(1, 'must list at least one network')),
    quota: whole('requests', 1, 1_000_000_000),
    windowSeconds: whole('seconds', 1, 86_400),
    /** `address`: each client (or IPv6 prefix) counts on its own; `network`: the whole policy shares one count. */
    key: v.optional(v.picklist(['address', 'network'], 'must be "address" or "network"'), 'address'),
  },
  (issue) =>
    issue.expected === 'never'
      ? 'is not a member of a policy: write name, networks, quota, windowSeconds and optionally key'
      : issue.input === undefined
        ? 'is missing: every policy has a name, networks, a quota and a windowSeconds'
        : 'must be an object with name, networks, quota, windowSeconds and optionally key',
);
export type Policy = v.InferOutput<typeof Policy>;
/** A policy as written: `key` may be left out. */
export type PolicyInput = v.InferInput<typeof Policy>;

export const Policies = v.pipe(
  v.array(Policy, 'must be a JSON array of policies'),
  // The name is what the headers show: two entries with one name could not be told apart.
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const first = new Map<string, number>();
    dataset.value.forEach((policy, index) => {
      const earlier = first.get(policy.name);
      if (earlier === undefined) return void first.set(policy.name, index);
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
    networks: policy.networks.map((text) => {
      const network = parseNetwork(text);
      if (typeof network === 'string') throw new TypeError(`policy "${policy.name}": ${network}`);
      return network;
    }),
  }));
  if (entries.length === 0) return () => undefined;
  return function policyFor(address) {
    const bits = addressBits(address);
    if (!bits) return undefined;
    return entries.find(({ networks }) => networks.some((network) => contains(network, bits)))?.policy;
  };
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
