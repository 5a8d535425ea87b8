// Theme before the bundle loads (no flash): the stored choice, else the system setting.
// A file rather than an inline script so the pages can be served with Content-Security-Policy script-src 'self'.
(function () {
  var theme = 'light';
  try {
    var stored = localStorage.getItem('theme');
    if (stored === 'dark' || stored === 'light') theme = stored;
    else if (window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches) theme = 'dark';
  } catch (e) {
    // storage unavailable: keep light
  }
  document.documentElement.setAttribute('data-bs-theme', theme);
})();
