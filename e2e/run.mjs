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
import { execFileSync } from 'node:child_process';

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
  // The memory card's requests are memory's ceiling, not the users served (a teacher's trial read 557 beside 177).
  const mem = await page.textContent('#max-concurrency');
  const held = (mem.match(/the target holds ([\d\u202f ]+)/) || [])[1];
  assert(held && parseFloat(mem) > +held.replace(/[\u202f ]/g, ''), `memory card: ${mem}`);
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
  for (const id of ['chart-throughput', 'chart-latency', 'chart-pareto', 'chart-roofline']) {
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
  // Below the floor no device is under (checks.rs): the range it allows.
  assert(/-5 is out of range: allowed 1–100\u202f000 GB\/s/.test(msg), `message: ${msg}`);
  // One invalid field does not blank the page: the last computed results stay, under a message saying so.
  assert((await page.locator('#ceiling').count()) === 1, 'results blanked by one invalid field');
  assert(/last inputs that could be computed/.test(await page.textContent('#scenario-error')), 'stale results not marked');
  // The message above the results names the field by its label on the page, not by its scenario path.
  const label = (await page.textContent('label:has(#hardware-memory_bandwidth_gbps) .label')).trim();
  const banner = await page.textContent('#scenario-error');
  assert(banner.includes(`${label}: `) && !banner.includes('hardware.memory_bandwidth_gbps'), `banner: ${banner}`);
  // The figures shown are the last inputs that could be computed: nothing is exported or pinned from them (a trial
  // exported a 2-token prompt's report after typing "2k" over 1500, and saved an empty scenario file). -5 parses but is
  // refused: before, it pinned an A that could not be evaluated.
  assert(await page.evaluate(() => document.querySelector('.toolbar').classList.contains('stale')), 'the toolbar does not say a field is invalid');
  for (const id of ['#export-report-json', '#export-sweep-csv', '#download-json']) {
    await page.evaluate((sel) => { const d = document.querySelector('details.scenario-json'); if (d) d.open = true; }, id);
    const got = await Promise.all([page.waitForEvent('download', { timeout: 1500 }).then(() => true, () => false), page.click(id)]);
    assert(!got[0], `${id} downloaded while a field is invalid`);
  }
  await page.click('#pin-a');
  await page.waitForTimeout(300);
  assert(!(await page.evaluate(() => document.querySelector('.toolbar').classList.contains('pinned'))), 'pinned while a field is invalid');
  // The charts' exports wait too (no click reaches their buttons).
  assert(await page.evaluate(() => getComputedStyle(document.querySelector('.chart-actions button')).pointerEvents === 'none'), 'chart exports still clickable');
  await page.fill('#hardware-memory_bandwidth_gbps', 'abc');
  await page.waitForFunction(() => /not a number/.test(document.querySelector('label.invalid .error')?.textContent || ''));
  // Two bad fields, two messages at once (a trial fixed one before the other said anything): a text that does not
  // parse and a value the scenario refuses.
  await page.fill('#target-tpot_ms', '-3');
  await page.waitForFunction(() => /-3 is out of range/.test(document.querySelector('label:has(#target-tpot_ms) .error')?.textContent || ''), null, { timeout: 5000 });
  assert(/not a number/.test(await page.textContent('label:has(#hardware-memory_bandwidth_gbps) .error')), 'the first bad field lost its message');
  // The banner names the first and counts the others.
  assert(/; 1 more field is marked/.test(await page.textContent('#scenario-error')), `banner: ${await page.textContent('#scenario-error')}`);
  await page.screenshot({ path: path.join(shots, '3-invalid.png'), fullPage: true });
  // Nothing typed is lost on a reload: "abc" is no scenario, so the address holds the fields' texts beside the
  // last scenario (it had reloaded to the last bandwidth that parsed).
  await page.waitForFunction(() => location.hash.includes('&t='), null, { timeout: 5000 });
  await page.reload();
  await page.waitForFunction(() => /not a number/.test(document.querySelector('label:has(#hardware-memory_bandwidth_gbps) .error')?.textContent || ''), null, { timeout: 30000 });
  assert((await page.inputValue('#hardware-memory_bandwidth_gbps')) === 'abc' && (await page.inputValue('#target-tpot_ms')) === '-3', 'typed text lost on reload');
  assert(/-3 is out of range/.test(await page.textContent('label:has(#target-tpot_ms) .error')), 'the second field lost its message on reload');
  await page.fill('#target-tpot_ms', '');
  await page.fill('#hardware-memory_bandwidth_gbps', '');
  await page.waitForSelector('#ceiling', { timeout: 5000 });
  await page.waitForFunction(() => !document.getElementById('scenario-error'), null, { timeout: 5000 });
  assert(!(await page.evaluate(() => location.hash)).includes('&t='), 'the texts stay in the address once every field parses');
  assert(!(await page.evaluate(() => document.querySelector('.toolbar').classList.contains('stale'))), 'the toolbar stays stale once every field parses');
  assert(await page.evaluate(() => getComputedStyle(document.querySelector('.chart-actions button')).pointerEvents !== 'none'), 'chart exports stay blocked');
  await page.evaluate(() => { const d = document.querySelector('details.scenario-json'); if (d) d.open = false; });
});

