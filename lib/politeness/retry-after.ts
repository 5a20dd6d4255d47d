/** Retry-After (RFC 9110 §10.2.3): delta-seconds or an HTTP date; milliseconds from now, capped. */
export function parseRetryAfter(value: string | string[] | undefined, options: { now?: number; maxMs?: number } = {}): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (!text) return undefined;
  const now = options.now ?? Date.now();
  let ms: number | undefined;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isFinite(at)) ms = Math.max(0, at - now);
  }
  if (ms === undefined) return undefined;
  return options.maxMs === undefined ? ms : Math.min(ms, options.maxMs);
}
