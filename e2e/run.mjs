// End-to-end tests of the built page (dist/) in Debian's Chromium, driven by playwright-core.
// Serves dist/ on 127.0.0.1 (own tiny static server), records every network request, and checks:
// the page renders the ceiling and the charts; changing an input redraws the chart; invalid input shows a
// message next to its field; no console errors; no request leaves the page's origin; the single file
// dist/tps-planner.html works from file://. Saves screenshots and prints the in-browser sweep time.
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const shots = path.join(root, 'e2e', 'screenshots');
fs.mkdirSync(shots, { recursive: true });

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  // /sub/… serves dist/ too: an intranet server that hosts the page in a sub-folder.
  const pathname = url.pathname.startsWith('/sub/') ? url.pathname.slice(4) : url.pathname;
  let file = path.join(dist, decodeURIComponent(pathname));
  if (!file.startsWith(dist)) { res.writeHead(403); return res.end(); }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!fs.existsSync(file)) { res.writeHead(404); return res.end('not found'); }
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

let passed = 0, failed = 0;
const results = [];
async function test(name, fn) {
  const t0 = Date.now();
  try { await fn(); passed++; results.push(`ok   ${name} (${Date.now() - t0} ms)`); }
  catch (e) { failed++; results.push(`FAIL ${name}: ${String(e.message).replace(/\u001b\[[0-9;]*m/g, '').slice(0, 600)}`); }
  console.log(results[results.length - 1]);
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

async function openPage(url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, ...options });
  const page = await context.newPage();
  const requests = [], errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  try {
    await page.waitForSelector('#ceiling', { timeout: 30000 });
  } catch (e) {
    const text = await page.evaluate(() => document.body.innerText.slice(0, 400)).catch(() => '(no body)');
    throw new Error(`${e.message.split('\n')[0]}; page shows: ${text}`);
  }
  await page.waitForFunction(() => typeof window.__tpsLastEvalMs === 'number', null, { timeout: 30000 });
  return { page, context, requests, errors };
}

// A fingerprint of a canvas: count of non-white pixels and a hash of the pixel data.
async function canvasPrint(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let ink = 0, h = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250) ink++;
      h = (h * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) >>> 0;
    }
    return { ink, h, total: d.length / 4 };
  }, id);
}

const { page, requests, errors } = await openPage(origin + '/');

await test('page renders ceiling, prediction, verdict', async () => {
  const ceiling = parseFloat(await page.textContent('#ceiling'));
  assert(ceiling > 100 && ceiling < 400, `H100 + Llama-3.1-8B BF16 ceiling ${ceiling} tok/s out of range`);
  const formula = await page.textContent('#ceiling-formula');
  assert(/GB\/s .*÷ .* GB per token/.test(formula), `formula missing: ${formula}`);
  const verdict = await page.textContent('#verdict');
  assert(verdict.length > 10, `verdict: ${verdict}`);
  const rows = await page.locator('#sweep-table tbody tr').count();
  assert(rows >= 8, `sweep table has ${rows} rows`);
});

await test('thousands separators are accepted ("3,350")', async () => {
  await page.fill('#hardware-memory_bandwidth_gbps', '3,350');
  await page.waitForTimeout(200);
  const invalid = await page.locator('label.invalid').count();
  assert(invalid === 0, 'a separator was rejected');
  const ceiling = parseFloat(await page.textContent('#ceiling'));
  assert(ceiling > 200 && ceiling < 240, `ceiling ${ceiling}`);
  await page.fill('#hardware-memory_bandwidth_gbps', '');
});

await test('charts are drawn (non-blank canvases)', async () => {
  for (const id of ['chart-throughput', 'chart-latency']) {
    const p = await canvasPrint(page, id);
    assert(p.ink > p.total * 0.01, `${id} looks blank: ${p.ink} inked pixels of ${p.total}`);
  }
  await page.screenshot({ path: path.join(shots, '1-default.png'), fullPage: true });
});

