// The chain map: an SVG of the layer graph (GET /api/v1/layers: ids, names, upstream edges), laid out
// upstream -> downstream in columns by graph depth, coloured by status from GET /api/v1/chain when the
// chain model is available. A table repeats the map as text.
import { el, getJson, message, footer, layerHref, statusLabel, svg, safeHref } from './common.js';

const COLOURS = { loose: '#1f6fb2', balanced: '#2e7d32', tight: '#b35900', critical: '#b3261e', unknown: '#5f6b7a' };
const NODE_W = 150; const NODE_H = 62; const GAP_X = 36; const GAP_Y = 22; const PAD = 16; const TOP = 30;

/** Depth of each layer: 0 without known upstream, else one more than its deepest upstream layer. */
export function depths(layers) {
  const byId = new Map(layers.map((l) => [l.id, l]));
  const depth = new Map();
  const visiting = new Set();
  const visit = (id) => {
    if (depth.has(id)) return depth.get(id);
    if (visiting.has(id)) return 0; // a cycle: the reference data forbids it, but never loop
    visiting.add(id);
    const ups = (byId.get(id).upstream || []).filter((u) => byId.has(u));
    const d = ups.length ? 1 + Math.max(...ups.map(visit)) : 0;
    visiting.delete(id);
    depth.set(id, d);
    return d;
  };
  layers.forEach((l) => visit(l.id));
  return depth;
}

/** Wraps a name into at most two lines of about `max` characters. */
function lines(name, max = 16) {
  const words = name.split(/\s+/);
  const out = [''];
  for (const w of words) {
    const cur = out[out.length - 1];
    if (!cur || (cur + ' ' + w).length <= max || out.length === 2) out[out.length - 1] = cur ? `${cur} ${w}` : w;
    else out.push(w);
  }
  return out.map((l) => (l.length > max + 3 ? l.slice(0, max + 2) + '…' : l));
}

function draw(layers, status, squeezed) {
  const depth = depths(layers);
  const columns = [];
  for (const l of layers) (columns[depth.get(l.id)] ||= []).push(l);
  // order each column by the mean row of its upstream layers (fewer crossings), names breaking ties
  const row = new Map();
  columns.forEach((col, c) => {
    const key = (l) => {
      const ups = (l.upstream || []).filter((u) => row.has(u)).map((u) => row.get(u));
      return ups.length ? ups.reduce((a, b) => a + b, 0) / ups.length : 0;
    };
    col.sort((a, b) => (c === 0 ? 0 : key(a) - key(b)) || a.name.localeCompare(b.name));
    col.forEach((l, i) => row.set(l.id, i));
  });
  const rows = Math.max(...columns.map((c) => c.length));
  const width = PAD * 2 + columns.length * NODE_W + (columns.length - 1) * GAP_X;
  const height = TOP + PAD * 2 + rows * NODE_H + (rows - 1) * GAP_Y;
  const pos = new Map();
  columns.forEach((col, c) => col.forEach((l, i) => {
    const offset = ((rows - col.length) * (NODE_H + GAP_Y)) / 2;
    pos.set(l.id, { x: PAD + c * (NODE_W + GAP_X), y: TOP + PAD + offset + i * (NODE_H + GAP_Y) });
  }));
  const counts = {};
  for (const l of layers) { const s = status.get(l.id) || 'unknown'; counts[s] = (counts[s] || 0) + 1; }
  const summary = Object.entries(counts).map(([s, n]) => `${n} ${s === 'unknown' ? 'without live state' : s}`).join(', ');
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-labelledby': 'map-title map-desc',
    id: 'chain-map', preserveAspectRatio: 'xMinYMin meet' },
  svg('title', { id: 'map-title' }, 'Chain map of the AI supply chain'),
  svg('desc', { id: 'map-desc' }, `${layers.length} layers in ${columns.length} columns, suppliers on the left and customers on the right; ${summary}. The table below lists the same layers.`),
  svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
    svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#5f6b7a' }))));
  columns.forEach((col, c) => root.append(svg('text', { class: 'col-label', x: PAD + c * (NODE_W + GAP_X), y: PAD + 8, 'aria-hidden': 'true' },
    c === 0 ? 'Raw inputs' : `Step ${c + 1}`)));
  const edges = svg('g', { 'aria-hidden': 'true' });
  for (const l of layers) {
    for (const u of l.upstream || []) {
      if (!pos.has(u)) continue;
      const a = pos.get(u); const b = pos.get(l.id);
      const x1 = a.x + NODE_W; const y1 = a.y + NODE_H / 2; const x2 = b.x; const y2 = b.y + NODE_H / 2;
      const mx = (x1 + x2) / 2;
      edges.append(svg('path', { class: 'edge', d: `M ${x1} ${y1} C ${mx} ${y1}, ${mx} ${y2}, ${x2 - 2} ${y2}`,
        'marker-end': 'url(#arrow)', 'data-from': u, 'data-to': l.id }));
    }
  }
  root.append(edges);
  for (const l of layers) {
    const p = pos.get(l.id);
    const s = status.get(l.id) || 'unknown';
    const label = lines(l.name);
    const text = svg('text', { x: p.x + 9, y: p.y + (label.length === 1 ? 24 : 19) });
    label.forEach((t, i) => text.append(svg('tspan', { x: p.x + 9, dy: i === 0 ? 0 : 16 }, t)));
    const stateText = s === 'unknown' ? '' : statusLabel(s) + (squeezed.has(l.id) ? ' · squeezed' : '');
    const state = svg('text', { x: p.x + 9, y: p.y + NODE_H - 8, class: 'node-state' }, stateText);
    root.append(svg('a', { href: layerHref(l.id), class: 'node', 'data-layer': l.id, 'data-status': s,
      'aria-label': `${l.name}: ${s === 'unknown' ? 'no live state' : stateText}` },
    svg('rect', { x: p.x, y: p.y, width: NODE_W, height: NODE_H, rx: 8, fill: COLOURS[s] || COLOURS.unknown }),
    text, state));
  }
  return root;
}

