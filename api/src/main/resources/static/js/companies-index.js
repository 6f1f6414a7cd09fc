// Every company of the reference data by chain layer (/companies -> GET /api/v1/companies), with each
// layer's status now (GET /api/v1/chain, when the chain model answers); ?layer=<id> shows one layer.
// Text from data goes in as text nodes only.
import { el, getJson, message, footer, companyHref, layerHref, statusLabel } from './common.js';

const box = document.getElementById('companies-index');
const filterBox = document.getElementById('companies-filter');

function render(index, states) {
  const layers = index.layers || [];
  if (!layers.length) {
    message(box, 'No companies are loaded yet.');
    return;
  }
  box.replaceChildren(
    el('p', { role: 'status', id: 'companies-count' }, `${index.companies} compan${index.companies === 1 ? 'y' : 'ies'} in ${layers.length} layer${layers.length === 1 ? '' : 's'}.`),
    el('nav', { 'aria-label': 'Layers' }, el('ul', { class: 'az' }, layers.map((l) => el('li', {}, el('a', { href: `#layer-${l.id}` }, l.name))))),
    ...layers.map((l) => {
      const s = states.get(l.id);
      const primary = l.companies.filter((c) => c.primary);
      const other = l.companies.filter((c) => !c.primary);
      const item = (c) => el('li', { 'data-company': c.id }, el('a', { href: companyHref(c.symbol || c.id) }, c.symbol ? `${c.name} (${c.symbol})` : c.name));
      return el('section', { 'aria-labelledby': `layer-${l.id}`, 'data-layer': l.id },
        el('h2', { id: `layer-${l.id}` }, el('a', { href: layerHref(l.id) }, l.name), ' ',
          s ? el('span', { class: `status-badge status-${s.status}` }, statusLabel(s.status)) : null),
        primary.length ? el('ul', { class: 'index-list' }, primary.map(item)) : el('p', {}, 'No company has this as its main layer.'),
        other.length ? [el('h3', {}, 'Also in this layer'), el('ul', { class: 'index-list' }, other.map(item))] : null);
    }));
}

async function main() {
  const layer = new URLSearchParams(location.search).get('layer') || '';
  const states = new Map();
  try {
    for (const s of (await getJson('/api/v1/chain')).layers || []) states.set(s.id, s);
  } catch (e) { /* the index stands without the live state */ }
  let all;
  try {
    all = await getJson('/api/v1/companies');
  } catch (e) {
    message(box, `The companies cannot be loaded: ${e.message}`, 'error');
    footer(null, null);
    return;
  }
  const select = el('select', { id: 'layer-filter', name: 'layer' }, el('option', { value: '' }, 'All layers'),
    (all.layers || []).map((l) => el('option', { value: l.id, selected: l.id === layer }, l.name)));
  const show = (value) => {
    const url = new URL(location.href);
    if (value) url.searchParams.set('layer', value); else url.searchParams.delete('layer');
    history.replaceState(null, '', url);
    const layers = (all.layers || []).filter((l) => !value || l.id === value);
    const ids = new Set(layers.flatMap((l) => l.companies.map((c) => c.id)));
    render({ layers, companies: ids.size }, states);
  };
  select.addEventListener('change', () => show(select.value));
  filterBox.replaceChildren(el('form', { class: 'index-filter', role: 'search', 'aria-label': 'Filter companies', onsubmit: (e) => e.preventDefault() },
    el('label', { for: 'layer-filter' }, 'Chain layer'), select));
  show(layer);
  footer(all.disclaimer, [{ name: 'chainfeed reference data: companies by chain layer', url: '/api/v1/companies' },
    { name: 'chainfeed reference data: chain layers', url: '/api/v1/layers' }]);
}

main();
