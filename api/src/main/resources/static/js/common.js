// Shared helpers for the chainfeed pages. Data is only ever inserted as text (createTextNode /
// textContent); the one exception, search highlights, goes through highlight(), which builds <mark>
// elements itself and treats everything else as text.

/** Creates an element; attrs are set as attributes (or properties for on* handlers), children as text or nodes. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, ...children);
  return e;
}

export function append(parent, ...children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    parent.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return parent;
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the HTML escapes the API's highlighter writes (&amp; &lt; &#x27; ...) into plain text. */
export function unescapeHtml(s) {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, code) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
    }
    return Object.prototype.hasOwnProperty.call(ENTITIES, code) ? ENTITIES[code] : m;
  });
}

/**
 * A highlighted snippet as DOM nodes: the API HTML-escapes the text and puts <mark>...</mark> around
 * matches. Only those two exact tags become markup; every other piece becomes a text node.
 */
export function highlight(snippet) {
  const frag = document.createDocumentFragment();
  let mark = null;
  for (const part of String(snippet).split(/(<mark>|<\/mark>)/)) {
    if (part === '<mark>') { mark = document.createElement('mark'); frag.append(mark); continue; }
    if (part === '</mark>') { mark = null; continue; }
    if (part) (mark || frag).append(document.createTextNode(unescapeHtml(part)));
  }
  return frag;
}

export class HttpError extends Error {
  constructor(status, detail) { super(detail || `HTTP ${status}`); this.status = status; }
}

/** GET a JSON API path; throws HttpError (status 0 when the network failed). */
export async function getJson(path, signal) {
  let r;
  try {
    r = await fetch(path, { headers: { Accept: 'application/json' }, signal });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new HttpError(0, 'the API could not be reached');
  }
  let body = null;
  try { body = await r.json(); } catch (e) { /* not JSON */ }
  if (!r.ok) throw new HttpError(r.status, body && (body.detail || body.title));
  return body;
}

/** Replaces the children of a container with a status message (role=status, announced). */
export function message(container, text, kind = 'info') {
  container.replaceChildren(el('p', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text));
}

export const DISCLAIMER = 'chainfeed is research, not advice: it summarises public sources and says nothing about what to buy or sell.';

/** The page footer's disclaimer (the API's own text when it sends one) and sources list. */
export function footer(disclaimer, sources) {
  const d = document.getElementById('disclaimer');
  if (d) d.textContent = disclaimer || DISCLAIMER;
  const list = document.getElementById('sources');
  if (list && sources) list.replaceChildren(...sourceItems(sources));
}

/** List items for a read's sources: a link for http(s) URLs, plain text otherwise. */
export function sourceItems(sources) {
  if (!sources || sources.length === 0) return [el('li', {}, 'No sources listed.')];
  return sources.map((s) => {
    const url = typeof s === 'string' ? s : (s.url || s.href || '');
    const label = typeof s === 'string' ? s : (s.title || s.name || s.url || JSON.stringify(s));
    return el('li', {}, safeHref(url) ? el('a', { href: url, rel: 'noopener noreferrer' }, label) : label);
  });
}

/** Only http(s) and same-site paths become links. */
export function safeHref(url) {
  return typeof url === 'string' && (/^https?:\/\//i.test(url) || /^\/(?!\/)/.test(url));
}

/**
 * One signal behind a layer's state, as a list item: its headline, its source (a link for http(s)
 * URLs), its signed contribution to the layer's pressure, when it came from upstream how far, and
 * its horizon when it has one (full weight until that day), and its share when it speaks of one
 * segment of the layer it names (HBM counts at 15% of memory).
 */
export function causeItem(c) {
  const src = c.source ? [' — ', safeHref(c.source.url)
    ? el('a', { href: c.source.url, rel: 'nofollow noopener' }, c.source.name || c.source.url) : (c.source.name || '')] : '';
  const n = Number(c.contribution);
  const hops = c.hops ? `, ${c.hops} hop${c.hops === 1 ? '' : 's'} from ${c.originLayer}` : '';
  const until = typeof c.until === 'string' ? `, holds until ${c.until.slice(0, 10)}` : '';
  const share = typeof c.share === 'number' && c.share < 1
    ? `, one segment: counts at ${Math.round(c.share * 100)}% of ${c.originLayer}` : '';
  return el('li', {}, c.headline, src, ` (${n >= 0 ? '+' : ''}${n.toFixed(2)}${c.direction ? `, ${c.direction}` : ''}${hops}${until}${share})`);
}

export function termHref(slug) { return `/terms/${encodeURIComponent(slug)}`; }
export function companyHref(symbol) { return `/companies/${encodeURIComponent(symbol)}`; }
export function layerHref(id) { return `/layers/${encodeURIComponent(id)}`; }

/** The last path segment of the page URL, decoded: the slug, symbol or id the page is about. */
export function pathId() {
  const parts = location.pathname.split('/').filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || '');
}