await test('changing bandwidth redraws the chart and the ceiling', async () => {
  const before = await canvasPrint(page, 'chart-throughput');
  const c0 = await page.textContent('#ceiling');
  await page.fill('#hardware-memory_bandwidth_gbps', '1000');
  await page.waitForFunction((c0) => document.querySelector('#ceiling').textContent !== c0, c0, { timeout: 10000 });
  await page.waitForTimeout(300);
  const after = await canvasPrint(page, 'chart-throughput');
  assert(after.h !== before.h, 'throughput chart did not change');
  assert(after.ink > after.total * 0.01, 'chart blank after change');
  const ceiling = parseFloat(await page.textContent('#ceiling'));
  assert(ceiling < 100, `ceiling at 1000 GB/s should drop below 100 tok/s, got ${ceiling}`);
  await page.screenshot({ path: path.join(shots, '2-bandwidth-1000.png'), fullPage: true });
});

await test('invalid input shows a message next to its field, no panic', async () => {
  await page.fill('#hardware-memory_bandwidth_gbps', '-5');
  await page.waitForSelector('label.invalid .error:not(:empty)', { timeout: 5000 });
  const msg = await page.textContent('label.invalid .error');
  assert(/greater than 0/.test(msg), `message: ${msg}`);
  await page.fill('#hardware-memory_bandwidth_gbps', 'abc');
  await page.waitForFunction(() => /not a number/.test(document.querySelector('label.invalid .error')?.textContent || ''));
  await page.screenshot({ path: path.join(shots, '3-invalid.png'), fullPage: true });
  await page.fill('#hardware-memory_bandwidth_gbps', '');
  await page.waitForSelector('#ceiling', { timeout: 5000 });
});

await test('switching presets works (RTX 4090, Q4_K_M, llama.cpp)', async () => {
  await page.selectOption('#hardware-preset', 'rtx-4090');
  await page.selectOption('#quantization-weights', 'q4_k_m');
  await page.selectOption('#engine-preset', 'llama.cpp');
  await page.waitForTimeout(300);
  const tps = parseFloat(await page.textContent('#decode-tps'));
  assert(tps > 80 && tps < 250, `RTX 4090 Llama-3.1-8B Q4_K_M decode ${tps} tok/s out of range`);
  await page.screenshot({ path: path.join(shots, '4-rtx4090-q4.png'), fullPage: true });
  // Custom keeps the previous device's numbers, ready to edit, and the result does not change.
  const before = await page.textContent('#ceiling');
  await page.selectOption('#hardware-preset', '');
  await page.waitForTimeout(200);
  const bw = await page.inputValue('#hardware-memory_bandwidth_gbps');
  assert(bw === '1008', `bandwidth after switching to Custom: "${bw}"`);
  assert((await page.textContent('#ceiling')) === before, 'switching to Custom changed the result');
  await page.fill('#hardware-memory_bandwidth_gbps', '');
  await page.fill('#hardware-memory_gb', '');
});

await test('in-browser sweep time (benchmark, printed)', async () => {
  await page.selectOption('#hardware-preset', 'h100-sxm');
  await page.selectOption('#quantization-weights', 'bf16');
  await page.selectOption('#engine-preset', 'vllm');
  const times = [];
  for (const out of ['200', '256', '300', '256', '220']) {
    await page.fill('#workload-output_tokens', out);
    await page.waitForTimeout(150);
    times.push(await page.evaluate(() => window.__tpsLastEvalMs));
  }
  times.sort((a, b) => a - b);
  console.log(`bench: full evaluation (auto sweep, 2000 requests per level) in WASM: median ${times[2].toFixed(1)} ms, min ${times[0].toFixed(1)} ms, max ${times[4].toFixed(1)} ms`);
  assert(times[2] > 0, 'no timing recorded');
});

