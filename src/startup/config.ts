/**
 * @module Configuration: the environment turned into typed, validated options, once, at start-up.
 * The only module that knows the variable names; everything else receives `Options`.
 */
import * as v from 'valibot';
import { checkDeprecation, SUCCESSOR_PATH_DEFAULT, SUCCESSOR_PATH_PATTERN } from '../contract/deprecation.ts';
import { originEntry, ORIGIN_LIST_USAGE } from '../http/cors.ts';
import { baseUrlProblem, isHttpUrl, withoutTrailingSlash } from '../contract/base-url.ts';
import { CONTENT_SIGNAL_DEFAULT, contentSignalProblem, normalisedContentSignal } from '../discovery/content-signal.ts';
import type { HandlerOptions } from '../handler.ts';
import { securityContactProblem } from '../discovery/security-txt.ts';
import { MCP_DEFAULTS } from '../mcp/gate.ts';
import { clientIpHeaderProblem, clientTrust, TRUST_PROXY_HOPS_DEFAULT } from '../ratelimit/client.ts';
import { RATE_LIMIT_ANSWER_RULE, RATE_LIMIT_ANSWERS } from '../mcp/over-quota.ts';
import { RATE_LIMIT_DEFAULTS, type RateLimitOptions } from '../ratelimit/index.ts';
import { FAIL_OPEN_SHARE_RULE, FAIL_RULE, isFailOpenShare } from '../ratelimit/limiter.ts';
import { PoliciesJson, pathOf } from '../ratelimit/policies.ts';
import {
  RedisUrl,
  RedisUrlList,
  RestToken,
  RestUrl,
  restTargetOf,
  sharedStoreOf,
  tableNameProblem,
  type StoreNames,
} from '../ratelimit/stores/choice.ts';
import { RANGES, rangeProblem, type Range } from '../util/ranges.ts';
import { invalidConfiguration, settingLine } from '../util/startup-error.ts';
import type { TelemetryConfig } from '../telemetry/sdk.ts';
import { commaList } from '../util/comma-list.ts';

/** Redis over HTTP: our own pair first, then the names Upstash's and Vercel's marketplace integrations set. */
const REDIS_REST_PAIRS = [
  ['RATE_LIMIT_REDIS_REST_URL', 'RATE_LIMIT_REDIS_REST_TOKEN'],
  ['UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN'],
  ['KV_REST_API_URL', 'KV_REST_API_TOKEN'],
] as const;

/** What only a runtime entry needs; every other default belongs to the module it configures. */
const DEFAULTS = { port: 8787, host: '127.0.0.1' };

const ISO_DATE_OR_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** A whole number within its range, refused in the words of util/ranges.ts. */
const wholeNumber = (range: Range) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, rangeProblem(range)),
    v.transform(Number),
    v.minValue(range.min, rangeProblem(range)),
    v.maxValue(range.max, rangeProblem(range)),
  );

/** A value checked by a rule module's own words (`problem`), so every way in refuses it alike. */
const ruled = (problem: (text: string) => string | undefined) =>
  v.pipe(
    v.string(),
    v.rawCheck(({ dataset, addIssue }) => {
      const found = dataset.typed ? problem(dataset.value) : undefined;
      if (found) addIssue({ message: found });
    }),
  );

const isoDate = v.pipe(
  v.string(),
  v.regex(ISO_DATE_OR_DATE_TIME, 'must be an ISO 8601 date (2027-01-31) or date-time with an offset (2027-01-31T12:00:00Z)'),
  // Date.parse rolls 2027-02-30 over to March; a real date reads back the same.
  v.check(
    (text) => Date.parse(text) >= 0 && new Date(Date.parse(text.slice(0, 10))).toISOString().startsWith(text.slice(0, 10)),
    'is not a real calendar date',
  ),
  v.transform((text) => new Date(text)),
);

const httpOrigin = v.pipe(
  v.string(),
  v.url('must be an absolute URL such as https://api.example.com'),
  v.check(isHttpUrl, 'must use http or https'),
);

