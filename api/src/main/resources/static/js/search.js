// The search page: instant results as you type, suggestions (ARIA combobox with a listbox popup, after the
// WAI-ARIA Authoring Practices' combobox pattern), facets that filter, highlights, cursor pages.
import { el, getJson, highlight, sourceItems, tagList, layerTags, termHref, companyHref, layerHref, footer, safeHref, statusLabel } from './common.js';

const FACETS = [
  ['layer', 'Chain layer'], ['company', 'Company'], ['term', 'Related term'], ['kind', 'Kind'],
];
const input = document.getElementById('q');
const form = document.getElementById('search-form');
const results = document.getElementById('results');
const facetsBox = document.getElementById('facets');
const statusLine = document.getElementById('status');
const more = document.getElementById('more');
const answer = document.getElementById('answer');
const listbox = document.getElementById('q-suggestions');
const suggestStatus = document.getElementById('q-suggestions-status');

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
    answer.replaceChildren();
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
    answer.replaceChildren();
    results.replaceChildren();
    facetsBox.replaceChildren();
    more.hidden = true;
    statusLine.textContent = e.status === 400 ? `That search cannot run: ${e.message}` : `Search is unavailable: ${e.message}`;
    return;
  }
  if (!append) answer.replaceChildren(...topResult(body.top), ...(body.sections || []).map(section));
  const items = body.results.map(result);
  if (append) results.append(...items); else results.replaceChildren(...items);
  state.cursor = body.nextCursor;
  more.hidden = !body.nextCursor;
  const shown = results.children.length;
  statusLine.textContent = body.total === 0 ? `No reads match “${body.query}”.`
    : body.mode === 'any' ? `${body.total} read${body.total === 1 ? '' : 's'} match some of “${body.query}” (${body.notice || 'no read has all of the words'}); showing ${shown}.`
    : `${body.total} read${body.total === 1 ? '' : 's'} match “${body.query}”; showing ${shown}.`;
  if (!append) facets(body.facets || {});
  if (body.results[0]) footer(body.results[0].disclaimer, null);
}

const SECTION_KIND = { term: 'Glossary term', layer: 'Layer status', signal: 'Signal' };
const TOP_KIND = { term: 'Glossary term', layer: 'Chain layer', company: 'Company' };

// The thing the query names, first: its page.
function topResult(top) {
  if (!top || !safeHref(top.url)) return [];
  return [el('article', { class: 'top-result', 'aria-label': `Top result: ${top.name}`, 'data-kind': top.kind },
    el('span', { class: 'kind' }, TOP_KIND[top.kind] || top.kind),
    el('h3', {}, el('a', { href: top.url }, top.name)))];
}

// One section of the answer (what it is, the layer's status now, the newest signals), each marked by kind.
function section(s) {
  const items = s.items.map((i) => {
    if (s.kind === 'layer') {
      return el('li', {}, el('a', { href: layerHref(i.id) }, i.name), ` — ${statusLabel(i.status)}, ${i.trend}, pressure ${Number(i.pressure).toFixed(2)}`);
    }
    if (s.kind === 'signal') {
      const src = i.source ? [' — ', safeHref(i.source.url)
        ? el('a', { href: i.source.url, rel: 'nofollow noopener' }, i.source.name || i.source.url) : (i.source.name || '')] : '';
      return el('li', {}, typeof i.observedAt === 'string' ? `${i.observedAt.slice(0, 10)}: ` : '', i.title, src,
        i.direction ? ` (${i.direction}, magnitude ${i.magnitude})` : '');
    }
    return el('li', {}, el('a', { href: termHref(i.id.replace(/^term:/, '')) }, i.title), i.summary ? ` — ${i.summary}` : '');
  });
  return el('section', { class: 'answer-section', 'data-kind': s.kind, 'aria-label': s.title },
    el('h3', {}, el('span', { class: 'kind' }, SECTION_KIND[s.kind] || s.kind), ' ', s.title),
    el('ul', {}, items));
}

// Reposts of the same story: the other sources, linked.
function alsoFrom(r) {
  if (!r.alsoFrom || !r.alsoFrom.length) return null;
  const rest = (r.repostCount || 0) - r.alsoFrom.length;
  return el('p', { class: 'also-from' }, `Also from (${r.repostCount}): `,
    r.alsoFrom.map((a, k) => [k ? ', ' : '', safeHref(a.url)
      ? el('a', { href: a.url, rel: 'nofollow noopener' }, a.name || a.url) : (a.name || a.id)]),
    rest > 0 ? ` and ${rest} more` : '');
}

