import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeServer, json, tokenAnswer } from './helpers.js';

const root = path.resolve(import.meta.dirname, '../../..');
const pkg = path.join(root, 'packages/client');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-client-build-'));

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
}

describe('the built package', () => {
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('has no runtime dependency: the compiled JavaScript imports only its own files', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toBeUndefined();
    execFileSync(
      path.join(root, 'node_modules/.bin/tsc'),
      [
        '-p',
        path.join(pkg, 'tsconfig.json'),
        '--outDir',
        out,
        '--composite',
        'false',
        '--incremental',
        'false',
        '--declaration',
        'false',
        '--sourceMap',
        'false',
      ],
      { cwd: root, stdio: 'pipe' },
    );
    const javascript = files(out).filter((file) => file.endsWith('.js'));
    expect(javascript.length).toBeGreaterThan(5);
    for (const file of javascript) {
      const text = fs.readFileSync(file, 'utf8');
      const specifiers = [
        ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g),
      ].map((match) => match[1]);
      const dynamic = [...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
      for (const specifier of [...specifiers, ...dynamic]) {
        expect(specifier, `${path.relative(out, file)} imports ${specifier}`).toMatch(/^\.\.?\//);
      }
      expect(text).not.toMatch(/@assay\/schema|typebox|node:/);
    }

    // And it runs on the platform's fetch alone.
    const server = await fakeServer((request, response) => {
      if (request.url === '/api/v1/auth/access_token') return json(response, tokenAnswer());
      return json(response, { status: 'OK', data: [{ memberid: 'AbCdEf1234', testuser: '1' }] });
    });
    try {
      const built = await import(pathToFileURL(path.join(out, 'index.js')).href);
      const client = built.createClient({ baseUrl: server.url, clientId: 'id', clientSecret: 'secret' });
      expect(await client.members.list()).toEqual([{ memberid: 'AbCdEf1234', testuser: true }]);
    } finally {
      await server.close();
    }
  });
});
