// The SpotCheck dashboard: a view over the admin API. Every action here is one admin request that curl can make too.
'use strict';

const api = location.pathname.replace(/[^/]*$/, '');  // the admin prefix the page was loaded from, e.g. /__spotcheck/
const token = new URLSearchParams(location.search).get('token');
const MAX_ENTRIES = 2000;   // entries kept in memory
const MAX_ROWS = 400;       // rows drawn: the page stays responsive at 1,000 exchanges per second

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const withToken = (url) => token ? url + (url.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token) : url;

async function call(method, path, body) {
  const headers = {};
  if (token) headers['X-SpotCheck-Admin-Token'] = token;
  // Every change is sent as JSON, even without a body: the admin API refuses writes a browser marks otherwise (docs/security.md).
  if (body !== undefined || method !== 'GET') headers['Content-Type'] = 'application/json';
  const response = await fetch(api + path, { method, headers, body: body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body)) });
  const text = await response.text();
  const data = text ? (() => { try { return JSON.parse(text); } catch { return text; } })() : null;
  if (!response.ok) throw new Error((data && data.error && data.error.message) || `${method} ${path}: ${response.status}`);
  return data;
}

// ---------- live traffic ----------

let entries = [];
let selected = null;
let dirty = false;
let lastSequence = 0;
let received = 0;
let droppedTotal = 0;
const contractsSeen = new Set();

function connect() {
  const source = new EventSource(withToken(api + 'events?backlog=200&since=' + lastSequence));
  source.onopen = () => { $('conn').textContent = 'live'; $('conn').className = 'pill live'; };
  source.onerror = () => { $('conn').textContent = 'reconnecting…'; $('conn').className = 'pill down'; };
  source.addEventListener('entry', (event) => {
    const entry = JSON.parse(event.data);
    lastSequence = Math.max(lastSequence, entry.sequence);
    received++;
    if ($('f-pause').checked) return;
    entries.push(entry);
    if (entries.length > MAX_ENTRIES) entries.splice(0, entries.length - MAX_ENTRIES);
    if (entry.contract && !contractsSeen.has(entry.contract)) addContractOption(entry.contract);
    dirty = true;
  });
  source.addEventListener('dropped', (event) => {
    droppedTotal += JSON.parse(event.data).dropped;
    $('dropped').textContent = `${droppedTotal} not shown (server skipped them for this slow page)`;
  });
}

function addContractOption(contract) {
  contractsSeen.add(contract);
  const option = document.createElement('option');
  option.value = option.textContent = contract;
  $('f-contract').appendChild(option);
}

function statusMatches(status, filter) {
  if (!filter) return true;
  const text = status == null ? 'none' : String(status);
  if (/^[1-5]xx$/i.test(filter)) return text[0] === filter[0];
  return text.startsWith(filter.trim());
}

function visible() {
  const contract = $('f-contract').value;
  const status = $('f-status').value.trim();
  const failures = $('f-failures').checked;
  const out = [];
  for (let i = entries.length - 1; i >= 0 && out.length < MAX_ROWS; i--) {
    const e = entries[i];
    if (contract && e.contract !== contract) continue;
    if (failures && !e.failure) continue;
    if (!statusMatches(e.status, status)) continue;
    out.push(e);
  }
  return out;
}

function draw() {
  if (!dirty) return;
  dirty = false;
  const rows = visible().map((e) => {
    const violations = (e.violations || []).filter((v) => !v.knownDefect && !v.assumptions).length;
    const known = (e.violations || []).length - violations;
    return `<tr data-seq="${e.sequence}" class="${e.failure ? 'fail' : ''}${selected === e.sequence ? ' selected' : ''}">` +
      `<td>${e.sequence}</td><td>${esc(e.time.slice(11, 23))}</td><td>${esc(e.method)}</td>` +
      `<td class="path" title="${esc(e.target)}">${esc(e.target)}</td><td class="status">${e.status ?? '—'}</td>` +
      `<td>${e.durationMs}</td><td>${esc(e.contract ?? '')}</td>` +
      `<td>${e.fault ? `<span class="tag">${esc(e.fault)}</span>` : ''}</td>` +
      `<td>${violations ? `<span class="tag">${violations}</span>` : ''}${known ? ` <span class="tag warn">${known} known</span>` : ''}</td></tr>`;
  });
  $('traffic-rows').innerHTML = rows.join('');
}

