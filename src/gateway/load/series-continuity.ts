/**
 * A server's readings made continuous across its series. A data-parallel
 * vLLM serves each gauge and its token counter once per engine, and an
 * engine may miss a scrape (it answers late, or a gateway in front drops a
 * line): summed as it comes, that reading's counter falls by an engine's
 * tokens, which read as a restart, and the next rises by them again, which
 * read as a burst of throughput far above any the server has; a counter
 * absent from one page turned the knee off for the rest of the run. So a
 * reading that lacks a series the last one had is set aside (a few in a
 * row, then the series are taken as they now are: an engine gone for good),
 * and the counter is summed from each series' own increase (a series seen
 * for the first time adds nothing, one that fell restarted from 0).
 */
import type { MetricsReading, ServerLoad } from './server-load.ts';

/** Readings in a row that lack a series the last one had, after which the server's series are taken as they now are. */
export const INCOMPLETE_READINGS = 3;

/** One server's series over its readings. */
export class SeriesContinuity {
  private known: ReadonlySet<string> | null = null;
  private lastCounter = new Map<string, number>();
  private total = 0;
  private incomplete = 0;

  /** The load of `reading`, its counter continuous with the last; null when the reading lacks a series the last had (it is set aside). */
  accept(reading: MetricsReading): ServerLoad | null {
    const known = this.known;
    const lacking = known !== null && [...known].some((key) => !reading.series.has(key));
    // A page with series the last one lacked is relabelled (a server restarted with other labels), not short of an engine: taken at once.
    const relabelled = known !== null && [...reading.series].some((key) => !known.has(key));
    if (lacking && !relabelled && ++this.incomplete < INCOMPLETE_READINGS) return null;
    this.incomplete = 0;
    this.known = reading.series;
    if (reading.load.generationTokens === null) {
      this.lastCounter = new Map();
      return reading.load;
    }
    this.total = this.counted(reading.counter);
    this.lastCounter = new Map(reading.counter);
    return { ...reading.load, generationTokens: this.total };
  }

  /** The total after `counter`: the last total plus each known series' increase; the raw sum on the first reading and after a restart. */
  private counted(counter: ReadonlyMap<string, number>): number {
    const known = [...counter].filter(([key]) => this.lastCounter.has(key));
    // Every known series fell: the server restarted. Its raw sum falls too, and the knee measures afresh (knee-window.ts).
    const restarted = known.length > 0 && known.every(([key, value]) => value < (this.lastCounter.get(key) ?? 0));
    if (known.length === 0 || restarted) return [...counter.values()].reduce((sum, value) => sum + value, 0);
    let total = this.total;
    for (const [key, value] of known) {
      const last = this.lastCounter.get(key) ?? 0;
      // A series that fell alone restarted (one engine): it counts from 0.
      total += value >= last ? value - last : value;
    }
    return total;
  }
}
