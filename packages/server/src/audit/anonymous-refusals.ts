import { formatDate } from '../util/dates.js';

/**
 * How many refused writes of callers without recognised credentials one address gets recorded, an
 * audit entry each, in a window; the rest of the window's are counted and said in the log. Enough
 * to show who tried what; a flood of anonymous requests writes no more than this.
 */
export const ANONYMOUS_REFUSALS_RECORDED = 10;
/** The window they are counted in: a minute, on the app's clock. */
export const ANONYMOUS_REFUSALS_WINDOW_MS = 60_000;

/** Where the counts not recorded are said. */
export interface AnonymousRefusalLog {
  warn(obj: object, msg?: string): void;
}

interface Window {
  /** When the address's window began (its first refusal in it), in ms on the app's clock. */
  start: number;
  recorded: number;
  notRecorded: number;
}

/**
 * Decides which refusals of anonymous callers get an audit entry: per address, the first
 * `recorded` of a window of `windowMs` (from that address's first refusal), never more. The others
 * are counted, and when the window is over (seen at a later anonymous refusal, or when the process
 * closes) one `warn` line says how many from that address were not recorded. Only addresses
 * refused within the last window are held in memory.
 */
export class AnonymousRefusals {
  /** The open windows, oldest first (a window is added when it begins), by address. */
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly log: AnonymousRefusalLog,
    private readonly limits: { recorded: number; windowMs: number } = {
      recorded: ANONYMOUS_REFUSALS_RECORDED,
      windowMs: ANONYMOUS_REFUSALS_WINDOW_MS,
    },
  ) {}

  /** Counts a refusal of an anonymous caller at `address` at `at`: true when it is to be recorded. */
  admit(address: string, at: Date): boolean {
    const now = at.getTime();
    this.closeBefore(now);
    let window = this.windows.get(address);
    if (!window) {
      window = { start: now, recorded: 0, notRecorded: 0 };
      this.windows.set(address, window);
    }
    if (window.recorded < this.limits.recorded) {
      window.recorded++;
      return true;
    }
    window.notRecorded++;
    return false;
  }

  /** Says what every open window did not record; call it when the process stops recording. */
  close(): void {
    for (const [address, window] of this.windows) this.report(address, window);
    this.windows.clear();
  }

  /** Ends the windows over by `now`: the oldest come first, so it stops at the first still open. */
  private closeBefore(now: number): void {
    for (const [address, window] of this.windows) {
      if (now - window.start < this.limits.windowMs) return;
      this.windows.delete(address);
      this.report(address, window);
    }
  }

  private report(address: string, window: Window): void {
    if (window.notRecorded === 0) return;
    this.log.warn(
      {
        address,
        recorded: window.recorded,
        notRecorded: window.notRecorded,
        since: formatDate(new Date(window.start)),
      },
      `refused writes without credentials from one address: ${window.notRecorded} more than the ${this.limits.recorded} recorded in the audit log in ${Math.round(this.limits.windowMs / 1000)} s were only counted`,
    );
  }
}
