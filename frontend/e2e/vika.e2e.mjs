// End-to-end test of Vika in a real browser against the real Go backend.
//
// scripts/e2e.sh starts `wails dev` (the Go app with live bindings, proxying
// the Vite dev server) under Xvfb, then runs this file with node's test
// runner. It drives Debian's chromium with playwright-core: add a real PDF
// through the file input, add broken files, ask a question and check the
// citation of the best passage. A screenshot of each step goes to
// build/screenshots/e2e-*.png.
//
// Environment: VIKA_E2E_URL (default http://localhost:34115), VIKA_E2E_SHOTS
// (screenshot folder), VIKA_E2E_CHROMIUM (default /usr/bin/chromium),
// VIKA_E2E_GENERATED=1 to use the generated PDF even when the shared ResNet
// paper is there.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { GENERATED, makePDF } from './pdf.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const URL = process.env.VIKA_E2E_URL ?? 'http://localhost:34115';
const SHOTS = process.env.VIKA_E2E_SHOTS ?? path.join(root, 'build/screenshots');
const CHROMIUM = process.env.VIKA_E2E_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The stage labels of a job row (lib/i18n.ts, English). */
const STAGES = [
  'Reading the file…',
  'Waiting…',
  'Checking the file…',
  'Extracting text…',
  'Splitting into passages…',
  'Indexing…',
];

const tmp = mkdtempSync(path.join(tmpdir(), 'vika-e2e-'));

/** The document under test: the ResNet paper from ../shared when present, else a generated PDF. */
function chooseDocument() {
  const resnet = path.resolve(root, '../shared/data/pdfs/he2015_resnet.pdf');
  if (process.env.VIKA_E2E_GENERATED !== '1' && existsSync(resnet)) {
    return {
      file: resnet,
      name: 'he2015_resnet.pdf',
      bytes: readFileSync(resnet),
      pages: 12,
      question: 'residual learning framework to ease the training of deep networks',
      page: 1,
    };
  }
  const bytes = makePDF(GENERATED.pages);
  const file = path.join(tmp, GENERATED.name);
  writeFileSync(file, bytes);
  return { file, name: GENERATED.name, bytes, pages: GENERATED.pages.length, question: GENERATED.question, page: GENERATED.page };
}

const doc = chooseDocument();

/** Files that must each fail with their own message. */
function badFiles() {
  const write = (name, bytes) => {
    const file = path.join(tmp, name);
    writeFileSync(file, bytes);
    return file;
  };
  // A 1x1 PNG.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  return [
    {
      file: write('lecture_notes.pdf', 'Lecture notes, week 3\nThese are plain text notes saved with a .pdf name.\n'),
      expect: [/not a PDF/, /plain text/],
    },
    { file: write('figure_scan.pdf', png), expect: [/not a PDF/, /PNG image/] },
    { file: write('empty.pdf', Buffer.alloc(0)), expect: [/empty file/] },
    {
      file: write(doc.name.replace(/\.pdf$/, '_truncated.pdf'), doc.bytes.subarray(0, Math.floor(doc.bytes.length * 0.3))),
      expect: [/damaged|corrupt|truncated/i],
    },
  ];
}

let browser;
let page;
const pageErrors = [];
const consoleErrors = [];
let step = 0;