function legend(hasState) {
  const keys = hasState ? ['loose', 'balanced', 'tight', 'critical', 'unknown'] : ['unknown'];
  document.getElementById('legend').replaceChildren(...keys.map((k) => el('li', {},
    el('span', { class: `swatch status-${k}`, 'aria-hidden': 'true' }), k === 'unknown' ? 'No live state' : statusLabel(k))));
}

/** A layer's largest cause as text and a link to its source. */
function leadingCause(state) {
  const c = state && (state.causes || [])[0];
  if (!c) return '—';
  const n = Number(c.contribution);
  return [c.headline, ' (', `${n >= 0 ? '+' : ''}${n.toFixed(2)}`, c.hops ? `, from ${c.originLayer}` : '',
    typeof c.until === 'string' ? `, holds until ${c.until.slice(0, 10)}` : '', ')',
    c.source && safeHref(c.source.url) ? [' — ', el('a', { href: c.source.url, rel: 'nofollow noopener' }, c.source.name || c.source.url)] : ''];
}

function table(layers, status, squeezed, states = new Map()) {
  const byId = new Map(layers.map((l) => [l.id, l]));
  const depth = depths(layers);
  const sorted = [...layers].sort((a, b) => depth.get(a.id) - depth.get(b.id) || a.name.localeCompare(b.name));
  return el('table', {},
    el('caption', { class: 'visually-hidden' }, 'Chain layers, upstream first'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Layer'), el('th', { scope: 'col' }, 'State'),
      el('th', { scope: 'col' }, 'Pressure'), el('th', { scope: 'col' }, 'Own'),
      el('th', { scope: 'col' }, 'From upstream'), el('th', { scope: 'col' }, 'Largest cause'),
      el('th', { scope: 'col' }, 'Supplied by'), el('th', { scope: 'col' }, 'Reads'))),
    el('tbody', {}, sorted.map((l) => el('tr', {},
      el('th', { scope: 'row' }, el('a', { href: layerHref(l.id) }, l.name)),
      el('td', {}, statusLabel(status.get(l.id)) + (squeezed.has(l.id) ? ', squeezed from upstream' : '')
        + (states.get(l.id) && states.get(l.id).trend ? `, ${states.get(l.id).trend}` : '')),
      el('td', {}, states.has(l.id) ? Number(states.get(l.id).pressure).toFixed(2) : '—'),
      el('td', { class: 'own' }, states.has(l.id) ? Number(states.get(l.id).directPressure).toFixed(2) : '—'),
      el('td', { class: 'inherited' }, states.has(l.id) ? Number(states.get(l.id).squeezeReceived || 0).toFixed(2) : '—'),
      el('td', { class: 'cause' }, leadingCause(states.get(l.id))),
      el('td', {}, (l.upstream || []).map((u) => (byId.get(u) || {}).name || u).join(', ') || '—'),
      el('td', {}, String(l.reads ?? 0))))));
}