const Environment = v.object({
  PORT: v.optional(wholeNumber(RANGES.port), String(DEFAULTS.port)),
  HOST: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty')), DEFAULTS.host),
  PUBLIC_BASE_URL: v.optional(v.pipe(ruled(baseUrlProblem), v.transform(withoutTrailingSlash))),
  FACTS_FILE: v.optional(v.pipe(v.string(), v.nonEmpty('must be a file path'))),
  RATE_LIMIT_QUOTA: v.optional(wholeNumber(RANGES.quota), String(RATE_LIMIT_DEFAULTS.quota)),
  RATE_LIMIT_WINDOW_SECONDS: v.optional(wholeNumber(RANGES.windowSeconds), String(RATE_LIMIT_DEFAULTS.windowSeconds)),
  REDIS_URL: v.optional(RedisUrl),
  REDIS_CLUSTER_URLS: v.optional(RedisUrlList('redis://10.0.0.1:6379,redis://10.0.0.2:6379,redis://10.0.0.3:6379')),
  REDIS_SENTINEL_URLS: v.optional(RedisUrlList('redis://10.0.0.1:26379,redis://10.0.0.2:26379,redis://10.0.0.3:26379')),
  REDIS_SENTINEL_MASTER: v.optional(
    v.pipe(v.string(), v.regex(/^[^\s,]+$/, 'must be the name of the master group the sentinels monitor, such as mymaster')),
  ),
  RATE_LIMIT_POLICIES: v.optional(PoliciesJson),
  RATE_LIMIT_DYNAMODB_TABLE: v.optional(ruled(tableNameProblem)),
  // `on`: the platform's own database (Deno Deploy); anything else is the path of a KV file.
  RATE_LIMIT_DENO_KV: v.optional(v.string()),
  RATE_LIMIT_REDIS_REST_URL: v.optional(RestUrl),
  RATE_LIMIT_REDIS_REST_TOKEN: v.optional(RestToken),
  UPSTASH_REDIS_REST_URL: v.optional(RestUrl),
  UPSTASH_REDIS_REST_TOKEN: v.optional(RestToken),
  KV_REST_API_URL: v.optional(RestUrl),
  KV_REST_API_TOKEN: v.optional(RestToken),
  RATE_LIMIT_FAIL: v.optional(v.picklist(['open', 'closed'], FAIL_RULE), RATE_LIMIT_DEFAULTS.fail),
  RATE_LIMIT_FAIL_OPEN_SHARE: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(0?\.\d+|[01](\.\d+)?)$/, FAIL_OPEN_SHARE_RULE),
      v.transform(Number),
      v.check((share: number) => isFailOpenShare(share), FAIL_OPEN_SHARE_RULE),
    ),
    String(RATE_LIMIT_DEFAULTS.failOpenShare),
  ),
  TRUST_PROXY_HOPS: v.optional(wholeNumber(RANGES.trustProxyHops), String(TRUST_PROXY_HOPS_DEFAULT)),
  CLIENT_IP_HEADER: v.optional(ruled((name) => clientIpHeaderProblem(name, 'TRUST_PROXY_HOPS'))),
  RATE_LIMIT_IPV6_PREFIX: v.optional(wholeNumber(RANGES.ipv6PrefixBits), String(RATE_LIMIT_DEFAULTS.ipv6PrefixBits)),
  ACCESS_LOG: v.optional(v.picklist(['json', 'off'], 'must be "json" or "off"'), 'off'),
  MCP_ALLOWED_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      commaList(),
      v.check((items) => items.every((item) => originEntry(item) !== undefined), ORIGIN_LIST_USAGE),
      v.transform((items) => items.map((item) => originEntry(item)!)),
    ),
  ),
  MCP_MAX_BODY_BYTES: v.optional(wholeNumber(RANGES.maxBodyBytes), String(MCP_DEFAULTS.maxBodyBytes)),
  MCP_RATE_LIMIT_ANSWER: v.optional(v.picklist(RATE_LIMIT_ANSWERS, RATE_LIMIT_ANSWER_RULE), 'http'),
  DEPRECATION_DATE: v.optional(isoDate),
  SUNSET_DATE: v.optional(isoDate),
  SUCCESSOR_PATH: v.optional(
    v.pipe(v.string(), v.regex(SUCCESSOR_PATH_PATTERN, `must be a path starting with /, such as ${SUCCESSOR_PATH_DEFAULT}`)),
    SUCCESSOR_PATH_DEFAULT,
  ),
  DOCS_PAGE: v.optional(v.picklist(['on', 'off'], 'must be "on" or "off"'), 'on'),
  CONTENT_SIGNAL: v.optional(v.pipe(ruled(contentSignalProblem), v.transform(normalisedContentSignal)), CONTENT_SIGNAL_DEFAULT),
  SECURITY_CONTACT: v.optional(
    v.pipe(
      v.string(),
      v.rawCheck(({ dataset, addIssue }) => {
        const problem = dataset.typed ? securityContactProblem(dataset.value) : undefined;
        if (problem) addIssue({ message: problem });
      }),
    ),
  ),
  METRICS_PORT: v.optional(wholeNumber({ min: 1, max: RANGES.port.max })),
  SERVER_TIMING: v.optional(v.picklist(['on', 'off'], 'must be "on" or "off"'), 'off'),
  // OpenTelemetry's own variables (opentelemetry.io/docs/specs/otel/protocol/exporter), as far as they decide what starts.
  OTEL_EXPORTER_OTLP_PROTOCOL: v.optional(
    v.picklist(['http/protobuf', 'http/json'], 'must be "http/protobuf" or "http/json" (OTLP over HTTP; gRPC is not supported)'),
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: v.optional(httpOrigin),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: v.optional(httpOrigin),
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: v.optional(httpOrigin),
  OTEL_TRACES_EXPORTER: v.optional(v.string()),
  OTEL_METRICS_EXPORTER: v.optional(v.string()),
  OTEL_SDK_DISABLED: v.optional(v.string()),
  OTEL_METRIC_EXPORT_INTERVAL: v.optional(wholeNumber({ min: 100, max: 86_400_000 })),
  OTEL_BSP_SCHEDULE_DELAY: v.optional(wholeNumber({ min: 0, max: 86_400_000 })),
  OTEL_DENO: v.optional(v.string()),
});

