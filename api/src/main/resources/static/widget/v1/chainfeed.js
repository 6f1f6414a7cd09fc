/*! chainfeed widget v1: <chainfeed-term>, <chainfeed-feed>, <chainfeed-chain>.
 * One classic script, no framework. Every piece of data goes into the page as text (textContent /
 * text nodes), never as markup. No cookies: requests go out with credentials omitted. */
(() => {
  'use strict';
  if (window.customElements && customElements.get('chainfeed-term')) return;
  const me = document.currentScript;
  const BASE = new URL(me && me.src ? me.src : location.href).origin;
  const DISCLAIMER = 'Research, not advice.';
  const CSS = `
:host{display:block;max-width:42rem;font-size:15px}
:host([hidden]){display:none}
.cf{--bg:#fff;--fg:#1b1f24;--mute:#4f5965;--line:#c9d1d9;--link:#0b57b8;--focus:#b35900;
 color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:8px;padding:.8em 1em;line-height:1.45}
.cf.dark{--bg:#161b22;--fg:#e6edf3;--mute:#a6b0bb;--line:#3d444d;--link:#8cc2ff;--focus:#ffb86b}
a{color:var(--link)}
a:focus-visible,summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
p{margin:.3em 0}
ul{margin:.3em 0;padding-left:1.2em}
.k,.m,.foot{color:var(--mute);font-size:.85em}
.t{font-weight:600;font-size:1.1em;margin:.1em 0 .2em}
.feed{list-style:none;padding:0}
.feed li{border-top:1px solid var(--line);padding:.45em 0}
.feed li:first-child{border-top:0}
.s{display:inline-block;border:1px solid currentColor;border-radius:4px;padding:0 .35em;font-size:.8em;margin-left:.4em}
.tight,.critical{font-weight:700}
summary{cursor:pointer;color:var(--link)}
.foot{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5em;border-top:1px solid var(--line);margin-top:.6em;padding-top:.4em}`;
  let sheet = null;
  const styles = () => {
    if (!sheet) { sheet = new CSSStyleSheet(); sheet.replaceSync(CSS); }
    return [sheet];
  };

  /** h('a', {href}, 'text', node): strings and numbers become text nodes. */
  const h = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) if (attrs[k] != null && attrs[k] !== false) e.setAttribute(k, attrs[k]);
    for (const c of kids.flat()) if (c != null && c !== false) e.append(c instanceof Node ? c : String(c));
    return e;
  };
  const webUrl = (u) => {
    try { const x = new URL(u, BASE); return /^https?:$/.test(x.protocol) ? x.href : null; } catch (e) { return null; }
  };
  const link = (url, text, external) => {
    const safe = webUrl(url);
    return safe ? h('a', { href: safe, target: '_blank', rel: external ? 'noopener noreferrer' : 'noopener' }, text) : text;
  };
  const site = (path) => BASE + path;
  /** What each kind of read is called: a state read announces a change of a chain layer's status. */
  const KIND_LABEL = { term: 'Glossary term', signal: 'Signal', state: 'State change' };
  /** Where a read lives on the site: a term's page, a signal's or state change's layer page, else a search for it. */
  const readUrl = (r) => {
    if (r.kind === 'term' && r.slug) return site('/terms/' + encodeURIComponent(r.slug));
    const l = (r.layers || [])[0];
    return l && l.id ? site('/layers/' + encodeURIComponent(l.id)) : site('/?q=' + encodeURIComponent(r.title || r.id));
  };
  const dateText = (iso, locale) => {
    const d = new Date(iso);
    if (!iso || isNaN(d)) return '';
    let f;
    try { f = new Intl.DateTimeFormat(locale || undefined, { dateStyle: 'medium' }); } catch (e) { f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }); }
    return h('time', { datetime: d.toISOString() }, f.format(d));
  };
  const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : '');

  // Theme "auto" follows the host page: a dark/light class or data-theme on <html> or <body>, then the
  // page's CSS color-scheme, then the reader's prefers-color-scheme.
  const mq = matchMedia('(prefers-color-scheme: dark)');
  const hostDark = () => {
    for (const n of [document.documentElement, document.body]) {
      if (!n) continue;
      const t = n.getAttribute('data-theme') || (n.classList.contains('dark') ? 'dark' : n.classList.contains('light') ? 'light' : '');
      if (t === 'dark' || t === 'light') return t === 'dark';
    }
    const cs = getComputedStyle(document.documentElement).colorScheme || '';
    const d = /\bdark\b/.test(cs), l = /\blight\b/.test(cs);
    return d !== l ? d : mq.matches;
  };
  const live = new Set();
  const retheme = () => live.forEach((w) => w.theme());
  mq.addEventListener('change', retheme);
  let watching = false;
  const watchHost = () => {
    if (watching) return;
    watching = true;
    const o = new MutationObserver(retheme);
    const opts = { attributes: true, attributeFilter: ['class', 'style', 'data-theme'] };
    o.observe(document.documentElement, opts);
    if (document.body) o.observe(document.body, opts);
    else addEventListener('DOMContentLoaded', () => o.observe(document.body, opts));
  };

  class Widget extends HTMLElement {
    static get observedAttributes() { return ['key', 'theme', 'locale', 'term', 'topic', 'limit', 'live']; }
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      root.adoptedStyleSheets = styles();
      this.box = h('div', { class: 'cf', role: 'region', 'aria-label': 'chainfeed', 'aria-busy': 'true' },
        h('p', { class: 'm' }, 'Loading…'));
      root.append(this.box);
    }
    connectedCallback() {
      live.add(this);
      watchHost();
      this.theme();
      this.load();
    }
    disconnectedCallback() {
      live.delete(this);
      this.stop();
    }
    attributeChangedCallback(name, was, now) {
      if (!this.isConnected || was === now) return;
      if (name === 'theme') this.theme();
      else this.load();
    }
    theme() {
      const t = this.getAttribute('theme');
      this.box.classList.toggle('dark', t === 'dark' || (t !== 'light' && hostDark()));
    }
    stop() {
      if (this.ctl) this.ctl.abort();
      clearTimeout(this.timer);
    }
    load() {
      this.stop();
      this.ctl = new AbortController();
      this.fetchAndRender(this.ctl.signal).then(() => { this.fails = 0; }, (e) => {
        if (e.name !== 'AbortError') this.fail(e);
      });
    }
    /** GET a widget data path with the publishable key; throws an Error with .status (0: no answer). */
    async get(path, params, signal) {
      const q = new URLSearchParams(params);
      q.set('key', this.getAttribute('key') || '');
      let r;
      try {
        r = await fetch(`${BASE}/widget/v1/data/${path}?${q}`, { credentials: 'omit', signal, headers: { Accept: 'application/json' } });
      } catch (e) {
        if (e.name === 'AbortError') throw e;
        throw Object.assign(new Error('chainfeed could not be loaded here (no connection, or this site is not allowed for the key).'), { status: 0 });
      }
      const body = await r.json().catch(() => null);
      if (!r.ok) {
        throw Object.assign(new Error((body && body.detail) || `chainfeed answered ${r.status}.`),
          { status: r.status, retry: +r.headers.get('Retry-After') });
      }
      return body;
    }
    fail(e) {
      this.show([h('p', { class: 'm', role: 'status' }, e.message)], site('/'));
      if (e.status === 429 || e.status === 0 || e.status >= 500) {
        // Retry-After when the server gives one, else 5 s doubling per failure, at most 5 min.
        this.fails = (this.fails || 0) + 1;
        const s = Math.min(Math.max(e.retry || 5 * 2 ** (this.fails - 1), 1), 300);
        this.timer = setTimeout(() => this.load(), s * 1000);
      }
    }
    /** Replaces the content; every widget ends with the disclaimer and a link to the read on the site. */
    show(nodes, url, label) {
      this.box.setAttribute('aria-label', 'chainfeed: ' + (label || 'research feed'));
      this.box.removeAttribute('aria-busy');
      this.box.replaceChildren(...nodes.filter((n) => n != null), h('p', { class: 'foot' },
        h('span', { class: 'disclaimer' }, DISCLAIMER), link(url, 'Read on chainfeed', false)));
    }
    locale() {
      return this.getAttribute('locale') || document.documentElement.lang || undefined;
    }
  }

  class Term extends Widget {
    async fetchAndRender(signal) {
      const slug = this.getAttribute('term') || '';
      const r = await this.get('term/' + encodeURIComponent(slug), {}, signal);
      const url = readUrl(r);
      // Primary layers (declared by the source or named in the title) on the kind line; layers the term
      // only touches, through a company or a term on them, apart below.
      const layers = (r.layers || []).filter((l) => l.primary).map((l) => l.name).join(', ');
      const passing = (r.layers || []).filter((l) => !l.primary).map((l) => l.name).join(', ');
      const list = (label, items, item) => items && items.length
        ? h('details', {}, h('summary', {}, `${label} (${items.length})`), h('ul', {}, items.map((x) => h('li', {}, item(x)))))
        : null;
      this.show([
        h('p', { class: 'k' }, 'Glossary term', layers ? ` · ${layers}` : ''),
        h('p', { class: 't' }, link(url, r.title, false)),
        h('p', { class: 'sum' }, r.summary),
        passing ? h('p', { class: 'm' }, 'Also touches: ', passing) : null,
        list('Companies', r.companies, (c) => c.symbol ? `${c.name} (${c.symbol})` : c.name),
        list('Sources', r.sources, (s) => link(s.url, s.name || s.url, true)),
        h('p', { class: 'm' }, 'Updated ', dateText(r.updatedAt, this.locale()))], url, r.title);
    }
  }

  class Feed extends Widget {
    limit() {
      const n = parseInt(this.getAttribute('limit'), 10);
      return n > 0 ? Math.min(n, 20) : 5;
    }
    async fetchAndRender(signal) {
      const topic = this.getAttribute('topic') || 'all';
      const r = await this.get('feed', { topic, limit: this.limit() }, signal);
      this.items = r.items || [];
      this.last = r.lastEventId || null;
      this.list = h('ul', { class: 'feed' });
      this.state = h('p', { class: 'm', 'aria-live': 'polite' });
      this.paint();
      this.show([h('p', { class: 'k' }, 'Feed · ', topic), this.list, this.state], r.url || site('/'), 'feed ' + topic);
      if (this.hasAttribute('live')) {
        this.delay = 1000;
        this.connect(topic, signal);
      }
    }
    paint() {
      const loc = this.locale();
      this.list.replaceChildren(...this.items.slice(0, this.limit()).map((r) => h('li', { 'data-id': r.id },
        h('p', { class: 't' }, link(readUrl(r), r.title, false)),
        r.kind !== 'term' && r.summary && r.summary !== r.title ? h('p', {}, r.summary) : null,
        h('p', { class: 'm' }, KIND_LABEL[r.kind] || 'Read', ' · ', dateText(r.updatedAt, loc)))));
      if (!this.items.length) this.list.replaceChildren(h('li', { class: 'm' }, 'Nothing on this topic yet.'));
    }
    /** Server-sent events with our own reconnect: exact resume from the last event id, backing off on errors. */
    connect(topic, signal) {
      if (signal.aborted) return;
      const q = new URLSearchParams({ topic, key: this.getAttribute('key') || '' });
      if (this.last) q.set('lastEventId', this.last);
      const es = new EventSource(`${BASE}/widget/v1/data/stream?${q}`);
      signal.addEventListener('abort', () => es.close());
      const seen = (e) => { if (e.lastEventId) this.last = e.lastEventId; this.delay = 1000; };
      es.onopen = () => { this.delay = 1000; this.state.textContent = 'Live'; };
      es.addEventListener('ready', seen);
      es.addEventListener('read', (e) => {
        seen(e);
        const r = JSON.parse(e.data);
        // Newest publication first, as the feeds order them (a read indexed before publishedAt existed
        // falls back to updatedAt); a read already shown is replaced, so a replayed event never shows twice.
        const published = (x) => Date.parse(x.publishedAt || x.updatedAt);
        this.items = [r, ...this.items.filter((x) => x.id !== r.id)]
          .sort((a, b) => published(b) - published(a)).slice(0, this.limit());
        this.paint();
        this.state.textContent = 'Live · new: ' + r.title;
      });
      es.addEventListener('deleted', (e) => {
        seen(e);
        const id = JSON.parse(e.data).id;
        this.items = this.items.filter((x) => x.id !== id);
        this.paint();
      });
      es.onerror = () => {
        es.close();
        if (signal.aborted) return;
        this.state.textContent = 'Reconnecting…';
        const wait = this.delay * (0.5 + Math.random() / 2);
        this.delay = Math.min(this.delay * 2, 60000);
        this.timer = setTimeout(() => this.connect(topic, signal), wait);
      };
    }
  }

  class Chain extends Widget {
    async fetchAndRender(signal) {
      const r = await this.get('chain', {}, signal);
      const n = parseInt(this.getAttribute('limit'), 10) > 0 ? parseInt(this.getAttribute('limit'), 10) : 5;
      const layers = (r.layers || []).slice(0, n);
      this.show([
        h('p', { class: 'k' }, 'AI supply chain', r.asOf ? [' · as of ', dateText(r.asOf, this.locale())] : ''),
        layers.length ? h('ul', { class: 'feed' }, layers.map((l) => h('li', {},
          link(site('/layers/' + encodeURIComponent(l.id)), l.name, false),
          h('span', { class: 's ' + l.status }, cap(l.status)),
          l.trend && l.trend !== 'steady' ? h('span', { class: 'm' }, ' ', l.trend) : null)))
          : h('p', { class: 'm' }, 'No live state yet.')], site('/chain'), 'chain state');
    }
  }

  customElements.define('chainfeed-term', Term);
  customElements.define('chainfeed-feed', Feed);
  customElements.define('chainfeed-chain', Chain);

  // Iframe form. Inside our embed page: post the content height to the parent on every size change,
  // and again when the parent's script asks (it may have loaded after our last change).
  // On a partner page: size our iframes from those messages, accepted only from our origin.
  const root = document.documentElement;
  if (window.parent !== window && root.hasAttribute('data-chainfeed-embed')) {
    const to = (location.ancestorOrigins && location.ancestorOrigins[0]) || '*';
    const post = () => parent.postMessage({ chainfeed: 'height', height: Math.ceil(document.body.getBoundingClientRect().height) }, to);
    new ResizeObserver(post).observe(document.body);
    addEventListener('message', (e) => { if (e.source === parent && e.data && e.data.chainfeed === 'hello') post(); });
  } else {
    addEventListener('message', (e) => {
      const d = e.data;
      if (e.origin !== BASE || !d || d.chainfeed !== 'height' || !(d.height >= 0 && d.height < 20000)) return;
      for (const f of document.querySelectorAll('iframe')) {
        if (f.contentWindow === e.source) f.style.height = Math.ceil(d.height) + 'px';
      }
    });
    const hello = () => {
      for (const f of document.querySelectorAll('iframe')) {
        if (f.src.startsWith(BASE + '/embed/') && f.contentWindow) f.contentWindow.postMessage({ chainfeed: 'hello' }, BASE);
      }
    };
    if (document.readyState === 'loading') addEventListener('DOMContentLoaded', hello); else hello();
  }
})();
