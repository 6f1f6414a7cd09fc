// The search page: instant results as you type, facets that filter, highlights, cursor pages.
import { el, getJson, highlight, message, sourceItems, tagList, termHref, companyHref, layerHref, footer } from './common.js';

const FACETS = [
  ['layer', 'Chain layer'], ['company', 'Company'], ['term', 'Related term'], ['kind', 'Kind'],
];
const input = document.getElementById('q');
const form = document.getElementById('search-form');
const results = document.getElementById('results');
const facetsBox = document.getElementById('facets');
const statusLine = document.getElementById('status');
const more = document.getElementById('more');

const state = { q: '', filters: new Map(FACETS.map(([k]) => [k, new Set()])), cursor: null };
let controller = null;
let timer = null;

function readUrl() {
  const p = new URLSearchParams(location.search);
  state.q = p.get('q') || '';
  for (const [k] of FACETS) state.filters.set(k, new Set(p.getAll(k)));
  input.value = state.q;
}

function params() {
  const p = new URLSearchParams();
  p.set('q', state.q);
  for (const [k, values] of state.filters) for (const v of values) p.append(k, v);
  return p;
}

function writeUrl() {
  const url = state.q.trim() ? `/?${params()}` : '/';
  history.replaceState(null, '', url);
}

async function run(append = false) {
  writeUrl();
  if (controller) controller.abort();
  if (!state.q.trim()) {
    results.replaceChildren();
    facetsBox.replaceChildren();
    more.hidden = true;
    statusLine.textContent = 'Type to search the glossary and research reads.';
    return;
  }
  controller = new AbortController();
  const p = params();
  p.set('size', '10');
  if (append && state.cursor) p.set('cursor', state.cursor);
  statusLine.textContent = 'Searching…';
  let body;
  try {
    body = await getJson(`/api/v1/search?${p}`, controller.signal);
  } catch (e) {
    if (e.name === 'AbortError') return;
    results.replaceChildren();
    facetsBox.replaceChildren();
    more.hidden = true;
    statusLine.textContent = e.status === 400 ? `That search cannot run: ${e.message}` : `Search is unavailable: ${e.message}`;
    return;
  }
  const items = body.results.map(result);
  if (append) results.append(...items); else results.replaceChildren(...items);
  state.cursor = body.nextCursor;
  more.hidden = !body.nextCursor;
  const shown = results.children.length;
  statusLine.textContent = body.total === 0 ? `No reads match “${body.query}”.`
    : `${body.total} read${body.total === 1 ? '' : 's'} match “${body.query}”${body.mode === 'any' ? ' (any of the words)' : ''}; showing ${shown}.`;
  if (!append) facets(body.facets || {});
  if (body.results[0]) footer(body.results[0].disclaimer, null);
}

function result(r) {
  const href = r.kind === 'term' && r.slug ? termHref(r.slug) : null;
  const title = href ? el('a', { href }, r.title || r.id) : (r.title || r.id);
  const snippets = (r.snippets || []).slice(0, 2).map((s) => el('p', { class: 'snippet' }, highlight(s)));
  return el('li', { class: 'result' },
    el('article', { 'aria-label': r.title || r.id },
      el('span', { class: 'kind' }, r.kind === 'signal' ? 'Signal' : 'Glossary term'),
      el('h3', {}, title),
      snippets.length ? snippets : (r.summary ? el('p', { class: 'snippet' }, r.summary) : null),
      tagList('Layers', r.layers, (t) => layerHref(t.id), (t) => t.name || t.id),
      tagList('Companies', (r.companies || []).slice(0, 8), (t) => companyHref(t.symbol), (t) => `${t.name || t.symbol} (${t.symbol})`),
      tagList('Related', (r.related || []).filter((t) => t.slug), (t) => termHref(t.slug), (t) => t.title || t.slug),
      el('details', { class: 'sources' }, el('summary', {}, `Sources (${(r.sources || []).length})`),
        el('ul', {}, sourceItems(r.sources))),
      el('p', { class: 'tags' }, r.disclaimer || '')));
}

function facets(all) {
  const boxes = [];
  for (const [key, label] of FACETS) {
    const buckets = all[key] || [];
    const chosen = state.filters.get(key);
    // keep chosen values visible even when the filtered answer has no bucket for them
    for (const v of chosen) if (!buckets.some((b) => b.value === v)) buckets.push({ value: v, count: 0 });
    if (buckets.length === 0) continue;
    const list = el('ul', {}, buckets.slice(0, 12).map((b, i) => {
      const id = `f-${key}-${i}`;
      return el('li', {},
        el('input', { type: 'checkbox', id, 'data-facet': key, value: b.value, checked: chosen.has(b.value),
          onchange: (ev) => toggle(key, b.value, ev.target.checked) }),
        el('label', { for: id }, b.label || b.name || b.value),
        el('span', { class: 'count', 'aria-label': `${b.count} reads` }, String(b.count)));
    }));
    boxes.push(el('fieldset', { 'data-facet': key }, el('legend', {}, label), list));
  }
  facetsBox.replaceChildren(...boxes);
}

function toggle(key, value, on) {
  const set = state.filters.get(key);
  if (on) set.add(value); else set.delete(value);
  state.cursor = null;
  run();
}

input.addEventListener('input', () => {
  state.q = input.value;
  state.cursor = null;
  clearTimeout(timer);
  timer = setTimeout(() => run(), 180);
});
form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  clearTimeout(timer);
  state.q = input.value;
  state.cursor = null;
  run();
});
more.addEventListener('click', () => run(true));

readUrl();
if (state.q) run(); else input.focus();
