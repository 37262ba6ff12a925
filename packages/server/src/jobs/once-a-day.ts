const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A piece of the scheduler's work done at most once a day per process (the retentions): each tick
 * asks `runIfDue()`, which costs one comparison until the day has passed. The next turn is
 * remembered in memory, so several processes each run it daily; the work must find nothing to do
 * the second time. A run that fails is tried again an hour later, not on every tick.
 */
export class OnceADay<T> {
  private nextAt = 0;

  constructor(
    private readonly clock: () => Date,
    private readonly work: (now: Date) => Promise<T>,
  ) {}

  /** Does the work if its day has come; answers what it answered, or undefined when not due. */
  async runIfDue(): Promise<T | undefined> {
    const now = this.clock();
    if (now.getTime() < this.nextAt) return undefined;
    this.nextAt = now.getTime() + HOUR_MS;
    const result = await this.work(now);
    this.nextAt = now.getTime() + DAY_MS;
    return result;
  }
}
