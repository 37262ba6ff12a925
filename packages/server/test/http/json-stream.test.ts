import { describe, expect, it } from 'vitest';
import { keysetBatches } from '../../src/db/keyset-batches.js';

const rows = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1 }));

describe('keyset batches after a cursor', () => {
  it('reads the whole list from the cursor while the client keeps taking it', async () => {
    const reads: (number | undefined)[] = [];
    const batches = keysetBatches(
      async (after: number | undefined, limit) => {
        reads.push(after);
        return rows.filter((row) => row.id > (after ?? 0)).slice(0, limit);
      },
      (row) => row.id,
      { first: 1000, largest: 1000 },
      async function* () {
        for (let i = 0; i < rows.length; i += 1000) yield rows.slice(i, i + 1000);
      },
    );
    const seen: number[] = [];
    for await (const batch of batches) seen.push(...batch.map((row) => row.id));
    expect(seen).toEqual(rows.map((row) => row.id));
    expect(reads).toEqual([]);
  });

  it('closes the cursor when the client stalls, and goes on after the last key handed over, each row once', async () => {
    let cursorClosed = false;
    const reads: (number | undefined)[] = [];
    const batches = keysetBatches(
      async (after: number | undefined, limit) => {
        reads.push(after);
        return rows.filter((row) => row.id > (after ?? 0)).slice(0, limit);
      },
      (row) => row.id,
      { first: 1000, largest: 1000, patienceMs: 100 },
      async function* () {
        try {
          for (let i = 0; i < rows.length; i += 1000) yield rows.slice(i, i + 1000);
        } finally {
          cursorClosed = true;
        }
      },
    );
    const seen: number[] = [];
    let taken = 0;
    for await (const batch of batches) {
      seen.push(...batch.map((row) => row.id));
      // The client stalls after its third batch, past the cursor's patience.
      if (++taken === 3) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(cursorClosed).toBe(true);
    expect(reads[0]).toBe(3000);
    expect(seen).toEqual(rows.map((row) => row.id));
  });
});