await test('a reload while a number is out of range keeps the last results that could be computed', async () => {
  // A teacher's trial: Prompt -5 went into the address as the scenario, and a reload opened on it with every chart
  // empty. The address keeps the last computable scenario with the typed text beside it.
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const p = await ctx.newPage();
  await p.goto(origin + '/');
  await p.waitForSelector('#ceiling', { timeout: 30000 });
  await p.fill('#workload-prompt_tokens', '-5');
  await p.waitForFunction(() => /out of range/.test(document.querySelector('label:has(#workload-prompt_tokens) .error')?.textContent || ''), null, { timeout: 5000 });
  await p.waitForFunction(() => location.hash.includes('&t='), null, { timeout: 5000 });
  await p.reload();
  await p.waitForFunction(() => /out of range/.test(document.querySelector('label:has(#workload-prompt_tokens) .error')?.textContent || ''), null, { timeout: 30000 });
  assert((await p.inputValue('#workload-prompt_tokens')) === '-5', 'the typed -5 was lost on reload');
  await p.waitForSelector('#ceiling', { timeout: 30000 });
  assert(/last inputs that could be computed/.test(await p.textContent('#scenario-error')), `banner: ${await p.textContent('#scenario-error')}`);
  const ink = await p.evaluate(() => { const c = document.querySelector('.charts canvas'); if (!c) return 0; const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) n++; return n; });
  assert(ink > 1000, `the charts are blank after the reload (${ink} inked pixels)`);
  await ctx.close();
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
  // A node's size typed stays when a preset follows Custom (a pre-sales trial's 8 per node went empty).
  await page.fill('#hardware-node_devices', '4');
  await page.selectOption('#hardware-preset', 'h100-sxm');
  await page.waitForTimeout(200);
  const node = await page.inputValue('#hardware-node_devices');
  assert(node === '4', `devices per node after Custom → H100: "${node}"`);
  await page.fill('#hardware-node_devices', '');
  await page.selectOption('#hardware-preset', 'rtx-4090');
  // Weights left at llama.cpp's default follow vLLM's, said under the Weights field; a format picked by hand clears it.
  await page.selectOption('#engine-preset', 'vllm');
  await page.waitForTimeout(200);
  const followed = await page.textContent('#weights-followed');
  assert(followed === 'Weights set to BF16, what vLLM runs for this model (were GGUF Q4_K_M).' && (await page.inputValue('#quantization-weights')) === 'bf16', `weights after llama.cpp → vLLM: "${followed}"`);
  await page.selectOption('#quantization-weights', 'q4_k_m');
  await page.waitForTimeout(200);
  assert(!(await page.$('#weights-followed')), 'the note stayed after the weights were picked by hand');
  await page.selectOption('#engine-preset', 'llama.cpp');
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

await test('CUDA graphs off (eager mode): every decode step pays the launch chain, and the link keeps it', async () => {
  // Llama-3.1-8B BF16 on one H100 under vLLM (the previous test's scenario): with graphs a step streams 16 GB in
  // ~7 ms; eagerly it takes 32 layers × 11 kernels × 50 µs = 17.6 ms at least, so one user gets under 57 tok/s.
  const graphs = parseFloat(await page.textContent('#decode-tps'));
  await page.selectOption('#engine-cuda_graphs', 'off');
  await page.waitForTimeout(300);
  const eager = parseFloat(await page.textContent('#decode-tps'));
  assert(graphs > 100 && eager < 57 && eager > 40, `decode with graphs ${graphs}, eager ${eager} tok/s`);
  assert(decodeURIComponent(page.url()).includes('"cuda_graphs":false'), `eager mode not in the link: ${page.url()}`);
  // Hidden for llama.cpp (no effect there), kept for when vLLM comes back.
  await page.selectOption('#engine-preset', 'llama.cpp');
  await page.waitForTimeout(200);
  assert(await page.locator('#engine-cuda_graphs').isHidden(), 'the CUDA graphs switch shows for llama.cpp');
  await page.selectOption('#engine-preset', 'vllm');
  await page.selectOption('#quantization-weights', 'bf16');
  await page.waitForTimeout(200);
  assert((await page.inputValue('#engine-cuda_graphs')) === 'off', 'eager mode lost across an engine switch');
  await page.selectOption('#engine-cuda_graphs', '');
  await page.waitForTimeout(300);
  const back = parseFloat(await page.textContent('#decode-tps'));
  assert(Math.abs(back - graphs) < 0.01 * graphs, `graphs back on: ${back} against ${graphs} tok/s`);
});

await test("SGLang's own prompt steps (the decodes wait) are a choice the link keeps, shown for SGLang alone", async () => {
  assert(await page.locator('#engine-mixed_batches').isHidden(), 'the prompt-steps switch shows for vLLM, which always shares its steps');
  await page.selectOption('#engine-preset', 'sglang');
  await page.waitForTimeout(200);
  assert(await page.locator('#engine-mixed_batches').isVisible(), 'no prompt-steps switch for SGLang');
  await page.selectOption('#engine-mixed_batches', 'apart');
  await page.waitForFunction(() => decodeURIComponent(location.hash).includes('"mixed_batches":false'), null, { timeout: 10000 });
  await page.selectOption('#engine-mixed_batches', '');
  await page.waitForFunction(() => !decodeURIComponent(location.hash).includes('mixed_batches'), null, { timeout: 10000 });
  await page.selectOption('#engine-preset', 'vllm');
  await page.selectOption('#quantization-weights', 'bf16');
  await page.waitForTimeout(200);
});

await test('opened again without a link, the page comes back to the last scenario this browser kept, and can start afresh', async () => {
  // An air-gapped user closes the single file and opens it again: the inputs come back (a trial found them gone).
  const { page: p1, context } = await openPage(origin + '/');
  assert(!(await p1.isVisible('#restored')), 'a fresh browser said it restored a scenario');
  const defaultPrompt = await p1.inputValue('#workload-prompt_tokens');
  await p1.fill('#workload-prompt_tokens', '3000');
  await p1.waitForFunction(() => decodeURIComponent(location.hash).includes('"prompt_tokens":3000'), null, { timeout: 10000 });
  const p2 = await context.newPage();
  await p2.goto(origin + '/');
  await p2.waitForSelector('#ceiling', { timeout: 30000 });
  assert((await p2.inputValue('#workload-prompt_tokens')) === '3000', 'the last scenario did not come back');
  assert(/last scenario on this computer/.test(await p2.textContent('#restored')), 'the page did not say it restored one');
  // A link still wins over what the browser kept.
  const linked = await context.newPage();
  await linked.goto(origin + '/#s=' + encodeURIComponent(JSON.stringify({ version: 1, hardware: { preset: 'h100-sxm' }, model: { preset: 'llama-3.1-8b' }, workload: { prompt_tokens: 777 } })));
  await linked.waitForSelector('#ceiling', { timeout: 30000 });
  assert((await linked.inputValue('#workload-prompt_tokens')) === '777' && !(await linked.isVisible('#restored')), 'a link lost to the kept scenario');
  // "Start from the defaults" forgets it.
  await p2.click('#start-afresh');
  await p2.waitForFunction(() => !document.getElementById('restored') && !location.hash.startsWith('#new') && document.getElementById('ceiling'), null, { timeout: 30000 });
  assert((await p2.inputValue('#workload-prompt_tokens')) === defaultPrompt && !(await p2.isVisible('#restored')), 'start afresh kept the scenario');
  // The page's own defaults, kept, are not announced as a restored scenario.
  const p3 = await context.newPage();
  await p3.goto(origin + '/');
  await p3.waitForSelector('#ceiling', { timeout: 30000 });
  assert(!(await p3.isVisible('#restored')), 'the defaults were announced as a restored scenario');
  await context.close();
});

await test('the address reproduces the page; pasted JSON loads; a broken link names the field', async () => {
  await page.fill('#workload-prompt_tokens', '1000');
  await page.waitForTimeout(200);
  const url = page.url();
  assert(url.includes('#s='), `no scenario in the address: ${url}`);
  // Each page's simulated verdict, not the estimate shown while a level is simulated (a run on a busy machine read
  // one page's estimate against the other's simulation).
  const settled = (p) => p.waitForFunction(() => (document.getElementById('simulating')?.textContent ?? '') === '', null, { timeout: 60000 });
  await settled(page);
  const verdict = await page.textContent('#verdict');
  const again = await openPage(url);
  await settled(again.page);
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
  // A scenario without an engine runs its hardware's default, as `tps eval` does (a typed 400 GB/s device: llama.cpp;
  // the page had shown and run vLLM): the same figure as with llama.cpp named.
  const minimal = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'minimal.json'), 'utf8'));
  const pasted = async (sc) => {
    await page.fill('#paste-json', JSON.stringify(sc));
    await page.click('#apply-json');
    await page.waitForTimeout(1000);
    return [await page.inputValue('#engine-preset'), await page.textContent('#decode-tps')];
  };
  // With an engine setting of its own, which the default engine keeps (a review: it had been dropped as another
  // engine's).
  const [namedEngine, named] = await pasted({ ...minimal, engine: { preset: 'llama.cpp', bandwidth_efficiency: 0.5 } });
  const [vllmEngine, vllm] = await pasted({ ...minimal, engine: { preset: 'vllm', bandwidth_efficiency: 0.5 } });
  const [defaultEngine, unnamed] = await pasted({ ...minimal, engine: { bandwidth_efficiency: 0.5 } });
  assert(vllmEngine === 'vllm' && vllm !== named, `vLLM ${vllm} against llama.cpp's ${named}: the check could not tell them apart`);
  assert(namedEngine === 'llama.cpp' && defaultEngine === 'llama.cpp' && unnamed === named, `no engine: ${defaultEngine} ${unnamed} against llama.cpp's ${named}`);
  // Back to the RTX 4090 the later tests start from.
  await pasted({ version: 1, hardware: { preset: 'rtx-4090' }, model: { preset: 'llama-3.1-8b' }, quantization: { weights: 'q4_k_m' }, engine: { preset: 'llama.cpp' } });
  await page.fill('#paste-json', '{"hardware":{"preset":"h900"}}');
  await page.click('#apply-json');
  await page.waitForTimeout(100);
  assert(/hardware\.preset/.test(await page.textContent('#paste-error')), 'no field named for a bad pasted scenario');
  // A benchmark's result pasted as a scenario: told where it goes (a trial got "unknown field `backend`").
  await page.fill('#paste-json', fs.readFileSync(path.join(root, 'tests', 'samples', 'vllm-bench-serve.json'), 'utf8'));
  await page.click('#apply-json');
  await page.waitForTimeout(100);
  assert(/benchmark result, not a scenario: add it under "Compare with your benchmark results"/.test(await page.textContent('#paste-error')), `pasted result: ${await page.textContent('#paste-error')}`);
  await page.fill('#paste-json', '');
  // Another version's scenario is refused as such (a teacher's trial read "Memory bandwidth: required").
  for (const [json, field] of [['{"hardware":{"memory_bandwidth_gbps":-1}}', 'memory_bandwidth_gbps'], ['{"hardware":{"colour":1}}', 'colour'], ['{not json', 'json'], ['{"version":2}', 'of version 2']]) {
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
  const tpotTyped = await page.inputValue('#target-tpot_ms');
  await page.selectOption('#workload-mode', 'batch');
  await page.waitForTimeout(300);
  assert(/batch/.test(await page.textContent('#verdict')), 'batch verdict missing');
  // Batch is latency-free: no latency target is shown or applied (the capacity card had said "no load level meets
  // the target" beside a batch peak), and the typed target comes back with another use case.
  assert(await page.locator('#target-tpot_ms').isHidden(), 'latency target shown in batch mode');
  await page.waitForFunction(() => /No latency target \(batch\)/.test(document.querySelector('#capacity')?.textContent || ''), null, { timeout: 10000 });
  await page.screenshot({ path: path.join(shots, '8-request-rate.png'), fullPage: true });
  await page.selectOption('#workload-mode', 'reader');
  assert((await page.inputValue('#target-tpot_ms')) === tpotTyped, `the typed TPOT target was lost: ${tpotTyped}`);
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
  // The files added are named beside the chooser, which is emptied to take a file again (an operations trial read
  // its "No file chosen" as a failed import).
  const added = await page.textContent('#measure-added');
  for (const f of files) assert(added.includes(path.basename(f)), `added: ${added} (missing ${path.basename(f)})`);
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
  // Calibration on runs of another device is refused: the message names both devices, offers the switch, and
  // nothing changes (the page is on an RTX 4090; llama-bench.json was measured on an H100).
  const medianOf = (t) => parseFloat(/median \|error\| ([\d.]+) %/.exec(t)[1]);
  const hash0 = await page.evaluate(() => location.hash);
  const summary0 = await page.textContent('#measure-summary');
  await page.click('#measure-calibrate');
  await page.waitForSelector('#measure-calibration:not(.hidden)', { timeout: 20000 });
  const refusal = await page.textContent('#measure-calibration');
  assert(/^Not calibrated: .*hardware is NVIDIA H100 80GB HBM3 but the scenario's is .*RTX 4090/.test(refusal), `refusal: ${refusal}`);
  await page.waitForTimeout(400);
  assert((await page.evaluate(() => location.hash)) === hash0, 'a refused calibration changed the scenario');
  assert((await page.textContent('#measure-summary')) === summary0, 'a refused calibration changed the comparison');
  assert(!(await page.isVisible('#measure-uncalibrate')), 'Undo offered after a refusal');
  await page.locator('details.measurements').screenshot({ path: path.join(shots, '9b-calibration-refused.png') });
  // The switch offered beside the refusal puts the page on the runs' device; the vLLM runs were served by vLLM
  // in BF16 (llama-bench's runs bring their own engine and weights). Then calibration runs.
  await page.click('#measure-calibration button.switch-preset');
  await page.waitForFunction(() => document.querySelector('#hardware-preset').value === 'h100-sxm', null, { timeout: 5000 });
  assert(!(await page.isVisible('#measure-calibration')), 'refusal still shown after switching');
  await page.selectOption('#engine-preset', 'vllm');
  await page.selectOption('#quantization-weights', 'bf16');
  await page.waitForTimeout(600);
  const beforeCal = medianOf(await page.textContent('#measure-summary'));
  await page.click('#measure-calibrate');
  await page.waitForFunction(() => /Calibrated on/.test(document.querySelector('#measure-calibration').textContent), null, { timeout: 30000 });
  const cal = await page.textContent('#measure-calibration');
  const shown = /^Calibrated on \d+ figures(?: \(\d+ per-user speeds? left out: 1000 ÷ a TPOT mean already fitted\))?: median \|error\| ([\d.]+) % → ([\d.]+) %\. Fitted: .*bandwidth_efficiency/.exec(cal);
  assert(shown && parseFloat(shown[2]) < parseFloat(shown[1]), `calibration: ${cal}`);
  // llama-bench's four runs are llama.cpp's: left out of a vLLM calibration, and said (a trial's "calibrated" vLLM
  // on them moved nothing but claimed it).
  assert(/Left out: 4 run\(s\) of another engine\./.test(cal), `llama-bench runs not left out: ${cal}`);
  await page.waitForTimeout(600);
  const afterCal = medianOf(await page.textContent('#measure-summary'));
  assert(afterCal < beforeCal, `calibration did not lower the median error: ${beforeCal} → ${afterCal}; ${cal}`);
  const linked = decodeURIComponent(await page.evaluate(() => location.hash));
  assert(/"calibrated_from":"\d+ figures of 4 run\(s\)/.test(linked) && /"bandwidth_efficiency":/.test(linked), `calibration not in the link: ${linked.slice(0, 300)}`);
  assert((await page.inputValue('#workload-prompt_tokens')) === '1024', 'calibration changed a typed field');
  assert(/"calibrated_from": "/.test(await page.textContent('#scenario-json')), 'calibration not in the scenario JSON');
  await page.locator('details.measurements').screenshot({ path: path.join(shots, '9c-calibrated.png') });
  // The device's efficiency note says the calibration, with its figures (a trial's calibrated link read "fitted
  // defaults").
  assert(/\(calibrated on \d+ figures of 4 run/.test(await page.textContent('#efficiency-class')), `note: ${await page.textContent('#efficiency-class')}`);
  // Calibrated twice, Undo still goes back to before the first (it had gone back to the first, then vanished).
  await page.click('#measure-calibrate');
  await page.waitForTimeout(1500);
  await page.click('#measure-uncalibrate');
  await page.waitForTimeout(600);
  assert(Math.abs(medianOf(await page.textContent('#measure-summary')) - beforeCal) < 0.05, 'undo did not restore the scenario');
  assert(!/calibrated_from/.test(decodeURIComponent(await page.evaluate(() => location.hash))), 'undo left the calibration in the link');
  assert(!(await page.isVisible('#measure-calibration')) && !(await page.isVisible('#measure-uncalibrate')), 'undo left the message or the button');
  assert(/fitted defaults/.test(await page.textContent('#efficiency-class')), 'the note still says a calibration');
  // Back to the device, engine and weights the page had (the tests below start from them).
  await page.selectOption('#hardware-preset', 'rtx-4090');
  await page.selectOption('#engine-preset', 'llama.cpp');
  await page.selectOption('#quantization-weights', 'q4_k_m');
  await page.fill('#measure-paste', '{"output_throughput": 12');
  await page.click('#measure-add');
  await page.waitForSelector('#measure-errors li', { timeout: 5000 });
  assert(/pasted text: not valid JSON/.test(await page.textContent('#measure-errors')), 'bad paste not explained');
  await page.screenshot({ path: path.join(shots, '9-measurements.png'), fullPage: true });
  await page.click('#measure-clear');
  await page.waitForTimeout(200);
  assert((await page.locator('#measure-table tr.run').count()) === 0, 'clear left rows');
  assert((await page.textContent('#measure-added')) === '', 'clear left the files named');
  await page.fill('#workload-prompt_tokens', '');
  await page.fill('#workload-output_tokens', '');
});

await test('a calibration that came in a link is said under the device and can be undone there and then', async () => {
  const h = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'h100-llama8b.json'), 'utf8'));
  const cal = { ...h, engine: { ...(h.engine || {}), preset: 'vllm', bandwidth_efficiency: 0.95, calibrated_from: 'test runs' } };
  const { page: cp, context: cc, errors: ce } = await openPage(origin + '/#s=' + encodeURIComponent(JSON.stringify(cal)));
  const note = await cp.textContent('#efficiency-class');
  assert(/weights streamed at 95 % of the bandwidth.*\(calibrated on test runs/.test(note), `note: ${note}`);
  await cp.evaluate(() => { document.querySelector('details.measurements').open = true; });
  assert(await cp.isVisible('#measure-uncalibrate'), 'no Undo for a calibration from a link (no runs loaded)');
  assert(!(await cp.isVisible('#measure-calibrate')), 'Calibrate offered without runs');
  await cp.click('#measure-uncalibrate');
  await cp.waitForFunction(() => /fitted defaults/.test(document.querySelector('#efficiency-class').textContent), null, { timeout: 5000 });
  assert(!/calibrated_from|bandwidth_efficiency/.test(decodeURIComponent(await cp.evaluate(() => location.hash))), 'the calibration stayed in the link');
  assert(ce.length === 0, ce.join('\n'));
  await cc.close();
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
  // A key the page does not write, appended by a mail client or a hand, leaves the scenario readable.
  const rtx = { ...l4, hardware: { preset: 'rtx-4090' } };
  await page.evaluate((h) => { location.hash = h; }, '#s=' + encodeURIComponent(JSON.stringify(rtx)) + '&utm_source=mail');
  await page.waitForFunction(() => document.querySelector('#hardware-preset').value === 'rtx-4090', null, { timeout: 5000 });
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
    // The message comes with the next evaluation (at once, or after a 200 ms pause on a busy machine).
    await page.waitForSelector('label.invalid', { timeout: 5000 }).catch(() => {});
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

await test('another device clears the figures typed for the previous one, naming those that were not its own', async () => {
  // A pre-sales trial confirmed the H100's 3350 GB/s, picked the L40S, and got an L40S computed at 3350 GB/s.
  await page.selectOption('#hardware-preset', 'l40s');
  await page.waitForTimeout(300);
  const l40s = await page.textContent('#decode-tps');
  await page.selectOption('#hardware-preset', 'h100-sxm');
  await page.waitForTimeout(300);
  await page.fill('#hardware-memory_bandwidth_gbps', '3350');
  await page.waitForTimeout(300);
  await page.selectOption('#hardware-preset', 'l40s');
  await page.waitForTimeout(400);
  assert((await page.inputValue('#hardware-memory_bandwidth_gbps')) === '', 'the H100 bandwidth stayed typed over the L40S');
  assert((await page.textContent('#decode-tps')) === l40s, `L40S after H100: ${await page.textContent('#decode-tps')} vs ${l40s}`);
  assert(!/Cleared/.test(await page.textContent('#efficiency-class')), 'the preset\'s own figure is cleared silently');
  await page.fill('#hardware-memory_bandwidth_gbps', '700');
  await page.waitForTimeout(300);
  await page.selectOption('#hardware-preset', 'h100-sxm');
  await page.waitForTimeout(400);
  assert((await page.inputValue('#hardware-memory_bandwidth_gbps')) === '', 'a typed bandwidth stayed over the new device');
  const note = await page.textContent('#efficiency-class');
  assert(/Cleared with the change of device.*bandwidth 700 GB\/s/.test(note), `the cleared figure is not named: ${note}`);
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

await test("a custom model's size does not follow a named model, and comes back with Custom", async () => {
  // A trial picked Custom (the 8B's 8.03 filled in), then the 70B, and was shown the 8B's weights: 8.03 had stayed.
  await page.selectOption('#model-preset', '');
  await page.waitForTimeout(200);
  assert(parseFloat(await page.inputValue('#model-params_b')) > 7.9, 'Custom starts from the previous model\'s size');
  await page.fill('#model-params_b', '13');
  await page.selectOption('#model-preset', 'llama-3.1-70b');
  await page.waitForTimeout(400);
  assert((await page.inputValue('#model-params_b')) === '', 'the custom size stayed with the 70B');
  assert(!/params_b/.test(decodeURIComponent(await page.evaluate(() => location.hash))), 'the link carries a size for the 70B');
  await page.selectOption('#model-preset', '');
  await page.waitForTimeout(200);
  assert((await page.inputValue('#model-params_b')) === '13', 'the size typed for Custom is lost');
  await page.selectOption('#model-preset', 'llama-3.1-8b');
  await page.waitForTimeout(300);
  assert((await page.inputValue('#model-params_b')) === '', 'the size stayed with the 8B');
});

await test('a custom device typed comes back with Custom after a look at a preset', async () => {
  const hwBefore = await page.inputValue('#hardware-preset');
  await page.selectOption('#hardware-preset', '');
  await page.waitForTimeout(200);
  await page.fill('#hardware-memory_bandwidth_gbps', '777');
  await page.fill('#hardware-memory_gb', '33');
  await page.selectOption('#hardware-preset', 'l4');
  await page.waitForTimeout(300);
  assert((await page.inputValue('#hardware-memory_bandwidth_gbps')) === '', 'the custom bandwidth stayed with the L4');
  await page.selectOption('#hardware-preset', '');
  await page.waitForTimeout(300);
  const got = [await page.inputValue('#hardware-memory_bandwidth_gbps'), await page.inputValue('#hardware-memory_gb')];
  assert(got[0] === '777' && got[1] === '33', `the custom device came back as ${got}`);
  await page.selectOption('#hardware-preset', hwBefore || 'h100-sxm');
  await page.waitForTimeout(300);
});

await test('bug 8: print keeps charts whole, hides collapsed sections, prints the link and date', async () => {
  const open = () => page.evaluate(() => document.querySelector('details.sweep-table')?.open);
  if (await open()) await page.click('.sweep-table summary');
  await page.emulateMedia({ media: 'print' });
  const checks = await page.evaluate(() => {
    // The printed charts (the trade-off chart is left out of the one-page report).
    const figs = [...document.querySelectorAll('figure.chart')].filter((f) => getComputedStyle(f).display !== 'none').map((f) => getComputedStyle(f).breakInside);
    const closed = [...document.querySelectorAll('details:not([open])')].map((d) => getComputedStyle(d).display);
    const link = document.getElementById('print-link');
    return { figs, closed, linkShown: link && getComputedStyle(link).display !== 'none', link: link ? link.textContent : '', href: location.href };
  });
  // The printed address shows quotes as quotes and whole numbers without ".0" (shorter on paper); otherwise it is the
  // page's own.
  const printed = checks.link.split('This scenario: ')[1] || '';
  const short = checks.href.replaceAll('%22', '"').replace(/(\d)\.0(?=[,}\]])/g, '$1');
  assert(printed.includes('#s={"version":1') && printed === short, `printed link ${printed.slice(0, 80)} vs ${short.slice(0, 80)}`);
  assert(checks.figs.length === 2 && checks.figs.every((b) => b === 'avoid'), `charts may split: ${checks.figs}`);
  assert(checks.closed.every((d) => d === 'none'), `collapsed sections print: ${checks.closed}`);
  assert(checks.linkShown && /\d{4}-\d{2}-\d{2}/.test(checks.link) && /#s=/.test(checks.link), `print link/date: ${checks.link.slice(0, 120)}`);
  const pdf = path.join(shots, 'print.pdf');
  await page.pdf({ path: pdf, format: 'A4', printBackground: true });
  await page.emulateMedia({ media: null });
  const pages = (fs.readFileSync(pdf, 'latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
  console.log(`print: ${pdf}, ${pages} page(s) A4`);
  assert(pages >= 1 && pages <= 2, `print has ${pages} pages`);
  // The table of the sweep prints when it is open, on a page of its own after the report (a teacher's trial).
  assert(!/Table of the sweep/.test(execFileSync('pdftotext', [pdf, '-']).toString()), 'the closed table printed');
  await page.click('.sweep-table summary');
  assert(await open(), 'the table did not open');
  const withTable = path.join(shots, 'print-table.pdf');
  await page.emulateMedia({ media: 'print' });
  await page.pdf({ path: withTable, format: 'A4', printBackground: true });
  await page.emulateMedia({ media: null });
  const tablePages = (fs.readFileSync(withTable, 'latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
  const tableText = execFileSync('pdftotext', ['-f', String(pages + 1), '-l', String(pages + 1), withTable, '-']).toString();
  const firstRow = (await page.textContent('#sweep-table tbody tr td')).trim();
  assert(tablePages > pages && /Table of the sweep/.test(tableText) && tableText.includes(firstRow), `the open table printed on ${tablePages} page(s) (${pages} closed): ${tableText.slice(0, 200)}`);
  // …after the report's own assumptions, link and date, which stay on its first page (a review).
  const reportText = execFileSync('pdftotext', ['-f', '1', '-l', String(pages), withTable, '-']).toString();
  assert(/This scenario:/.test(reportText) && /Assumptions/.test(reportText) && !/Table of the sweep/.test(reportText), `the report's footer moved: ${reportText.slice(-300)}`);
  await page.click('.sweep-table summary');
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
  await p.goto(pathToFileURL(path.join(dist, 'index.html')).href + '#s=%7B%7D');
  await p.waitForSelector('#boot-problem:not([hidden])', { timeout: 15000 });
  const text = await p.textContent('#boot-problem');
  assert(/tps-planner\.html/.test(text), `message: ${text}`);
  // The file's name is a link to it, carrying this address's scenario (an operations trial had to find the file).
  const href = await p.getAttribute('#single-file', 'href');
  assert(href === 'tps-planner.html#s=%7B%7D', `link: ${href}`);
  await p.screenshot({ path: path.join(shots, '10-file-url-multi.png') });
  await ctx.close();
});

await test('no console errors', async () => {
  assert(errors.length === 0, `${errors.length} errors, first: ${errors.slice(0, 2).map((e) => e.slice(0, 300)).join(' | ')}`);
});

await test('a link without weights shows the default, and vLLM\'s sampler reserve says how to free it (gpt-oss-120b on one H100)', async () => {
  const sc = { hardware: { preset: 'h100-sxm' }, model: { preset: 'gpt-oss-120b' }, engine: { preset: 'vllm' } };
  const { page: g, errors: ge } = await openPage(origin + '/#s=' + encodeURIComponent(JSON.stringify(sc)));
  // No weights and no bits in the link: the model's released format applies, and the fields say so (not "required").
  assert((await g.getAttribute('#quantization-weight_bits', 'placeholder')) === 'default', 'bits placeholder');
  assert((await g.inputValue('#quantization-weight_bits')) === '', 'bits filled in');
  const warn = (await g.$$eval('.warning', (ps) => ps.map((p) => p.textContent))).find((t) => t.includes('--max-num-seqs'));
  assert(warn && /keeps 7\.\d GiB per device/.test(warn), `sampler warning: ${warn}`);
  // FP8, then back to the released format: MXFP4 again, not FP8's 8 bits kept as custom ones (an operations trial's
  // gpt-oss-120b came back "custom, 8 bits", 116.8 GB, and did not fit).
  const released = await g.textContent('#ceiling');
  await g.selectOption('#quantization-weights', 'fp8');
  await g.waitForFunction((c) => document.getElementById('ceiling')?.textContent !== c, released, { timeout: 10000 });
  await g.selectOption('#quantization-weights', '');
  await g.waitForFunction((c) => document.getElementById('ceiling')?.textContent === c, released, { timeout: 10000 });
  assert((await g.inputValue('#quantization-weight_bits')) === '' && !decodeURIComponent(await g.evaluate(() => location.hash)).includes('weight_bits'), 'bits kept from FP8');
  assert(ge.length === 0, ge.join('\n'));
  await g.context().close();
});

await test('no request outside the page origin', async () => {
  const outside = requests.filter((u) => !u.startsWith(origin + '/') && !u.startsWith('data:') && !u.startsWith('blob:' + origin + '/'));
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
  // The jump bar: under the verdict, above the headline cards, and its Charts button brings the charts to the top
  // without touching the hash (which carries the scenario); hidden beside the inputs on a wide screen.
  const bar = await phone.page.evaluate(() => {
    const top = (s) => document.querySelector(s).getBoundingClientRect().top;
    return { shown: getComputedStyle(document.querySelector('.jump')).display, bar: top('.jump'), verdict: top('#verdict'), cards: top('#headline'), inputs: top('#inputs') };
  });
  assert(bar.shown === 'flex' && bar.verdict < bar.bar && bar.bar < bar.cards && bar.cards < bar.inputs, `jump bar on a phone: ${JSON.stringify(bar)}`);
  const hash = await phone.page.evaluate(() => location.hash);
  await phone.page.click('#jump-charts');
  await phone.page.waitForFunction(() => Math.abs(document.getElementById('chart-block').getBoundingClientRect().top) < 2, null, { timeout: 5000 });
  assert((await phone.page.evaluate(() => location.hash)) === hash, 'the jump changed the hash');
  await phone.page.click('#jump-inputs');
  await phone.page.waitForFunction(() => Math.abs(document.getElementById('inputs').getBoundingClientRect().top) < 2, null, { timeout: 5000 });
  // How to read starts closed on a phone: the jump opens it.
  assert(!(await phone.page.evaluate(() => document.getElementById('explain').open)), 'How to read open on a phone before the jump');
  await phone.page.click('#jump-explain');
  await phone.page.waitForFunction(() => document.getElementById('explain').open, null, { timeout: 5000 });
  await phone.context.close();
  const wide = await page.evaluate(() => getComputedStyle(document.querySelector('.jump')).display);
  assert(wide === 'none', `jump bar shown beside the inputs: ${wide}`);
});

await test('single file works from file:// with no requests', async () => {
  const file = path.join(dist, 'tps-planner.html');
  assert(fs.existsSync(file), 'dist/tps-planner.html missing');
  const one = await openPage(pathToFileURL(file).href);
  const p = await canvasPrint(one.page, 'chart-throughput');
  assert(p.ink > p.total * 0.01, 'chart blank in single file');
  const other = one.requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert(other.length === 0, `requests from the single file: ${other.join(', ')}`);
  // Its load levels were simulated in the Web Worker (a Blob of the glue, the page's own module).
  assert(await one.page.evaluate(() => window.__tpsWorker === true), 'the single file simulated without its worker');
  assert(one.errors.length === 0, `${one.errors.length} console errors, first: ${one.errors.slice(0, 2).map((e) => e.slice(0, 300)).join(' | ')}`);
  await one.page.screenshot({ path: path.join(shots, '5-single-file.png'), fullPage: true });
  await one.context.close();
});

// ---- Issue 11: the sizing meeting on one screen — capacity, fleet, energy, cost, A versus B, exports, print.

const meetingA = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'meeting-2xh100.json'), 'utf8'));
const meetingUrl = origin + '/#s=' + encodeURIComponent(JSON.stringify(meetingA));
const num = (t) => parseFloat(String(t).replace(/[\u202f\u00a0 ,]/g, '').replace('−', '-'));

// Saves the download a click starts and returns its path.
async function download(pg, selector) {
  const [dl] = await Promise.all([pg.waitForEvent('download', { timeout: 15000 }), pg.click(selector)]);
  const file = path.join(shots, 'download-' + dl.suggestedFilename());
  await dl.saveAs(file);
  return file;
}

// The difference table as { metric: [label, a, b, delta, ratio, unit] }.
async function diffRows(pg) {
  return pg.$$eval('#diff-table tbody tr', (trs) => Object.fromEntries(trs.map((tr) => [tr.dataset.metric, [...tr.children].map((c) => c.textContent)])));
}

const meeting = await openPage(meetingUrl);
const mp = meeting.page;
await meeting.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
const card = {};

await test('meeting: capacity, fleet, energy and cost read from one screen (examples/meeting-2xh100.json)', async () => {
  await mp.waitForSelector('#fleet-servers', { timeout: 30000 });
  // The link filled the new inputs.
  for (const [id, v] of [['#fleet-peak_users', '500'], ['#fleet-spare_replicas', '1'], ['#cost-device_hour', '2.1'], ['#cost-currency', 'USD'], ['#cost-electricity_per_kwh', '0.12'], ['#cost-pue', '1.3']]) {
    assert((await mp.inputValue(id)) === v, `${id} = "${await mp.inputValue(id)}", expected ${v}`);
  }
  const cap = await mp.textContent('#capacity');
  const m = cap.match(/^Holds (\d+) users at the target, limited by (TPOT|TTFT); (\d+) users break it with P99 (TPOT|TTFT) ([\d.]+) ms\.$/);
  assert(m, `capacity sentence: ${cap}`);
  assert(+m[3] === +m[1] + 1, `resolved to one user: ${cap}`);
  assert(m[2] === m[4] && parseFloat(m[5]) > (m[4] === 'TPOT' ? 40 : 2000), `the breaking figure is over its limit: ${cap}`);
  card.users = +m[1];
  const fleet = await mp.textContent('#fleet-sentence');
  const f = fleet.match(/^500 users → (\d+) servers of 2 × NVIDIA H100.* \((\d+) at the operating point of (\d+) users each \+ 1 spare\)/);
  assert(f, `fleet sentence: ${fleet}`);
  assert(+f[1] === Math.ceil(500 / +f[3]) + 1 && +f[2] === +f[1] - 1, `servers = ⌈500 ÷ users per server⌉ + 1: ${fleet}`);
  assert(+f[3] <= card.users, `operating point above the capacity: ${fleet}`);
  card.servers = +f[1];
  // The floor at capacity, ⌈500 ÷ the capacity's users⌉ + the spare, and what "users" means (plan::fleet).
  const floor = fleet.match(/the fewest that hold the target, each at its capacity: (\d+) \+ 1 spare/);
  assert(floor && +floor[1] === Math.ceil(500 / card.users), `fleet floor: ${fleet} (capacity ${card.users} users)`);
  assert(/each keep a request in flight/.test(await mp.textContent('#fleet-card .note')), 'the fleet card does not say what its users are');
  assert(num(await mp.textContent('#fleet-servers')) === card.servers, 'big figure differs from the sentence');
  // The devices: 2 × H100 SXM servers share nodes of 8; rented by the device-hour, the servers' own are counted
  // (with a purchase price, whole nodes: below).
  const used = (await mp.textContent('#fleet-card')).match(/servers? · ([\d\u202f]+) devices?/);
  card.devices = used && num(used[1]);
  // (Rented, the devices are counted one by one, said where the nodes hold more: an operations trial.)
  const nodes = fleet.match(/on nodes of 8 devices, 4 servers each: (\d+) nodes(?:, (\d+) of the nodes' (\d+) devices, counted one by one \(a purchase price buys whole nodes\))?$/);
  assert(nodes && card.devices === 2 * card.servers && +nodes[1] === Math.ceil(card.servers / 4), `devices: ${used} for ${fleet}`);
  assert(!nodes[2] || (+nodes[2] === card.devices && +nodes[3] === 8 * +nodes[1]), `devices counted one by one: ${fleet}`);
  card.nodes = +nodes[1];
  const alts = await mp.textContent('#fleet-alternatives');
  // 4 devices per server; not 1, where the FP8 checkpoint's 16-bit head and embedding table leave no room (72.7 GB).
  assert(/4 devices per server: \d+ servers/.test(alts) && !/1 device per server/.test(alts), `alternatives: ${alts}`);
  // A server size that needs a quarter fewer devices stands out, and only such a one (a pre-sales trial).
  for (const li of await mp.$$eval('#fleet-alternatives li', ls => ls.map(l => [l.textContent, !!l.querySelector('strong')]))) {
    const d = li[0].match(/servers?, ([\d\u202f]+) devices/);
    assert(d && li[1] === (num(d[1]) <= 0.75 * card.devices), `alternative ${li[0]} (bold: ${li[1]}) against ${card.devices} devices`);
  }
  const jpt = await mp.textContent('#energy-jpt');
  card.jpt = num(jpt);
  // The energy band is the band under load + 10 points (its figure follows the validation; the report says which),
  // worded "± b %" up to 25 % and "÷ / × (1 + b)" beyond (plan::band_text).
  const eb = jpt.match(/± (\d+) %/) || jpt.match(/÷ \/ × ([\d.]+)/);
  card.energyBand = eb && (eb[0].startsWith('±') ? +eb[1] : (+eb[1] - 1) * 100);
  assert(card.jpt > 0.2 && card.jpt < 20 && card.energyBand > 10, `energy: ${jpt}`);
  // The fleet's power, spares idle, at the meter: the meeting's "this energy" without pinning a B.
  const es = (await mp.textContent('#energy')).match(/^\d[\d\u202f]* W per server at the operating point, [\d.]+ (million )?tokens per kWh at the accelerators; at the meter \(PUE 1\.30?\): ([\d.]+) J\/token, ([\d.]+) (million )?tokens per kWh\. The fleet ([\d.]+) kW at the meter, [\d.]+ J per output token at the peak \(spares and headroom counted\), ([\d.]+) MWh a month at the peak, around the clock \(720 h\), ([\d.]+) MWh a year; the meter's: the accelerators × PUE, hosts not counted\.$/);
  assert(es && Math.abs(+es[5] * 24 * 30 / 1000 - +es[6]) < 0.06 * +es[6], `energy sentence: ${await mp.textContent('#energy')}`);
  // A year is 365 days of the month's 30 (a pre-sales trial's customer asked what the fleet costs to run a year).
  assert(Math.abs(+es[7] - +es[6] * 365 / 30) < 0.01 * +es[7] + 0.05, `a year ${es[7]} against ${es[6]} MWh a month`);
  // At the meter, tokens per kWh are 3.6 MJ ÷ J/token on the same basis (a trial read the accelerators' beside the meter's).
  assert(Math.abs(+es[3] * (es[4] ? 1e6 : 1) - 3.6e6 / +es[2]) < 0.02 * 3.6e6 / +es[2], `meter basis: ${await mp.textContent('#energy')}`);
  card.fleetKw = +es[5];
  // A fleet sized leads with what it costs a month (a pre-sales trial: one server's cost per million had led).
  const big = (await mp.textContent('#cost-per-million')).match(/^USD ([\d\u202f]+) a month for the fleet \((\d+) servers?\) at the peak, around the clock \(720 h\)$/);
  assert(big && +big[2] === card.servers, `cost's figure: ${await mp.textContent('#cost-per-million')} (servers ${card.servers})`);
  // At the operating point, said, with the fleet's own figure beside it (an operations trial took the first for the second).
  const cs = (await mp.textContent('#cost')).match(/^USD ([\d.]+) per million output tokens at the operating point; the fleet at its peak load: USD ([\d.]+)\. USD [\d.]+ per server-hour at the operating point \(devices 4\.20 \+ electricity [\d.]+\)\. The fleet: USD ([\d.\u202f]+) per hour, USD ([\d.\u202f]+) a month at the peak, around the clock \(720 h\)(?: \(electricity USD [\d.\u202f]+ of it\))?, USD [\d.\u202f]+ a year; the fleet's USD ([\d.]+) per million output tokens at the peak, spares and headroom paid\.$/);
  assert(cs && +cs[1] > 0.1 && +cs[1] < 50, `cost sentence: ${await mp.textContent('#cost')}`);
  // c: the operating point's and the fleet's cost per million as the sentence opens; cs: the fleet's hour, month and million.
  const c = cs.slice(0, 3);
  cs.splice(1, 2);
  assert(cs[2] === big[1], `the figure ${big[1]} against the sentence's month ${cs[2]}`);
  card.cost = c[1];
  // The fleet's million tokens pay for the spare and the headroom: dearer than one server's at its operating point.
  assert(+cs[3] > +c[1] && cs[3] === c[2], `the fleet's ${cs[3]} per million against one server's ${c[1]} (the card's figure: ${c[2]})`);
  // A month is 720 hours of the fleet (each figure rounded as shown).
  assert(Math.abs(num(cs[2]) - 720 * num(cs[1])) <= 0.005 * 720 * num(cs[1]) + 1, `a month ${cs[2]} against 720 × ${cs[1]}`);
  await mp.screenshot({ path: path.join(shots, '11-meeting.png'), fullPage: true });
  await mp.screenshot({ path: path.join(shots, '11-meeting-first-screen.png') });
});

await test('meeting: the hosts\' power per device counts at the meter: the fleet\'s kW grows by servers × devices × W × PUE, the accelerators\' figures stay', async () => {
  const before = await mp.textContent('#energy-jpt');
  await mp.fill('#cost-host_watts_per_device', '575');
  // Every device, the spare's included, adds 575 W × 1.3 at the meter (each kW figure rounded to 3 digits): waited
  // for, as the analytic estimate shows first and the simulation's fleet follows.
  const want = card.fleetKw + card.devices * 0.575 * 1.3;
  await mp.waitForFunction((want) => /hosts 575 W per device, PUE 1\.3/.test(document.querySelector('#energy')?.textContent || '')
    && document.getElementById('simulating').textContent === ''
    && Math.abs(+((document.querySelector('#energy').textContent.match(/The fleet ([\d.]+) kW at the meter/) || [0, 0])[1]) - want) < 0.01 * want, want, { timeout: 30000 })
    .catch(() => {});
  const text = await mp.textContent('#energy');
  const es = text.match(/The fleet ([\d.]+) kW at the meter, .*; the meter's: the accelerators and their hosts \(575 W per device\) × PUE\.$/);
  assert(es, `energy sentence with hosts: ${text}`);
  assert(Math.abs(+es[1] - want) < 0.01 * want, `fleet kW ${es[1]}, expected ${card.fleetKw} + ${card.devices} × 0.7475 = ${want.toFixed(1)}`);
  assert((await mp.textContent('#energy-jpt')) === before, 'the accelerators\' J/token moved with the hosts');
  assert(/the meter adds their hosts' 575 W each/.test(await mp.textContent('#energy-card .note')), 'the note does not say the hosts count at the meter');
  // Refused with its range, next to the field; what was typed stays.
  await mp.fill('#cost-host_watts_per_device', '-5');
  await mp.waitForFunction(() => document.getElementById('cost-host_watts_per_device')?.closest('label')?.classList.contains('invalid'), null, { timeout: 10000 });
  const msg = await mp.evaluate(() => document.getElementById('cost-host_watts_per_device').closest('label').querySelector('.error').textContent);
  assert(/out of range: allowed 0–10\u202f000 W per device/.test(msg) && (await mp.inputValue('#cost-host_watts_per_device')) === '-5', `host W -5: "${msg}"`);
  await mp.fill('#cost-host_watts_per_device', '');
  await mp.waitForFunction((was) => /hosts not counted/.test(document.querySelector('#energy')?.textContent || '')
    && document.getElementById('simulating').textContent === ''
    && +((document.querySelector('#energy').textContent.match(/The fleet ([\d.]+) kW at the meter/) || [0, 0])[1]) === was, card.fleetKw, { timeout: 30000 });
});

await test('meeting: a target no load meets says so on the fleet and cost cards, not "type a price" (prices and peak users typed)', async () => {
  const strict = { ...meetingA, target: { ...meetingA.target, tpot_ms: 2 } };
  const { page: sp, context: sc, errors: se } = await openPage(origin + '/#s=' + encodeURIComponent(JSON.stringify(strict)));
  await sp.waitForFunction(() => /No load level meets the target/.test(document.querySelector('#capacity')?.textContent || ''), null, { timeout: 30000 });
  const fleet = await sp.textContent('#fleet-sentence');
  const cost = await sp.textContent('#cost');
  assert(fleet === 'No fleet: no load meets the target, so there is no load per server to size servers by.', `fleet card: ${fleet}`);
  assert(cost === 'No cost per token: no load meets the target, so there is no operating point to cost.', `cost card: ${cost}`);
  assert(/no load meets the target/.test(await sp.textContent('#energy')), `energy card: ${await sp.textContent('#energy')}`);
  assert((await sp.inputValue('#cost-device_hour')) === '2.1' && (await sp.inputValue('#fleet-peak_users')) === '500', 'the typed prices and peak were lost');
  assert(se.length === 0, `console errors: ${se.slice(0, 2).join(' | ')}`);
  await sc.close();
});

await test('meeting: a purchase price per device is written off over the years given and prices the fleet\'s purchase', async () => {
  // A pre-sales trial had server prices, not device-hours, and converted them by hand.
  const { device_hour, ...rest } = meetingA.cost;
  const bought = { ...meetingA, cost: { ...rest, device_price: 36792 } };
  const { page: bp, context: bc, errors: be } = await openPage(origin + '/#s=' + encodeURIComponent(JSON.stringify(bought)));
  await bp.waitForFunction(() => /Buying the fleet/.test(document.querySelector('#cost')?.textContent || ''), null, { timeout: 30000 });
  const cost = await bp.textContent('#cost');
  // 36,792 over 4 years (35,040 h) is 1.05 a device-hour; 26 servers of 2 devices bought at it, in whole nodes of 8.
  const m = cost.match(/Buying the fleet: USD ([\d.\u202f]+) \((\d+) devices at ([\d.\u202f]+); 1\.05 per device-hour over 4 years\); over the 4-year write-off, devices and electricity: USD ([\d.\u202f]+)\./);
  assert(m, `cost card: ${cost}`);
  assert(num(m[1]) === num(m[2]) * 36792 && num(m[2]) === card.nodes * 8, `purchase ${m[1]} for ${m[2]} devices`);
  // The years a quote states: 4 × 365 days of the 30-day month's days (each figure rounded as shown).
  const month = num((cost.match(/USD ([\d.\u202f]+) a month/) || [0, '0'])[1]);
  assert(Math.abs(num(m[4]) - month / 30 * 365 * 4) <= 0.002 * num(m[4]) + 50, `over the write-off ${m[4]} against the month's ${month}`);
  // Bought, the card leads with the purchase (a pre-sales trial found it in the prose under a cost per million).
  const big = (await bp.textContent('#cost-per-million')).replace(/\u00a0/g, ' ');
  const figure = num(m[1]) >= 1e6 ? `USD ${(num(m[1]) / 1e6).toFixed(2)} million` : `USD ${m[1]}`;
  assert(big.startsWith(figure) && big.includes(`to buy the fleet (${m[2]} devices)`) && / per million output tokens at the operating point; /.test(cost), `cost card's figure: ${big} (wanted ${figure})`);
  assert((await bp.inputValue('#cost-device_price')) === '36792' && (await bp.inputValue('#cost-device_hour')) === '', 'fields do not show the purchase');
  // A price per device-hour as well: refused next to the purchase price, nothing typed lost.
  await bp.fill('#cost-device_hour', '2.1');
  await bp.waitForFunction(() => /not both/.test(document.querySelector('label:has(#cost-device_price) .error')?.textContent || ''), null, { timeout: 5000 });
  assert((await bp.inputValue('#cost-device_price')) === '36792', 'the purchase price was lost');
  assert(be.length === 0, be.join('\n'));
  await bc.close();
});

await test('meeting: the Report JSON and the sweep CSV hold what the cards say', async () => {
  const report = JSON.parse(fs.readFileSync(await download(mp, '#export-report-json'), 'utf8'));
  assert(report.capacity.max_users_at_target === card.users, `report ${report.capacity.max_users_at_target} vs card ${card.users}`);
  assert(report.fleet.replicas === card.servers, `report ${report.fleet.replicas} vs card ${card.servers}`);
  assert(report.cost.per_million_output_tokens.toFixed(2) === card.cost, `report ${report.cost.per_million_output_tokens} vs card ${card.cost}`);
  assert(Math.abs(report.energy.joules_per_output_token - card.jpt) < 0.01, `J/token ${report.energy.joules_per_output_token} vs ${card.jpt}`);
  // The card words the band as plan::band_text does: "± b %" up to 25 %, else "÷ / × (1 + b)" to one decimal.
  const worded = report.band.energy_pct <= 25 ? report.band.energy_pct : +(((1 + report.band.energy_pct / 100).toFixed(1) - 1) * 100).toFixed(6);
  assert(Math.abs(worded - card.energyBand) < 1e-6, `energy band: report ${report.band.energy_pct} (worded ${worded}) vs card ${card.energyBand}`);
  const csv = fs.readFileSync(await download(mp, '#export-sweep-csv'), 'utf8').trim().split('\r\n');
  assert(csv[0].startsWith('concurrent_users,per_user_tok_s,system_tok_s,requests_per_s,ttft_p50_ms'), `sweep CSV header: ${csv[0]}`);
  assert(csv.length === report.sweep.length + 1, `${csv.length - 1} CSV rows for ${report.sweep.length} levels`);
  const first = csv[1].split(',');
  assert(+first[0] === report.sweep[0].concurrency && Math.abs(+first[2] - report.sweep[0].system_tps) < 1e-3, `first row ${csv[1]}`);
});

await test('meeting: "Reproduce this" gives vllm serve / vllm bench serve for the scenario, with a copy button', async () => {
  await mp.click('.reproduce summary');
  await mp.waitForSelector('.reproduce pre.cmd', { timeout: 5000 });
  const cmds = await mp.$$eval('.reproduce pre.cmd', (els) => els.map((e) => e.textContent));
  const serve = cmds[0], bench = cmds[1];
  for (const flag of ['vllm serve meta-llama/Llama-3.1-70B', '--tensor-parallel-size 2', '--quantization fp8', '--max-num-seqs 1024', '--max-num-batched-tokens 8192', '--gpu-memory-utilization 0.9', '--kv-cache-dtype auto', '--no-enable-prefix-caching']) {
    assert(serve.includes(flag), `${flag} missing: ${serve}`);
  }
  for (const flag of ['vllm bench serve', '--dataset-name random', '--random-input-len 1024', '--random-output-len 256', '--max-concurrency $c', '--percentile-metrics ttft,tpot,itl,e2el', '--metric-percentiles 50,95,99', '--save-result']) {
    assert(bench.includes(flag), `${flag} missing: ${bench}`);
  }
  assert(bench.includes(`for c in 1 `) && bench.includes(` ${card.users} ${card.users + 1}; do`), `levels: ${bench.split('\n')[0]}`);
  assert(cmds.some((c) => c.startsWith('for c in') && c.includes('aiperf profile')), 'AIPerf command missing');
  await mp.locator('.reproduce button.copy').first().click();
  await mp.waitForFunction(() => document.querySelector('.reproduce button.copy').textContent === 'Copied', null, { timeout: 5000 });
  assert((await mp.evaluate(() => navigator.clipboard.readText())) === serve, 'clipboard does not hold the command');
  await mp.click('.reproduce summary');
});

const beforePin = {};
await test('meeting: pin A, switch to 1 × H200 (B): the difference table and both charts', async () => {
  beforePin.t = await canvasPrint(mp, 'chart-throughput');
  beforePin.l = await canvasPrint(mp, 'chart-latency');
  await mp.click('#pin-a');
  await mp.waitForFunction(() => location.hash.includes('&a='), null, { timeout: 5000 });
  assert((await mp.innerText('#pin-a')) === 'Unpin A', 'pin button not toggled');
  await mp.waitForSelector('#diff-table', { timeout: 10000 });
  const same = await diffRows(mp);
  assert(same.replicas[4] === '1.00×' && same.system_tps[4] === '1.00×', `B = A right after pinning: ${JSON.stringify(same.replicas)}`);
  await mp.selectOption('#hardware-preset', 'h200-sxm');
  await mp.fill('#hardware-devices', '1');
  // The simulation's figures, not the analytic estimate shown first (45 servers of H200 there, 57 simulated).
  await mp.waitForFunction(() => /H200/.test(document.querySelector('#verdict-context').textContent) && !/H100/.test(document.querySelector('#verdict-context').textContent)
    && /on NVIDIA H200/.test(document.querySelector('.compare .sides')?.textContent || '')
    && document.getElementById('simulating').textContent === '', null, { timeout: 30000 });
  await mp.waitForTimeout(500);
  await mp.waitForFunction(() => document.getElementById('simulating').textContent === '', null, { timeout: 30000 });
  const rows = await diffRows(mp);
  for (const k of ['per_user_tps', 'system_tps', 'max_users_at_target', 'replicas', 'cost_per_million_output_tokens', 'joules_per_output_token']) {
    assert(rows[k], `diff row ${k} missing: ${Object.keys(rows)}`);
    assert(!isNaN(num(rows[k][1])) && !isNaN(num(rows[k][2])), `${k}: ${rows[k]}`);
  }
  // B − A is shown to the coarser of A's and B's decimals ("1.64 … 1.95 … +0.305" was shown): plan::diff::decimals.
  const places = (t) => (t.split('.')[1] || '').length;
  for (const [k, r] of Object.entries(rows)) {
    if (r[3] !== '—') assert(places(r[3]) <= Math.min(places(r[1]), places(r[2])), `${k}: B − A ${r[3]} finer than A ${r[1]} or B ${r[2]}`);
  }
  assert(num(rows.replicas[1]) === card.servers, `A's servers ${rows.replicas[1]} vs the card's ${card.servers}`);
  assert(Math.abs(num(rows.fleet_kw[1]) - card.fleetKw) <= 0.051 * Math.max(1, card.fleetKw / 10), `A's fleet kW ${rows.fleet_kw[1]} vs the energy card's ${card.fleetKw}`);
  assert(num(rows.max_users_at_target[1]) === card.users, `A's capacity ${rows.max_users_at_target[1]} vs ${card.users}`);
  assert(num(rows.replicas[2]) === num(await mp.textContent('#fleet-servers')), 'B column is not the page');
  assert(/2 × NVIDIA H100/.test(await mp.textContent('.compare .sides')), 'A side not named');
  // The comparison in one sentence: B's servers against A's, the fleet's cost, and B's wins counted.
  const verdict = await mp.textContent('#diff-verdict');
  // Servers of 2 × H100 against servers of 1 × H200: the devices follow in brackets.
  const m = /^B needs (\d+) servers? against A's (\d+) \((\d+) devices? against (\d+)\), costing USD [\d\u202f.]+ an hour against [\d\u202f.]+.*: (B is better on every figure that differs|[AB] is better on \d+ of the \d+ figures that differ, [AB] on [^;.]+|A is better on every figure that differs)(?:; [AB]'s fleet costs \d+ % less an hour(?: and \d+ % less to buy|, [AB]'s \d+ % less to buy)?)?\. The gap in devices, (?:[AB]'s (\d+) % above [AB]'s, is within|[AB]'s ([\d.]+) × [AB]'s, is beyond) one figure's validated throughput error under load \(÷ \/ × ([\d.]+)\)/.exec(verdict);
  assert(m && +m[1] === num(rows.replicas[2]) && +m[2] === num(rows.replicas[1]), `A-vs-B sentence: ${verdict}`);
  assert(+m[3] === num(rows.devices_total[2]) && +m[4] === num(rows.devices_total[1]), `A-vs-B devices: ${verdict}`);
  // The gap weighed against the band under load: the devices' ratio (servers of different sizes), inside or outside
  // it as the band says.
  const gap = Math.max(+m[3], +m[4]) / Math.min(+m[3], +m[4]);
  assert(m[6] ? gap < +m[8] + 0.005 && Math.abs(+m[6] - Math.round((gap - 1) * 100)) <= 1 : gap >= +m[8] - 0.005 && Math.abs(+m[7] - gap) < 0.006, `A-vs-B margin: ${verdict}`);
  const after = { t: await canvasPrint(mp, 'chart-throughput'), l: await canvasPrint(mp, 'chart-latency') };
  assert(after.t.h !== beforePin.t.h && after.l.h !== beforePin.l.h, 'a chart did not change');
  beforePin.ab = after;
  await mp.screenshot({ path: path.join(shots, '12-meeting-a-vs-b.png'), fullPage: true });
  card.rows = rows;
});

await test('meeting: A vs B CSV, chart PNG (device pixels) and SVG are downloads built in the browser', async () => {
  const csv = fs.readFileSync(await download(mp, '#export-diff-csv'), 'utf8').trim().split('\r\n');
  assert(csv[0] === 'metric,label,unit,a,b,b_minus_a,b_over_a', `header: ${csv[0]}`);
  const hw = csv.find((l) => l.startsWith('hardware,'));
  assert(/2 × NVIDIA H100/.test(hw) && /H200/.test(hw), `hardware row: ${hw}`);
  const rep = csv.find((l) => l.startsWith('replicas,')).split(',');
  assert(+rep[3] === num(card.rows.replicas[1]) && +rep[4] === num(card.rows.replicas[2]), `replicas row ${rep} vs table ${card.rows.replicas}`);
  const cost = csv.find((l) => l.startsWith('cost_per_million_output_tokens,')).split(',');
  assert(cost[2] === 'USD per million tokens' && Math.abs(+cost[3] - +card.cost) < 0.006, `cost row: ${cost}`);
  // The same comparison as JSON, as `tps diff A B` prints it: its rows the CSV's, its sentence the page's.
  const dj = JSON.parse(fs.readFileSync(await download(mp, '#export-diff-json'), 'utf8'));
  assert(/2 × NVIDIA H100/.test(dj.a.hardware) && /H200/.test(dj.b.hardware), `A vs B JSON sides: ${dj.a.hardware} / ${dj.b.hardware}`);
  const jrep = dj.rows.find((r) => r.metric === 'replicas');
  assert(jrep && jrep.a === +rep[3] && jrep.b === +rep[4], `A vs B JSON replicas ${JSON.stringify(jrep)} vs CSV ${rep}`);
  assert(dj.summary === (await mp.textContent('#diff-verdict')).trim(), `A vs B JSON summary: ${dj.summary}`);
  const png = fs.readFileSync(await download(mp, '#chart-throughput-png'));
  assert(png.subarray(1, 4).toString() === 'PNG', 'not a PNG');
  const w = await mp.evaluate(() => document.getElementById('chart-throughput').width);
  assert(png.readUInt32BE(16) === w, `PNG ${png.readUInt32BE(16)} px wide, canvas ${w}`);
  const svg = fs.readFileSync(await download(mp, '#chart-latency-svg'), 'utf8');
  assert(svg.startsWith('<svg') && /TTFT P99/.test(svg) && /A: TTFT P99/.test(svg), 'SVG lacks the series or A');
  const svg2 = fs.readFileSync(await download(mp, '#chart-throughput-svg'), 'utf8');
  assert(/A: per user/.test(svg2) && /system tok\/s/.test(svg2), 'throughput SVG lacks A');
});

await test('meeting: the one-page sizing report prints (A4 and Letter) with the key figures', async () => {
  // The page shows B (1 × H200) against A (2 × H100): B's cards, A's figures in the table.
  const usersB = (await mp.textContent('#capacity')).match(/^Holds (\d+) users/)[1];
  const serversB = num(await mp.textContent('#fleet-servers'));
  // B's cost per million is in the printed A-versus-B table (its card prints its figure, the fleet's month, alone).
  const costB = (await mp.textContent('#cost')).match(/^USD ([\d.]+) per million/)[1];
  const monthB = (await mp.textContent('#cost-per-million')).match(/^USD ([\d\u202f]+) a month/)[1].replace(/\u202f/g, ' ');
  for (const format of ['A4', 'Letter']) {
    const pdf = path.join(shots, `meeting-${format}.pdf`);
    await mp.pdf({ path: pdf, format, printBackground: true });
    const pages = +execFileSync('pdfinfo', [pdf]).toString().match(/Pages:\s+(\d+)/)[1];
    console.log(`print: ${pdf}, ${pages} page(s) ${format}`);
    assert(pages === 1, `${format}: ${pages} pages`);
    const text = execFileSync('pdftotext', [pdf, '-']).toString().replace(/\s+/g, ' ');
    // A's question too, where it differs from B's (here the hardware; the same prices are said once).
    assert(/A: Llama-3-70B[^·]* on 2 × NVIDIA H100 SXM5 80GB with vLLM/.test(text) && (text.match(/USD 2\.1 per device-hour/g) || []).length === 1, `${format} PDF: A's question: ${text.slice(0, 600)}`);
    for (const want of ['TPS Planner — sizing report', 'Question (B):', 'on NVIDIA H200 SXM 141GB', '500 concurrent users + 1 spare server', 'USD 2.1 per device-hour',
      `Holds ${usersB} users at the target, limited by`, `${serversB} servers`, ` ${costB} `, `USD ${monthB}`, "per million output tokens", 'J/token', 'A versus B', '2 × NVIDIA H100 SXM5 80GB',
      'servers for the fleet', 'B needs', `${card.servers}`, `${card.cost}`, 'cost per million output tokens', 'How good is this prediction?', 'Assumptions', 'TTFT and TPOT', 'Per-user and system tokens/s', 'This scenario:', '#s=', '&a=']) {
      // (headings are printed in capitals)
      assert(text.toLowerCase().includes(want.toLowerCase()), `${format} PDF lacks "${want}"`);
    }
    assert(/Printed \d{4}-\d{2}-\d{2}/.test(text), 'no date');
    assert(!/Reproduce this on real hardware|Pin as A|Unpin A|Scenario JSON|Sweep CSV/.test(text), `${format} PDF prints controls or collapsed sections`);
    execFileSync('pdftoppm', ['-png', '-r', '60', pdf, path.join(shots, `meeting-${format}`)]);
  }
  // The charts were redrawn for print, and back for the screen.
  const w = await mp.evaluate(() => document.getElementById('chart-throughput').width);
  assert(w === (await mp.evaluate(() => Math.round(document.getElementById('chart-throughput').clientWidth * devicePixelRatio))), 'chart not redrawn for the screen after printing');
});

await test('meeting: A and B live in the address; a new tab restores both; Unpin clears A', async () => {
  const url = await mp.evaluate(() => location.href);
  const again = await openPage(url);
  await again.page.waitForSelector('#diff-table', { timeout: 30000 });
  assert((await again.page.innerText('#pin-a')) === 'Unpin A', 'A not pinned from the link');
  const rows = await diffRows(again.page);
  for (const k of ['replicas', 'max_users_at_target', 'cost_per_million_output_tokens']) {
    assert(rows[k][1] === card.rows[k][1] && rows[k][2] === card.rows[k][2], `${k}: ${rows[k]} vs ${card.rows[k]}`);
  }
  // "Pin this as A" makes B the new A in one click (a teacher's trial lost the comparison through Unpin): the
  // address's A becomes B's scenario and every figure ties.
  await again.page.click('#repin-a');
  await again.page.waitForFunction(() => { const h = decodeURIComponent(location.hash); const s = h.match(/#s=(.*)&a=/); const a = h.match(/&a=(.*?)(&|$)/); return s && a && s[1] === a[1]; }, null, { timeout: 10000 });
  await again.page.waitForFunction(() => document.getElementById('simulating').textContent === '' && document.querySelector('#diff-table tr[data-metric=replicas]')?.children[4]?.textContent === '1.00×', null, { timeout: 60000 });
  const tied = await diffRows(again.page);
  for (const k of ['replicas', 'system_tps']) assert(tied[k] && tied[k][4] === '1.00×', `after "Pin this as A", ${k}: ${tied[k]}`);
  assert((await again.page.innerText('#pin-a')) === 'Unpin A', 'A lost by "Pin this as A"');
  assert(again.errors.length === 0, `console errors: ${again.errors.slice(0, 2).join(' | ')}`);
  await again.context.close();
  // An old link (#s= alone) still opens, without A.
  await mp.click('#pin-a');
  await mp.waitForFunction(() => !location.hash.includes('&a='), null, { timeout: 5000 });
  assert((await mp.locator('#diff-table').count()) === 0, 'difference table stays after Unpin');
  await mp.waitForTimeout(300);
  const bOnly = await canvasPrint(mp, 'chart-throughput');
  assert(bOnly.h !== beforePin.ab.t.h, 'A was not drawn on the throughput chart');
});

await test('meeting on a phone: one column, no sideways scrolling', async () => {
  const phone = await openPage(await mp.evaluate(() => location.href.split('#')[0]) + '#s=' + encodeURIComponent(JSON.stringify(meetingA)), { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  await phone.page.waitForSelector('#fleet-servers', { timeout: 30000 });
  await phone.page.click('#pin-a');
  await phone.page.selectOption('#hardware-preset', 'h200-sxm');
  await phone.page.fill('#hardware-devices', '1');
  await phone.page.waitForFunction(() => /H200/.test(document.querySelector('.compare .sides')?.textContent || '') && !/H100/.test(document.querySelector('#verdict-context').textContent), null, { timeout: 30000 });
  const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 391, `page is ${width} px wide on a 390 px phone`);
  await phone.page.screenshot({ path: path.join(shots, '13-meeting-phone.png'), fullPage: true });
  await phone.page.evaluate(() => document.querySelector('#sizing').scrollIntoView());
  await phone.page.screenshot({ path: path.join(shots, '13-meeting-phone-cards.png') });
  assert(phone.errors.length === 0, `console errors: ${phone.errors.slice(0, 2).join(' | ')}`);
  await phone.context.close();
});

await test('fleet, cost and task inputs: every invalid value gets a message next to its field, nothing typed is lost', async () => {
  const expectMsg = async (id, value, re) => {
    const old = await mp.inputValue(id);
    await mp.fill(id, value);
    await mp.waitForFunction((id) => document.getElementById(id)?.closest('label')?.classList.contains('invalid'), id.slice(1), { timeout: 10000 });
    const msg = await mp.evaluate((id) => document.getElementById(id).closest('label').querySelector('.error').textContent, id.slice(1));
    assert(re.test(msg), `${id} = ${value}: "${msg}"`);
    await mp.fill(id, old);
  };
  await expectMsg('#fleet-peak_users', '-5', /out of range: allowed 1–1\u202f000\u202f000\u202f000 users/);
  await expectMsg('#fleet-spare_replicas', '1.5', /whole number from 0/);
  await expectMsg('#fleet-peak_hours_per_day', '25', /out of range: allowed 0\.5–24 hours a day/);
  // Ten busy hours a day: the month's energy and cost say so, and the MWh fall (the rest of the day idle).
  const monthBefore = (await mp.textContent('#energy')).match(/([\d.]+) MWh a month at the peak, around the clock/);
  await mp.fill('#fleet-peak_hours_per_day', '10');
  await mp.waitForFunction(() => /MWh a month of 10 h a day at the peak and 14 idle \(30 days\), [\d.]+ MWh a year/.test(document.getElementById('energy')?.textContent || ''), null, { timeout: 10000 });
  const monthAfter = (await mp.textContent('#energy')).match(/([\d.]+) MWh a month of 10 h a day/);
  assert(monthBefore && monthAfter && +monthAfter[1] < +monthBefore[1], `a month: ${monthBefore?.[1]} → ${monthAfter?.[1]} MWh`);
  assert(/a month of 10 h a day at the peak and 14 idle \(30 days\)(?: \(electricity USD [\d.\u202f]+ of it\))?, USD [\d.\u202f]+ a year/.test(await mp.textContent('#cost')), `cost: ${await mp.textContent('#cost')}`);
  await mp.fill('#fleet-peak_hours_per_day', '');
  await expectMsg('#cost-currency', 'US DOLLARS', /1–8 characters/);
  // A decimal comma where it cannot group thousands is read as one (a trial typed 0,20 per kWh and 1,4 for the
  // PUE: refused, while the results showed the keystrokes' 0 and 1); a count with two readings is refused with both.
  const kwh = await mp.inputValue('#cost-electricity_per_kwh');
  assert(!decodeURIComponent(await mp.evaluate(() => location.hash)).includes('"electricity_per_kwh":0.15'), 'the example already costs 0.15');
  await mp.fill('#cost-electricity_per_kwh', '0,15');
  await mp.waitForFunction(() => decodeURIComponent(location.hash).includes('"electricity_per_kwh":0.15'), null, { timeout: 10000 });
  assert(!(await mp.evaluate(() => document.getElementById('cost-electricity_per_kwh').closest('label').classList.contains('invalid'))), '0,15 per kWh refused');
  await mp.fill('#cost-electricity_per_kwh', kwh);
  await expectMsg('#workload-prompt_tokens', '6.000', /6 or 6000\? Type it without the point/);
  await expectMsg('#cost-device_hour', '2,125', /2\.125 or 2125\? Type it without the comma/);
  await expectMsg('#cost-pue', '0.5', /1|PUE|facility/);
  await expectMsg('#cost-device_hour', 'two', /not a number/);
  await mp.waitForFunction(() => document.querySelectorAll('label.invalid').length === 0, null, { timeout: 10000 });
  // Spare servers without a peak: the peak field says what is missing.
  await mp.fill('#fleet-peak_users', '');
  await mp.waitForFunction(() => /give the peak load/.test(document.querySelector('#fleet-peak_users').closest('label').textContent), null, { timeout: 10000 });
  await mp.fill('#fleet-peak_users', '500');
  // Each kind of peak keeps its own number: 500 users switched to a rate is not 500 requests/s (the rate
  // field starts empty); back to users the 500 is there, and the rate typed meanwhile too.
  await mp.selectOption('#fleet-kind', 'rate');
  assert((await mp.inputValue('#fleet-peak_request_rate')) === '', '500 users became 500 req/s');
  await mp.fill('#fleet-peak_request_rate', '8');
  // A peak in req/s on the automatic load is sized on request rates (on users it had given fewer servers, each
  // read against a closed loop's capacity): the fleet says so, and no warning about a users sweep.
  await mp.waitForFunction(() => /^8 req\/s → \d+ servers?/.test(document.getElementById('fleet-sentence')?.textContent || ''), null, { timeout: 30000 });
  assert(!/the load swept is concurrent users/.test(await mp.textContent('body')), 'a rate peak on the automatic load warned of a users sweep');
  await mp.selectOption('#fleet-kind', 'users');
  assert((await mp.inputValue('#fleet-peak_users')) === '500', 'peak lost switching back');
  await mp.selectOption('#fleet-kind', 'rate');
  assert((await mp.inputValue('#fleet-peak_request_rate')) === '8', 'rate lost switching back');
  // A head count: people × share active in the busiest hour × their requests an hour ÷ 3,600 s, shown in the fleet's
  // sentence (two trials turned employees into a load by hand); a part left out is asked for next to its field.
  await mp.selectOption('#fleet-kind', 'people');
  await mp.fill('#fleet-people', '15000');
  await mp.fill('#fleet-active_share', '20');
  await mp.fill('#fleet-requests_per_person_hour', '12');
  await mp.waitForFunction(() => /^15\u202f000 people × 20 % active in the busiest hour × 12 requests an hour each ÷ 3\u202f600 s = 10 req\/s → \d+ servers?/.test(document.getElementById('fleet-sentence')?.textContent || ''), null, { timeout: 30000 })
    .catch(async () => { throw new Error(`head count: ${await mp.textContent('#fleet-sentence')}`); });
  // The printed question states the head count as typed.
  assert(/peak 15\u202f000 people, 20 % of them in the busiest hour, 12 requests an hour each/.test(await mp.textContent('#print-question')), `print question: ${await mp.textContent('#print-question')}`);
  await mp.fill('#fleet-active_share', '');
  await mp.waitForFunction(() => /give the share of them who use it in the busiest hour/.test(document.querySelector('#fleet-active_share').closest('label').textContent), null, { timeout: 10000 });
  assert((await mp.inputValue('#fleet-people')) === '15000', 'the head count was lost');
  await mp.fill('#fleet-active_share', '0.2');
  await mp.waitForFunction(() => /for the fraction 0\.2, type 20/.test(document.querySelector('#fleet-active_share').closest('label').textContent), null, { timeout: 10000 });
  await mp.fill('#fleet-active_share', '20');
  await mp.selectOption('#fleet-kind', 'users');
  // People who pause between requests: a think time takes the same 500 users onto fewer servers, and the fleet says
  // what its users are (a pre-sales trial had to convert 800 employees by hand).
  const servers = async () => num(await mp.textContent('#fleet-servers'));
  const before = await servers();
  await mp.fill('#workload-think_time_s', '30');
  await mp.waitForFunction(() => /pause 30 s on average/.test(document.querySelector('#fleet-card .note')?.textContent || ''), null, { timeout: 30000 });
  await mp.waitForFunction(() => document.getElementById('simulating').textContent === '', null, { timeout: 30000 });
  assert((await servers()) * 2 < before, `think time 30 s: ${await servers()} servers against ${before}`);
  await expectMsg('#workload-think_time_s', '-1', /out of range/);
  await mp.fill('#workload-think_time_s', '');
  await mp.waitForFunction((b) => parseFloat(document.getElementById('fleet-servers')?.textContent.replace(/\u202f/g, '')) === b, before, { timeout: 30000 });
  // The agent's task target appears in agent mode and keeps its value while another use case is shown.
  assert((await mp.locator('#target-task_s').count()) === 0, 'task target shown outside agent mode');
  await mp.selectOption('#workload-mode', 'agent');
  await mp.fill('#target-task_s', '45');
  await mp.waitForTimeout(300);
  await expectMsg('#target-task_s', '-1', /greater than 0/);
  await mp.selectOption('#workload-mode', 'reader');
  await mp.selectOption('#workload-mode', 'agent');
  assert((await mp.inputValue('#target-task_s')) === '45', 'task target lost');
  await mp.waitForFunction(() => /task ≤ 45 s/.test(document.querySelector('#verdict-context').textContent), null, { timeout: 30000 });
  await mp.selectOption('#workload-mode', 'reader');
  assert(meeting.errors.length === 0, `console errors: ${meeting.errors.slice(0, 2).join(' | ')}`);
  const outside = meeting.requests.filter((u) => !u.startsWith(origin + '/') && !u.startsWith('data:') && !u.startsWith('blob:' + origin));
  assert(outside.length === 0, `outside requests: ${outside.join(', ')}`);
});
await meeting.context.close();


// Issue 9: the page explains itself on its own numbers, charts that do not mislead, themes, phone order.
const num9 = (t) => parseFloat(String(t).replace(/[\u202f ,]/g, ''));
const near = (a, b) => Math.abs(a - b) <= 0.6 + 0.01 * Math.abs(b);

await test('issue 9: "How to read this" is open on a desktop and its sentences carry the numbers on screen', async () => {
  const { page: p9, context, errors: e9 } = await openPage(origin + '/');
  assert(await p9.evaluate(() => document.getElementById('explain').open), 'the panel is closed on a desktop');
  // The page opens with lognormal lengths (real traffic); the classroom's arithmetic is checked on equal lengths,
  // where users × per-user and system TPS differ by the waiting alone.
  const before = await p9.textContent('#explain');
  await p9.selectOption('#workload-distribution', 'fixed');
  await p9.waitForFunction((b) => document.getElementById('explain').textContent !== b, before, { timeout: 20000 });
  await p9.waitForTimeout(500);
  const text = (await p9.textContent('#explain')).replace(/[\u202f]/g, '');
  // The verdict's operating point: "at 15 users (…): 106 tok/s each, 1050 tok/s total".
  const verdict = (await p9.textContent('#verdict')).replace(/[\u202f]/g, '');
  const v = verdict.match(/at (\d+) users \(operating point[^)]*\): ([\d.]+) tok\/s each \(median[^)]*\), ([\d.]+) tok\/s total/);
  assert(v, `verdict: ${verdict}`);
  const e = text.match(/at (\d+) users each reader gets ([\d.]+) tok\/s, ([\d.]+) tok\/s in total/);
  assert(e, `panel's first sentence: ${text.slice(0, 300)}`);
  assert(e[1] === v[1] && near(num9(e[2]), num9(v[2])) && near(num9(e[3]), num9(v[3])), `panel ${e.slice(1)} vs verdict ${v.slice(1)}`);
  // "At 16 users the median TPOT is 9.6 ms, so each user gets 1000 ÷ 9.6 = 104 tok/s": that row of the table.
  const t = text.match(/At (\d+) users? the median TPOT is ([\d.]+) ms, so each user gets 1000 ÷ [\d.]+ = ([\d.]+) tok\/s/);
  assert(t, `per-user sentence missing: ${text.slice(0, 600)}`);
  const row = await p9.evaluate((n) => [...document.querySelectorAll('#sweep-table tbody tr')].map((r) => [...r.cells].map((c) => c.textContent))
    .find((c) => c[0] === n), t[1]);
  assert(row, `no table row for ${t[1]} users`);
  assert(near(num9(row[1]), num9(t[3])) && near(num9(row[5]), num9(t[2])), `table row ${row} vs panel TPOT ${t[2]} ms, ${t[3]} tok/s`);
  // A student's first check, users × per-user TPS, overshoots system TPS: the panel says by how much and why.
  const less = text.match(/It is less than (\d+) × ([\d.]+) = ([\d.]+) tok\/s because no user streams all the time: a request waits ([\d.]+) ms on average for its first token \(TTFT\) of the ([\d.]+) ms/);
  assert(less && Math.abs(num9(less[1]) * num9(less[2]) - num9(less[3])) <= 0.01 * num9(less[3]) + 1, `users × per-user sentence: ${less}`);
  // …and its reason accounts for the difference: users × per-user × the share of time streaming ≈ system TPS.
  const sys = num9(text.match(/System TPS is all output tokens of all users ÷ time: ([\d.]+) tok\/s/)[1]);
  const streaming = num9(less[3]) * (1 - num9(less[4]) / num9(less[5]));
  assert(Math.abs(streaming / sys - 1) < 0.1, `users × per-user × (1 − TTFT/E2E) = ${streaming.toFixed(0)} against system ${sys}`);
  // The bound and the roofline agree in words: the step's two kernels are named with their own intensities, and
  // a compute-bound step has a kernel right of the engine's ridge, a memory-bound one a kernel left of it.
  const bound = text.match(/the steps are (memory|compute|overhead)-bound \((\d+) % of the busy time in memory-bound steps, (\d+) % in compute-bound ones, (\d+) % in overhead-bound ones: /);
  // The three shares are the whole busy time.
  assert(bound && Math.abs(+bound[2] + +bound[3] + +bound[4] - 100) <= 2, `the bound's shares do not add up: ${bound && bound.slice(2)}`);
  const kernels = text.match(/the weight matmuls, \d+ FLOPs per weight byte over the step's [\d.]+ decodes(?: and, on average, [\d.\u202f]+ prompt tokens of new requests \(an average over the steps: most carry none, a few a whole chunk like the orange point\))? \((left|right) of the engine's ridge[^)]*\), and attention, \d+ per KV byte \((left|right) of the engine's ridge/);
  assert(bound && kernels, `bound ${bound} or kernels ${kernels} sentence missing`);
  const sides = [kernels[1], kernels[2]];
  assert(bound[1] === 'overhead' || sides.includes(bound[1] === 'compute' ? 'right' : 'left'), `steps ${bound[1]}-bound with kernels ${sides}`);
  // An overhead-bound step is neither roof's: the roofline sentence says so, and only then.
  assert((bound[1] === 'overhead') === /neither roof sets the pace: the step is overhead-bound/.test(text), `steps ${bound[1]}-bound, roofline: ${text.slice(text.indexOf('says why'), text.indexOf('says why') + 900)}`);
  for (const term of ['System TPS', 'Why one falls while the other rises', 'TTFT, TPOT, ITL', 'P50, P95, P99', 'The knee', 'The capacity at the target', 'The operating point', 'Memory- or compute-bound',
    'Words the page uses:', 'the KV cache holds', 'Prefill reads a prompt', 'Continuous batching', 'a preemption', 'a closed loop', 'Poisson arrivals', 'TDP is', 'η_fl']) {
    assert(text.includes(term), `panel lacks "${term}"`);
  }
  assert(/1 % slowest/.test(text) && /50–70 %/.test(text), 'percentile or headroom sentence missing');
  // The verdict: a live region, one short line with the details below.
  assert((await p9.getAttribute('#verdict', 'aria-live')) === 'polite', 'verdict is not a live region');
  const line = await p9.textContent('#verdict .verdict-line');
  assert(line.length > 10 && line.length < verdict.length && (await p9.textContent('#verdict .verdict-more')).length > 0, `verdict line: ${line}`);
  await p9.screenshot({ path: path.join(shots, '14-light.png') });
  await p9.evaluate(() => document.getElementById('explain').scrollIntoView());
  await p9.screenshot({ path: path.join(shots, '14-light-explain.png') });
  // A dense model's weights are read once for the whole batch; a mixture-of-experts model's only in part (a
  // teacher's trial read "read once for all of them" against gpt-oss's per-user speed falling 7 × with 24 users).
  assert(!/mixture-of-experts/.test(text), 'the dense model is explained as a mixture of experts');
  const dense = await p9.textContent('#explain');
  await p9.selectOption('#model-preset', 'gpt-oss-120b');
  await p9.waitForFunction((b) => document.getElementById('explain').textContent !== b, dense, { timeout: 30000 });
  await p9.waitForFunction(() => /experts/.test(document.getElementById('explain').textContent), null, { timeout: 30000 });
  const moe = await p9.textContent('#explain');
  assert(/read once for all of them \(a mixture-of-experts model's shared layers: each token also reads its own few experts/.test(moe), `MoE batching sentence: ${moe.slice(0, 400)}`);
  assert(/nearly free — of a mixture-of-experts model, only until the batch's tokens have touched most experts/.test(moe), 'MoE memory-bound sentence');
  const moeBound = moe.match(/the steps are (memory|compute|overhead)-bound/);
  assert(moeBound && (moeBound[1] === 'overhead') === /neither roof sets the pace/.test(moe), `MoE steps ${moeBound && moeBound[1]}-bound and the roofline's words disagree`);
  assert(e9.length === 0, `console errors: ${e9.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('issue 9: an ⓘ opens by keyboard, with the definition and the formula on the numbers', async () => {
  const { page: p9, context } = await openPage(origin + '/');
  const ceiling = (await p9.textContent('#ceiling')).replace(/[\u202f]/g, '').replace(' tok/s', '');
  const first = p9.locator('#headline details.info summary').first();
  assert((await first.getAttribute('aria-label')) === 'What is the single-stream ceiling?', 'ⓘ has no accessible name');
  await first.focus();
  await p9.keyboard.press('Enter');
  assert(await p9.evaluate(() => document.querySelector('#headline details.info').open), 'Enter did not open the ⓘ');
  const body = (await p9.textContent('#headline details.info .info-body')).replace(/[\u202f]/g, '');
  assert(body.includes(`= ${ceiling} tok/s`), `ceiling ⓘ lacks the formula with ${ceiling}: ${body}`);
  await p9.keyboard.press('Enter');
  assert(!(await p9.evaluate(() => document.querySelector('#headline details.info').open)), 'Enter did not close it');
  // The sweep table's column headers: "tok/s per user" opens 1 ÷ TPOT with that level's figures.
  await p9.click('.sweep-table > summary');
  const th = p9.locator('#sweep-table thead th').nth(1).locator('summary');
  await th.focus();
  await p9.keyboard.press('Space');
  const def = (await p9.locator('#sweep-table thead th').nth(1).locator('.info-body').textContent()).replace(/[\u202f]/g, '');
  const m = def.match(/at (\d+) users?, 1000 ÷ ([\d.]+) ms = ([\d.]+) tok\/s/);
  assert(m, `column definition: ${def}`);
  const n = await p9.locator('#sweep-table thead th').count();
  const withInfo = await p9.locator('#sweep-table thead th details.info').count();
  assert(n === withInfo && n >= 10, `${withInfo} of ${n} column headers have an ⓘ`);
  // One open at a time, and a click elsewhere closes it (a teacher's trial: they stacked over the big figures).
  const open = () => p9.evaluate(() => [...document.querySelectorAll('details.info')].filter((d) => d.open).length);
  assert((await open()) === 1, `${await open()} ⓘ open after one`);
  await first.click();
  assert((await open()) === 1 && (await p9.evaluate(() => document.querySelector('#headline details.info').open)), 'a second ⓘ did not replace the first');
  await p9.locator('h1').first().click();
  assert((await open()) === 0, 'a click elsewhere left an ⓘ open');
  await context.close();
});

await test('issue 9: per-user and system are two stacked panels (both drawn), latency percentiles by line style', async () => {
  const { page: p9, context } = await openPage(origin + '/');
  const halves = await p9.evaluate(() => {
    const c = document.getElementById('chart-throughput');
    const g = c.getContext('2d');
    const ink = (y0, y1) => {
      const d = g.getImageData(0, y0, c.width, y1 - y0).data;
      let n = 0, blue = 0, orange = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250) n++;
        if (d[i] < 80 && d[i + 1] > 80 && d[i + 1] < 120 && d[i + 2] > 200) blue++;
        if (d[i] > 200 && d[i + 1] > 100 && d[i + 1] < 140 && d[i + 2] < 30) orange++;
      }
      return { n, blue, orange, total: d.length / 4 };
    };
    const h = c.height;
    return { top: ink(0, Math.round(h * 0.4)), bottom: ink(Math.round(h * 0.45), Math.round(h * 0.8)) };
  });
  assert(halves.top.n > halves.top.total * 0.01 && halves.bottom.n > halves.bottom.total * 0.01, `a panel looks blank: ${JSON.stringify(halves)}`);
  assert(halves.top.blue > 200 && halves.top.orange < halves.top.blue / 10, `upper panel is not the per-user (blue) one: ${JSON.stringify(halves.top)}`);
  assert(halves.bottom.orange > 200 && halves.bottom.blue < halves.bottom.orange / 10, `lower panel is not the system (orange) one: ${JSON.stringify(halves.bottom)}`);
  const lat = await canvasPrint(p9, 'chart-latency');
  assert(lat.ink > lat.total * 0.01, 'latency chart blank');
  assert(/P50 solid, P95 dashed \(P90 when the target is judged at P90\), P99 dotted/.test(await p9.textContent('.charts')), 'latency caption does not name the line styles');
  await context.close();
});

await test('issue 9: dark theme follows the OS, the toggle switches and is remembered; the charts go dark with it', async () => {
  const { page: p9, context } = await openPage(origin + '/', { colorScheme: 'dark' });
  const lum = () => p9.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.body.parentElement).backgroundColor.match(/\d+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  });
  assert((await lum()) < 0.2, `OS dark, page background luminance ${await lum()}`);
  // The chart's card takes the theme's; its canvas (drawn for white) is shown inverted (the roofline test checks
  // the toggle and print).
  const card = await p9.evaluate(() => getComputedStyle(document.querySelector('.chart')).backgroundColor);
  assert(card !== 'rgb(255, 255, 255)', `chart card in dark: ${card}`);
  const filter = await p9.evaluate(() => getComputedStyle(document.querySelector('#chart-throughput')).filter);
  assert(/invert/.test(filter), `chart canvas in dark: filter ${filter}`);
  await p9.screenshot({ path: path.join(shots, '15-dark.png') });
  await p9.click('#theme-toggle');
  assert((await lum()) > 0.8, 'the toggle did not switch to light');
  assert((await p9.evaluate(() => localStorage.getItem('tps-theme'))) === 'light', 'choice not remembered');
  await p9.reload();
  await p9.waitForSelector('#ceiling');
  assert((await lum()) > 0.8, 'the light choice was lost on reload');
  await p9.click('#theme-toggle');
  assert((await lum()) < 0.2 && (await p9.getAttribute('html', 'data-theme')) === 'dark', 'toggle back to dark failed');
  // Entered values look different from placeholders.
  await p9.fill('#hardware-memory_bandwidth_gbps', '3000');
  const w = await p9.evaluate(() => [getComputedStyle(document.getElementById('hardware-memory_bandwidth_gbps')).fontWeight,
    getComputedStyle(document.getElementById('hardware-fp16_tflops')).fontWeight]);
  assert(Number(w[0]) > Number(w[1]), `entered ${w[0]} vs placeholder ${w[1]} font weight`);
  await context.close();
});

await test('issue 9: on a phone the verdict, the headline cards and the meeting\'s cards come before the inputs', async () => {
  const { page: p9, context } = await openPage(origin + '/', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const top = (sel) => p9.evaluate((s) => document.querySelector(s).getBoundingClientRect().top, sel);
  const [cards, verdict, sizing, inputs, charts] = [await top('#headline'), await top('#verdict'), await top('#sizing'), await top('.inputs'), await top('.charts')];
  // The verdict's line first (a new user found it fourth, half off the first screen), then the cards.
  assert(verdict < cards && cards < sizing && sizing < inputs && verdict < 844 / 2, `verdict ${verdict}, cards ${cards}, sizing ${sizing}, inputs ${inputs}`);
  assert(charts > inputs, 'charts should follow the inputs on a phone');
  assert(!(await p9.evaluate(() => document.getElementById('explain').open)), '"How to read this" should start closed on a phone');
  const width = await p9.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 391, `page is ${width} px wide`);
  // No header button sits on the title.
  const overlap = await p9.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector('.top h1'));
    const t = range.getBoundingClientRect();
    return [...document.querySelectorAll('.top button')].filter((b) => b.offsetParent).some((b) => {
      const r = b.getBoundingClientRect();
      return r.left < t.right && r.right > t.left && r.top < t.bottom && r.bottom > t.top;
    });
  });
  assert(!overlap, 'a header button covers the title on a phone');
  await p9.screenshot({ path: path.join(shots, '16-phone.png') });
  await context.close();
});

await test('issue 9: a 1920-px projector: charts side by side; presentation mode enlarges the type and the charts\' text', async () => {
  const { page: pp, context } = await openPage(origin + '/', { viewport: { width: 1920, height: 1080 } });
  const box = (id) => pp.evaluate((i) => { const r = document.getElementById(i).getBoundingClientRect(); return [r.left, r.top, r.width]; }, id);
  const [t, l] = [await box('chart-throughput'), await box('chart-latency')];
  assert(Math.abs(t[1] - l[1]) < 150 && l[0] > t[0] + t[2] * 0.8, `charts not side by side at 1920 px: ${t} / ${l}`);
  const used = await pp.evaluate(() => document.querySelector('.layout').getBoundingClientRect().width);
  assert(used > 1700, `the layout uses ${used} of 1920 px`);
  const before = await canvasPrint(pp, 'chart-throughput');
  await pp.click('#present-toggle');
  assert((await pp.evaluate(() => getComputedStyle(document.documentElement).fontSize)) === '22px', 'presentation mode: no larger type');
  await pp.waitForTimeout(300);
  const after = await canvasPrint(pp, 'chart-throughput');
  assert(after.h !== before.h, 'presentation mode did not redraw the chart');
  // The inputs are hidden there (the charts take the width) and the ☰ Inputs button brings them back.
  const inputsShown = () => pp.evaluate(() => document.getElementById('inputs').getBoundingClientRect().width > 0);
  assert(!(await inputsShown()) && (await box('chart-throughput'))[2] > t[2] * 1.1, `presentation mode kept the inputs: throughput chart ${await box('chart-throughput')} against ${t}`);
  await pp.click('#inputs-toggle');
  assert((await inputsShown()) && (await pp.getAttribute('#inputs-toggle', 'aria-pressed')) === 'true', 'the Inputs button did not show the inputs');
  await pp.click('#inputs-toggle');
  assert(!(await inputsShown()), 'the Inputs button did not hide the inputs again');
  // (The charts redraw for the new width after the resize the button sends: measured once they have.)
  await pp.waitForTimeout(400);
  // A class looks at the chart: the verdict's line and then the charts, whole on the first screen of a projector.
  const [vt, ct, st] = await pp.evaluate(() => [document.getElementById('verdict'), document.getElementById('chart-throughput'), document.querySelector('.scrub')].map((e) => e.getBoundingClientRect()).map((r) => [r.top, r.bottom]));
  assert(vt[0] < ct[0] && ct[1] <= Math.min(1080, st[0]), `presentation mode at 1920 × 1080: verdict ${vt}, throughput chart ${ct}, load bar ${st} (the chart is not whole on the first screen)`);
  await pp.screenshot({ path: path.join(shots, '17-present-1920.png') });
  // On a narrower screen (1400 px) presentation mode keeps one chart per row (two-up left each ~480 px wide).
  await pp.setViewportSize({ width: 1400, height: 900 });
  await pp.waitForTimeout(300);
  const [t14, l14] = [await box('chart-throughput'), await box('chart-latency')];
  assert(t14[2] > 800 && l14[1] > t14[1] + 100, `presentation mode at 1400 px: throughput ${t14}, latency ${l14}`);
  const c14 = await pp.evaluate(() => document.getElementById('chart-throughput').getBoundingClientRect().top);
  assert(c14 < 900 * 0.55, `presentation mode at 1400 × 900: the throughput chart starts at ${c14} px`);
  await pp.screenshot({ path: path.join(shots, '17-present-1400.png') });
  assert((await pp.getAttribute('#present-toggle', 'aria-pressed')) === 'true', 'the Present button does not show it is on');
  // Escape leaves presentation mode (and closes an open definition), as a presenter expects.
  await pp.click('#headline details.info summary');
  assert(await pp.evaluate(() => document.querySelector('#headline details.info').open), 'the definition did not open');
  await pp.keyboard.press('Escape');
  assert(!(await pp.evaluate(() => document.documentElement.hasAttribute('data-present'))), 'Escape did not leave presentation mode');
  assert(!(await pp.evaluate(() => document.querySelector('#headline details.info').open)), 'Escape did not close the definition');
  assert((await pp.getAttribute('#present-toggle', 'aria-pressed')) === 'false', 'the Present button still shows it on');
  await pp.click('#present-toggle');
  await pp.click('#present-toggle');
  assert(!(await pp.evaluate(() => document.documentElement.hasAttribute('data-present'))), 'presentation mode did not switch off');
  await context.close();
});

await test('issue 9 budgets (printed, not asserted: a benchmark on a busy 2-core machine): first chart, typing in a heavy scenario; a heavy scenario is simulated in the Web Worker, announced, and gives a fresh page\'s answer', async () => {
  // First chart: from navigation to the end of the task that first draws the throughput canvas (the analytic
  // figures: the page simulates the load levels after it is up), on a fresh page from the local server; and the
  // simulated answer (the first evaluation's end). A benchmark, not a test: the median of three fresh pages (each
  // in a context of its own: nothing cached), since one sample on a busy 2-core machine varies by 2 x.
  const firstLoad = async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await c.addInitScript(() => {
      const proto = CanvasRenderingContext2D.prototype, stroke = proto.stroke;
      proto.stroke = function (...a) {
        if (this.canvas.id === 'chart-throughput' && !window.__firstChart) { window.__firstChart = -1; queueMicrotask(() => { window.__firstChart = performance.now(); }); }
        return stroke.apply(this, a);
      };
    });
    const pg = await c.newPage();
    await pg.goto(origin + '/');
    await pg.waitForFunction(() => window.__firstChart > 0 && window.__tpsLastEvalMs > 0);
    const r = [await pg.evaluate(() => window.__firstChart), await pg.evaluate(() => performance.now())];
    return { c, pg, r };
  };
  const loads = [];
  for (let k = 0; k < 2; k++) { const l = await firstLoad(); loads.push(l.r); await l.c.close(); }
  const { c: ctx, pg: fp, r: last } = await firstLoad();
  loads.push(last);
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  const first = median(loads.map((l) => l[0]));
  const answered = median(loads.map((l) => l[1]));
  // Input → analytic redraw: from a field's input event to the headline's new text, and to the end of the task
  // that first strokes the throughput chart again (the analytic figures; the simulated sweep follows), over five
  // edits of the bandwidth on the default scenario.
  await fp.evaluate(() => {
    const mark = (k) => { if (window.__t0 && !window[k]) window[k] = performance.now(); };
    document.getElementById('hardware-memory_bandwidth_gbps').addEventListener('input', () => { window.__t0 = performance.now(); window.__tText = 0; window.__tChart = 0; }, { capture: true });
    new MutationObserver(() => mark('__tText')).observe(document.getElementById('headline'), { childList: true, characterData: true, subtree: true });
    const proto = CanvasRenderingContext2D.prototype, stroke = proto.stroke;
    proto.stroke = function (...a) {
      if (this.canvas.id === 'chart-throughput' && window.__t0 && !window.__tChart) { window.__tChart = -1; queueMicrotask(() => { window.__tChart = performance.now(); }); }
      return stroke.apply(this, a);
    };
  });
  const redraws = [];
  for (const v of ['3000', '2600', '2200', '1800', '3350']) {
    await fp.fill('#hardware-memory_bandwidth_gbps', v);
    await fp.waitForFunction(() => window.__tChart > 0 && window.__tText > 0, null, { timeout: 10000 });
    redraws.push(await fp.evaluate(() => [window.__tText - window.__t0, window.__tChart - window.__t0]));
    await fp.waitForTimeout(300);
  }
  await fp.fill('#hardware-memory_bandwidth_gbps', '');
  console.log(`budget: input → analytic redraw: headline text ${median(redraws.map((r) => r[0])).toFixed(1)} ms, throughput chart drawn ${median(redraws.map((r) => r[1])).toFixed(1)} ms (medians of ${redraws.map((r) => r[1].toFixed(0)).join(' / ')} ms; budget 16 ms)`);
  assert(redraws.every((r) => r[0] > 0 && r[1] > 0), 'no redraw measured');
  // Typing in a heavy scenario (DeepSeek-V3 on 8 × H200, 64 load levels): the longest main-thread task.
  const levels = Array.from({ length: 64 }, (_, i) => i + 1).join(',');
  const heavy = encodeURIComponent(`{"hardware":{"preset":"h200-sxm","devices":8},"model":{"preset":"deepseek-v3"},"workload":{"load":{"concurrency":[${levels}]}}}`);
  await fp.goto(origin + '/#s=' + heavy);
  await fp.waitForSelector('#ceiling');
  await fp.evaluate(() => { window.__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' }); });
  // The heavy scenario is simulated in pieces (its progress is announced); a change mid-way drops the stale job.
  // Each progress text is recorded with where the line is: fixed in the window and inside it (seen while typing
  // in the workload fields, which are far below the results).
  await fp.evaluate(() => { window.__progress = []; window.__where = []; const el = document.getElementById('simulating'); new MutationObserver(() => { const t = el.textContent; if (t) { window.__progress.push(t); const r = el.getBoundingClientRect(); window.__where.push(getComputedStyle(el).position === 'fixed' && r.height > 0 && r.bottom <= innerHeight && r.top >= 0); } }).observe(el, { childList: true, characterData: true, subtree: true }); });
  await fp.focus('#workload-output_tokens');
  for (const v of ['600', '700', '800']) { await fp.fill('#workload-output_tokens', v); await fp.waitForTimeout(400); }
  await fp.fill('#workload-output_tokens', '900');
  await fp.fill('#workload-output_tokens', '850');
  await fp.waitForTimeout(1500);
  const long = await fp.evaluate(() => window.__long);
  const eval_ms = await fp.evaluate(() => window.__tpsLastEvalMs);
  const progress = await fp.evaluate(() => window.__progress);
  console.log(`budget: first chart ${first.toFixed(0)} ms from navigation, median of ${loads.map((l) => l[0].toFixed(0)).join(' / ')} (budget 400 ms), the simulated sweep by ${answered.toFixed(0)} ms; heavy scenario: evaluation ${eval_ms.toFixed(0)} ms (in the Web Worker: from the job posted to the report built; ${progress.length} progress updates), longest main-thread task while typing ${Math.max(0, ...long).toFixed(0)} ms over ${long.length} tasks > 50 ms (budget: none over 50 ms)`);
  assert(first > 0 && eval_ms > 0, 'nothing measured');
  assert(await fp.evaluate(() => window.__tpsWorker === true), 'the heavy scenario was not simulated in the Web Worker');
  assert(progress.some((t) => /^Simulating load levels: \d+ of 64/.test(t)), `no progress shown: ${JSON.stringify(progress.slice(0, 3))}`);
  const where = await fp.evaluate(() => window.__where);
  assert(where.length > 0 && where.every(Boolean), `the progress line was not in the window while typing: ${JSON.stringify(where.slice(0, 5))}`);
  assert((await fp.textContent('#simulating')) === '', 'the progress line stayed after the simulation');
  assert(!(await fp.isVisible('#simulating')), 'the empty progress line is shown');
  // Typed in pieces, with stale jobs dropped mid-way, is the same answer as a fresh page of the final scenario
  // (tests/regressions.rs checks that pieces are the whole evaluation).
  const rows = (pg) => pg.$$eval('#sweep-table tbody tr', (trs) => trs.map((tr) => tr.textContent));
  const pieces = await rows(fp);
  const whole = await browser.newPage();
  await whole.goto(fp.url());
  await whole.waitForFunction(() => window.__tpsLastEvalMs > 0, null, { timeout: 30000 });
  const one = await rows(whole);
  assert(pieces.length === 64 && JSON.stringify(pieces) === JSON.stringify(one), `in pieces ${pieces.length} rows vs whole ${one.length}: ${pieces[10]} | ${one[10]}`);
  // Its levels end on a rising curve: no knee is marked, and the page says why.
  assert(/no saturation knee within the levels: system tok\/s still climbs at 64 users/.test(await fp.textContent('body')), 'no warning that the levels end before the knee');
  await whole.close();
  await ctx.close();
});

await test('issue 9: a scenario that turns heavy after a light one goes to the worker, not into one long task, and gives a fresh page\'s answer', async () => {
  // DeepSeek-V3 on two H200s does not fit (answered at once); on eight it is a full simulation (~150 ms on this
  // machine), which ran as one task when the choice followed the last evaluation's time alone.
  const { page: lh, context } = await openPage(origin + '/');
  await lh.selectOption('#hardware-preset', 'h200-sxm');
  await lh.waitForTimeout(1000);
  await lh.selectOption('#model-preset', 'deepseek-v3');
  await lh.waitForTimeout(1000);
  await lh.fill('#hardware-devices', '2');
  await lh.waitForTimeout(1000);
  await lh.evaluate(() => { window.__long = []; window.__tpsLastEvalMs = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' }); });
  await lh.fill('#hardware-devices', '8');
  await lh.waitForFunction(() => window.__tpsLastEvalMs > 0, null, { timeout: 30000 });
  const long = await lh.evaluate(() => window.__long);
  console.log(`budget: turning heavy (DeepSeek-V3 from 2 to 8 × H200): longest main-thread task ${Math.max(0, ...long).toFixed(0)} ms over ${long.length} tasks > 50 ms`);
  assert(await lh.evaluate(() => window.__tpsWorker === true), 'the scenario that turned heavy was not simulated in the worker');
  const rows = (pg) => pg.$$eval('#sweep-table tbody tr', (trs) => trs.map((tr) => tr.textContent));
  const fresh = await context.newPage();
  await fresh.goto(lh.url());
  await fresh.waitForFunction(() => window.__tpsLastEvalMs > 0, null, { timeout: 30000 });
  const [a, b] = [await rows(lh), await rows(fresh)];
  assert(a.length > 0 && JSON.stringify(a) === JSON.stringify(b), `turned heavy ${a.length} rows vs a fresh page ${b.length}`);
  await context.close();
});

await test('a field turned invalid while a heavy scenario is simulated: the last computable inputs\' simulation finishes, its estimate dimmed until then', async () => {
  // The analytic estimate had stayed on the cards for good once a field turned invalid mid-simulation (a trial
  // quoted its 7 servers where the simulation says 8): the job in flight was dropped with the invalid inputs.
  const levels = Array.from({ length: 64 }, (_, i) => i + 1).join(',');
  const heavy = (out) => origin + '/#s=' + encodeURIComponent(`{"hardware":{"preset":"h200-sxm","devices":8},"model":{"preset":"deepseek-v3"},"workload":{"output_tokens":${out},"load":{"concurrency":[${levels}]}}}`);
  const { page: sp, context, errors } = await openPage(heavy(256));
  const idle = () => window.__tpsLastEvalMs > 0 && document.getElementById('simulating').textContent === '';
  await sp.waitForFunction(idle, null, { timeout: 30000 });
  const dimmed = await sp.evaluate(() => new Promise((done) => {
    const line = document.getElementById('simulating');
    const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event('input', { bubbles: true })); };
    const obs = new MutationObserver(() => {
      if (line.textContent === '') return;
      obs.disconnect();
      const o = [getComputedStyle(document.querySelector('.sizing .big')).opacity, getComputedStyle(document.getElementById('verdict')).opacity];
      set('workload-prompt_tokens', 'x');
      done(o);
    });
    obs.observe(line, { childList: true, characterData: true, subtree: true });
    set('workload-output_tokens', '700');
  }));
  assert(dimmed.every((o) => +o < 0.6), `the estimate's figures were not dimmed while simulating (opacity ${dimmed})`);
  await sp.waitForFunction(() => document.getElementById('simulating').textContent === '', null, { timeout: 30000 });
  assert(+(await sp.evaluate(() => getComputedStyle(document.querySelector('.sizing .big')).opacity)) === 1, 'the figures stay dimmed after the simulation');
  assert(/not a number/.test(await sp.textContent('label:has(#workload-prompt_tokens) .error')), 'the invalid prompt is not marked');
  assert(/last inputs that could be computed/.test(await sp.textContent('#scenario-error')), 'the results are not marked as the last computable ones');
  const rows = (pg) => pg.$$eval('#sweep-table tbody tr', (trs) => trs.map((tr) => tr.textContent));
  const fresh = await context.newPage();
  await fresh.goto(heavy(700));
  await fresh.waitForFunction(idle, null, { timeout: 30000 });
  const [a, b] = [await rows(sp), await rows(fresh)];
  assert(a.length === 64 && JSON.stringify(a) === JSON.stringify(b), `after the invalid field: ${a[20]} | a fresh page of the last valid inputs: ${b[20]}`);
  assert(errors.length === 0, `console errors: ${errors.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('issue 9: the scrubber (slider, keyboard, pointer) moves one marker on both charts; its card reads the sweep table', async () => {
  const { page: p9, context, errors: e9 } = await openPage(origin + '/');
  const slider = p9.locator('#scrub');
  assert(/Load on the charts/.test(await p9.textContent('label[for=scrub]')), 'slider not labelled');
  // The slider sits below the fourth chart but stays in the window while the first one is read.
  await p9.evaluate(() => document.getElementById('chart-throughput').scrollIntoView());
  const inWindow = await p9.evaluate(() => { const r = document.getElementById('scrub').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; });
  assert(inWindow, 'the slider is out of the window while the throughput chart is read');
  // The sweep table's rows: users, tok/s per user, tok/s total, TTFT P50, TTFT at the target, TPOT P50, TPOT at the target, batch, bound.
  const table = () => p9.$$eval('#sweep-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.replace(/\u202f/g, ''))));
  const card = (pct) => new RegExp(`^At ([\\d\\u202f.]+) (?:users?|req/s): ([\\d.]+) tok/s each(?: \\([^)]*\\))?, ([\\d\\u202f]+) tok/s in total; ${pct} TTFT ([\\d\\u202f]+) ms, ${pct} TPOT ([\\d.]+) ms; batch ([\\d.]+) sequences per step; (memory|compute|overhead)-bound`);
  const matches = async (pct = 'P99') => {
    const rows = await table();
    const i = parseInt(await slider.inputValue(), 10);
    const text = await p9.textContent('#scrub-card');
    const m = card(pct).exec(text);
    assert(m, `card: ${text}`);
    const got = m.slice(1).map((x) => x.replace(/\u202f/g, ''));
    const r = rows[i];
    // (The table's "compute (prompts)": compute-bound by the steps that read a prompt chunk, the card says why.)
    const want = [r[0].replace(/ req\/s$/, ''), r[1], r[2], r[4], r[6], r[7], r[8].replace(/ \(prompts\)$/, '')];
    if (/req\/s/.test(r[0])) want[0] = String(parseFloat(want[0]));
    assert(JSON.stringify(got) === JSON.stringify(want), `level ${i}: card ${JSON.stringify(got)} vs table ${JSON.stringify(want)}`);
    assert((await slider.getAttribute('aria-valuetext')).startsWith(m[1]), 'the slider does not speak its load');
    return i;
  };
  const n = (await table()).length;
  assert(n >= 8 && (await slider.getAttribute('max')) === String(n - 1), `slider max ${await slider.getAttribute('max')} for ${n} levels`);
  // Before any pick the card reads the operating point's own level, the verdict's load and total (it had read the
  // sweep level nearest it: 96 users beside an operating point of 106).
  {
    const v = (await p9.textContent('#verdict')).replace(/\u202f/g, '');
    const c = (await p9.textContent('#scrub-card')).replace(/\u202f/g, '');
    const vm = /at (\d+) users \(operating point[^)]*\): [\d.]+ tok\/s each \(median\), (\d+) tok\/s total/.exec(v);
    const cm = /^At (\d+) users, the operating point: [\d.]+ tok\/s each(?: \([^)]*\))?, (\d+) tok\/s in total; P99 TTFT/.exec(c);
    assert(vm && cm && vm[1] === cm[1] && vm[2] === cm[2], `before a pick the card reads "${c.slice(0, 90)}" beside the verdict "${v.slice(0, 110)}"`);
    assert(!(await p9.locator('#scrub-operating').isVisible()), '"Back to the operating point" shown before any pick');
  }
  await slider.focus();
  await p9.keyboard.press('Home');
  await p9.waitForTimeout(200);
  assert((await matches()) === 0, 'Home did not pick the first level');
  const t0 = await canvasPrint(p9, 'chart-throughput'), l0 = await canvasPrint(p9, 'chart-latency'), q0 = await canvasPrint(p9, 'chart-pareto');
  await p9.keyboard.press('ArrowRight');
  await p9.keyboard.press('ArrowRight');
  await p9.waitForTimeout(200);
  assert((await matches()) === 2, 'two ArrowRight did not pick the third level');
  const t2 = await canvasPrint(p9, 'chart-throughput'), l2 = await canvasPrint(p9, 'chart-latency'), q2 = await canvasPrint(p9, 'chart-pareto');
  assert(t2.h !== t0.h && l2.h !== l0.h, 'the marker did not move on both charts');
  assert(q2.h !== q0.h, 'the picked level did not move on the trade-off chart');
  // The picked load is in the address: the link opens at it, not at the operating point (a teacher's "look at
  // 6 users" link).
  const linked = p9.url();
  assert(/&l=[\d.]+/.test(linked), `no load in the address: ${linked.slice(-40)}`);
  const { page: pl, context: cl } = await openPage(linked);
  await pl.waitForFunction(() => /^At /.test(document.getElementById('scrub-card')?.textContent ?? ''), null, { timeout: 15000 });
  await pl.waitForTimeout(300);
  const mine = await p9.textContent('#scrub-card'), theirs = await pl.textContent('#scrub-card');
  assert(mine === theirs && (await pl.locator('#scrub').inputValue()) === '2', `the link opened at "${theirs.slice(0, 40)}", not "${mine.slice(0, 40)}"`);
  await cl.close();
  await p9.keyboard.press('End');
  await p9.waitForTimeout(200);
  assert((await matches()) === n - 1, 'End did not pick the last level');
  // Back to the operating point, which the slider's stops rarely hit (a teacher's trial): the button shows once a
  // level is picked, and takes the card and the address back to the operating point.
  const back = p9.locator('#scrub-operating');
  assert(await back.isVisible(), 'no way back to the operating point after a pick');
  await back.click();
  await p9.waitForTimeout(200);
  assert(/^At [\d\u202f]+ users, the operating point: /.test(await p9.textContent('#scrub-card')) && !(await back.isVisible()) && !/&l=/.test(p9.url()),
    `after "Back to the operating point": ${(await p9.textContent('#scrub-card')).slice(0, 60)}, ${p9.url().slice(-20)}`);
  await slider.focus();
  await p9.keyboard.press('End');
  await p9.waitForTimeout(200);
  // A click (or drag) on the slider's track.
  await slider.scrollIntoViewIfNeeded();
  const sb = await slider.boundingBox();
  await p9.mouse.click(sb.x + 4, sb.y + sb.height / 2);
  await p9.waitForTimeout(200);
  assert((await matches()) === 0, 'a click at the slider\'s left end did not pick the first level');
  // The pointer over a chart snaps the scrubber to the level under it; passing over does not rewrite the address
  // (the slider's pick stays in it).
  const addressBefore = p9.url();
  for (const id of ['chart-throughput', 'chart-latency']) {
    await p9.locator(`#${id}`).scrollIntoViewIfNeeded();
    const box = await p9.locator(`#${id}`).boundingBox();
    await p9.mouse.move(box.x + box.width - 3, box.y + box.height * 0.3);
    await p9.waitForTimeout(200);
    assert((await matches()) === n - 1, `pointer at the right of ${id} did not pick the last level`);
    await p9.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.3);
    await p9.waitForTimeout(200);
    const mid = await matches();
    assert(mid > 0 && mid < n - 1, `pointer in the middle of ${id} picked level ${mid} of ${n}`);
  }
  assert(p9.url() === addressBefore, `passing over a chart rewrote the address: ${p9.url().slice(-30)}`);
  // The charts with the marker and the card under them, light and dark.
  for (const scheme of ['light', 'dark']) {
    await p9.emulateMedia({ colorScheme: scheme });
    await p9.waitForTimeout(200);
    const c = await p9.locator('.charts').boundingBox(), sc = await p9.locator('.scrub').boundingBox();
    const top = await p9.evaluate(() => window.scrollY);
    await p9.screenshot({ path: path.join(shots, `17-scrubber-${scheme}.png`), fullPage: true, clip: { x: c.x, y: c.y + top, width: c.width, height: sc.y + sc.height - c.y } });
  }
  await p9.emulateMedia({ colorScheme: 'light' });
  // The target's percentile, not a fixed P99; request-rate loads read in req/s.
  await p9.selectOption('#target-percentile', '95');
  await p9.waitForTimeout(400);
  await matches('P95');
  await p9.selectOption('#workload-load', 'rate');
  await p9.fill('#workload-levels', '0.5, 1, 2.5, 5');
  await p9.waitForTimeout(600);
  await slider.focus();
  await p9.keyboard.press('End');
  await p9.waitForTimeout(200);
  assert(/^At 5 req\/s: /.test(await p9.textContent('#scrub-card')), `request-rate card: ${await p9.textContent('#scrub-card')}`);
  await matches('P95');
  assert(e9.length === 0, `console errors: ${e9.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('the trade-off chart: tok/s per user against tok/s per GPU, drawn, with its floor and exports; left out of print', async () => {
  const { page: p3, context, errors: e3 } = await openPage(origin + '/');
  const q = await canvasPrint(p3, 'chart-pareto');
  assert(q.ink > q.total * 0.02, `trade-off chart looks blank: ${q.ink} of ${q.total}`);
  assert(/per user against output tokens\/s per device/.test(await p3.textContent('figure.pareto figcaption')), 'caption');
  // Two devices halve the tok/s per GPU at the same per-user speeds: the chart is redrawn.
  await p3.fill('#hardware-devices', '2');
  await p3.waitForTimeout(500);
  const q2 = await canvasPrint(p3, 'chart-pareto');
  assert(q2.h !== q.h && q2.ink > q2.total * 0.02, 'the trade-off chart did not follow the devices');
  const [dl] = await Promise.all([p3.waitForEvent('download'), p3.click('#chart-pareto-svg')]);
  const svg = fs.readFileSync(await dl.path(), 'utf8');
  assert(/output tok\/s per GPU/.test(svg) && /operating point/.test(svg) && /under the target floor \(25 tok\/s each\)/.test(svg), 'SVG export lacks the axes, floor or operating point');
  await p3.locator('figure.pareto').screenshot({ path: path.join(shots, '18-tradeoff.png') });
  await p3.emulateMedia({ media: 'print' });
  assert((await p3.evaluate(() => getComputedStyle(document.querySelector('figure.pareto')).display)) === 'none', 'the trade-off chart prints (the report is one page)');
  assert(e3.length === 0, `console errors: ${e3.slice(0, 2).join(' | ')}`);
  await context.close();
  // On a phone: the trade-off chart and the scrubber fit the width.
  const ph = await openPage(origin + '/', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  assert((await ph.page.evaluate(() => document.documentElement.scrollWidth)) <= 391, 'the page scrolls sideways on a phone');
  const qp = await canvasPrint(ph.page, 'chart-pareto');
  assert(qp.ink > qp.total * 0.02, 'trade-off chart blank on a phone');
  await ph.page.locator('figure.pareto').screenshot({ path: path.join(shots, '18-tradeoff-phone.png') });
  await ph.page.locator('.scrub').screenshot({ path: path.join(shots, '17-scrubber-phone.png') });
  await ph.context.close();
});

await test('issue 9: the roofline chart — decode on the memory slope, prefill under the flat roof, the ridge named with the numbers; the explanation reads them; it follows the inputs and the scrubber; exports; dark charts are inverted on screen, never in print', async () => {
  const { page: p5, context, errors: e5 } = await openPage(origin + '/');
  const r = await canvasPrint(p5, 'chart-roofline');
  assert(r.ink > r.total * 0.02, `roofline chart looks blank: ${r.ink} of ${r.total}`);
  assert(/what bounds each step, memory or compute/.test(await p5.textContent('figure.roofline figcaption')), 'caption');
  // The SVG export carries the ridge of the default H100 SXM (989 TFLOP/s ÷ 3.35 TB/s = 295 FLOP/byte).
  const [dl] = await Promise.all([p5.waitForEvent('download'), p5.click('#chart-roofline-svg')]);
  const svg = fs.readFileSync(await dl.path(), 'utf8');
  assert(/ridge: 295 FLOP\/byte/.test(svg) && /engine(&apos;|&#39;|')s ridge: \d+/.test(svg) && /arithmetic intensity/.test(svg) && /prefill, 512 prompt tokens/.test(svg) && /operating point/.test(svg), 'SVG export lacks the ridge, axis, prefill or operating point');
  // "How to read this" reads the same ridges (the hardware's, and the engine's the steps' bound goes by) and puts
  // the decode step at the operating point left of the engine's, the prefill right of it.
  const explain = (await p5.textContent('.explain')).replace(/\u202f/g, '');
  assert(/past 295 FLOPs per byte read \(the hardware's ridge; \d+ for this engine/.test(explain) && /left of the engine's ridge: memory-bound/.test(explain) && /A 512-token prefill chunk does \d+, right of the engine's ridge: compute-bound/.test(explain), `explanation: ${explain.slice(explain.indexOf('roofline'), explain.indexOf('roofline') + 400)}`);
  // A faster memory moves the slope: redrawn. The scrubber's pick moves a ring on it.
  await p5.fill('#hardware-memory_bandwidth_gbps', '8000');
  await p5.waitForTimeout(500);
  const r2 = await canvasPrint(p5, 'chart-roofline');
  assert(r2.h !== r.h, 'the roofline did not follow the bandwidth');
  await p5.locator('#scrub').focus();
  await p5.keyboard.press('Home');
  await p5.waitForTimeout(300);
  assert((await canvasPrint(p5, 'chart-roofline')).h !== r2.h, 'the picked level did not move on the roofline');
  // "How to read this" follows the picked load: at the first level (one user), then at the last.
  const at = async () => (/At ([\d.]+ (users?|req\/s)) the median TPOT/.exec(await p5.textContent('.explain')) || [])[1];
  assert((await at()) === '1 user', `the explanation did not follow the slider to 1 user: ${await at()}`);
  await p5.keyboard.press('End');
  await p5.waitForTimeout(300);
  const last = await p5.evaluate(() => document.querySelector('#sweep-table tbody tr:last-child').cells[0].textContent);
  assert((await at()) === `${last} users`, `the explanation did not follow the slider to the last level: ${await at()} vs ${last}`);
  await p5.fill('#hardware-memory_bandwidth_gbps', '');
  await p5.waitForTimeout(400);
  await p5.locator('figure.roofline').screenshot({ path: path.join(shots, '20-roofline.png') });
  // Dark theme: the canvases are shown through an invert filter (drawn for white); print shows them as drawn,
  // and leaves the roofline out (the report is one page).
  const filter = () => p5.evaluate(() => getComputedStyle(document.querySelector('#chart-roofline')).filter);
  assert(!/invert/.test(await filter()), `light theme filters the chart: ${await filter()}`);
  await p5.emulateMedia({ colorScheme: 'dark' });
  assert(/invert/.test(await filter()), `dark theme does not invert the chart: ${await filter()}`);
  await p5.locator('figure.roofline').screenshot({ path: path.join(shots, '20-roofline-dark.png') });
  await p5.click('#theme-toggle');
  const forced = await p5.evaluate(() => document.documentElement.getAttribute('data-theme'));
  assert(forced === 'light' && !/invert/.test(await filter()), `the toggle to ${forced} left the chart ${await filter()}`);
  await p5.click('#theme-toggle');
  assert(/invert/.test(await filter()), 'the toggle back to dark did not invert the chart');
  await p5.emulateMedia({ media: 'print', colorScheme: 'dark' });
  assert((await p5.evaluate(() => getComputedStyle(document.querySelector('#chart-throughput')).filter)) === 'none', 'print inverts the charts');
  assert((await p5.evaluate(() => getComputedStyle(document.querySelector('figure.roofline')).display)) === 'none', 'the roofline prints (the report is one page)');
  assert(e5.length === 0, `console errors: ${e5.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('issue 9: the memory bar shows weights, KV cache at the operating point and the peak, free space and the reserve; it follows the inputs', async () => {
  const { page: p4, context, errors: e4 } = await openPage(origin + '/');
  const stops = async () => (await p4.getAttribute('#memory-bar', 'style')).match(/--m\d:([\d.]+)%/g).map((m) => parseFloat(m.split(':')[1]));
  const legend = async () => p4.textContent('#memory-bar .note');
  const s1 = await stops();
  assert(s1.length === 4 && s1.every((v, k) => v >= (k ? s1[k - 1] : 0) && v <= 100), `bar stops ${s1}`);
  const l1 = await legend();
  for (const part of ['weights', 'KV at the operating point', 'more KV at the peak', 'free', 'kept back by the engine']) {
    assert(l1.includes(part), `memory legend lacks "${part}": ${l1}`);
  }
  // The bar is drawn: the card's ::after has the gradient and a height.
  const after = await p4.$eval('#memory-bar', (e) => { const a = getComputedStyle(e, '::after'); return [a.backgroundImage, a.height]; });
  assert(/linear-gradient/.test(after[0]) && after[1] === '14px', `bar not drawn: ${after}`);
  const gb = (l) => parseFloat(l.split('weights (grey) ')[1]);
  // FP8 weights halve the weights' segment but for the head and the embedding table, which FP8 checkpoints keep in
  // 16 bits (2 × 128,256 × 4,096 × 2 B = 2.10 GB of Llama-3.1-8B's 16.06): (16.06 − 2.10) ÷ 2 + 2.10 = 9.08 GB.
  await p4.selectOption('#quantization-weights', 'fp8');
  await p4.waitForTimeout(500);
  const l2 = await legend();
  assert(Math.abs(gb(l2) / gb(l1) - (0.5 + 0.5 * 2.10 / 16.06)) < 0.01, `weights ${gb(l1)} → ${gb(l2)} GB`);
  assert((await stops())[0] < s1[0], 'the weights segment did not shrink');
  await p4.locator('#memory-bar').screenshot({ path: path.join(shots, '19-memory-bar.png') });
  assert(e4.length === 0, `console errors: ${e4.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('the max-running-sequences placeholder is the default in effect: vLLM on an H100 runs 1024, on an RTX 4090 256', async () => {
  const { page: p5, context, errors: e5 } = await openPage(origin + '/');
  const ph = async () => p5.getAttribute('#engine-max_batch', 'placeholder');
  assert((await ph()) === '1024', `H100 + vLLM placeholder ${await ph()}`);
  await p5.selectOption('#hardware-preset', 'rtx-4090');
  await p5.waitForTimeout(300);
  assert((await ph()) === '256', `RTX 4090 + vLLM placeholder ${await ph()}`);
  await p5.selectOption('#engine-preset', 'sglang');
  await p5.waitForTimeout(300);
  assert(/^\d+$/.test(await ph()), `SGLang placeholder ${await ph()}`);
  assert(e5.length === 0, `console errors: ${e5.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('GPU memory the engine may use: the placeholder is the engine\'s default, a lower share leaves less KV space, out of range is refused next to the field, llama.cpp and TensorRT-LLM hide it', async () => {
  const { page: p6, context, errors: e6 } = await openPage(origin + '/');
  const kv = async () => num((await p6.textContent('#memory-bar .formula')).match(/KV space ([\d.\u202f]+) GB/)[1]);
  assert((await p6.getAttribute('#engine-memory_utilization', 'placeholder')) === '90', 'vLLM placeholder');
  const before = await kv();
  await p6.fill('#engine-memory_utilization', '50');
  await p6.waitForFunction((b) => { const m = document.querySelector('#memory-bar .formula').textContent.match(/KV space ([\d.\u202f]+) GB/); return m && parseFloat(m[1].replace(/\u202f/g, '')) < b; }, before, { timeout: 10000 });
  const after = await kv();
  // 40 % of the H100's 80 GiB less: ~34 GB.
  assert(Math.abs(before - after - 0.4 * 85.9) < 1.5, `KV space ${before} -> ${after} GB`);
  assert(p6.url().includes('memory_utilization'), 'the share is not in the link');
  await p6.fill('#engine-memory_utilization', '150');
  await p6.waitForSelector('label.invalid .error:not(:empty)', { timeout: 5000 });
  assert(/150 % is out of range: allowed 5–100 %/.test(await p6.textContent('label.invalid .error')), `message: ${await p6.textContent('label.invalid .error')}`);
  // vLLM's flag takes a fraction: 0.9 typed here is named for what it would be.
  await p6.fill('#engine-memory_utilization', '0.9');
  await p6.waitForFunction(() => /for the fraction 0\.9, type 90\)/.test(document.querySelector('#engine-memory_utilization-error')?.textContent || ''), null, { timeout: 5000 });
  assert((await p6.getAttribute('#engine-memory_utilization', 'aria-describedby')) === 'engine-memory_utilization-error', 'the message is not tied to its field');
  await p6.fill('#engine-memory_utilization', '50');
  await p6.selectOption('#engine-preset', 'llama.cpp');
  await p6.waitForTimeout(300);
  assert(await p6.locator('#engine-memory_utilization').isHidden(), 'shown for llama.cpp');
  // TensorRT-LLM's KV share is of the memory the weights leave, not the whole: not this field.
  await p6.selectOption('#engine-preset', 'tensorrt-llm');
  await p6.waitForTimeout(300);
  assert(await p6.locator('#engine-memory_utilization').isHidden(), 'shown for TensorRT-LLM');
  await p6.selectOption('#engine-preset', 'vllm');
  await p6.waitForTimeout(300);
  assert((await p6.inputValue('#engine-memory_utilization')) === '50', 'the typed share was lost across engines');
  assert(e6.length === 0, `console errors: ${e6.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('the KV cache\'s format is a choice on the page: FP8 halves the bytes per token, in the link; llama.cpp\'s Q8_0 on vLLM is refused beside it', async () => {
  const { page: k, context: kc, errors: ke } = await openPage(origin + '/');
  const kvPerToken = async () => +(await k.textContent('#memory-bar .formula')).match(/KV ([\d.]+) KB\/token/)[1];
  const before = await kvPerToken();
  await k.selectOption('#quantization-kv_cache', 'fp8');
  await k.waitForFunction((b) => { const m = document.querySelector('#memory-bar .formula')?.textContent.match(/KV ([\d.]+) KB\/token/); return m && +m[1] < b; }, before, { timeout: 10000 });
  const after = await kvPerToken();
  assert(Math.abs(after - before / 2) <= 1, `KV ${before} → ${after} KB/token with FP8`);
  assert(decodeURIComponent(await k.evaluate(() => location.hash)).includes('"kv_cache":"fp8"'), 'FP8 KV not in the link');
  await k.selectOption('#quantization-kv_cache', 'q8_0');
  await k.waitForFunction(() => /llama\.cpp's KV format/.test(document.getElementById('quantization-kv_cache')?.closest('label')?.querySelector('.error')?.textContent ?? ''), null, { timeout: 10000 });
  assert(ke.length === 0, ke.join('\n'));
  await kc.close();
});

await test('the memory card says what a hand check of the KV figures misses: a latent cache kept whole on every device, or DP attention\'s copies of the dense weights', async () => {
  const sc = { version: 1, hardware: { preset: 'h200-sxm', devices: 8 }, model: { preset: 'deepseek-v3' }, engine: { preset: 'sglang' }, workload: { prompt_tokens: 3200, output_tokens: 800 } };
  const { page: pm, context, errors: em } = await openPage(origin + '/#s=' + encodeURIComponent(JSON.stringify(sc)));
  await pm.waitForSelector('#memory-bar .note');
  const note = await pm.textContent('#memory-bar .note');
  assert(/each token's 70\.3 KB is kept whole on each of 8 devices/.test(note), `memory card: ${note}`);
  // DP attention: no copies of the cache, copies of the dense weights instead; more sequences fit; the link keeps it.
  // (The leading figure: the card goes on "— memory's ceiling; the target holds 31 users" once the simulation has
  // sized the capacity, and all its digits read together had made 17031 of 170, as the run's timing fell.)
  const seqs = async () => parseFloat((await pm.textContent('#memory-bar .big')).replace(/[\u202f\u00a0,]/g, ''));
  const tp = await seqs();
  await pm.selectOption('#hardware-parallelism', 'dp-attention');
  await pm.waitForFunction(() => /DP attention: each of the 8 devices holds/.test(document.querySelector('#memory-bar .note')?.textContent ?? ''), null, { timeout: 10000 });
  const dp = await seqs();
  assert(dp > 4 * tp, `sequences at once: TP ${tp}, DP attention ${dp}`);
  assert(decodeURIComponent(await pm.evaluate(() => location.hash)).includes('"parallelism":"dp-attention"'), 'DP attention not in the link');
  // A dense model cannot take it: refused beside the field, nothing typed lost.
  await pm.selectOption('#model-preset', 'llama-3.1-70b');
  await pm.waitForFunction(() => /is dense — choose tensor/.test(document.getElementById('hardware-parallelism')?.closest('label')?.querySelector('.error')?.textContent ?? ''), null, { timeout: 10000 });
  assert((await pm.inputValue('#hardware-parallelism')) === 'dp-attention', 'the split picked was lost');
  assert(em.length === 0, `console errors: ${em.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('a model that does not fit: the fleet card sizes the fewest devices per server that hold it; one user overhead-bound says why the hardware barely moves it', async () => {
  const sc = { version: 1, hardware: { preset: 'h100-sxm', devices: 8 }, model: { preset: 'deepseek-v3' }, engine: { preset: 'sglang' }, workload: { prompt_tokens: 1500, output_tokens: 400 }, target: { tpot_ms: 50, ttft_ms: 3000, percentile: 99 }, fleet: { peak_users: 200 } };
  const { page: pm, context, errors: em } = await openPage(origin + '/#s=' + encodeURIComponent(JSON.stringify(sc)));
  await pm.waitForFunction(() => /so no fleet of it; with \d+ devices per server/.test(document.getElementById('fleet-sentence')?.textContent || '') && document.getElementById('simulating').textContent === '', null, { timeout: 60000 });
  const fleet = await pm.textContent('#fleet-sentence');
  const m = fleet.match(/^The model does not fit on 8 × NVIDIA H100 SXM5 80GB, so no fleet of it; with (16|32) devices per server \(\d nodes of 8, tensor parallel over the network\): (\d+) servers?, (\d+) devices? \([\d.]+ users each at the peak\)\.$/);
  assert(m && +m[3] === +m[1] * +m[2], `fleet card: ${fleet}`);
  // No empty chart frames ("no load levels to draw") and no load slider: one line says why.
  const shown = (sel) => pm.evaluate((q) => { const e = document.querySelector(q); return !!e && getComputedStyle(e).display !== 'none'; }, sel);
  assert(await shown('#charts-unfit') && !(await shown('.charts')) && !(await shown('.scrub')), 'the charts of a model that does not fit');
  // On H200 it fits: one user is overhead-bound on 8 devices, and the card says why faster memory barely moves it.
  await pm.selectOption('#hardware-preset', 'h200-sxm');
  await pm.waitForFunction(() => /overhead-bound alone: .*the all-reduces between its 8 devices.*faster memory barely moves one user here \(\d+ % of the ceiling\)/.test(document.getElementById('one-user-note')?.textContent || ''), null, { timeout: 60000 });
  assert(!/No fleet/.test(await pm.textContent('#fleet-sentence')), `fleet card on H200: ${await pm.textContent('#fleet-sentence')}`);
  // The charts come back, drawn at the width they show at (they were hidden while it did not fit).
  assert(!(await shown('#charts-unfit')) && await shown('.charts'), 'the charts once it fits');
  await pm.waitForFunction(() => { const c = document.getElementById('chart-throughput'); return c.clientWidth > 0 && Math.abs(c.width - c.clientWidth * devicePixelRatio) <= 2; }, null, { timeout: 10000 });
  // FP8 picked for a 70B (released in BF16), then gpt-oss-120b: the format stays, and the page says it stores more
  // than the released MXFP4 (a format left at the previous model's release follows the new model's instead).
  await pm.selectOption('#model-preset', 'llama-3.1-70b');
  await pm.selectOption('#quantization-weights', 'fp8');
  await pm.selectOption('#model-preset', 'gpt-oss-120b');
  await pm.waitForFunction(() => /gpt-oss-120b is released in MXFP4 \(4\.25 bits\): FP8.* stores more than that/.test(document.getElementById('weights-released')?.textContent || ''), null, { timeout: 10000 });
  assert((await pm.inputValue('#quantization-weights')) === 'fp8', 'the format picked was lost');
  await pm.selectOption('#quantization-weights', '');
  await pm.waitForFunction(() => (document.getElementById('weights-released')?.textContent || '') === '', null, { timeout: 10000 });
  assert(em.length === 0, `console errors: ${em.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('a class reads where one user\'s TPOT goes, and the operating point\'s share of the capacity', async () => {
  const sc = { version: 1, hardware: { preset: 'h100-sxm' }, model: { preset: 'llama-3.1-8b' }, quantization: { weights: 'awq' }, engine: { preset: 'vllm' }, workload: { prompt_tokens: 512, output_tokens: 256 } };
  const { page: tp, context, errors: te } = await openPage(origin + '/#s=' + encodeURIComponent(JSON.stringify(sc)));
  await tp.waitForFunction(() => document.getElementById('simulating')?.textContent === '' && /Operating point/.test(document.getElementById('capacity-card')?.textContent || ''), null, { timeout: 60000 });
  // "TPOT 3.33 ms = 1.74 ms reading the weights + …": the parts add up to the card's TPOT.
  const time = await tp.textContent('#one-user-time');
  const m = /^TPOT ([\d.]+) ms = (.+)$/.exec(time);
  assert(m && /reading the weights/.test(m[2]), `one user's time: ${time}`);
  const sum = m[2].split(' + ').reduce((a, p) => a + parseFloat(p), 0);
  assert(Math.abs(sum - +m[1]) <= 0.02, `parts ${sum} vs TPOT ${m[1]}`);
  const card = (await tp.textContent('#decode-tps')).replace(/[^\d.]/g, '');
  assert(Math.abs(1000 / +m[1] - +card) / +card < 0.01, `1000 ÷ ${m[1]} against the card's ${card} tok/s`);
  // The capacity card: the operating point's share of the capacity's tok/s, and why AWQ leaves the capacity.
  const cap = (await tp.textContent('#capacity-card')).replace(/[\u202f]/g, '');
  const total = +/(\d[\d.]*) tok\/s total at capacity/.exec(cap)[1];
  const op = /: ([\d.]+) tok\/s total \((\d+) % of the capacity's\)/.exec(cap);
  assert(op && Math.abs(+op[2] - Math.round(+op[1] / total * 100)) <= 1, `capacity card: ${cap}`);
  assert(/Compute rate 16-bit — vLLM unpacks the 4-bit weights/.test(cap), `capacity card: ${cap}`);
  assert(te.length === 0, `console errors: ${te.slice(0, 2).join(' | ')}`);
  await context.close();
});

await test('imported runs come back after a reload, kept by the browser, until Clear', async () => {
  // An operations trial found its imported runs gone after a reload while the scenario came back.
  const { page: rp, context } = await openPage(origin + '/');
  await rp.click('.measurements summary');
  await rp.fill('#measure-paste', fs.readFileSync(path.join(root, 'tests', 'samples', 'vllm-bench-serve.json'), 'utf8'));
  await rp.click('#measure-add');
  await rp.waitForSelector('#measure-table tr.run', { timeout: 10000 });
  const runs = await rp.locator('#measure-table tr.run').count();
  assert(!(await rp.isVisible('#measure-kept')), 'a run just added is not "from your last visit"');
  await rp.reload();
  await rp.waitForSelector('#measure-table tr.run', { timeout: 30000 });
  assert((await rp.locator('#measure-table tr.run').count()) === runs, 'not every run came back');
  assert(/1 run from your last visit, kept by this browser/.test(await rp.textContent('#measure-kept')), `note: ${await rp.textContent('#measure-kept')}`);
  await rp.click('#measure-clear');
  await rp.reload();
  await rp.waitForSelector('#ceiling', { timeout: 30000 });
  await rp.waitForTimeout(500);
  assert((await rp.locator('#measure-table tr.run').count()) === 0, 'runs back after Clear');
  await context.close();
});

await test('Apple silicon takes llama.cpp and its weights, and says so', async () => {
  // A pre-sales trial's M3 Ultra kept vLLM in BF16 (4.1 tok/s, no word), where the CLI ran llama.cpp's Q4_K_M (14.2).
  const { page: ap, context } = await openPage(origin + '/');
  await ap.selectOption('#model-preset', 'llama-3.1-70b');
  await ap.selectOption('#hardware-preset', 'm3-ultra');
  await ap.waitForTimeout(500);
  assert((await ap.inputValue('#engine-preset')) === 'llama.cpp', `engine ${await ap.inputValue('#engine-preset')}`);
  assert(/Engine set to llama\.cpp, what runs on this device \(vLLM has no Metal backend\)/.test(await ap.textContent('#efficiency-class')), 'the switch is not said');
  // Chosen again by hand, vLLM stays, with the report's warning.
  await ap.selectOption('#engine-preset', 'vllm');
  await ap.waitForTimeout(800);
  assert(/vLLM does not run on Apple silicon/.test(await ap.textContent('body')), 'no warning for vLLM on Apple silicon');
  await context.close();
});

await test('a target no load meets on 4 × L40S: the fleet card sizes the next server size that holds it', async () => {
  // A pre-sales trial read only "no load meets the target" for Llama-3.1-70B in BF16 on 4 × L40S.
  const sc = { version: 1, hardware: { preset: 'l40s', devices: 4 }, model: { preset: 'llama-3.1-70b' }, engine: { preset: 'vllm' }, workload: { prompt_tokens: 1024, output_tokens: 256, requests: 300 }, target: { tpot_ms: 40, ttft_ms: 2000, percentile: 99 }, fleet: { peak_users: 40 } };
  const { page: lp, context } = await openPage(origin + '/#s=' + encodeURIComponent(JSON.stringify(sc)));
  await lp.waitForFunction(() => document.getElementById('simulating')?.textContent === '' && /No load meets the target on 4 × NVIDIA L40S/.test(document.querySelector('#fleet-sentence')?.textContent || ''), null, { timeout: 60000 });
  const fleet = await lp.textContent('#fleet-sentence');
  assert(/so no fleet of it; with 8 devices per server: \d+ servers, \d+ devices \([\d.]+ users? each at the peak\)\.$/.test(fleet), `fleet card: ${fleet}`);
  // Each ✗ names the latency over its limit, read against the row's own P99 cells (an operations trial on a phone,
  // where those columns scroll out of sight, could not see why).
  await lp.click('.sweep-table summary');
  const rows = await lp.evaluate(() => [...document.querySelectorAll('#sweep-table tbody tr')].map((r) => [...r.cells].map((c) => c.textContent)));
  const failing = rows.filter((c) => c.length === 10 && /^✗/.test(c[9]));
  assert(failing.length > 0, `no ✗ row: ${JSON.stringify(rows)}`);
  for (const c of failing) {
    const [ttft, tpot] = [num(c[4]), num(c[6])];
    const named = (c[9].match(/^✗ ([A-Z, ]+?)(?: ·|$)/) || [])[1] || '';
    const want = [ttft > 2000 ? 'TTFT' : null, tpot > 40 ? 'TPOT' : null].filter(Boolean).join(', ');
    assert(named === want, `row ${c[0]}: TTFT P99 ${ttft}, TPOT P99 ${tpot}, target cell "${c[9]}"`);
  }
  await context.close();
});

await test('a class on a laptop reads why per-user speed falls from the figures on screen; print keeps the caveats; an offline job counts requests in flight; the month prices its idle hours', async () => {
  // A teacher's trial: on an M2 with llama.cpp the page blamed a step growing with the batch, where ITL's median had
  // barely moved and per-user speed halved (other users' prompts held the decodes; 4 slots made the rest wait).
  const sc = (o) => origin + '/#s=' + encodeURIComponent(JSON.stringify(o));
  const { page: lp, context } = await openPage(sc({ hardware: { preset: 'm2' }, model: { preset: 'llama-3.1-8b' }, engine: { preset: 'llama.cpp' }, workload: { prompt_tokens: 500, output_tokens: 200 } }));
  const settle = () => lp.waitForFunction(() => (document.getElementById('simulating')?.textContent ?? '') === '' && /Why one falls/.test(document.getElementById('explain')?.textContent || ''), null, { timeout: 90000 });
  await settle();
  let text = await lp.textContent('#explain');
  const why = text.match(/per user ([\d.]+) → ([\d.]+) tok\/s at (\d+) users\): the ordinary step (barely grows|grows with the batch), ([\d.]+) → ([\d.]+) ms[^.]*?(?:(?:, but|; and) the steps that read other users' prompts hold everyone's next token, so the mean gap a reader sees \(TPOT's median\) is ([\d.]+) ms)?\./);
  assert(why, `why sentence: ${text.slice(text.indexOf('Why one falls'), text.indexOf('Why one falls') + 700)}`);
  const [stepA, stepB] = [Number(why[5]), Number(why[6])];
  // The words follow the figures: "barely" exactly where ITL's median grew 10 % or less.
  assert((why[4] === 'barely grows') === (stepB <= 1.1 * stepA), `step ${stepA} → ${stepB} said "${why[4]}"`);
  // Here per-user speed halves while the ordinary step does not: the prompts are named, with a TPOT above the step.
  assert(Number(why[2]) < 0.6 * Number(why[1]) && why[7] && Number(why[7]) > 1.15 * stepB, `prompts not named: ${why[0]}`);
  // The same level's TPOT median in the table.
  const users = why[3];
  const row = (await lp.$$eval('.sweep-table tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim())))).find((r) => r[0] === users);
  assert(row && Math.abs(Number(row[5].replace(/\s/g, '')) - Number(why[7])) <= 0.06 * Number(why[7]), `table TPOT ${row} vs ${why[7]}`);
  // llama.cpp's 4 slots: the others wait, in TTFT.
  const wait = text.match(/Only about ([\d.]+) of the (\d+) users' requests run at once \(the engine's cap or what its KV cache holds\): the others wait their turn, which shows in TTFT \(([\d\s.]+) → ([\d\s.]+) ms median\)/);
  assert(wait && Number(wait[1]) <= 4.05 && Number(wait[2]) > 4, `slots sentence: ${wait}`);
  // One level says no "from … to" and no fall; a sweep whose prompts take the server's time says so, not a cap (a review).
  // (A new hash in the same page: wait for its own sentence, not the last page's.)
  const explained = async (re) => {
    await lp.waitForFunction((src) => (document.getElementById('simulating')?.textContent ?? '') === '' && new RegExp(src).test(document.getElementById('explain')?.textContent || ''), re.source, { timeout: 90000 })
      .catch(() => {});
    return lp.textContent('#explain');
  };
  await lp.goto(sc({ hardware: { preset: 'h100-sxm' }, model: { preset: 'llama-3.1-8b' }, engine: { preset: 'vllm' }, workload: { prompt_tokens: 500, output_tokens: 200, load: { concurrency: [16] } } }));
  text = await explained(/at 16 users\)/);
  assert(/more tokens per step \(system [\d\s.]+ tok\/s at 16 users\)\./.test(text) && !/But each user waits longer/.test(text), `one level: ${text.slice(text.indexOf('Why one falls'), text.indexOf('Why one falls') + 400)}`);
  await lp.goto(sc({ hardware: { preset: 'h100-sxm' }, model: { preset: 'llama-3.1-8b' }, engine: { preset: 'vllm' }, workload: { prompt_tokens: 4000, output_tokens: 5, load: { concurrency: [1, 4, 16, 32] } } }));
  text = await explained(/at 32 users\)/);
  assert(/nearly every step also reads a prompt chunk, so the ordinary step grows with the prompts/.test(text) && /requests run at once \(reading the prompts takes the server's time\)/.test(text), `prompts' sweep: ${text.slice(text.indexOf('Why one falls'), text.indexOf('Why one falls') + 900)}`);
  // An offline job's table counts requests in flight, not users who send their next request.
  await lp.goto(sc({ hardware: { preset: 'h100-sxm' }, model: { preset: 'llama-3.1-8b' }, engine: { preset: 'vllm' }, workload: { prompt_tokens: 1000, output_tokens: 200, load: { offline: true } } }));
  await lp.waitForFunction(() => (document.getElementById('simulating')?.textContent ?? '') === '' && /^requests/.test(document.querySelector('.sweep-table th')?.textContent || ''), null, { timeout: 90000 });
  assert(/An offline batch job: every request is queued at once/.test(await lp.textContent('.sweep-table th')), 'offline header');
  // A fleet busy 8 h a day: the month's cost per million beside the peak's; printed, the caveats the screen says.
  await lp.goto(sc({ hardware: { preset: 'h100-sxm', devices: 8 }, model: { preset: 'llama-3.1-70b' }, engine: { preset: 'vllm' }, workload: { prompt_tokens: 1000, output_tokens: 300, requests: 300 }, fleet: { peak_users: 500, peak_hours_per_day: 8 }, cost: { device_hour: 2.5, currency: 'USD', electricity_per_kwh: 0.12, pue: 1.3 } }));
  await lp.waitForFunction(() => (document.getElementById('simulating')?.textContent ?? '') === '' && /over the month/.test(document.getElementById('cost-card')?.textContent || ''), null, { timeout: 90000 });
  const cost = await lp.textContent('#cost-card');
  const m = cost.match(/the fleet's USD ([\d.]+) per million output tokens at the peak[^;]*; over the month, busy 8 h a day and idle the rest, USD ([\d.]+) per million/);
  // Servers paid 24 h for 8 h of tokens: about 3 × (less the idle hours' lower power).
  assert(m && Number(m[2]) / Number(m[1]) > 2.5 && Number(m[2]) / Number(m[1]) < 3.05, `month's cost per million: ${cost}`);
  // The sizing cards' ⓘ give their formulas on the card's numbers (a teacher's trial found none on them).
  const n = (x) => Number(x.replace(/[\s\u202f,]/g, ''));
  const costInfo = await lp.textContent('#cost-card details.info .info-body');
  const ci = costInfo.match(/USD ([\d.\s\u202f]+) ÷ \(([\d.\s\u202f]+) tok\/s × 3[\s\u202f]600\) × 10⁶ = USD ([\d.\s\u202f]+) per million/);
  assert(ci && Math.abs(n(ci[1]) / (n(ci[2]) * 3600) * 1e6 / n(ci[3]) - 1) < 0.02, `cost ⓘ: ${costInfo}`);
  const energyInfo = await lp.textContent('#energy-card details.info .info-body');
  const ei = energyInfo.match(/([\d.\s\u202f]+) W ÷ ([\d.\s\u202f]+) tok\/s = ([\d.]+) J\/token/);
  assert(ei && Math.abs(n(ei[1]) / n(ei[2]) / n(ei[3]) - 1) < 0.02, `energy ⓘ: ${energyInfo}`);
  assert(/⌈500 users ÷ [\d.]+ users⌉ \+ 0/.test(await lp.textContent('#fleet-card details.info .info-body')), 'fleet ⓘ');
  assert(/the simulated levels bracket it/.test(await lp.textContent('#capacity-card details.info .info-body')), 'capacity ⓘ');
  await lp.emulateMedia({ media: 'print' });
  const caveats = await lp.textContent('#print-caveats');
  assert(await lp.isVisible('#print-caveats') && /The fleet's users each keep a request in flight/.test(caveats), `print caveats: ${caveats}`);
  await context.close();
});

await browser.close();
server.close();
console.log(`screenshots: ${shots}`);
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
