import { describe, expect, it } from 'vitest';
import { progressSegments } from '../../src/console/views/dashboard.view.js';
import { safeNext } from '../../src/console/views/sign-in.view.js';

describe('safeNext', () => {
  it('keeps paths of the console and nothing else', () => {
    expect(safeNext('/console/members?q=a#x')).toBe('/console/members?q=a#x');
    expect(safeNext('/console')).toBe('/console');
    for (const bad of [
      undefined,
      42,
      '',
      '/',
      '/api/v1/members',
      '//evil.example',
      '/consolex',
      'https://evil.example/console',
      '/console\\..\\x',
      '/console/\u0000',
      '/console/\n',
      `/console/${'a'.repeat(2000)}`,
    ]) {
      expect(safeNext(bad), String(bad)).toBe('/console');
    }
  });
});

describe('progressSegments', () => {
  const counts = (values: Partial<Record<'new' | 'invited' | 'started' | 'completed', number>>) => ({
    new: 0,
    invited: 0,
    started: 0,
    completed: 0,
    specialtotal: 0,
    specialcompleted: 0,
    ...values,
  });

  it('lays completed, started and invited side by side as percentages', () => {
    expect(progressSegments(counts({ completed: 1, started: 1, invited: 1, new: 1 }), 4)).toEqual([
      { kind: 'completed', x: 0, width: 25 },
      { kind: 'started', x: 25, width: 25 },
      { kind: 'invited', x: 50, width: 25 },
    ]);
    expect(progressSegments(counts({ new: 3 }), 3)).toEqual([]);
    expect(progressSegments(counts({ completed: 2, invited: 1 }), 3)).toEqual([
      { kind: 'completed', x: 0, width: 66.7 },
      { kind: 'invited', x: 66.7, width: 33.3 },
    ]);
  });
});
