import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { describeInBrowser, launchChromium, pageProblems } from './browser.js';

/**
 * The accessibility check every browser test relies on must be able to fail: a page with known
 * faults gives each of them, once per document, and a clean page gives none.
 */
describeInBrowser('the page check (axe-core and sideways scrolling)', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  });
  afterAll(() => browser?.close());

  it('names an image without a text, a missing language and a page wider than the screen', async ({
    expect,
  }) => {
    await page.setContent(
      '<!doctype html><html><head><title>Faults</title></head><body style="margin:0"><main><h1>Faults</h1>' +
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><div style="width:900px">wide</div></main></body></html>',
    );
    const problems = await pageProblems(page, 'faults');
    expect(problems.some((line) => line.startsWith('faults: image-alt (critical)'))).toBe(true);
    expect(problems.some((line) => line.startsWith('faults: html-has-lang'))).toBe(true);
    expect(problems).toContain('faults: scrolls sideways by 540 px at 360 px');
    // Checked again on the same document (axe already injected), the answer is the same.
    expect(await pageProblems(page, 'faults')).toEqual(problems);
  });

  it('finds nothing on a page without faults', async ({ expect }) => {
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>Fine</title></head><body><main><h1>Fine</h1>' +
        '<p>Nothing wrong here.</p></main></body></html>',
    );
    expect(await pageProblems(page, 'fine')).toEqual([]);
  });
});
