// A chain layer's page: /layers/{id} -> the reference graph (GET /api/v1/layers), the live state
// (GET /api/v1/layers/{id}) and the layer's reads, primary ones apart from passing ones
// (GET /api/v1/layers/{id}/reads); without the chain model (404/503) it shows the reference data and says so.
import { el, getJson, message, footer, pageItem, companyHref, layerHref, termHref, statusLabel, causeItem, safeHref } from './common.js';
import { historyChart, markId } from './history-chart.js';

/** Where the layer's chart starts: the first month of the bundled history. */
const HISTORY_FROM = '2023-01-01T00:00:00Z';

/** The signals marked on the chart, newest first: date, headline, direction, horizon, source and read. */
function signalList(h) {
  const marks = h.signals || [];
  if (!marks.length) return [el('p', {}, 'No signal named this layer in this period.')];
  const items = marks.map((m, i) => ({ m, i })).reverse().map(({ m, i }) => el('li', { id: markId(i), tabindex: '-1' },
    el('time', { datetime: m.observedAt }, m.observedAt.slice(0, 10)), ' ',
    el('span', { class: `direction direction-${m.direction === 'tightening' ? 'tightening' : 'easing'}` },
      m.direction === 'tightening' ? '▲ tightening' : '▼ easing'), ` ${m.magnitude} — `, m.headline,
    m.until ? ` (holds until ${m.until.slice(0, 10)})` : '', ' — ',
    m.source && safeHref(m.source.url) ? el('a', { href: m.source.url, rel: 'nofollow noopener' }, m.source.name || m.source.url) : 'no source',
    ' · ', el('a', { href: `/api/v1/reads/${encodeURIComponent(m.readId)}` }, 'read')));
  return [el('h3', { id: 'signals-heading' }, `Signals on this layer since ${HISTORY_FROM.slice(0, 4)} (${marks.length}${h.otherSignals ? ` of ${marks.length + h.otherSignals}: the largest` : ''})`),
    el('ol', { class: 'marked-signals', 'aria-labelledby': 'signals-heading', reversed: true }, items)];
}

const content = document.getElementById('content');

