// A glossary term's page: /terms/{slug} -> GET /api/v1/terms/{slug}.
import { el, message, footer, pageItem, tagList, layerTags, termHref, companyHref, layerStatusList, liveStates, getJson, safeHref } from './common.js';

const content = document.getElementById('content');

function paragraphs(text) {
  return String(text || '').split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean).map((p) => el('p', {}, p));
}

async function main() {
  const { id: slug, item: t, error: e } = await pageItem('terms');
  if (e) {
    document.title = 'Term not found · chainfeed';
    message(content, e.status === 404 ? `There is no glossary term “${slug}”.` : `The term cannot be loaded: ${e.message}`,
      e.status === 404 ? 'info' : 'error');
    footer(null, []);
    return;
  }
  document.title = `${t.title} · chainfeed`;
  const changes = t.changes || [];
  const related = (t.related || []).map((r) => el('li', {},
    r.exists ? el('a', { href: termHref(r.slug) }, r.title || r.slug) : (r.title || r.slug),
    r.exists && r.summary ? ` — ${r.summary}` : ''));
  content.replaceChildren(
    el('article', { 'aria-labelledby': 'term-title' },
      el('h1', { id: 'term-title' }, t.title),
      t.aliases && t.aliases.length ? el('p', { class: 'summary-line' }, `Also called: ${t.aliases.join(', ')}`) : null,
      t.summary ? el('p', { class: 'lead' }, t.summary) : null,
      el('div', { class: 'panel' },
        ...layerTags(t.layers),
        tagList('Companies', t.companies, (c) => companyHref(c.symbol), (c) => `${c.name} (${c.symbol})`)),
      (t.layers || []).length ? el('section', { class: 'section', id: 'layers-now', 'aria-labelledby': 'layers-now-heading' },
        el('h2', { id: 'layers-now-heading' }, 'Its layers now'),
        el('p', { class: 'notice', role: 'status' }, 'Loading the live chain…')) : null,
      (t.sections || []).map((s) => el('section', { class: 'section' }, el('h2', {}, s.heading || s.key), paragraphs(s.body))),
      related.length ? el('section', { class: 'section' }, el('h2', {}, 'Related terms'), el('ul', {}, related)) : null,
      el('section', { class: 'section', id: 'closest', 'aria-labelledby': 'closest-heading', hidden: true },
        el('h2', { id: 'closest-heading' }, 'Closest in meaning')),
      changes.length ? el('section', { class: 'section', 'aria-labelledby': 'changes-heading' },
        el('h2', { id: 'changes-heading' }, 'What changed in this version'),
        el('ul', { class: 'changes' }, changes.map((c) => el('li', {}, c.text)))) : null,
      el('nav', { class: 'section', 'aria-label': 'More', id: 'term-more' }, el('ul', { class: 'inline' },
        el('li', {}, el('a', { href: '/chain' }, `See ${t.title} in the live AI chain`)),
        el('li', {}, el('a', { href: '/terms' }, 'All glossary terms')),
        (t.layers || []).length ? el('li', {}, el('a', { href: `/terms?${new URLSearchParams({ layer: (t.layers.find((l) => l.primary) || t.layers[0]).id })}` },
          `Terms in ${(t.layers.find((l) => l.primary) || t.layers[0]).name}`)) : null,
        el('li', {}, el('a', { href: '/companies' }, 'Companies by layer')))),
      el('p', { class: 'summary-line' }, `Version ${t.version}${t.updatedAt ? `, updated ${t.updatedAt}` : ''}`
        + (t.previousVersion != null ? ` (previous version ${t.previousVersion})` : ''))));
  footer(t.disclaimer, t.sources);
  closest(t.id);
  const now = document.getElementById('layers-now');
  if (now) {
    const states = await liveStates();
    now.replaceChildren(now.firstChild, states.size ? layerStatusList(t.layers, states)
      : el('p', { class: 'notice', role: 'status' }, 'The live chain model is not available right now.'));
  }
}

// The reads nearest the term in meaning (its sentence vector): shown when there are any;
// the page does without them when the vector is not written yet or the call fails.
async function closest(id) {
  const section = document.getElementById('closest');
  try {
    const answer = await getJson(`/api/v1/reads/${encodeURIComponent(id)}/related?size=5`);
    const items = (answer.related || []).map((r) => el('li', {},
      safeHref(r.page) ? el('a', { href: r.page }, r.title || r.id) : (r.title || r.id),
      r.kind === 'signal' && r.observedAt ? ` (signal, ${r.observedAt.slice(0, 10)})` : '',
      r.summary ? ` — ${r.summary}` : ''));
    if (items.length) {
      section.append(el('ul', {}, items));
      section.hidden = false;
    }
  } catch (e) {
    // Leave the section hidden.
  }
}

main();
