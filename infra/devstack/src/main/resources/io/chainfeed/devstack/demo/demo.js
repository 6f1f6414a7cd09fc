// The demo page's theme switch: sets data-theme on <html>, which widgets on theme="auto" follow.
for (const b of document.querySelectorAll('[data-theme-choice]')) {
  b.addEventListener('click', () => {
    const t = b.dataset.themeChoice;
    if (t === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = t;
    for (const o of document.querySelectorAll('[data-theme-choice]')) o.setAttribute('aria-pressed', String(o === b));
  });
}