setInterval(draw, 250);
setInterval(() => { $('rate').textContent = `${received} exchanges/s`; received = 0; }, 1000);
for (const id of ['f-contract', 'f-status', 'f-failures']) $(id).addEventListener('input', () => { dirty = true; draw(); });

// The HAR export is the server's journal through the same filters as the table; a plain link, so the browser downloads it.
function harURL() {
  const q = new URLSearchParams();
  if ($('f-contract').value) q.set('contract', $('f-contract').value);
  if ($('f-status').value.trim()) q.set('status', $('f-status').value.trim());
  if ($('f-failures').checked) q.set('failures', '1');
  const query = q.toString();
  return withToken(api + 'journal.har' + (query ? '?' + query : ''));
}
$('export-har').addEventListener('click', () => { $('export-har').href = harURL(); });
$('clear-traffic').addEventListener('click', () => { entries = []; dirty = true; draw(); $('detail').classList.add('hidden'); });

$('traffic-rows').addEventListener('click', async (event) => {
  const row = event.target.closest('tr');
  if (!row) return;
  selected = Number(row.dataset.seq);
  dirty = true;
  draw();
  try {
    showDetail(await call('GET', 'journal/' + selected));
  } catch (error) {
    $('detail').classList.remove('hidden');
    $('detail').textContent = error.message;
  }
});

// ---------- detail view ----------

function bytesOf(body) {
  if (!body) return new Uint8Array();
  if (body.text !== undefined) return new TextEncoder().encode(body.text);
  const raw = atob(body.base64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function imageType(bytes) {
  const starts = (...sig) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0x47, 0x49, 0x46)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57) return 'image/webp';
  return null;
}

function dataURL(bytes, type) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return `data:${type};base64,${btoa(s)}`;
}

function header(headers, name) {
  const h = (headers || []).find((x) => x.name.toLowerCase() === name);
  return h ? h.value : null;
}

function indexOf(haystack, needle, from) {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

// Multipart bodies are summarised part by part: headers, size, and a preview when the part is an image.
function multipart(bytes, contentType) {
  const m = /boundary="?([^";]+)"?/i.exec(contentType || '');
  if (!m) return null;
  const delimiter = new TextEncoder().encode('--' + m[1]);
  const parts = [];
  let at = indexOf(bytes, delimiter, 0);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (bytes[start] === 0x2d && bytes[start + 1] === 0x2d) break;
    const next = indexOf(bytes, delimiter, start);
    const chunk = bytes.subarray(start + 2, next < 0 ? bytes.length : next - 2);
    const split = indexOf(chunk, new TextEncoder().encode('\r\n\r\n'), 0);
    const head = new TextDecoder().decode(split < 0 ? chunk : chunk.subarray(0, split));
    const content = split < 0 ? new Uint8Array() : chunk.subarray(split + 4);
    parts.push({ head, content, complete: next >= 0 });
    at = next;
  }
  return parts;
}

function bodyHTML(body, headers) {
  if (!body) return '<div class="muted">no body</div>';
  const note = body.truncated ? `<div class="muted small">first ${bytesOf(body).length} of ${body.size} bytes</div>` : `<div class="muted small">${body.size} bytes</div>`;
  const type = header(headers, 'content-type') || '';
  const bytes = bytesOf(body);
  if (/multipart\//i.test(type)) {
    const parts = multipart(bytes, type) || [];
    return note + parts.map((p, i) => {
      const image = imageType(p.content);
      const text = !image && p.content.length < 4096 ? new TextDecoder().decode(p.content) : null;
      return `<div><b>part ${i + 1}</b> <span class="muted small">${p.content.length} bytes${p.complete ? '' : ' (cut by the 64 KiB capture)'}</span>` +
        `<pre>${esc(p.head)}</pre>${image ? `<img alt="part ${i + 1}" src="${dataURL(p.content, image)}">` : ''}${text !== null ? `<pre>${esc(text)}</pre>` : ''}</div>`;
    }).join('');
  }
  const image = imageType(bytes);
  if (image) return note + `<img alt="body" src="${dataURL(bytes, image)}">`;
  if (body.text !== undefined) {
    try { return note + `<pre class="body">${esc(JSON.stringify(JSON.parse(body.text), null, 2))}</pre>`; } catch { return note + `<pre class="body">${esc(body.text)}</pre>`; }
  }
  return note + `<pre>${esc(body.base64.slice(0, 2000))}</pre>`;
}

