// Loading and validating the built-in variants, and scoring one 120-item bigfive sheet.
// Needs the compiled server: `npx tsc -b packages/schema packages/server`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinVariantsDir, loadVariants } from '../../packages/server/dist/variants/load-variants.js';
import { scoreAnswers } from '../../packages/server/dist/variants/scoring.js';

const LOAD_RUNS = 9;
const SCORE_RUNS = 100_000;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function ms(value) {
  return value >= 1 ? `${value.toFixed(1)} ms` : `${(value * 1000).toFixed(2)} µs`;
}

function timed(action) {
  const start = process.hrtime.bigint();
  action();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// The floor of loading: reading and parsing the same JSON files, with no validation at all.
function readAllJson(dirs) {
  let count = 0;
  for (const dir of dirs) {
    for (const variant of readdirSync(dir, { withFileTypes: true })) {
      if (!variant.isDirectory()) continue;
      const folder = join(dir, variant.name);
      JSON.parse(readFileSync(join(folder, 'variant.json'), 'utf8'));
      for (const file of readdirSync(join(folder, 'texts'))) {
        count += Object.keys(JSON.parse(readFileSync(join(folder, 'texts', file), 'utf8'))).length;
      }
    }
  }
  return count;
}

/** @param {{ dirs?: string[] }} [options] other variant dirs, for trying the scenario on fixtures */
export default async function run(options = {}) {
  const dirs = options.dirs ?? [builtinVariantsDir()];
  const rows = [];

  let registry;
  const cold = timed(() => {
    registry = loadVariants(dirs);
  });
  const warm = [];
  const floors = [];
  for (let i = 0; i < LOAD_RUNS; i++) {
    warm.push(timed(() => loadVariants(dirs)));
    floors.push(timed(() => readAllJson(dirs)));
  }
  const load = median(warm);
  const loadFloor = median(floors);
  rows.push({
    scenario: `variants: load + validate ${registry.list().length} variant(s) (first run)`,
    figure: ms(cold),
    floor: ms(loadFloor),
    ratio: `${(cold / loadFloor).toFixed(1)}x`,
    target: '< 200 ms',
    pass: cold < 200,
  });
  rows.push({
    scenario: `variants: load + validate (median of ${LOAD_RUNS})`,
    figure: ms(load),
    floor: ms(loadFloor),
    ratio: `${(load / loadFloor).toFixed(1)}x`,
    target: '< 200 ms',
    pass: load < 200,
  });

  const bigfive = registry.get('bigfive');
  const codes = bigfive.questions.map((question) => question.code);
  const raw = {};
  codes.forEach((code, i) => {
    raw[code] = (Math.floor(i / 5) % 5) + 1;
  });

  let sink = 0;
  const scoreOnce = () => {
    sink += scoreAnswers(bigfive, raw).N_score;
  };
  // The floor: touching the same 120 answers of the same object and nothing else.
  const sumOnce = () => {
    let sum = 0;
    for (let i = 0; i < codes.length; i++) sum += raw[codes[i]];
    sink += sum;
  };
  for (let i = 0; i < 10_000; i++) {
    scoreOnce();
    sumOnce();
  }
  const scoring =
    timed(() => {
      for (let i = 0; i < SCORE_RUNS; i++) scoreOnce();
    }) / SCORE_RUNS;
  const floor =
    timed(() => {
      for (let i = 0; i < SCORE_RUNS; i++) sumOnce();
    }) / SCORE_RUNS;
  if (Number.isNaN(sink)) throw new Error('unreachable: keeps the loops from being optimised away');
  rows.push({
    scenario: `variants: score one 120-item bigfive sheet (mean of ${SCORE_RUNS.toLocaleString('en')})`,
    figure: ms(scoring),
    floor: ms(floor),
    ratio: `${(scoring / floor).toFixed(1)}x`,
    target: '< 0.1 ms',
    pass: scoring < 0.1,
  });
  return rows;
}
