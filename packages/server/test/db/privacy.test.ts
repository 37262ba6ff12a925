import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';

const modeOf = (target: string) => fs.statSync(target).mode & 0o777;

describe('the data folder (sqlite)', () => {
  it('is made private: the folder 0700, the database and its WAL files 0600', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-private-'));
    const dataDir = path.join(parent, 'data');
    const db = openDatabase({ dataDir });
    await db.kysely.schema.createTable('t').addColumn('n', 'integer').execute();
    expect(modeOf(dataDir)).toBe(0o700);
    for (const file of ['assay.sqlite', 'assay.sqlite-wal', 'assay.sqlite-shm'])
      expect(modeOf(path.join(dataDir, file))).toBe(0o600);
    await db.close();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it("tightens an older instance's folder and file at start-up, and says so in the log", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-loose-'));
    const first = openDatabase({ dataDir });
    await first.close();
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'assay.sqlite'), 0o644);

    const db = openDatabase({ dataDir });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'assay.sqlite'))).toBe(0o600);
    const warned: string[] = [];
    db.attachLog({ warn: (_fields, message) => warned.push(String(message)) });
    expect(warned).toEqual([
      'the data folder was readable by others (0755): made 0700',
      'the database file was readable by others (0644): made 0600',
    ]);
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
