// Shared by the netpulse pages: number formatting with units, DOM helpers, the nav. Values from the topics
// (host, test, plan names) only ever reach the page through textContent, never as HTML.
(function () {
  'use strict';

  const SCALES = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];

  // [number text, unit text], e.g. 9.4e9 bit/s -> ['9.400', 'Gbit/s']; packets/s scale as pps
  function scaled(v, unit) {
    if (v === null || v === undefined || Number.isNaN(v)) return ['—', ''];
    const short = unit === 'packets/s' ? 'pps' : unit;
    if (unit === 'bit/s' || unit === 'packets/s') {
      for (const [f, p] of SCALES) if (Math.abs(v) >= f) return [(v / f).toFixed(3), p + short];
      return [v.toFixed(0), short];
    }
    return [Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(4), unit || ''];
  }

  function text(v, unit) {
    const [n, u] = scaled(v, unit);
    return u ? n + ' ' + u : n;
  }

  function exact(v, unit) {
    return Math.round(v).toLocaleString('en-US') + ' ' + unit;
  }

  // why each repetition's measuring ended, per reason with the widest precision among them: "precise ±0.41 %"
  // (as the run's table says it); "—" for a result from before stops were recorded
  function stops(r) {
    const widest = new Map();
    Object.values(r.stops || {}).forEach((s) => {
      const reason = s.reason || '?';
      const p = s.precision === null || s.precision === undefined ? NaN : s.precision;
      const was = widest.has(reason) ? widest.get(reason) : NaN;
      widest.set(reason, Number.isNaN(was) ? p : Number.isNaN(p) ? was : Math.max(was, p));
    });
    if (widest.size === 0) return '—';
    return [...widest].map(([reason, p]) => Number.isNaN(p) ? reason : reason + ' ±' + (100 * p).toFixed(2) + ' %')
      .join(', ');
  }

  function el(tag, content, cls) {
    const e = document.createElement(tag);
    if (content !== undefined && content !== null) e.textContent = String(content);
    if (cls) e.className = cls;
    return e;
  }

  function json(url) {
    return fetch(url, { cache: 'no-store' }).then((r) => {
      if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
      return r.json();
    });
  }

  function duration(ms) {
    if (ms === null || ms === undefined || ms < 0) return '—';
    const s = Math.round(ms / 1000);
    return s >= 60 ? Math.floor(s / 60) + ' min ' + String(s % 60).padStart(2, '0') + ' s' : s + ' s';
  }

  const PAGES = [['/index.html', 'Live rate'], ['/runs.html', 'Runs'], ['/results.html', 'Results'],
    ['/fleet.html', 'Fleet']];

  // the same nav on every page, the current one marked
  function nav() {
    const here = location.pathname === '/' ? '/index.html' : location.pathname;
    const box = document.getElementById('nav');
    if (!box) return;
    box.replaceChildren(...PAGES.map(([href, label]) => {
      const a = el('a', label, href === here ? 'here' : '');
      a.href = href;
      return a;
    }));
  }

  // one live feed per page; the status element shows whether it is connected
  function feed(name, handlers, statusEl) {
    const events = new EventSource('/events?feed=' + encodeURIComponent(name));
    for (const [event, fn] of Object.entries(handlers)) {
      events.addEventListener(event, (e) => fn(JSON.parse(e.data)));
    }
    events.onopen = () => { if (statusEl) { statusEl.textContent = 'live'; statusEl.className = 'status'; } };
    events.onerror = () => {
      if (statusEl) { statusEl.textContent = 'reconnecting to the live feed…'; statusEl.className = 'status stale'; }
    };
    return events;
  }

  // When each live value was put on the page, for the latency benchmark: [window end, epoch ms], the last 1,000.
  const shownLog = [];
  function shown(rate) {
    shownLog.push([rate.windowEnd, Date.now()]);
    if (shownLog.length > 1000) shownLog.shift();
  }

  // How long each render of a big view took, ms, the last 1,000: the benchmark reads it.
  const renderLog = [];
  function rendered(ms) {
    renderLog.push(ms);
    if (renderLog.length > 1000) renderLog.shift();
  }

  window.np = { scaled, text, exact, stops, el, json, duration, feed, shown, shownLog, rendered, renderLog,
    $: (id) => document.getElementById(id) };
  document.addEventListener('DOMContentLoaded', nav);
})();