async function shot(name) {
  step++;
  const file = path.join(SHOTS, `e2e-${String(step).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  console.log(`  screenshot ${path.relative(root, file)}`);
}

const adding = () => page.locator('ul[aria-label="Adding"] > li');
const documentRows = () => page.locator('ul[aria-labelledby="documents-title"] > li');

// Steps depend on each other: after a failure the rest are skipped, not failed again.
let broken = false;
function stepTest(name, timeout, fn) {
  it(name, { timeout }, async (t) => {
    if (broken) {
      t.skip('an earlier step failed');
      return;
    }
    try {
      await fn();
    } catch (err) {
      broken = true;
      await page?.screenshot({ path: path.join(SHOTS, 'e2e-failure.png') }).catch(() => {});
      throw err;
    }
  });
}

describe('Vika in the browser, against the Go backend', () => {
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rmSync(path.join(SHOTS, 'e2e-failure.png'), { force: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, timeout: 60_000 });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    console.log(`  document: ${doc.name} (${doc.pages} pages), from ${doc.file}`);
  });

  after(async () => {
    await browser?.close();
    rmSync(tmp, { recursive: true, force: true });
    if (consoleErrors.length > 0) console.log(`  console errors:\n    ${consoleErrors.join('\n    ')}`);
  });

  stepTest('opens the app and reaches the Go bindings', 60_000, async () => {
    await page.goto(URL, { waitUntil: 'load' });
    await page.waitForFunction(
      () => typeof window.go?.main?.App?.Search === 'function' && window.runtime !== undefined,
      undefined,
      { timeout: 30_000 },
    );
    await page.getByRole('heading', { name: 'Library' }).waitFor();
    await page.getByText('Drop lecture notes, papers or slides here…').waitFor();
    assert.equal(await page.getByLabel('Your question').isVisible(), true);
    assert.equal(await page.getByRole('button', { name: 'Search' }).isDisabled(), true, 'Search is disabled without documents');
    assert.equal(await page.evaluate(() => window.go.main.App.Documents().then((d) => (d ?? []).length)), 0);
    await shot('empty');
  });

  stepTest('adds a PDF through the file input and shows its progress, then the document', 120_000, async () => {
    // Ingestion takes well under a second: record every job row the page shows.
    await page.evaluate(() => {
      const seen = [];
      window.__vikaJobs = seen;
      const record = () => {
        for (const li of document.querySelectorAll('ul[aria-label="Adding"] > li')) {
          const bar = li.querySelector('[role=progressbar]');
          const entry = {
            text: li.innerText.replace(/\s+/g, ' ').trim(),
            bar: bar !== null,
            value: bar?.getAttribute('aria-valuenow') ?? null,
          };
          const last = seen.at(-1);
          if (!last || last.text !== entry.text || last.value !== entry.value) seen.push(entry);
        }
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    await page.locator('input[type=file]').setInputFiles(doc.file);
    await shot('adding');

    // The page reads and sends the file in well under a second; a row stuck on
    // "Reading the file…" means the call never reached Go (see e2e.sh's hint).
    await page
      .waitForFunction(
        () =>
          ![...document.querySelectorAll('ul[aria-label="Adding"] > li')].some((li) =>
            li.textContent?.includes('Reading the file'),
          ),
        undefined,
        { timeout: 20_000 },
      )
      .catch(() => {
        throw new Error(
          `${doc.name} (${doc.bytes.length} bytes) never reached the backend: its row still says "Reading the file…" after 20 s`,
        );
      });

    const row = documentRows().filter({ hasText: doc.name });
    await row.waitFor({ timeout: 60_000 });
    await row.filter({ hasText: `${doc.pages} pages` }).waitFor();
    const meta = (await row.innerText()).replace(/\s+/g, ' ');
    assert.match(meta, /\d+ passages?/);
    assert.equal(await adding().count(), 0, 'the job row is gone once the document is ready');

    const jobs = await page.evaluate(() => window.__vikaJobs);
    console.log(`  job rows seen: ${jobs.map((j) => `${j.text}${j.value ? ` [${j.value}]` : ''}`).join(' | ')}`);
    assert.ok(
      jobs.some((j) => j.bar && j.text.includes(doc.name) && STAGES.some((s) => j.text.includes(s))),
      'a job row with a stage and a progress bar appeared',
    );
    assert.equal(await page.getByRole('button', { name: 'Search' }).isDisabled(), true, 'nothing typed yet');
    await shot('document');
  });

  stepTest('shows a specific error on the row of each broken file, and keeps the document', 120_000, async () => {
    const bad = badFiles();
    await page.locator('input[type=file]').setInputFiles(bad.map((b) => b.file));
    for (const b of bad) {
      const name = path.basename(b.file);
      const alert = adding().filter({ hasText: name }).getByRole('alert');
      const accepted = documentRows().filter({ hasText: name });
      await alert.or(accepted).first().waitFor({ timeout: 60_000 });
      if (await accepted.count()) {
        const meta = (await accepted.innerText()).replace(/\s+/g, ' ');
        assert.fail(`${name} was accepted as a document (${meta}) instead of failing with ${b.expect.join(' and ')}`);
      }
      const text = await alert.innerText();
      console.log(`  ${name}: ${text}`);
      for (const re of b.expect) assert.match(text, re, `error of ${name}`);
    }
    assert.equal(await adding().count(), bad.length, 'one row per broken file');
    assert.equal(await documentRows().count(), 1);
    await documentRows().filter({ hasText: doc.name }).filter({ hasText: `${doc.pages} pages` }).waitFor();
    await shot('errors');
  });

  stepTest('answers a question with a citation of the right page', 60_000, async () => {
    const box = page.getByLabel('Your question');
    await box.click();
    await box.fill(doc.question);
    await shot('question');
    await box.press('Enter');

    const chips = page.locator('ol.hits > li .chip');
    await chips.first().waitFor({ timeout: 30_000 });
    const labels = await chips.allInnerTexts();
    console.log(`  citations: ${labels.join(' ')}`);
    const status = await page.getByRole('status').innerText();
    assert.match(status, new RegExp(`^${labels.length} passages? for “${doc.question}”$`));
    for (const label of labels) assert.match(label, new RegExp(`^\\[${doc.name.replace(/\./g, '\\.')} p\\.\\d+\\]$`));
    assert.equal(labels[0], `[${doc.name} p.${doc.page}]`, 'the best passage is on the expected page');
    const top = await page.locator('ol.hits > li').first().locator('.text').innerText();
    const words = doc.question.split(' ').slice(0, 3).join(' ');
    assert.ok(top.toLowerCase().includes(words.toLowerCase()), `the top passage mentions “${words}”`);
    assert.equal(await box.inputValue(), doc.question, 'the question stays in the box');
    await shot('hits');
  });

  stepTest('raised no uncaught error in the page', 5_000, async () => {
    assert.deepEqual(pageErrors, []);
  });
});