/**
 * The item a page is about: its id from the URL (pathId) and GET /api/v1/{collection}/{id}.
 * Resolves to { id, item } or, when the GET failed, { id, error } with the HttpError.
 */
export async function pageItem(collection) {
  const id = pathId();
  try {
    return { id, item: await getJson(`/api/v1/${collection}/${encodeURIComponent(id)}`) };
  } catch (error) {
    return { id, error };
  }
}

/** A list of tag links (layers, companies, terms) as an inline list. */
export function tagList(label, items, hrefOf, textOf) {
  if (!items || items.length === 0) return null;
  return el('div', { class: 'tags' }, el('span', { class: 'tags-label' }, label + ': '),
    el('ul', { class: 'inline' }, items.map((t) => el('li', {}, el('a', { href: hrefOf(t) }, textOf(t))))));
}

/**
 * A read's layers as two tag lists: its primary layers (declared by the source or named in its title) under
 * "Layers", and apart from them, under "Also touches", the layers it meets only in passing (through a company
 * or a term on the layer). Returns the lists that are not empty.
 */
export function layerTags(layers) {
  const all = layers || [];
  const primary = all.filter((l) => l.primary);
  const passing = all.filter((l) => !l.primary);
  const text = (l) => l.name || l.id;
  const href = (l) => layerHref(l.id);
  return [tagList(primary.length ? 'Layers' : 'Layers (in passing)', primary.length ? primary : passing, href, text),
    primary.length ? tagList('Also touches', passing, href, text) : null].filter(Boolean);
}

export function statusLabel(status) {
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : 'No live state';
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element; attrs are set as attributes, children appended as text nodes or nodes. */
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/**
 * The live state of some layers as a list: each layer's name (a link to its page), its status, pressure
 * and trend, and its largest cause. `layers` are [{ id, name }], `states` a Map from layer id to the
 * layer's entry in GET /api/v1/chain (a layer without one shows "no live state").
 */
export function layerStatusList(layers, states) {
  return el('ul', { class: 'layer-status' }, layers.map((l) => {
    const s = states.get(l.id);
    const cause = s && (s.causes || [])[0];
    return el('li', { 'data-layer': l.id },
      el('a', { href: layerHref(l.id) }, l.name || (s && s.name) || l.id), ' ',
      s ? [el('span', { class: `status-badge status-${s.status}` }, statusLabel(s.status)),
        ` pressure ${Number(s.pressure).toFixed(2)}, ${s.trend}${s.squeezed ? ', squeezed from upstream' : ''}`,
        cause ? [' — largest cause: ', cause.headline, cause.source && safeHref(cause.source.url)
          ? [' (', el('a', { href: cause.source.url, rel: 'nofollow noopener' }, cause.source.name || cause.source.url), ')'] : ''] : '']
        : el('span', { class: 'summary-line' }, 'no live state'));
  }));
}

/** The live chain's layers by id (GET /api/v1/chain), or an empty map when the chain model does not answer. */
export async function liveStates() {
  const states = new Map();
  try {
    for (const s of (await getJson('/api/v1/chain')).layers || []) states.set(s.id, s);
  } catch (e) { /* the page stands without them */ }
  return states;
}