/**
 * The handler's options as the environment gives them (`createHandler` takes the same shape), with what
 * only a runtime entry needs: where to listen, the facts file, and what of OpenTelemetry to start.
 */
export interface Options extends Omit<HandlerOptions, 'publicBaseUrl' | 'facts' | 'logger' | 'telemetry' | 'rateLimit'> {
  port: number;
  host: string;
  /** `{base}`; unset means "the address the server listens on", known only once it listens. */
  publicBaseUrl?: string;
  factsFile?: string;
  rateLimit: Omit<RateLimitOptions, 'store'>;
  /** What of OpenTelemetry the entry starts, and Server-Timing. */
  telemetry: TelemetryConfig;
}

/** Reads the environment; throws a StartupError naming the variable and the fix. */
export function loadConfig(env: Record<string, string | undefined>): Options {
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(Environment, defined, { abortPipeEarly: true });
  if (!result.success) {
    const lines = result.issues.map((issue) => {
      const name = String(issue.path?.[0]?.key ?? 'environment');
      // Inside a JSON value (RATE_LIMIT_POLICIES[1].networks[0]) the entry is named, not the whole value echoed.
      if ((issue.path?.length ?? 0) > 1) return `${name}${pathOf(issue, 1)}: ${issue.message}`;
      return settingLine(name, defined[name] ?? '', issue.message);
    });
    throw invalidConfiguration(...lines);
  }
  const e = result.output;
  // The one source of the client address (the rule and its wording are ratelimit/client.ts's).
  clientTrust(
    { trustProxyHops: e.TRUST_PROXY_HOPS, clientIpHeader: e.CLIENT_IP_HEADER },
    { trustProxyHops: 'TRUST_PROXY_HOPS', clientIpHeader: 'CLIENT_IP_HEADER' },
  );
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    factsFile: e.FACTS_FILE,
    rateLimit: {
      quota: e.RATE_LIMIT_QUOTA,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      fail: e.RATE_LIMIT_FAIL,
      failOpenShare: e.RATE_LIMIT_FAIL_OPEN_SHARE,
      ipv6PrefixBits: e.RATE_LIMIT_IPV6_PREFIX,
      ...sharedStore(e),
      policies: e.RATE_LIMIT_POLICIES,
    },
    trustProxyHops: e.TRUST_PROXY_HOPS,
    clientIpHeader: e.CLIENT_IP_HEADER,
    accessLog: e.ACCESS_LOG === 'json',
    mcp: { allowedOrigins: e.MCP_ALLOWED_ORIGINS, maxBodyBytes: e.MCP_MAX_BODY_BYTES, rateLimitAnswer: e.MCP_RATE_LIMIT_ANSWER },
    deprecation: checkDeprecation(
      { deprecatedAt: e.DEPRECATION_DATE, sunsetAt: e.SUNSET_DATE, successorPath: e.SUCCESSOR_PATH },
      { deprecatedAt: 'DEPRECATION_DATE', sunsetAt: 'SUNSET_DATE', successorPath: 'SUCCESSOR_PATH' },
    ),
    docsPage: e.DOCS_PAGE === 'on',
    contentSignal: e.CONTENT_SIGNAL,
    securityContact: e.SECURITY_CONTACT,
    telemetry: telemetry(e),
  };
}