await test('the address reproduces the page; pasted JSON loads; a broken link names the field', async () => {
  await page.fill('#workload-prompt_tokens', '1000');
  await page.waitForTimeout(200);
  const url = page.url();
  assert(url.includes('#s='), `no scenario in the address: ${url}`);
  const verdict = await page.textContent('#verdict');
  const again = await openPage(url);
  assert((await again.page.textContent('#verdict')) === verdict, 'the link did not reproduce the verdict');
  assert((await again.page.inputValue('#workload-prompt_tokens')) === '1000', 'prompt not restored from the link');
  assert(again.errors.length === 0, `console errors: ${again.errors.slice(0, 2).join(' | ')}`);
  await again.context.close();
  await page.click('.scenario-json summary');
  await page.fill('#paste-json', JSON.stringify({ version: 1, hardware: { preset: 'rtx-4090' }, model: { preset: 'llama-3.1-8b' },
    quantization: { weights: 'q4_k_m' }, engine: { preset: 'llama.cpp' } }));
  await page.click('#apply-json');
  await page.waitForTimeout(300);
  assert((await page.inputValue('#hardware-preset')) === 'rtx-4090', 'pasted scenario did not select the device');
  const ceiling = parseFloat(await page.textContent('#ceiling'));
  assert(ceiling > 190 && ceiling < 240, `ceiling after loading: ${ceiling}`);
  await page.fill('#paste-json', '{"hardware":{"preset":"h900"}}');
  await page.click('#apply-json');
  await page.waitForTimeout(100);
  assert(/hardware\.preset/.test(await page.textContent('#paste-error')), 'no field named for a bad pasted scenario');
  for (const [json, field] of [['{"hardware":{"memory_bandwidth_gbps":-1}}', 'memory_bandwidth_gbps'], ['{"hardware":{"colour":1}}', 'colour'], ['{not json', 'json']]) {
    const ctx = await browser.newContext();
    const bad = await ctx.newPage();
    await bad.goto(origin + '/#s=' + encodeURIComponent(json));
    await bad.waitForSelector('.link-error', { timeout: 30000 });
    const text = await bad.textContent('.link-error');
    assert(text.includes(field), `broken link ${json} not explained: ${text}`);
    await ctx.close();
  }
  await page.screenshot({ path: path.join(shots, '7-scenario-json.png'), fullPage: true });
});

await test('serving inputs: request-rate levels, lengths, use case', async () => {
  await page.selectOption('#workload-load', 'rate');
  await page.fill('#workload-levels', '1, 2, x');
  await page.waitForSelector('label.invalid', { timeout: 5000 });
  assert(/not a number/.test(await page.textContent('label.invalid .error')), 'bad level not explained');
  await page.fill('#workload-levels', '1, 2, 4, 8, 16');
  await page.selectOption('#workload-distribution', 'lognormal');
  await page.waitForTimeout(400);
  assert((await page.locator('label.invalid').count()) === 0, 'valid levels flagged');
  await page.click('.sweep-table summary');
  const first = await page.textContent('#sweep-table tbody tr td');
  assert(/req\/s/.test(first), `table shows ${first}`);
  await page.selectOption('#workload-mode', 'batch');
  await page.waitForTimeout(300);
  assert(/batch/.test(await page.textContent('#verdict')), 'batch verdict missing');
  await page.screenshot({ path: path.join(shots, '8-request-rate.png'), fullPage: true });
  await page.selectOption('#workload-mode', 'reader');
  await page.selectOption('#workload-load', 'auto');
  await page.selectOption('#workload-distribution', 'fixed');
});

await test('imported benchmark results are compared and drawn (files read in the browser)', async () => {
  const before = await canvasPrint(page, 'chart-throughput');
  const sweep = path.join(root, 'tests', 'samples', 'vllm-bench-serve-sweep');
  const files = fs.readdirSync(sweep).map((f) => path.join(sweep, f));
  files.push(path.join(root, 'tests', 'samples', 'llama-bench.json'));
  await page.setInputFiles('#measure-files', files);
  await page.waitForFunction(() => document.querySelectorAll('#measure-table tr.run').length === 8, null, { timeout: 10000 });
  const summary = await page.textContent('#measure-summary');
  assert(/\d+ figures compared: median \|error\| [\d.]+ %/.test(summary), `summary: ${summary}`);
  const text = await page.textContent('#measure-table');
  assert(/vLLM bench serve — concurrency 128/.test(text) && /predicted for 128 concurrent users/.test(text), 'sweep run missing');
  assert(/llama-bench — tg128 @ d4096/.test(text) && /decode \(one user\)/.test(text), 'llama-bench run missing');
  // The runs used 1024 + 128 tokens, the page does not: their crosses wait until the page uses those lengths.
  assert(/4 runs used other prompt\/output lengths/.test(await page.textContent('#measure-off-chart')), 'length mismatch not explained');
  await page.locator('.use-lengths').first().click();
  await page.waitForTimeout(400);
  assert((await page.inputValue('#workload-prompt_tokens')) === '1024', 'lengths not applied');
  assert((await page.locator('#measure-off-chart').count()) === 0, 'runs still off the chart');
  const after = await canvasPrint(page, 'chart-throughput');
  assert(after.h !== before.h, 'measured points not drawn on the chart');
  await page.fill('#measure-paste', '{"output_throughput": 12');
  await page.click('#measure-add');
  await page.waitForSelector('#measure-errors li', { timeout: 5000 });
  assert(/pasted text: not valid JSON/.test(await page.textContent('#measure-errors')), 'bad paste not explained');
  await page.screenshot({ path: path.join(shots, '9-measurements.png'), fullPage: true });
  await page.click('#measure-clear');
  await page.waitForTimeout(200);
  assert((await page.locator('#measure-table tr.run').count()) === 0, 'clear left rows');
  await page.fill('#workload-prompt_tokens', '');
  await page.fill('#workload-output_tokens', '');
});

