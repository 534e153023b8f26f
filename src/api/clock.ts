// Times and durations as messages say them (outages, Retry-After).

/** A wall-clock time for messages, `08:01:12`, in the machine's time zone. */
export function clockTime(epochMs: number): string {
  const date = new Date(epochMs);
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

/** A short human duration: `850 ms`, `12 s`, `4 min 5 s`, `1 h`, `2 h 30 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** A duration that may be absurd (a Retry-After of 10^20 s): days, then years, then "for ever". */
export function formatLongDuration(ms: number): string {
  const days = ms / (24 * 3600 * 1000);
  if (days < 2) return formatDuration(ms);
  if (days < 1000) return `${Math.round(days)} days`;
  const years = days / 365.25;
  if (!Number.isFinite(years)) return 'for ever';
  return years < 1e6 ? `${Math.round(years).toLocaleString('en-US')} years` : `${years.toExponential(1)} years`;
}