/**
 * OTLP export starts when an endpoint is set for a signal whose exporter is not `none`, unless
 * OTEL_SDK_DISABLED; on Deno, OTEL_DENO=true hands export to Deno's built-in OpenTelemetry.
 */
function telemetry(e: v.InferOutput<typeof Environment>): TelemetryConfig {
  const disabled = e.OTEL_SDK_DISABLED?.toLowerCase() === 'true';
  const traces =
    !disabled && e.OTEL_TRACES_EXPORTER !== 'none' && Boolean(e.OTEL_EXPORTER_OTLP_ENDPOINT ?? e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const metrics =
    !disabled && e.OTEL_METRICS_EXPORTER !== 'none' && Boolean(e.OTEL_EXPORTER_OTLP_ENDPOINT ?? e.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
  return {
    otlp:
      traces || metrics
        ? {
            protocol: e.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
            traces,
            metrics,
            metricIntervalMs: e.OTEL_METRIC_EXPORT_INTERVAL ?? 60_000,
            spanDelayMs: e.OTEL_BSP_SCHEDULE_DELAY ?? 5_000,
          }
        : undefined,
    deno: !disabled && e.OTEL_DENO?.toLowerCase() === 'true',
    metricsPort: e.METRICS_PORT,
    serverTiming: e.SERVER_TIMING === 'on',
  };
}

/** What the environment calls each shared store, for the refusals of the one shared-store rule. */
export const STORE_VARIABLES: StoreNames = {
  redisUrl: 'REDIS_URL',
  redisClusterUrls: 'REDIS_CLUSTER_URLS',
  sentinelUrls: 'REDIS_SENTINEL_URLS',
  sentinelMaster: 'REDIS_SENTINEL_MASTER',
  dynamoDbTable: 'RATE_LIMIT_DYNAMODB_TABLE',
  denoKv: 'RATE_LIMIT_DENO_KV',
  redisRest: 'RATE_LIMIT_REDIS_REST_URL',
};

/** The one shared store the environment names (the rule and its wording are ratelimit/stores/choice.ts's). */
function sharedStore(
  e: v.InferOutput<typeof Environment>,
): Pick<Options['rateLimit'], 'redisUrl' | 'redisClusterUrls' | 'redisSentinel' | 'dynamoDbTable' | 'denoKv' | 'redisRest'> {
  const choice = {
    redisUrl: e.REDIS_URL,
    redisClusterUrls: e.REDIS_CLUSTER_URLS,
    redisSentinel: { urls: e.REDIS_SENTINEL_URLS, masterName: e.REDIS_SENTINEL_MASTER },
    dynamoDbTable: e.RATE_LIMIT_DYNAMODB_TABLE,
    denoKv: e.RATE_LIMIT_DENO_KV,
  };
  const explicit = restTargetOf(e, REDIS_REST_PAIRS.slice(0, 1));
  // The platform's names are a fallback: they say a database exists, not that the quota must live in it.
  const rest = explicit ?? (sharedStoreOf(choice, STORE_VARIABLES) ? undefined : restTargetOf(e, REDIS_REST_PAIRS.slice(1)));
  const shared = sharedStoreOf(
    { ...choice, redisRest: rest },
    { ...STORE_VARIABLES, redisRest: rest?.names?.url ?? STORE_VARIABLES.redisRest },
  );
  const target = shared?.kind === 'redis' ? shared.target : undefined;
  return {
    redisUrl: e.REDIS_URL,
    redisClusterUrls: e.REDIS_CLUSTER_URLS,
    redisSentinel: target?.mode === 'sentinel' ? { urls: target.urls, masterName: target.masterName } : undefined,
    dynamoDbTable: choice.dynamoDbTable,
    denoKv: choice.denoKv,
    redisRest: rest,
  };
}
