/**
 * @module The OpenTelemetry SDK a standalone entry starts when configured (see `TelemetryConfig`):
 * OTLP over HTTP (`http/protobuf` or `http/json`) to the endpoints OpenTelemetry's own variables
 * name, which the exporters read themselves, and Prometheus text at /metrics on METRICS_PORT, a
 * listener of its own. Its packages are optional: a service that never sets these never loads them.
 */
import { importOptional } from '../util/optional.ts';
import { StartupError } from '../util/startup-error.ts';
import pkg from '../../package.json' with { type: 'json' };

export interface TelemetryConfig {
  /** OTLP export, from OTEL_EXPORTER_OTLP_ENDPOINT and friends. */
  otlp?: {
    protocol: 'http/protobuf' | 'http/json';
    traces: boolean;
    metrics: boolean /** OTEL_METRIC_EXPORT_INTERVAL */;
    metricIntervalMs: number /** OTEL_BSP_SCHEDULE_DELAY */;
    spanDelayMs: number;
  };
  /** Deno's built-in OpenTelemetry (OTEL_DENO=true) exports: the API's global providers are Deno's. */
  deno: boolean;
  /** Prometheus text at /metrics on this port (HOST's address). */
  metricsPort?: number;
  serverTiming: boolean;
}

/** The packages each part needs, named when one is missing. */
const PACKAGES = {
  api: '@opentelemetry/api',
  trace: '@opentelemetry/sdk-trace',
  metrics: '@opentelemetry/sdk-metrics',
  resources: '@opentelemetry/resources',
  'http/json': ['@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/exporter-metrics-otlp-http'],
  'http/protobuf': ['@opentelemetry/exporter-trace-otlp-proto', '@opentelemetry/exporter-metrics-otlp-proto'],
  prometheus: '@opentelemetry/exporter-prometheus',
};

export interface Providers {
  tracerProvider?: unknown;
  meterProvider?: unknown;
  /** Flushes what is buffered and stops the exporters (and the metrics listener). */
  shutdown(): Promise<void>;
}

/** Loads a package of the SDK, or stops start-up naming every package the configuration needs. */
const load = <T>(name: string, needed: string[], variable: string): Promise<T> =>
  importOptional(() => import(name) as Promise<T>, needed, `${variable} (OpenTelemetry)`);

export async function startSdk(config: TelemetryConfig, host: string): Promise<Providers> {
  const { otlp, metricsPort, deno } = config;
  if (deno) {
    const api = await load<typeof import('@opentelemetry/api')>(PACKAGES.api, [PACKAGES.api], 'OTEL_DENO');
    return { tracerProvider: api.trace.getTracerProvider(), meterProvider: api.metrics.getMeterProvider(), shutdown: async () => {} };
  }
  const variable = otlp ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'METRICS_PORT';
  const needed = [
    PACKAGES.api,
    PACKAGES.resources,
    ...(otlp?.traces ? [PACKAGES.trace] : []),
    ...(otlp?.metrics || metricsPort ? [PACKAGES.metrics] : []),
    ...(otlp ? PACKAGES[otlp.protocol] : []),
    ...(metricsPort ? [PACKAGES.prometheus] : []),
  ];
  const api = await load<typeof import('@opentelemetry/api')>(PACKAGES.api, needed, variable);
  const { resourceFromAttributes, defaultResource, detectResources, envDetector } = await load<typeof import('@opentelemetry/resources')>(
    PACKAGES.resources,
    needed,
    variable,
  );
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override the package's own name and version.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': pkg.name, 'service.version': pkg.version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const stops: (() => Promise<void>)[] = [];
  const providers: Providers = { shutdown: () => Promise.all(stops.map((stop) => stop())).then(() => {}) };

  if (otlp?.traces) {
    const { TracerProvider, BatchSpanProcessor } = await load<typeof import('@opentelemetry/sdk-trace')>(PACKAGES.trace, needed, variable);
    const { OTLPTraceExporter } =
      otlp.protocol === 'http/json'
        ? await load<typeof import('@opentelemetry/exporter-trace-otlp-http')>(PACKAGES['http/json'][0]!, needed, variable)
        : await load<typeof import('@opentelemetry/exporter-trace-otlp-proto')>(PACKAGES['http/protobuf'][0]!, needed, variable);
    const tracerProvider = new TracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), scheduledDelayMillis: otlp.spanDelayMs })],
    });
    api.trace.setGlobalTracerProvider(tracerProvider);
    providers.tracerProvider = tracerProvider;
    stops.push(() => tracerProvider.shutdown());
  }
  if (otlp?.metrics || metricsPort) {
    const { MeterProvider, PeriodicExportingMetricReader } = await load<typeof import('@opentelemetry/sdk-metrics')>(
      PACKAGES.metrics,
      needed,
      variable,
    );
    const readers = [];
    if (otlp?.metrics) {
      const { OTLPMetricExporter } =
        otlp.protocol === 'http/json'
          ? await load<typeof import('@opentelemetry/exporter-metrics-otlp-http')>(PACKAGES['http/json'][1]!, needed, variable)
          : await load<typeof import('@opentelemetry/exporter-metrics-otlp-proto')>(PACKAGES['http/protobuf'][1]!, needed, variable);
      readers.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: otlp.metricIntervalMs }));
    }
    if (metricsPort) readers.push(await prometheus(metricsPort, host, needed));
    const meterProvider = new MeterProvider({ resource, readers });
    api.metrics.setGlobalMeterProvider(meterProvider);
    providers.meterProvider = meterProvider;
    stops.push(() => meterProvider.shutdown());
  }
  return providers;
}

/** Prometheus text at /metrics on a listener of its own, refused at start-up when the port cannot be had. */
async function prometheus(port: number, host: string, needed: string[]) {
  const { PrometheusExporter } = await load<typeof import('@opentelemetry/exporter-prometheus')>(
    PACKAGES.prometheus,
    needed,
    'METRICS_PORT',
  );
  let exporter!: InstanceType<typeof PrometheusExporter>;
  const error = await new Promise<Error | undefined>((resolve) => {
    exporter = new PrometheusExporter({ port, host, endpoint: '/metrics' }, (failed) => resolve(failed ?? undefined));
  });
  if (error) {
    throw new StartupError(
      `Cannot listen:\n  METRICS_PORT=${JSON.stringify(String(port))}: ${error.message}; choose another port for the metrics listener.`,
    );
  }
  return exporter;
}
