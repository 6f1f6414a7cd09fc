// A company's page: /companies/{any ticker, id or name} -> GET /api/v1/companies/{...} (reference data and
// the chain model); for an unknown company (404) the page says so with the API's close matches; while the
// api is not there (503) it lists the company's reads from search.
import { el, getJson, footer, pageItem, layerTags, termHref, layerHref, statusLabel, causeItem } from './common.js';

const content = document.getElementById('content');

function readItem(r) {
  const title = r.kind === 'term' && r.slug ? el('a', { href: termHref(r.slug) }, r.title) : r.title;
  return el('li', { class: 'result' }, el('h3', {}, title), r.summary ? el('p', {}, r.summary) : null,
    ...layerTags(r.layers));
}

// The signals behind a state, largest first.
function causeList(causes) {
  return causes && causes.length ? el('ul', { class: 'causes' }, causes.map(causeItem)) : null;
}

function sourcesOf(reads) {
  const seen = new Map();
  for (const r of reads) for (const s of r.sources || []) seen.set(s.url || s.name, s);
  return [...seen.values()];
}

async function fallback(symbol, why) {
  const notice = el('p', { class: 'notice', role: 'status' }, why);
  let reads = [];
  try {
    const p = new URLSearchParams({ q: symbol, company: symbol, size: '10' });
    reads = (await getJson(`/api/v1/search?${p}`)).results;
  } catch (e) { /* search down too: the notice says enough */ }
  const name = reads.length ? ((reads[0].companies || []).find((c) => c.symbol === symbol) || {}).name : null;
  document.title = `${name || symbol} · chainfeed`;
  content.replaceChildren(el('h1', {}, name ? `${name} (${symbol})` : symbol), notice,
    el('h2', {}, 'Reads that tag this company'),
    reads.length ? el('ol', { class: 'results' }, reads.map(readItem)) : el('p', {}, 'No reads tag this company.'));
  footer(reads[0] && reads[0].disclaimer, sourcesOf(reads));
}

async function main() {
  const { id: symbol, item: c, error: e } = await pageItem('companies');
  if (e) {
    const why = e.status === 404
      ? `chainfeed knows no company “${symbol}”: ${e.message}`
      : `The live chain model is not available right now (${e.message}).`;
    await fallback(symbol, why);
    return;
  }
  document.title = `${c.name} (${c.symbol}) · chainfeed`;
  const layers = (c.layers || []).map((l) => el('li', {}, el('a', { href: layerHref(l.id) }, l.name || l.id), ' ',
    el('span', { class: `status-badge status-${l.status}` }, statusLabel(l.status)), causeList(l.causes)));
  const exposure = (c.exposure || []).map((x) => el('li', {},
    el('a', { href: layerHref(x.tightLayer) }, x.tightLayerName || x.tightLayer), ` is ${x.status}, ${x.hops} hop${x.hops === 1 ? '' : 's'} upstream (via ${x.viaLayer})`,
    causeList(x.signals)));
  const reads = c.latestReads || [];
  content.replaceChildren(
    el('h1', {}, `${c.name} (${c.symbol})`),
    (c.listings || []).length > 1 ? el('p', { class: 'listings' }, 'Listed as ',
      c.listings.map((l) => `${l.symbol} (${l.mic})`).join(', '), '.') : null,
    el('h2', {}, 'Layers it owns'), layers.length ? el('ul', {}, layers) : el('p', {}, 'None.'),
    el('h2', {}, 'Exposure to tight layers upstream'), exposure.length ? el('ul', {}, exposure) : el('p', {}, 'No tight layer upstream.'),
    el('h2', {}, 'Latest reads'), reads.length ? el('ol', { class: 'results' }, reads.map(readItem)) : el('p', {}, 'No reads yet.'));
  footer(c.disclaimer, sourcesOf(reads));
}

main();
