// Every glossary term A to Z (/terms -> GET /api/v1/terms), filterable by chain layer (?layer=<id>,
// the layers from GET /api/v1/layers). Text from data goes in as text nodes only.
import { el, getJson, message, footer, termHref, layerHref } from './common.js';

const box = document.getElementById('terms-index');
const filterBox = document.getElementById('terms-filter');

/** The letter a title files under: A-Z, or # for anything else. */
export function letterOf(title) {
  const c = String(title || '').trim().charAt(0).toUpperCase();
  return c >= 'A' && c <= 'Z' ? c : '#';
}

function render(terms, layer, layerName) {
  if (!terms.length) {
    message(box, layer ? `No glossary term is tagged with ${layerName || layer}.` : 'No glossary terms are loaded yet.');
    return;
  }
  const groups = new Map();
  for (const t of terms) {
    const k = letterOf(t.title);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(t);
  }
  const letters = [...groups.keys()];
  box.replaceChildren(
    el('p', { role: 'status', id: 'terms-count' }, `${terms.length} term${terms.length === 1 ? '' : 's'}${layer ? ` tagged with ${layerName || layer}` : ''}.`),
    el('nav', { 'aria-label': 'Letters' }, el('ul', { class: 'az' }, letters.map((k) => el('li', {}, el('a', { href: `#letter-${k === '#' ? 'other' : k}` }, k))))),
    ...letters.map((k) => el('section', { 'aria-labelledby': `letter-${k === '#' ? 'other' : k}` },
      el('h2', { id: `letter-${k === '#' ? 'other' : k}` }, k),
      el('ul', { class: 'index-list' }, groups.get(k).map((t) => el('li', { 'data-term': t.slug },
        el('a', { href: termHref(t.slug) }, t.title),
        t.layers && t.layers.length ? el('span', { class: 'summary-line' }, ' — ',
          t.layers.filter((l) => l.primary).concat(t.layers.filter((l) => !l.primary)).slice(0, 3).map((l, i) => [i ? ', ' : '', l.name]).flat()) : null))))));
}

async function main() {
  const layer = new URLSearchParams(location.search).get('layer') || '';
  let layers = [];
  try { layers = (await getJson('/api/v1/layers')).layers || []; } catch (e) { /* the filter offers none */ }
  layers.sort((a, b) => a.name.localeCompare(b.name));
  const select = el('select', { id: 'layer-filter', name: 'layer' },
    el('option', { value: '' }, 'All layers'),
    layers.map((l) => el('option', { value: l.id, selected: l.id === layer }, l.name)));
  const load = async (value) => {
    const url = new URL(location.href);
    if (value) url.searchParams.set('layer', value); else url.searchParams.delete('layer');
    history.replaceState(null, '', url);
    const name = (layers.find((l) => l.id === value) || {}).name;
    try {
      const body = await getJson(`/api/v1/terms${value ? `?${new URLSearchParams({ layer: value })}` : ''}`);
      render(body.terms || [], value, name);
      footer(body.disclaimer, [{ name: 'chainfeed glossary: every term read', url: '/api/v1/terms' }]
        .concat(value ? [{ name: `Layer: ${name || value}`, url: layerHref(value) }] : []));
    } catch (e) {
      message(box, `The glossary cannot be loaded: ${e.message}`, 'error');
      footer(null, null);
    }
  };
  select.addEventListener('change', () => load(select.value));
  filterBox.replaceChildren(el('form', { class: 'index-filter', role: 'search', 'aria-label': 'Filter terms', onsubmit: (e) => e.preventDefault() },
    el('label', { for: 'layer-filter' }, 'Chain layer'), select));
  await load(layer);
}

main();