await test('bug 1: a new link opened in the same tab shows its scenario (hash change, back/forward)', async () => {
  const l4 = { version: 1, hardware: { preset: 'l4' }, model: { preset: 'llama-3.1-8b' }, quantization: { weights: 'fp8' }, engine: { preset: 'vllm' } };
  const before = await page.inputValue('#hardware-preset');
  await page.evaluate((h) => { location.hash = h; }, '#s=' + encodeURIComponent(JSON.stringify(l4)));
  await page.waitForFunction(() => document.querySelector('#hardware-preset').value === 'l4', null, { timeout: 5000 });
  assert(/L4/.test(await page.textContent('#verdict-context')), 'summary does not name the L4');
  await page.goBack();
  await page.waitForFunction((b) => document.querySelector('#hardware-preset').value === b, before, { timeout: 5000 });
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#hardware-preset').value === 'l4', null, { timeout: 5000 });
  await page.selectOption('#hardware-preset', 'h100-sxm');
  await page.selectOption('#quantization-weights', 'bf16');
  await page.waitForTimeout(300);
});

await test('bug 2: the verdict never rounds a failing P99 onto the target', async () => {
  const sc = { version: 1, hardware: { preset: 'h100-sxm', devices: 2 }, model: { preset: 'llama-3.1-70b' }, quantization: { weights: 'fp8' }, engine: { preset: 'vllm' } };
  const p2 = await openPage(origin + '/#s=' + encodeURIComponent(JSON.stringify(sc)));
  const v = await p2.page.textContent('#verdict');
  const m = v.match(/breaks it \(P99 (TPOT|TTFT) ([\d.]+) ms\)/);
  assert(m, `verdict names no breaking figure: ${v}`);
  const target = m[1] === 'TPOT' ? 40 : 2000;
  assert(parseFloat(m[2]) > target, `verdict says the breaking level has ${m[1]} ${m[2]} ms against ≤ ${target} ms: ${v}`);
  await p2.context.close();
});

await test('bug 6: 1e308 in any numeric field is refused compactly, the layout holds', async () => {
  const ids = await page.$$eval('.inputs input[inputmode=decimal]', (els) => els.map((e) => e.id));
  assert(ids.length >= 8, `only ${ids.length} numeric fields found`);
  for (const id of ids) {
    const old = await page.inputValue('#' + id);
    await page.fill('#' + id, '1e308');
    await page.waitForTimeout(120);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 1400, `${id} = 1e308 makes the page ${width} px wide`);
    const text = await page.evaluate(() => document.body.innerText);
    assert(!/\d{20,}/.test(text), `${id} = 1e308 prints a long digit string`);
    const invalid = await page.locator('label.invalid').count();
    assert(invalid >= 1, `${id} = 1e308 accepted without a message`);
    await page.fill('#' + id, old);
  }
  await page.waitForTimeout(300);
  assert((await page.locator('label.invalid').count()) === 0, 'a field stayed invalid after restoring');
});

await test('bug 10: a preset with a typed-over number is not named as the product', async () => {
  await page.fill('#hardware-memory_bandwidth_gbps', '819');
  await page.waitForTimeout(300);
  const ctx = await page.textContent('#verdict-context');
  assert(/bandwidth set to 819 GB\/s/.test(ctx), `summary: ${ctx}`);
  await page.fill('#hardware-memory_bandwidth_gbps', '');
  await page.waitForTimeout(300);
  assert(!/set to/.test(await page.textContent('#verdict-context')), 'override note stayed');
});