/**
 * How many layers are in each state, tightest first, e.g. "2 of 14 layers critical, 3 tight, 9 balanced."
 * @param {Map<string, string>} status layer id to status
 */
export function statusCounts(status) {
  const order = ['critical', 'tight', 'balanced', 'loose'];
  const n = new Map(order.map((s) => [s, 0]));
  for (const s of status.values()) if (n.has(s)) n.set(s, n.get(s) + 1);
  const parts = order.filter((s) => n.get(s) > 0 || s === 'critical').map((s) => `${n.get(s)} ${s}`);
  parts[0] = `${n.get('critical')} of ${status.size} layers critical`;
  return `${parts.join(', ')}.`;
}

/** The first day of the timeline: the start of the bundled history. */
export const TIMELINE_START = '2023-01-01';
const DAY_MS = 86400000;

/** The day (YYYY-MM-DD) n days after the timeline's start. */
export function dayAt(n) { return new Date(Date.parse(`${TIMELINE_START}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10); }
/** How many days a day (YYYY-MM-DD) lies after the timeline's start. */
export function dayIndex(day) { return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${TIMELINE_START}T00:00:00Z`)) / DAY_MS); }

/** The quarter ends from the timeline's start up to a day: [{ day, label }]. */
export function quarterEnds(today) {
  const out = [];
  for (let y = Number(TIMELINE_START.slice(0, 4)); ; y++) {
    for (const [q, md] of [[1, '03-31'], [2, '06-30'], [3, '09-30'], [4, '12-31']]) {
      const day = `${y}-${md}`;
      if (day > today) return out;
      out.push({ day, label: `${y} Q${q}` });
    }
  }
}

/**
 * The replay controls, all showing the same choice: a timeline (a slider over every day since the
 * start of the bundled history, and a strip of quarter ends), a date field, the day before or after,
 * and live. onChange gets the chosen day (YYYY-MM-DD, its end in UTC) or null for live; the caller
 * keeps the choice in the URL (?asOf=).
 */
