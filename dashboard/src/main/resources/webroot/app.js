// netpulse live receive rate. Everything that comes from the topics (host, iface) is put in the page
// with textContent or new Option(), never as HTML.
(function () {
  'use strict';

  const WINDOW = '1s';          // the 1 s tumbling rates; 10 s ones would lag the big numbers
  const CHART_SECONDS = 120;
  const STALE_MS = 5000;
  const $ = (id) => document.getElementById(id);

  const latest = new Map();     // "host\u0000iface" -> {host, iface, rx_bps, rx_pps, receivedAt}
  const history = new Map();    // same key -> [[t_s, bit/s], ...] for rx_bps
  const select = $('series');
  let chart = null;

  function keyOf(host, iface) { return host + '\u0000' + (iface ?? ''); }

  function onRate(rate, live) {
    if (rate.window !== WINDOW || (rate.metric !== 'rx_bps' && rate.metric !== 'rx_pps')) return;
    const key = keyOf(rate.host, rate.iface);
    let entry = latest.get(key);
    if (!entry) {
      entry = { host: rate.host, iface: rate.iface ?? '', receivedAt: 0 };
      latest.set(key, entry);
      select.add(new Option(entry.host + ' / ' + entry.iface, key));
    }
    const previous = entry[rate.metric];
    if (previous && previous.windowEnd > rate.windowEnd) return; // late arrival: keep the newer one
    entry[rate.metric] = rate;
    if (live) entry.receivedAt = Date.now();
    if (rate.metric === 'rx_bps') addPoint(key, rate.windowEnd / 1000, rate.mean);
  }

  function addPoint(key, t, v) {
    let points = history.get(key);
    if (!points) { points = []; history.set(key, points); }
    if (points.length && points[points.length - 1][0] >= t) return;
    points.push([t, v]);
    while (points.length && points[0][0] < t - CHART_SECONDS) points.shift();
  }

  // The one picked, or the host/iface receiving the most right now.
  function selectedKey() {
    if (select.value) return select.value;
    let best = null;
    let bestBps = -1;
    for (const [key, entry] of latest) {
      const bps = entry.rx_bps ? entry.rx_bps.mean : -1;
      const fresh = Date.now() - entry.receivedAt < STALE_MS ? 1e18 : 0; // prefer live series
      if (bps + fresh > bestBps) { best = key; bestBps = bps + fresh; }
    }
    return best;
  }

  function scaled(v, unit) {
    const a = Math.abs(v);
    if (a >= 1e9) return [(v / 1e9).toFixed(3), 'G' + unit];
    if (a >= 1e6) return [(v / 1e6).toFixed(3), 'M' + unit];
    if (a >= 1e3) return [(v / 1e3).toFixed(3), 'k' + unit];
    return [v.toFixed(0), unit];
  }

  // axis ticks: "7.5 Gbit/s" rather than "7.500 Gbit/s"
  function axisBits(v) {
    const [number, unit] = scaled(v, 'bit/s');
    return parseFloat(number) + ' ' + unit;
  }

  function exact(v, unit) {
    return Math.round(v).toLocaleString('en-US') + ' ' + unit;
  }

  function showFigure(id, rate, unit, exactUnit) {
    if (!rate) {
      $(id).textContent = '—';
      $(id + '-unit').textContent = '';
      $(id + '-exact').textContent = '';
      return;
    }
    const [number, scaledUnit] = scaled(rate.mean, unit);
    $(id).textContent = number;
    $(id + '-unit').textContent = scaledUnit;
    $(id + '-exact').textContent = exact(rate.mean, exactUnit);
  }

  function render() {
    const key = selectedKey();
    const entry = key ? latest.get(key) : null;
    $('host').textContent = entry ? entry.host : '—';
    $('iface').textContent = entry ? entry.iface : '—';
    showFigure('rx-bps', entry && entry.rx_bps, 'bit/s', 'bit/s');
    showFigure('rx-pps', entry && entry.rx_pps, 'pps', 'packets/s');

    const status = $('status');
    if (!entry) {
      status.textContent = 'waiting for rates…';
      status.className = 'status';
    } else {
      const age = entry.receivedAt ? Math.round((Date.now() - entry.receivedAt) / 1000) : null;
      const stale = age === null || age * 1000 >= STALE_MS;
      status.textContent = (stale ? 'no new rate' : 'live') + (age === null ? '' : ' · updated ' + age + ' s ago')
        + ' · ' + latest.size + ' host/iface';
      status.className = stale ? 'status stale' : 'status';
    }
    drawChart(key);
  }

  function drawChart(key) {
    const points = (key && history.get(key)) || [];
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    if (!chart) chart = makeChart();
    chart.setData([xs, ys]);
  }

  function makeChart() {
    const el = $('chart');
    const opts = {
      width: el.clientWidth,
      height: Math.max(200, el.clientHeight),
      legend: { show: false },
      scales: { y: { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        { stroke: '#8b98a5', grid: { stroke: '#2d3a46' } },
        { stroke: '#8b98a5', grid: { stroke: '#2d3a46' }, size: 110,
          values: (u, splits) => splits.map(axisBits) },
      ],
      series: [{}, { label: 'rx', stroke: '#4cc9f0', width: 2, fill: 'rgba(76,201,240,0.12)' }],
    };
    return new uPlot(opts, [[], []], el);
  }

  function loadHistory(key) {
    const entry = latest.get(key);
    if (!entry) return;
    const q = new URLSearchParams({ host: entry.host, iface: entry.iface, metric: 'rx_bps', window: WINDOW });
    fetch('/api/rates/history?' + q).then((r) => r.ok ? r.json() : []).then((rates) => {
      // merge with what the live feed already brought, by time, without duplicates
      const byTime = new Map((history.get(key) || []).map((p) => [p[0], p[1]]));
      rates.forEach((rate) => byTime.set(rate.windowEnd / 1000, rate.mean));
      const points = [...byTime].sort((a, b) => a[0] - b[0]);
      const newest = points.length ? points[points.length - 1][0] : 0;
      history.set(key, points.filter((p) => p[0] >= newest - CHART_SECONDS));
      render();
    }).catch(() => {});
  }

  // at most one render per frame however many rates arrive (a fleet sends thousands a second)
  let frame = 0;
  let arrived = [];
  function renderSoon(rate) {
    arrived.push(rate);
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render();
      arrived.forEach(window.np.shown);
      arrived = [];
    });
  }

  function connect() {
    const events = new EventSource('/events?feed=live');
    events.addEventListener('rate', (e) => {
      const rate = JSON.parse(e.data);
      onRate(rate, true);
      renderSoon(rate);
    });
    events.onerror = () => { $('status').textContent = 'reconnecting to the live feed…'; };
  }

  select.addEventListener('change', () => { loadHistory(selectedKey()); render(); });
  window.addEventListener('resize', () => {
    if (chart) chart.setSize({ width: $('chart').clientWidth, height: Math.max(200, $('chart').clientHeight) });
  });

  fetch('/api/rates/latest').then((r) => r.json()).then((rates) => {
    rates.forEach((rate) => onRate(rate, false));
    for (const key of latest.keys()) loadHistory(key);
  }).catch(() => {}).finally(() => { connect(); render(); setInterval(render, 1000); });
})();