function headersHTML(headers) {
  if (!headers || !headers.length) return '<div class="muted">none</div>';
  return `<table class="headers">${headers.map((h) => `<tr><td>${esc(h.name)}</td><td>${esc(h.value)}</td></tr>`).join('')}</table>`;
}

// Shell quoting for copy-as-curl: plain single quotes when the text has no control characters, else bash's $'…'.
function shellQuote(s) {
  s = String(s);
  if (!/[\x00-\x1f\x7f]/.test(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  const named = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\', "'": "\\'" };
  return `$'${s.replace(/[\x00-\x1f\x7f\\']/g, (c) => named[c] ?? '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'))}'`;
}

// Bytes as a printf %b argument: printable ASCII as is, everything else (and \ and ') as \0NNN octal, so NUL bytes survive.
function printfBytes(bytes) {
  let out = '';
  for (const b of bytes) out += b >= 0x20 && b < 0x7f && b !== 0x5c && b !== 0x27 ? String.fromCharCode(b) : '\\0' + b.toString(8).padStart(3, '0');
  return `'${out}'`;
}

// Where the app's API answers: the main port (the page may be open on the admin port), on the host the page was opened with.
let mainOrigin = location.origin;

// A command that repeats the request against the main port, sending the body literally: never `@file`, which
// curl would read from the user's disk. Text goes in --data-raw; binary bodies are piped in from printf.
function curlFor(entry) {
  const target = mainOrigin + entry.path + (entry.query ? '?' + entry.query : '');
  let cmd = `curl -i -X ${shellQuote(entry.method)} ${shellQuote(target)}`;
  for (const h of entry.requestHeaders || []) {
    if (['host', 'content-length', 'connection', 'transfer-encoding', 'expect'].includes(h.name.toLowerCase())) continue;
    cmd += ` \\\n  -H ${shellQuote(h.name + ': ' + h.value)}`;
  }
  const body = entry.requestBody;
  if (!body) return cmd;
  if (body.truncated) return `# The body (${body.size} bytes) was not kept in full (the journal keeps the first 64 KiB), so it is not sent.\n` + cmd;
  if (body.text !== undefined && !body.text.includes('\0')) return cmd + ` \\\n  --data-raw ${shellQuote(body.text)}`;
  return `printf '%b' ${printfBytes(bytesOf(body))} | ${cmd} \\\n  --data-binary @-`;
}

function showDetail(entry) {
  const violations = (entry.violations || []).map((v) =>
    `<li><span class="tag${v.knownDefect || v.assumptions ? ' warn' : ''}">${esc(v.side)}</span> <code>${esc(v.pointer)}</code>: expected ${esc(v.expected)}, got ${esc(v.got)}${v.knownDefect ? ` (known defect ${esc(v.knownDefect)})` : ''}${!v.knownDefect && v.assumptions ? ` (note: the model assumed ${esc(v.assumptions.join('; '))})` : ''}</li>`).join('');
  $('detail').classList.remove('hidden');
  $('detail').innerHTML =
    `<div class="row"><b>#${entry.sequence} ${esc(entry.method)} ${esc(entry.path)}${entry.query ? '?' + esc(entry.query) : ''}</b>` +
    `<span>→ ${entry.status ?? 'no answer'}</span><span class="muted">${esc(entry.contract ?? 'no contract')} · ${entry.durationMs} ms</span>` +
    `${entry.rule ? `<span class="tag">${esc(entry.fault)} by “${esc(entry.rule)}”</span>` : ''}` +
    `${entry.errorCode ? `<span class="tag warn">${esc(entry.errorCode)}${entry.errorField ? ' (' + esc(entry.errorField) + ')' : ''}</span>` : ''}` +
    `<div class="spacer"></div><button id="copy-curl">Copy as curl</button></div>` +
    (violations ? `<h3>Contract violations</h3><ul>${violations}</ul>` : '') +
    `<div class="cols"><div><h3>Request headers</h3>${headersHTML(entry.requestHeaders)}<h3>Request body</h3><div id="request-body">${bodyHTML(entry.requestBody, entry.requestHeaders)}</div></div>` +
    `<div><h3>Response headers</h3>${headersHTML(entry.responseHeaders)}<h3>Response body</h3><div id="response-body">${bodyHTML(entry.responseBody, entry.responseHeaders)}</div></div></div>`;
  $('copy-curl').addEventListener('click', async () => {
    const text = curlFor(entry);
    try { await navigator.clipboard.writeText(text); $('copy-curl').textContent = 'Copied'; } catch { window.prompt('curl', text); }
  });
}

// ---------- faults ----------

let catalogue = null;

function faultFromRow(row) {
  const kind = row.querySelector('select').value;
  const spec = catalogue.kinds.find((k) => k.kind === kind);
  const fault = { kind };
  for (const field of spec.fields) {
    const value = row.querySelector(`input[data-field="${field.name}"]`).value.trim();
    if (value !== '') fault[field.name] = Number(value);
  }
  return fault;
}

function drawFieldInputs(row) {
  const spec = catalogue.kinds.find((k) => k.kind === row.querySelector('select').value);
  row.querySelector('.fields').innerHTML = spec.fields.map((f) =>
    `<input data-field="${f.name}" title="${esc(f.help)}" placeholder="${esc(f.name)}" value="${f.default ?? ''}">`).join('');
  row.querySelector('select').title = spec.help;
}

async function loadCatalogue() {
  catalogue = await call('GET', 'faults/catalogue');
  for (const c of catalogue.contracts) if (!contractsSeen.has(c)) addContractOption(c);
  $('fault-matrix').querySelector('tbody').innerHTML = catalogue.contracts.map((c) =>
    `<tr data-contract="${c}"><td>${c}</td><td><select>${catalogue.kinds.map((k) => `<option>${k.kind}</option>`).join('')}</select></td>` +
    `<td class="fields"></td><td><input class="times" placeholder="N calls" title="next N calls; empty until cleared" value="1"></td>` +
    `<td><button class="apply">Apply</button></td></tr>`).join('');
  for (const row of document.querySelectorAll('#fault-matrix tr')) {
    drawFieldInputs(row);
    row.querySelector('select').addEventListener('change', () => drawFieldInputs(row));
    row.querySelector('.apply').addEventListener('click', () => guarded($('fault-error'), async () => {
      const rule = { contract: row.dataset.contract, fault: faultFromRow(row) };
      const times = row.querySelector('.times').value.trim();
      if (times) rule.times = Number(times);
      rule.name = `${rule.contract}: ${rule.fault.kind}${rule.fault.status ? ' ' + rule.fault.status : ''}${times ? ` ×${times}` : ''}`;
      drawRules(await call('POST', 'faults/rules', rule));
    }));
  }
  $('presets').innerHTML = catalogue.presets.map((p) => `<button data-preset="${p.name}" title="${esc(JSON.stringify(p.rules))}">Preset: ${p.name}</button>`).join('');
  for (const b of document.querySelectorAll('#presets button')) {
    b.addEventListener('click', () => guarded($('fault-error'), async () => drawRules(await call('POST', 'faults/presets/' + b.dataset.preset))));
  }
}

function drawRules(active) {
  $('offline').textContent = active.offline ? 'OFFLINE — go online' : 'Go offline';
  $('offline').classList.toggle('on', active.offline);
  $('offline').dataset.offline = active.offline ? '1' : '';
  $('active-rules').innerHTML = active.rules.length ? active.rules.map((r) => {
    const remaining = r.remaining === null ? 'until cleared' : `${r.remaining} left`;
    return `<li data-index="${r.index}"><span class="what" title="${esc(JSON.stringify(r.rule))}">${esc(r.label)}</span>` +
      `<span class="muted small">applied ${r.applied} · ${remaining}${r.schedule ? ` · <span class="schedule">${esc(r.schedule)}</span>` : ''}</span>` +
      `<button class="remove">×</button></li>`;
  }).join('') : '<li class="muted">none: every request gets the normal answer</li>';
  for (const li of document.querySelectorAll('#active-rules li[data-index]')) {
    li.querySelector('.remove').addEventListener('click', () => guarded($('fault-error'), async () => drawRules(await call('DELETE', 'faults/rules/' + li.dataset.index))));
  }
}

async function refreshRules() {
  try { drawRules(await call('GET', 'faults/active')); } catch (error) { $('fault-error').textContent = error.message; }
}

async function guarded(target, work) {
  target.textContent = '';
  try { await work(); } catch (error) { target.textContent = error.message; }
}

$('offline').addEventListener('click', () => guarded($('fault-error'), async () => {
  drawRules(await call($('offline').dataset.offline ? 'DELETE' : 'POST', 'faults/offline'));
}));
// Any rule the --faults format allows, time-based ones included; the server checks it and names the pointer of a mistake.
$('add-rule-json').addEventListener('click', () => guarded($('fault-error'), async () => drawRules(await call('POST', 'faults/rules', $('rule-json').value))));
$('clear-faults').addEventListener('click', () => guarded($('fault-error'), async () => { await call('DELETE', 'faults'); await refreshRules(); }));
$('reset').addEventListener('click', () => guarded($('state-error'), async () => {
  await call('POST', 'reset');
  entries = []; dirty = true;
  await refreshRules(); await refreshState();
}));

$('export').addEventListener('click', async (event) => {
  event.preventDefault();
  await guarded($('fault-error'), async () => {
    const rules = await call('GET', 'faults/export');
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([JSON.stringify(rules, null, 2) + '\n'], { type: 'application/json' }));
    link.download = 'faults.json';
    document.body.appendChild(link);
    link.click();
    link.remove();
  });
});
$('show-export').addEventListener('click', () => guarded($('fault-error'), async () => {
  $('export-json').classList.toggle('hidden');
  $('export-json').textContent = JSON.stringify(await call('GET', 'faults/export'), null, 2);
}));

// ---------- state ----------

// The collection shown; the first declared one until another is picked.
let stateCollection = null;

// A record's one-line summary: its first few text and number fields, whatever the collection declares.
function recordSummary(record) {
  const parts = [];
  for (const [key, value] of Object.entries(record || {})) {
    if (key === 'id' || value === null || typeof value === 'object') continue;
    parts.push(String(value));
    if (parts.length === 3) break;
  }
  return parts.join(' · ');
}

async function refreshState() {
  let state;
  const query = 'state?limit=200' + (stateCollection ? '&collection=' + encodeURIComponent(stateCollection) : '');
  try { state = await call('GET', query); } catch (error) {
    $('state-panel').querySelector('#state-info').textContent = error.message;
    return;
  }
  stateCollection = state.collection;
  const select = $('state-collection');
  const options = state.collections.map((c) => `<option value="${esc(c.name)}"${c.name === state.collection ? ' selected' : ''}>${esc(c.name)} (${c.count})</option>`).join('');
  if (select.innerHTML !== options) select.innerHTML = options;
  $('state-count').textContent = `${state.count} stored`;
  $('state-info').textContent = state.persistent ? `kept in ${state.dataDir}` : 'in memory';
  $('records').innerHTML = state.records.map((r) => {
    const img = r.photo ? `<img alt="photo" loading="lazy" src="${esc(withToken(r.photo.url))}">` : '<div class="noimg"></div>';
    const secret = r.secret ? ` · ${esc(r.secret.name)} ${esc(r.secret.value)}` : '';
    return `<li data-id="${esc(r.id)}">${img}<div class="info"><div><b>${esc(recordSummary(r.record))}</b></div>` +
      `<div class="id">${esc(r.id)}${secret}</div></div><button class="delete">Delete</button></li>`;
  }).join('');
  for (const li of document.querySelectorAll('#records li')) {
    li.querySelector('.delete').addEventListener('click', () => guarded($('state-error'), async () => {
      await call('DELETE', 'state/records/' + encodeURIComponent(stateCollection) + '/' + encodeURIComponent(li.dataset.id));
      await refreshState();
    }));
  }
}

$('state-collection').addEventListener('change', () => {
  stateCollection = $('state-collection').value;
  refreshState();
});

$('fixtures-file').addEventListener('change', () => guarded($('state-error'), async () => {
  const file = $('fixtures-file').files[0];
  if (!file) return;
  const result = await call('POST', 'state/fixtures', await file.text());
  $('state-info').textContent = `loaded ${result.loaded}`;
  $('fixtures-file').value = '';
  await refreshState();
}));

// ---------- start ----------

// The admin API says which port the app's API is on; the page keeps its own host, which the user could reach.
call('GET', 'health').then((health) => {
  if (health && health.mainPort) mainOrigin = `${location.protocol}//${location.hostname}:${health.mainPort}`;
}).catch(() => {});

connect();
loadCatalogue().then(refreshRules).catch((error) => { $('fault-error').textContent = error.message; });
refreshState();
setInterval(refreshRules, 1000);
setInterval(refreshState, 3000);