function replayControl(asOf, onChange) {
  const today = new Date().toISOString().slice(0, 10);
  const last = dayIndex(today);
  const input = el('input', { type: 'date', id: 'as-of', min: TIMELINE_START, max: today, value: asOf ? asOf.slice(0, 10) : '' });
  const slider = el('input', { type: 'range', id: 'timeline', min: 0, max: last, step: 1, 'aria-describedby': 'timeline-day' });
  const shown = el('output', { id: 'timeline-day', for: 'timeline' });
  const quarters = quarterEnds(today);
  const quarterButtons = quarters.map((q) => el('button', { type: 'button', 'data-day': q.day, 'aria-pressed': 'false',
    title: `The chain at the end of ${q.day}`, onclick: () => choose(q.day) }, q.label));
  const sync = (day) => {
    input.value = day || '';
    slider.value = String(day ? Math.max(0, Math.min(last, dayIndex(day))) : last);
    const text = day ? `${day} (end of day, UTC)` : 'Live: the newest signal';
    shown.textContent = text;
    slider.setAttribute('aria-valuetext', text);
    quarterButtons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.day === day)));
  };
  const choose = (day) => { const d = day && day >= today ? null : day; sync(d); onChange(d); };
  const shift = (days) => {
    const d = new Date(`${input.value || today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + days);
    const v = d.toISOString().slice(0, 10);
    if (v <= today) choose(v);
  };
  input.addEventListener('change', () => choose(input.value || null));
  // while dragging only the label follows; the chain is fetched when the slider is let go (or a key moves it)
  slider.addEventListener('input', () => { const d = dayAt(Number(slider.value)); shown.textContent = `${d} (end of day, UTC)`; });
  slider.addEventListener('change', () => { const n = Number(slider.value); choose(n >= last ? null : dayAt(n)); });
  sync(asOf ? asOf.slice(0, 10) : null);
  return el('div', { class: 'timeline' },
    el('form', { class: 'timeline-form', 'aria-label': 'Timeline since 2023', onsubmit: (e) => e.preventDefault() },
      el('label', { for: 'timeline' }, `Timeline: the chain on any day since ${TIMELINE_START.slice(0, 4)}`), slider, ' ', shown,
      el('ul', { class: 'quarters', 'aria-label': 'Quarter ends' }, quarterButtons.map((b) => el('li', {}, b)))),
    el('form', { class: 'replay', role: 'search', 'aria-label': 'Replay the chain', onsubmit: (e) => e.preventDefault() },
      el('label', { for: 'as-of' }, 'Show the chain as of (end of day, UTC) '), input,
      el('button', { type: 'button', onclick: () => shift(-1) }, '◀ Day before'),
      el('button', { type: 'button', onclick: () => shift(1) }, 'Day after ▶'),
      el('button', { type: 'button', id: 'live', onclick: () => choose(null) }, 'Live')));
}

/** The instant of a chosen day: its end (23:59:59 UTC), or now for today. */
function instantOf(day) {
  const end = `${day}T23:59:59Z`;
  return Date.parse(end) > Date.now() ? new Date().toISOString() : end;
}

async function main() {
  const map = document.getElementById('map');
  const note = document.getElementById('chain-status');
  const initial = new URLSearchParams(location.search).get('asOf');
  let generation = 0;
  document.getElementById('replay').replaceChildren(replayControl(initial, (day) => {
    const url = new URL(location.href);
    if (day) url.searchParams.set('asOf', instantOf(day)); else url.searchParams.delete('asOf');
    history.replaceState(null, '', url);
    const mine = ++generation;
    render(map, note, day ? instantOf(day) : null, () => mine === generation);
  }));
  await render(map, note, initial, () => generation === 0);
}

async function render(map, note, asOf, current = () => true) {
  let layers;
  try {
    layers = (await getJson('/api/v1/layers')).layers;
  } catch (e) {
    message(map, `The chain layers cannot be loaded: ${e.message}`, 'error');
    footer(null, null);
    return;
  }
  if (!layers.length) {
    message(map, 'No chain layers are known yet.');
    return;
  }
  const status = new Map();
  const squeezed = new Set();
  const states = new Map();
  let chain = null;
  try {
    chain = await getJson(asOf ? `/api/v1/chain?${new URLSearchParams({ asOf })}` : '/api/v1/chain');
    if (!current()) return; // a later choice is on its way
    for (const l of chain.layers || []) { status.set(l.id, l.status); states.set(l.id, l); if (l.squeezed) squeezed.add(l.id); }
    const counts = statusCounts(status);
    if (status.size === 0) message(note, 'The live chain model has no layer state yet: the map shows the layers without their state.');
    else if (asOf) note.replaceChildren(el('p', { class: 'summary-line' }, `Replay: the chain as of ${chain.asOf}, from the signals observed by then. ${counts}`));
    else if (chain.asOf) note.replaceChildren(el('p', { class: 'summary-line' }, `Live state as of ${chain.asOf}. ${counts}`));
    else note.replaceChildren(el('p', { class: 'summary-line' }, 'No signals yet: every layer is balanced.'));
  } catch (e) {
    if (!current()) return;
    message(note, asOf ? `The chain as of ${asOf} cannot be shown (${e.message}).` : e.status === 404 || e.status === 503
      ? 'The live chain model is not available on this server yet: the map shows the layers without their state.'
      : `The live chain model cannot be loaded (${e.message}): the map shows the layers without their state.`);
  }
  map.replaceChildren(draw(layers, status, squeezed));
  legend(status.size > 0);
  document.getElementById('layer-table').replaceChildren(table(layers, status, squeezed, states));
  const sources = [{ name: 'chainfeed reference data: chain layers and their upstream edges', url: '/api/v1/layers' }];
  if (chain) sources.push({ name: 'chainfeed chain model from public constraint signals', url: asOf ? `/api/v1/chain?${new URLSearchParams({ asOf })}` : '/api/v1/chain' });
  const seen = new Set();
  for (const l of (chain && chain.layers) || []) {
    for (const c of l.causes || []) {
      if (c.source && c.source.url && !seen.has(c.source.url)) { seen.add(c.source.url); sources.push({ name: `${c.source.name}: ${c.headline}`, url: c.source.url }); }
    }
  }
  footer(chain && chain.disclaimer, sources);
}

main();