function result(r) {
  const href = r.kind === 'term' && r.slug ? termHref(r.slug) : r.kind === 'state' && r.slug ? layerHref(r.slug) : null;
  const title = href ? el('a', { href }, r.title || r.id) : (r.title || r.id);
  const snippets = (r.snippets || []).slice(0, 2).map((s) => el('p', { class: 'snippet' }, highlight(s)));
  return el('li', { class: 'result' },
    el('article', { 'aria-label': r.title || r.id },
      el('span', { class: 'kind' }, { signal: 'Signal', state: 'State change', term: 'Glossary term' }[r.kind] || r.kind),
      el('h3', {}, title),
      snippets.length ? snippets : (r.summary ? el('p', { class: 'snippet' }, r.summary) : null),
      alsoFrom(r),
      ...layerTags(r.layers),
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

// ---- suggestions: the combobox ----------------------------------------------------------------
const suggest = { items: [], active: -1, controller: null, timer: null };
const KIND_LABEL = { company: 'Company', term: 'Term', layer: 'Layer' };

function openList(open) {
  listbox.hidden = !open;
  input.setAttribute('aria-expanded', open ? 'true' : 'false');
  if (!open) setActive(-1);
}

function setActive(i) {
  suggest.active = i;
  [...listbox.children].forEach((li, k) => li.setAttribute('aria-selected', k === i ? 'true' : 'false'));
  if (i >= 0 && listbox.children[i]) {
    input.setAttribute('aria-activedescendant', listbox.children[i].id);
    listbox.children[i].scrollIntoView({ block: 'nearest' });
  } else {
    input.removeAttribute('aria-activedescendant');
  }
}

function choose(i) {
  const s = suggest.items[i];
  if (s && s.page) location.assign(s.page);
}

function optionLabel(s) {
  if (s.kind === 'company') return `${s.label} (${s.symbol})`;
  return s.label;
}

async function loadSuggestions(text) {
  if (suggest.controller) suggest.controller.abort();
  if (!text.trim()) { suggest.items = []; listbox.replaceChildren(); openList(false); suggestStatus.textContent = ''; return; }
  suggest.controller = new AbortController();
  let body;
  try {
    body = await getJson(`/api/v1/suggest?${new URLSearchParams({ q: text, size: '8' })}`, suggest.controller.signal);
  } catch (e) {
    if (e.name !== 'AbortError') { suggest.items = []; listbox.replaceChildren(); openList(false); }
    return;
  }
  if (input.value !== text) return;
  suggest.items = body.suggestions || [];
  listbox.replaceChildren(...suggest.items.map((s, i) => el('li', {
    id: `q-opt-${i}`, role: 'option', 'aria-selected': 'false', class: 'option', 'data-kind': s.kind,
    onmousedown: (ev) => ev.preventDefault(), onclick: () => choose(i),
  }, el('span', { class: 'option-label' }, optionLabel(s)), ' ', el('span', { class: 'option-kind' }, KIND_LABEL[s.kind] || s.kind))));
  openList(suggest.items.length > 0);
  suggestStatus.textContent = suggest.items.length === 0 ? ''
    : `${suggest.items.length} suggestion${suggest.items.length === 1 ? '' : 's'}; use the up and down arrow keys to choose.`;
}

input.addEventListener('keydown', (ev) => {
  const n = suggest.items.length;
  if (ev.key === 'ArrowDown' && n) {
    ev.preventDefault();
    if (listbox.hidden) openList(true);
    setActive(suggest.active < n - 1 ? suggest.active + 1 : 0);
  } else if (ev.key === 'ArrowUp' && n) {
    ev.preventDefault();
    if (listbox.hidden) openList(true);
    setActive(suggest.active > 0 ? suggest.active - 1 : n - 1);
  } else if (ev.key === 'Enter' && !listbox.hidden && suggest.active >= 0) {
    ev.preventDefault();
    choose(suggest.active);
  } else if (ev.key === 'Escape') {
    if (!listbox.hidden) { ev.preventDefault(); openList(false); }
  } else if (ev.key === 'Tab') {
    openList(false);
  }
});
input.addEventListener('blur', () => openList(false));

input.addEventListener('input', () => {
  state.q = input.value;
  state.cursor = null;
  clearTimeout(timer);
  timer = setTimeout(() => run(), 180);
  clearTimeout(suggest.timer);
  const text = input.value;
  suggest.timer = setTimeout(() => loadSuggestions(text), 80);
});
form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  clearTimeout(timer);
  openList(false);
  state.q = input.value;
  state.cursor = null;
  run();
});
more.addEventListener('click', () => run(true));

readUrl();
if (state.q) run(); else input.focus();