await test('bug 14: Custom keeps the device kind (its efficiency class) and offers name, kind, FP8, interconnect', async () => {
  await page.selectOption('#hardware-preset', 'h100-sxm');
  await page.selectOption('#engine-preset', 'vllm');
  await page.waitForTimeout(300);
  const before = await page.textContent('#decode-tps');
  const cls = await page.textContent('#efficiency-class');
  assert(/Datacenter GPU/.test(cls), `efficiency class: ${cls}`);
  await page.selectOption('#hardware-preset', '');
  await page.waitForTimeout(400);
  assert((await page.textContent('#decode-tps')) === before, `Custom with the H100's numbers: ${await page.textContent('#decode-tps')} vs ${before}`);
  assert((await page.inputValue('#hardware-kind')) === 'datacenter-gpu', 'kind not kept');
  assert((await page.inputValue('#hardware-architecture')) === 'hopper', 'generation not kept');
  assert(/H100/.test(await page.inputValue('#hardware-name')), 'name not kept');
  assert((await page.inputValue('#hardware-fp8_tflops')) !== '', 'FP8 not kept');
  assert((await page.inputValue('#hardware-interconnect_gbps')) !== '', 'interconnect not kept');
  await page.fill('#hardware-name', 'Our node');
  await page.selectOption('#hardware-kind', 'consumer-gpu');
  await page.waitForTimeout(400);
  assert(/Our node/.test(await page.textContent('#verdict-context')), 'custom name not in the summary');
  assert(/Consumer GPU/.test(await page.textContent('#efficiency-class')), 'class does not follow the kind');
  await page.selectOption('#hardware-preset', 'h100-sxm');
  await page.waitForTimeout(300);
  for (const id of ['#hardware-memory_bandwidth_gbps', '#hardware-memory_gb', '#hardware-fp16_tflops', '#hardware-fp8_tflops', '#hardware-interconnect_gbps']) await page.fill(id, '');
  await page.waitForTimeout(300);
  assert((await page.textContent('#decode-tps')) === before, 'back on the preset, a different prediction');
});

await test('bug 12: "Clear" keeps the comparison section open', async () => {
  // The import test above ended with "Clear": the section must still be open.
  assert(await page.evaluate(() => document.querySelector('details.measurements').open), 'section folded by Clear (import test)');
  await page.fill('#measure-paste', fs.readFileSync(path.join(root, 'tests', 'samples', 'vllm-bench-serve.json'), 'utf8'));
  await page.click('#measure-add');
  await page.waitForSelector('#measure-table tr.run', { timeout: 10000 });
  await page.click('#measure-clear');
  await page.waitForTimeout(200);
  assert(await page.evaluate(() => document.querySelector('details.measurements').open), 'section folded by Clear');
  assert(await page.isVisible('#measure-paste'), 'paste box hidden after Clear');
});

await test('bug 5: a file measured on another model is flagged, with an offer to switch', async () => {
  if (!(await page.evaluate(() => document.querySelector('details.measurements').open))) await page.click('.measurements summary');
  await page.selectOption('#model-preset', 'qwen3-32b');
  await page.waitForTimeout(300);
  await page.fill('#measure-paste', fs.readFileSync(path.join(root, 'tests', 'samples', 'vllm-bench-serve.json'), 'utf8'));
  await page.click('#measure-add');
  await page.waitForSelector('#measure-table tr.mismatch', { timeout: 10000 });
  const text = await page.textContent('#measure-table tr.mismatch');
  assert(/Llama-3\.1-8B/.test(text) && /model/.test(text), `mismatch row: ${text}`);
  await page.click('#measure-table tr.mismatch button.switch-preset');
  await page.waitForFunction(() => document.querySelector('#model-preset').value === 'llama-3.1-8b', null, { timeout: 5000 });
  await page.waitForTimeout(400);
  assert((await page.locator('#measure-table tr.mismatch').count()) === 0, 'still flagged after switching');
  await page.click('#measure-clear');
  await page.waitForTimeout(200);
});

