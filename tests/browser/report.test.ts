import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempFile } from '../cli/harness';
import { at, EXAMPLE_LEDGER, focusExample } from '../report/page-check';

/**
 * Issue 37 item 7: the report as a person sees it, in Debian's headless Chromium: no console error and no request
 * beyond the file itself, every figure on the page the summary's, the tables reached and scrolled with the keyboard,
 * a clean print. `CO2E_SCREENSHOTS=1` also writes the README's screenshots (docs/report-ledger.png,
 * docs/report-bill.png) from the example ledger and the docs/billing.md FOCUS example.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM))
  throw new Error(
    `No Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (as .ci/run does) or set CHROMIUM_PATH.`,
  );

interface Report {
  name: string;
  html: string;
  summary: Record<string, unknown>;
}

async function report(name: string, command: string, input: string): Promise<Report> {
  // A folder of its own, so the page names its output as a reader's would (`ledger-co2e.csv`).
  const folder = mkdtempSync(join(tmpdir(), 'co2e-report-'));
  folders.push(folder);
  const summaryFile = join(folder, `${name}-summary.json`);
  const html = join(folder, `${name}-report.html`);
  const out = join(folder, `${name}-co2e.csv`);
  await cli([command, input, '--out', out, '--summary', summaryFile, '--report', html]);
  return { name, html, summary: JSON.parse(readFileSync(summaryFile, 'utf8')) as Record<string, unknown> };
}

let browser: Browser;
const reports: Report[] = [];
/** The reports' folders, removed after the tests. */
const folders: string[] = [];

beforeAll(async () => {
  reports.push(await report('ledger', 'spend', EXAMPLE_LEDGER));
  reports.push(await report('bill', 'billing', tempFile('focus.csv', focusExample())));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
});

afterAll(async () => {
  await browser?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Opens a report, recording console errors, page errors and every request other than the page itself. */
async function open(entry: Report, width = 1280): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const url = pathToFileURL(entry.html).href;
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (request.url() !== url) problems.push(`request: ${request.url()}`);
  });
  await page.goto(url);
  return { page, problems };
}

describe.each(['ledger', 'bill'])('the %s report in Chromium', (name) => {
  const entry = () => reports.find((candidate) => candidate.name === name)!;

  it('loads with no console error and fetches nothing', async () => {
    const { page, problems } = await open(entry());
    expect(await page.title()).toMatch(/emissions/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows every marked figure as the summary has it', async () => {
    const { page } = await open(entry());
    const figures = await page.$$eval('[data-field]', (elements) =>
      elements.map((element) => ({
        path: JSON.parse(element.getAttribute('data-field')!) as Array<string | number>,
        value: JSON.parse(element.getAttribute('data-value')!) as unknown,
        text: (element as HTMLElement).innerText,
        visible: (element as HTMLElement).offsetParent !== null,
      })),
    );
    expect(figures.length).toBeGreaterThan(10);
    for (const figure of figures) {
      expect({ path: figure.path, value: at(entry().summary, figure.path) }).toEqual({
        path: figure.path,
        value: figure.value,
      });
      expect(figure.text).not.toBe('');
      expect(figure.visible).toBe(true);
    }
    await page.close();
  });

  it('reaches every table with Tab, in order; each is a named region with column heads', async () => {
    const { page } = await open(entry());
    const regions = await page.$$eval('.table-wrap', (elements) =>
      elements.map((element) => element.getAttribute('aria-labelledby')),
    );
    expect(regions.length).toBeGreaterThan(3);
    const reached: string[] = [];
    for (let press = 0; press < 60 && reached.length < regions.length; press++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() =>
        document.activeElement?.classList.contains('table-wrap') === true
          ? document.activeElement.getAttribute('aria-labelledby')
          : null,
      );
      if (focused !== null) reached.push(focused);
    }
    expect(reached).toEqual(regions);
    // Every table names itself for a screen reader (its caption), and heads its columns.
    const unnamed = await page.$$eval(
      '.table-wrap',
      (elements) =>
        elements.filter(
          (element) =>
            element.getAttribute('role') !== 'region' ||
            document.getElementById(element.getAttribute('aria-labelledby')!)?.tagName !== 'CAPTION' ||
            element.querySelector('th[scope="col"]') === null,
        ).length,
    );
    expect(unnamed).toBe(0);
    await page.close();
  });

  it('prints: navigation hidden, tables whole, a PDF', async () => {
    const { page } = await open(entry());
    await page.emulateMedia({ media: 'print' });
    expect(await page.$eval('nav', (nav) => getComputedStyle(nav).display)).toBe('none');
    expect(
      await page.$$eval('.table-wrap', (elements) =>
        elements.every((element) => getComputedStyle(element).overflow === 'visible'),
      ),
    ).toBe(true);
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await page.close();
  });
});

describe('keyboard scrolling', () => {
  it('a focused long table scrolls with the arrow keys', async () => {
    const { page } = await open(reports[0]!);
    const id = await page.$$eval('.table-wrap', (elements) => {
      const long = elements.find((element) => element.scrollHeight > element.clientHeight + 10);
      return long?.getAttribute('aria-labelledby') ?? null;
    });
    expect(id).not.toBeNull();
    const region = page.locator(`.table-wrap[aria-labelledby="${id}"]`);
    await region.focus();
    for (let press = 0; press < 5; press++) await page.keyboard.press('ArrowDown');
    // Chromium may scroll smoothly: the position moves over a few frames after the presses.
    await expect
      .poll(() => region.evaluate((element) => element.scrollTop), { timeout: 3000 })
      .toBeGreaterThan(0);
    await page.close();
  });
});

describe.runIf(process.env.CO2E_SCREENSHOTS === '1')('the README screenshots', () => {
  it.each([
    ['ledger', 'docs/report-ledger.png'],
    ['bill', 'docs/report-bill.png'],
  ])('%s → %s', async (name, path) => {
    const { page } = await open(reports.find((entry) => entry.name === name)!);
    await page.setViewportSize({ width: 1280, height: 1300 });
    await page.screenshot({ path });
    await page.close();
  });
});
