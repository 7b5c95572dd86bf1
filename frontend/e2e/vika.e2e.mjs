// End-to-end test of Vika in a real browser against the real Go backend.
//
// scripts/window/e2e.sh starts `wails dev` (the Go app with live bindings, proxying
// the Vite dev server) under Xvfb, then runs this file with node's test
// runner. It drives Debian's chromium with playwright-core: add a real PDF
// through the file input, add broken files, ask a question in the chat (the
// answer comes from fake-gemini.mjs, a local server speaking Gemini's wire
// format, which e2e.sh starts and points the Go app at), watch it stream with
// its citation chips, open the cited page in the PDF viewer with the passage
// highlighted, and find the question's record on the dashboard. A screenshot
// of each step goes to build/screenshots/e2e-*.png.
//
// Environment: VIKA_E2E_URL (default http://localhost:34115), VIKA_E2E_SHOTS
// (screenshot folder), VIKA_E2E_CHROMIUM (default /usr/bin/chromium),
// VIKA_E2E_GENERATED=1 to use the generated PDF even when the shared ResNet
// paper is there, VIKA_E2E_FAKE_LLM (the fake Gemini's base URL, set by e2e.sh).

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
const FAKE_LLM = process.env.VIKA_E2E_FAKE_LLM ?? '';
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
      // A question answered from a figure: its crop goes to the (fake) vision model.
      figure: { question: 'What does Figure 2 show about residual learning?', page: 2, caption: /^Figure 2\. Residual learning/ },
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
  // A web page saved under a .pdf name (an interrupted download). An image renamed .pdf is no
  // longer refused: Vika reads photos of pages (backend/convert names a file's format from its bytes).
  const html = '<!DOCTYPE html>\n<html><head><title>Access denied</title></head><body>Please log in.</body></html>\n';
  return [
    {
      file: write('lecture_notes.pdf', 'Lecture notes, week 3\nThese are plain text notes saved with a .pdf name.\n'),
      expect: [/not a PDF/, /plain text/],
    },
    { file: write('article_download.pdf', html), expect: [/not a PDF/, /web page/] },
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
// A document's rows; the suggested questions under a new one are an li of the same list.
const documentRows = () => page.locator('ul[aria-labelledby="documents-title"] > li:not(.suggest)');

// Steps depend on each other: after a failure the rest are skipped, not failed again.
let broken = false;
function stepTest(name, timeout, fn) {
  it(name, { timeout }, async (t) => {
    if (broken) {
      t.skip('an earlier step failed');
      return;
    }
    try {
      await fn(t);
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
    assert.equal(await page.getByRole('button', { name: 'Ask' }).isDisabled(), true, 'Ask is disabled without documents');
    assert.equal(await page.evaluate(() => window.go.main.App.Documents().then((d) => (d ?? []).length)), 0);
    await shot('empty');
  });

  // Up to minutes on a loaded machine: the whole paper is read, its tables and figures detected, then embedded.
  stepTest('adds a PDF through the file input and shows its progress, then the document', 300_000, async () => {
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
    await row.waitFor({ timeout: 240_000 });
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
    assert.equal(await page.getByRole('button', { name: 'Ask' }).isDisabled(), true, 'nothing typed yet');
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

  stepTest('streams an answer to a question, with citation chips', 120_000, async () => {
    if (!FAKE_LLM) throw new Error('VIKA_E2E_FAKE_LLM is not set: run this test through scripts/window/e2e.sh');
    // Record how the answer grows: text length, chip states and the Stop button, at every change.
    await page.evaluate(() => {
      const seen = [];
      window.__vikaAnswer = seen;
      new MutationObserver(() => {
        const article = document.querySelector('article[aria-label="Answer"]');
        if (!article) return;
        const entry = {
          length: article.querySelector('.markdown')?.textContent?.length ?? 0,
          pending: article.querySelectorAll('.cite.pending').length,
          verified: article.querySelectorAll('.cite.verified').length,
          stop: [...document.querySelectorAll('form.ask button')].some((b) => b.textContent?.includes('Stop')),
        };
        const last = seen.at(-1);
        if (!last || JSON.stringify(last) !== JSON.stringify(entry)) seen.push(entry);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const box = page.getByLabel('Your question');
    await box.click();
    await box.fill(doc.question);
    await shot('question');
    await box.press('Enter');

    const answer = page.getByRole('article', { name: 'Answer' });
    const verified = answer.locator('button.cite.verified');
    await answer
      .locator('button.cite.verified, [role=alert]')
      .first()
      .waitFor({ timeout: 90_000 });
    if ((await verified.count()) === 0) assert.fail(`no verified citation: ${await answer.innerText()}`);

    const states = await page.evaluate(() => window.__vikaAnswer);
    const lengths = [...new Set(states.map((s) => s.length).filter((l) => l > 0))];
    console.log(`  answer lengths while streaming: ${lengths.join(' ')}`);
    assert.ok(lengths.length >= 3, `the answer grew in several steps (${lengths.length})`);
    assert.ok(states.some((s) => s.pending > 0 && s.verified === 0), 'chips showed while the answer streamed, before the check');
    assert.ok(states.some((s) => s.stop), 'the Stop button showed while the answer streamed');

    const labels = await verified.allInnerTexts();
    console.log(`  verified citations: ${labels.join(' ')}`);
    assert.equal(labels[0], `${doc.name} p.${doc.page}`, 'the first citation is the expected page');
    const unverified = answer.locator('button.cite.unverified');
    assert.ok((await unverified.count()) >= 1, 'the unsupported claim is flagged');
    const why = (await unverified.first().getAttribute('title')) ?? '';
    console.log(`  unverified citation: ${await unverified.first().innerText()} (${why})`);
    assert.match(why, /^Not verified: \S/);
    assert.equal(await unverified.first().locator('.cite-icon').count(), 1, 'an unverified chip shows its icon');
    assert.match(await answer.innerText(), /Model used: .+\(gemini\)/);
    await page.getByRole('button', { name: 'Ask' }).waitFor();

    // What left the machine: the question and the passages, to the chosen provider only.
    const requests = await (await fetch(`${FAKE_LLM}/__requests`)).json();
    const asks = requests.filter((r) => r.url.includes(':streamGenerateContent'));
    assert.ok(asks.length >= 1, 'the fake Gemini was asked');
    const last = asks.at(-1);
    assert.equal(last.key, 'fake', 'the key went in x-goog-api-key');
    assert.ok(last.body.includes(doc.question), 'the prompt holds the question');
    assert.match(last.body, /\\u003csources\\u003e|<sources>/, 'the prompt holds the sources');
    await shot('answer');
  });

  stepTest('lists the answer’s sources with where they come from and their scores', 30_000, async () => {
    const answer = page.getByRole('article', { name: 'Answer' });
    await answer.getByRole('button', { name: /^\d+ sources?/ }).click();
    const sources = answer.getByRole('button', { name: /^Open \[.+\] in the viewer$/ });
    await sources.first().waitFor();
    const first = (await sources.first().innerText()).replace(/\s+/g, ' ');
    console.log(`  first source: ${first.slice(0, 160)}`);
    assert.ok(first.includes(`[${doc.name} p.`), 'the source names its file and page');
    assert.match(first, /found by (keywords|meaning|keywords \+ meaning)/);
    assert.match(first, /score \d/);
    await shot('sources');
  });

  stepTest('opens the cited page in the viewer with the passage highlighted', 90_000, async () => {
    const answer = page.getByRole('article', { name: 'Answer' });
    await answer.locator('button.cite.verified').first().click();
    await page.getByRole('heading', { name: doc.name, exact: true }).waitFor();
    const done = page
      .getByText('The cited passage is highlighted.')
      .or(page.getByText(/could not be located in this page/))
      .or(page.locator('.viewer [role=alert]'));
    await done.first().waitFor({ timeout: 60_000 });
    const note = await done.first().innerText();
    assert.equal(note, 'The cited passage is highlighted.', `viewer says: ${note}`);
    assert.equal(await page.getByLabel('Page number').inputValue(), String(doc.page));
    assert.ok(await page.locator('.viewer canvas').evaluate((c) => c.width > 100 && c.height > 100), 'the page is drawn');

    const marks = page.locator('.textLayer mark.passage');
    assert.ok((await marks.count()) > 0, 'the passage is marked in the text layer');
    const marked = (await marks.allTextContents()).join(' ').replace(/\s+/g, ' ');
    console.log(`  highlighted: ${marked.slice(0, 160)}…`);
    const words = doc.question.split(' ').slice(0, 2).join(' ');
    assert.ok(marked.toLowerCase().includes(words.toLowerCase()), `the highlight holds “${words}”`);
    assert.equal(await marks.first().isVisible(), true);
    await shot('viewer');

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForFunction((n) => document.querySelector('input[aria-label="Page number"]')?.value === n, String(doc.page + 1));
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByText('The cited passage is highlighted.').waitFor();

    // The smallest window (1024x700): the viewer covers the centre column, its controls in reach.
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByText('The cited passage is highlighted.').waitFor();
    for (const name of ['Back to the answer (Esc)', 'Next page', 'Zoom in', 'Fit to width']) {
      const box = await page.getByRole('button', { name }).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 1024 && box.y + box.height <= 700, `${name} is on screen at 1024x700`);
    }
    assert.equal(await page.evaluate(() => document.scrollingElement?.scrollTop ?? 0), 0, 'the window itself never scrolls');
    const canvas = await page.locator('.viewer canvas').boundingBox();
    assert.ok(canvas && canvas.width > 400 && canvas.x + canvas.width <= 1024, 'the page fits the narrow window');
    await shot('viewer-1024x700');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: doc.name, exact: true }).waitFor({ state: 'detached' });
  });

  stepTest('shows the question’s record on the dashboard', 30_000, async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Dashboard' }).click();
    const row = page.locator('tr', { hasText: doc.question });
    await row.first().waitFor({ timeout: 20_000 });
    console.log(`  dashboard row: ${(await row.first().innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
    assert.equal(await row.count(), 1, 'one record for the one question asked');
    // The row's cells by column title (the table's header row).
    const cells = await page.evaluate((question) => {
      const table = [...document.querySelectorAll('table')].find((t) => t.innerText.includes(question));
      const titles = [...(table?.querySelectorAll('thead th') ?? [])].map((th) => th.textContent.trim());
      const tr = [...(table?.querySelectorAll('tbody tr') ?? [])].find((r) => r.innerText.includes(question));
      const values = [...(tr?.children ?? [])].map((c) => c.textContent.trim());
      return Object.fromEntries(titles.map((title, i) => [title, values[i]]));
    }, doc.question);
    assert.equal(cells.Question, doc.question);
    assert.match(cells.Model ?? '', /gemini/i, 'the model that answered (the fake Gemini)');
    assert.match(cells.Search ?? '', /^(hybrid|bm25)$/, 'the search mode used');
    assert.ok(Number(cells.Used) > 0, `passages used: ${cells.Used}`);
    assert.ok(Number((cells['Tokens in'] ?? '').replace(/,/g, '')) > 0, `tokens in: ${cells['Tokens in']}`);
    assert.match(cells.Total ?? '', /^[\d,.]+ (ms|s)$/, `total latency: ${cells.Total}`);
    // The verified share is what the chat's chips showed: the fake model makes one unsupported claim.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click();
    const answer = page.getByRole('article', { name: 'Answer' });
    const chips = await answer.locator('button.cite').count();
    const verified = await answer.locator('button.cite.verified').count();
    assert.ok(chips >= 2 && verified >= 1 && verified < chips, `${verified} of ${chips} chips verified`);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Dashboard' }).click();
    await row.first().waitFor();
    const pct = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }).format(verified / chips);
    assert.equal(cells['Citations OK'], pct, 'the dashboard\'s verified share matches the chips');
    await shot('dashboard');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click();
  });

  stepTest('follows a dark system theme', 30_000, async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const answer = page.getByRole('article', { name: 'Answer' });
    const background = await answer.evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.notEqual(background, 'rgb(255, 255, 255)', 'the answer card is dark');
    await answer.locator('button.cite.verified').first().click();
    await page.getByText('The cited passage is highlighted.').waitFor();
    await shot('dark');
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  stepTest('looks at a figure: its crop goes to the vision model, and the dashboard counts it', 120_000, async (t) => {
    if (doc.name !== 'he2015_resnet.pdf') {
      t.skip('the generated PDF has no figure: this step needs ../shared/data/pdfs/he2015_resnet.pdf');
      return;
    }
    const question = 'What does Figure 4 show about plain and residual networks on ImageNet?';
    const box = page.getByLabel('Your question');
    await box.click();
    await box.fill(question);
    await box.press('Enter');
    const answer = page.getByRole('article', { name: 'Answer' }).last();
    await answer.locator('button.cite.verified, [role=alert]').first().waitFor({ timeout: 90_000 });
    await page.getByRole('button', { name: 'Ask' }).waitFor();
    const requests = await (await fetch(`${FAKE_LLM}/__requests`)).json();
    const body = JSON.parse(requests.filter((r) => r.url.includes(':streamGenerateContent')).at(-1).body);
    const parts = body.contents.at(-1).parts;
    const images = parts.filter((p) => p.inlineData);
    console.log(`  parts sent: ${parts.map((p) => (p.inlineData ? `image ${p.inlineData.mimeType} ${p.inlineData.data.length} b64` : `text ${p.text.length}`)).join(', ')}`);
    assert.ok(images.length >= 1, 'a figure crop was sent');
    for (const im of images) {
      assert.equal(im.inlineData.mimeType, 'image/png');
      assert.ok(im.inlineData.data.startsWith('iVBORw0KGgo'), 'the crop is a PNG');
    }
    assert.ok(parts.some((p) => /^Image of source \d+ \[he2015_resnet\.pdf p\.\d+\] \(figure: "Figure 4/.test(p.text ?? '')), 'Figure 4 is labelled by its source');
    await shot('figure-answer');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Dashboard' }).click();
    const cells = await page.evaluate((q) => {
      const table = [...document.querySelectorAll('table')].find((t) => t.innerText.includes(q));
      const titles = [...(table?.querySelectorAll('thead th') ?? [])].map((th) => th.textContent.trim());
      const tr = [...(table?.querySelectorAll('tbody tr') ?? [])].find((r) => r.innerText.includes(q));
      const values = [...(tr?.children ?? [])].map((c) => c.textContent.trim());
      return Object.fromEntries(titles.map((title, i) => [title, values[i]]));
    }, question);
    assert.equal(Number(cells['Images seen']), images.length, `images seen: ${cells['Images seen']}`);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click();
  });

  stepTest('answers from a figure’s image, shows its crop, and its chip outlines the figure in the viewer', 150_000, async (t) => {
    if (!doc.figure) {
      t.skip(`the generated PDF has no figure: this step needs ../shared/data/pdfs/he2015_resnet.pdf`);
      return;
    }
    const box = page.getByLabel('Your question');
    await box.click();
    await box.fill(doc.figure.question);
    await box.press('Enter');
    const answer = page.getByRole('article', { name: 'Answer' }).last();
    await answer.locator('button.cite.verified, [role=alert]').first().waitFor({ timeout: 90_000 });
    const text = await answer.innerText();
    assert.match(text, /Looking at the image/, `the vision model's answer: ${text.slice(0, 300)}`);
    await page.getByRole('button', { name: 'Ask' }).waitFor();

    // The crop reached the provider as an image part, a real PNG of a readable size.
    const requests = await (await fetch(`${FAKE_LLM}/__requests`)).json();
    const asks = requests.filter((r) => r.url.includes(':streamGenerateContent') && r.body.includes('Figure 2'));
    const seen = asks.at(-1)?.images ?? [];
    console.log(`  images sent: ${seen.map((im) => `${im.mimeType} ${im.width}x${im.height} (${im.label})`).join('; ')}`);
    assert.ok(seen.length >= 1, 'the figure crop went to the vision model');
    assert.equal(seen[0].mimeType, 'image/png');
    assert.ok(seen[0].width >= 100 && seen[0].height >= 100, `the crop is readable (${seen[0].width}x${seen[0].height})`);
    assert.match(seen[0].label, new RegExp(`^Image of source \\d+ \\[${doc.name.replace('.', '\\.')} p\\.${doc.figure.page}\\] \\(figure`));

    // The sources panel shows the figure's thumbnail.
    await answer.getByRole('button', { name: /^\d+ sources?/ }).click();
    const thumb = answer.getByAltText(`The figure cited as [${doc.name} p.${doc.figure.page}]`);
    await thumb.first().waitFor();
    // The crop is served by id (/crops/...), not inlined: wait for its load (or error) before measuring it.
    const natural = await thumb.first().evaluate(
      (img) =>
        new Promise((done) => {
          const size = () => done([img.naturalWidth, img.naturalHeight]);
          if (img.complete) return size();
          img.addEventListener('load', size, { once: true });
          img.addEventListener('error', size, { once: true });
        }),
    );
    assert.ok(natural[0] >= 100 && natural[1] >= 100, `the thumbnail is drawn (${natural.join('x')})`);
    await shot('figure-answer');

    // The chip opens the cited page with the figure's box outlined where the figure is.
    const chip = answer.locator('button.cite.verified').first();
    assert.equal(await chip.innerText(), `${doc.name} p.${doc.figure.page}`);
    await chip.click();
    await page.getByRole('heading', { name: doc.name, exact: true }).waitFor();
    await page.getByText('The cited table, figure, formula, form field or note is outlined.').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByLabel('Page number').inputValue(), String(doc.figure.page));
    const outline = page.locator('.viewer .region-box');
    assert.equal(await outline.count(), 1);
    assert.equal(await outline.isVisible(), true);
    const bbox = await page.evaluate(
      async ([q, p]) => (await window.go.main.App.Search(q, '', '', 8, true)).hits.find((h) => h.page === p && h.kind === 'figure')?.bbox,
      [doc.figure.question, doc.figure.page],
    );
    assert.ok(bbox, 'search returns the figure passage with its box');
    const canvas = await page.locator('.viewer canvas').boundingBox();
    const drawn = await outline.boundingBox();
    const scale = canvas.width / 612; // the paper's pages are US Letter, 612 pt wide
    const want = { x: canvas.x + bbox[0] * scale, y: canvas.y + bbox[1] * scale, w: (bbox[2] - bbox[0]) * scale, h: (bbox[3] - bbox[1]) * scale };
    console.log(`  figure box ${bbox.map((v) => v.toFixed(1)).join(',')} pt, outlined at ${[drawn.x, drawn.y, drawn.width, drawn.height].map((v) => v.toFixed(0)).join(',')} px`);
    for (const [got, exp] of [[drawn.x, want.x], [drawn.y, want.y], [drawn.width, want.w], [drawn.height, want.h]]) {
      assert.ok(Math.abs(got - exp) <= 3, `the outline sits on the figure's box (${got.toFixed(1)} vs ${exp.toFixed(1)})`);
    }
    await shot('figure-viewer');
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: doc.name, exact: true }).waitFor({ state: 'detached' });
  });

  stepTest('raised no uncaught error and logged no console error in the page', 5_000, async () => {
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(consoleErrors, []);
  });
});