await test('bug 8: print keeps charts whole, hides collapsed sections, prints the link and date', async () => {
  await page.emulateMedia({ media: 'print' });
  const checks = await page.evaluate(() => {
    const figs = [...document.querySelectorAll('figure.chart')].map((f) => getComputedStyle(f).breakInside);
    const closed = [...document.querySelectorAll('details:not([open])')].map((d) => getComputedStyle(d).display);
    const link = document.getElementById('print-link');
    return { figs, closed, linkShown: link && getComputedStyle(link).display !== 'none', link: link ? link.textContent : '' };
  });
  assert(checks.figs.length === 2 && checks.figs.every((b) => b === 'avoid'), `charts may split: ${checks.figs}`);
  assert(checks.closed.every((d) => d === 'none'), `collapsed sections print: ${checks.closed}`);
  assert(checks.linkShown && /\d{4}-\d{2}-\d{2}/.test(checks.link) && /#s=/.test(checks.link), `print link/date: ${checks.link.slice(0, 120)}`);
  const pdf = path.join(shots, 'print.pdf');
  await page.pdf({ path: pdf, format: 'A4', printBackground: true });
  await page.emulateMedia({ media: null });
  const pages = (fs.readFileSync(pdf, 'latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
  console.log(`print: ${pdf}, ${pages} page(s) A4`);
  assert(pages >= 1 && pages <= 3, `print has ${pages} pages`);
});

await test('bug 9: the multi-file build works from a sub-folder of a web server', async () => {
  const sub = await openPage(origin + '/sub/');
  const p = await canvasPrint(sub.page, 'chart-throughput');
  assert(p.ink > p.total * 0.01, 'chart blank when served from a sub-folder');
  assert(sub.errors.length === 0, `console errors: ${sub.errors.slice(0, 2).join(' | ')}`);
  await sub.context.close();
});

await test('bug 9: the multi-file build opened from file:// says to open the single file', async () => {
  const ctx = await browser.newContext();
  const p = await ctx.newPage();
  await p.goto(pathToFileURL(path.join(dist, 'index.html')).href);
  await p.waitForSelector('#boot-problem:not([hidden])', { timeout: 15000 });
  const text = await p.textContent('#boot-problem');
  assert(/tps-planner\.html/.test(text), `message: ${text}`);
  await p.screenshot({ path: path.join(shots, '10-file-url-multi.png') });
  await ctx.close();
});

await test('no console errors', async () => {
  assert(errors.length === 0, `${errors.length} errors, first: ${errors.slice(0, 2).map((e) => e.slice(0, 300)).join(' | ')}`);
});

await test('no request outside the page origin', async () => {
  const outside = requests.filter((u) => !u.startsWith(origin + '/') && !u.startsWith('data:'));
  assert(outside.length === 0, `outside requests: ${outside.join(', ')}`);
  assert(requests.length > 2, `suspiciously few requests: ${requests.length}`);
});

await test('phone at 2× pixel density: charts re-laid out and drawn at device resolution', async () => {
  const phone = await openPage(origin + '/', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const dims = await phone.page.evaluate(() => {
    const c = document.getElementById('chart-throughput');
    return { w: c.width, cw: c.clientWidth };
  });
  assert(Math.abs(dims.w - 2 * dims.cw) <= 2, `canvas ${dims.w} px for ${dims.cw} CSS px at 2×`);
  const p = await canvasPrint(phone.page, 'chart-throughput');
  assert(p.ink > p.total * 0.01, 'phone chart blank');
  assert(phone.errors.length === 0, `console errors: ${phone.errors.slice(0, 2).join(' | ')}`);
  await phone.page.screenshot({ path: path.join(shots, '6-phone-2x.png'), fullPage: true });
  await phone.context.close();
});

await test('single file works from file:// with no requests', async () => {
  const file = path.join(dist, 'tps-planner.html');
  assert(fs.existsSync(file), 'dist/tps-planner.html missing');
  const one = await openPage(pathToFileURL(file).href);
  const p = await canvasPrint(one.page, 'chart-throughput');
  assert(p.ink > p.total * 0.01, 'chart blank in single file');
  const other = one.requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'));
  assert(other.length === 0, `requests from the single file: ${other.join(', ')}`);
  assert(one.errors.length === 0, `${one.errors.length} console errors, first: ${one.errors.slice(0, 2).map((e) => e.slice(0, 300)).join(' | ')}`);
  await one.page.screenshot({ path: path.join(shots, '5-single-file.png'), fullPage: true });
  await one.context.close();
});

await browser.close();
server.close();
console.log(`screenshots: ${shots}`);
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
