// The package ships JavaScript only; this is the shape its README documents (prom2json's).
declare module 'parse-prometheus-text-format' {
  export interface ParsedSample {
    value?: string;
    labels?: Record<string, string>;
    /** Histograms: upper bound → cumulative count. */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface ParsedMetricFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedSample[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedMetricFamily[];
}