async function main() {
  const stateRequest = pageItem('layers');
  let all = [];
  try {
    all = (await getJson('/api/v1/layers')).layers;
  } catch (e) { /* shown below if the state is missing too */ }
  const { id, item: state = null, error: stateError = null } = await stateRequest;
  const ref = all.find((l) => l.id === id);
  if (!ref && !state) {
    document.title = 'Layer not found · chainfeed';
    message(content, stateError && stateError.status !== 404 ? `The layer cannot be loaded: ${stateError.message}`
      : `There is no chain layer “${id}”.`, 'info');
    footer(null, [{ name: 'chainfeed reference data: chain layers', url: '/api/v1/layers' }]);
    return;
  }
  const name = (ref && ref.name) || state.name;
  document.title = `${name} · chainfeed`;
  const byId = new Map(all.map((l) => [l.id, l]));
  const link = (lid) => el('li', {}, el('a', { href: layerHref(lid) }, (byId.get(lid) || {}).name || lid));
  const upstream = ref ? ref.upstream : [];
  const downstream = all.filter((l) => (l.upstream || []).includes(id)).map((l) => l.id);
  const parts = [el('h1', {}, name)];
  if (ref && ref.summary) parts.push(el('p', { class: 'lead' }, ref.summary));
  if (state) {
    parts.push(el('div', { class: 'panel' },
      el('p', {}, 'Live state: ', el('span', { class: `status-badge status-${state.status}` }, statusLabel(state.status)),
        ` · trend ${state.trend} · pressure ${Number(state.pressure).toFixed(2)}`
          + ` (own ${Number(state.directPressure).toFixed(2)}, from upstream ${Number(state.squeezeReceived || 0).toFixed(2)})`,
        state.asOf ? ` · as of ${state.asOf}` : ' · no signals yet')));
  } else {
    parts.push(el('p', { class: 'notice', role: 'status' }, stateError && stateError.status !== 404
      ? `The live chain model is not available right now (${stateError.message}).`
      : 'The live chain model has no state for this layer yet (or is not available on this server yet).'));
  }
  // the whole period since the bundled history starts (2023), the step chosen by the API (at most 500 points),
  // with the signals that named the layer marked on the chart and listed under it
  const chart = el('div', { class: 'history', id: 'history' }, el('p', { class: 'notice', role: 'status' }, 'Loading the pressure history…'));
  const marked = el('div', { id: 'history-signals' });
  parts.push(el('h2', { id: 'history-heading' }, `Pressure since ${HISTORY_FROM.slice(0, 4)}`), chart, marked);
  getJson(`/api/v1/layers/${encodeURIComponent(id)}/history?${new URLSearchParams({ from: HISTORY_FROM })}`)
    .then((h) => {
      chart.replaceChildren(historyChart(h, name), el('p', { class: 'summary-line' },
        `One point every ${h.step.replace(/^PT(\d+)H$/, (m, hours) => (hours % 24 ? `${hours} hours` : `${hours / 24} day${hours === '24' ? '' : 's'}`))}; `
        + 'the lines mark the tight (3), critical (6) and loose (−1) thresholds; ▲ a tightening and ▼ an easing signal on this layer, larger for a larger magnitude.'));
      marked.replaceChildren(...signalList(h));
    })
    .catch((e) => message(chart, `The pressure history is not available right now (${e.message}).`));
  parts.push(el('h2', {}, 'Supplied by'), upstream.length ? el('ul', {}, upstream.map(link)) : el('p', {}, 'No upstream layer.'));
  parts.push(el('h2', {}, 'Supplies'), downstream.length ? el('ul', {}, downstream.map(link)) : el('p', {}, 'No downstream layer.'));
  if (state && state.owners && state.owners.length) {
    parts.push(el('h2', {}, 'Companies in this layer'), el('ul', { class: 'inline' }, state.owners.map((c) =>
      el('li', {}, c.symbol ? el('a', { href: companyHref(c.symbol) }, `${c.name} (${c.symbol})`) : c.name))));
  }
  const causes = state ? state.causes || [] : [];
  if (causes.length) {
    parts.push(el('h2', {}, 'Why'), el('ul', {}, causes.map(causeItem)));
  }
  // The reads whose primary layer this is, and apart from them those that only touch it (GET /api/v1/layers/{id}/reads).
  let primary = { total: 0, results: [] };
  let passing = { total: 0, results: [] };
  try {
    ({ primary, passing } = await getJson(`/api/v1/layers/${encodeURIComponent(id)}/reads?size=20`));
  } catch (e) { /* the page stands without them */ }
  const readList = (list) => el('ul', {}, list.results.map((r) => el('li', {},
    r.kind === 'term' && r.slug ? el('a', { href: termHref(r.slug) }, r.title) : r.title,
    r.summary ? ` — ${r.summary}` : '')));
  const more = (list) => list.total > list.results.length ? el('p', { class: 'summary-line' },
    `${list.results.length} of ${list.total} shown.`) : null;
  if (primary.results.length) {
    parts.push(el('h2', { id: 'primary-reads' }, 'Reads about this layer'), readList(primary), more(primary));
  }
  if (passing.results.length) {
    parts.push(el('h2', { id: 'passing-reads' }, 'Reads that touch this layer in passing'),
      el('p', {}, 'These reads are about another layer and meet this one through a company or a term they name.'),
      readList(passing), more(passing));
  }
  const reads = primary.results.concat(passing.results);
  content.replaceChildren(...parts.filter(Boolean));
  const seen = new Map();
  for (const r of reads) for (const s of r.sources || []) seen.set(s.url || s.name, s);
  const sources = [{ name: 'chainfeed reference data: chain layers', url: '/api/v1/layers' }]
    .concat(causes.map((c) => ({ name: `Signal: ${c.headline}`, url: `/api/v1/reads/${encodeURIComponent(c.readId || `signal:${c.signalId}`)}` })))
    .concat([...seen.values()]);
  footer((state && state.disclaimer) || (reads[0] && reads[0].disclaimer), sources);
}

main();
