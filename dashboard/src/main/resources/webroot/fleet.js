// Fleet view: every host/interface the collectors see, sortable and filterable. Only the rows in view are in the
// DOM (a spacer row above and below stands in for the rest), so 1,000 hosts updating every second stay smooth.
(function () {
  'use strict';
  const { $, el, json, text, feed } = window.np;

  const ROW_HEIGHT = 30;
  const OVERSCAN = 10;
  const SPARK_POINTS = 60;
  const rows = new Map();      // "host\u0000iface" -> row
  let view = [];               // filtered and sorted rows
  let sortKey = 'host';
  let sortDir = 1;
  let dirty = true;
  let frame = 0;
  const scroller = $('fleet-scroll');
  const body = $('fleet').tBodies[0];

  function keyOf(row) { return row.host + '\u0000' + (row.iface ?? ''); }

  function merge(update) {
    const key = keyOf(update);
    const row = rows.get(key);
    if (!row) {
      const spark = update.spark ? Array.from(update.spark) : (update.rxBps == null ? [] : [update.rxBps]);
      rows.set(key, Object.assign({}, update, { spark }));
      return;
    }
    if (update.updated < row.updated) return; // a snapshot older than the deltas already merged
    const spark = update.spark ? Array.from(update.spark) : row.spark;
    Object.assign(row, update, { spark });
    if (update.spark) return;
    if (update.rxBps !== null && update.rxBps !== undefined) {
      spark.push(update.rxBps);
      if (spark.length > SPARK_POINTS) spark.shift();
    }
  }

  function compare(a, b) {
    const x = a[sortKey];
    const y = b[sortKey];
    if (x === y) return keyOf(a) < keyOf(b) ? -1 : 1;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (x < y ? -1 : 1) * sortDir;
  }

  function rebuild() {
    const needle = $('filter').value.trim().toLowerCase();
    view = [...rows.values()].filter((r) => !needle || r.host.toLowerCase().includes(needle)
      || (r.iface ?? '').toLowerCase().includes(needle));
    view.sort(compare);
    $('count').textContent = view.length + ' of ' + rows.size + ' host/iface';
    dirty = false;
  }

  function spacer(height) {
    const tr = el('tr');
    const td = el('td');
    td.colSpan = 8;
    td.style.height = height + 'px';
    td.style.padding = '0';
    td.style.border = '0';
    tr.append(td);
    return tr;
  }

  // each row keeps its canvas, redrawn only when its points changed: most renders move text, not lines
  function sparkline(row) {
    const values = row.spark;
    const drawn = values.length + ':' + values[values.length - 1];
    if (row.canvas && row.drawn === drawn) return row.canvas;
    const canvas = row.canvas || el('canvas', null, 'spark');
    row.canvas = canvas;
    row.drawn = drawn;
    canvas.width = 120; // also clears it
    canvas.height = 20;
    const max = Math.max(1, ...values);
    const g = canvas.getContext('2d');
    g.strokeStyle = '#4cc9f0';
    g.lineWidth = 1.5;
    g.beginPath();
    values.forEach((v, i) => {
      const x = ((SPARK_POINTS - values.length + i) / (SPARK_POINTS - 1)) * 119; // newest at the right edge
      const y = 19 - (v / max) * 18;
      if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
    });
    g.stroke();
    return canvas;
  }

  function render() {
    frame = 0;
    const started = performance.now();
    if (dirty) rebuild();
    const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const count = Math.ceil(scroller.clientHeight / ROW_HEIGHT) + 2 * OVERSCAN;
    const last = Math.min(view.length, first + count);
    const now = Date.now();
    const trs = [spacer(first * ROW_HEIGHT)];
    for (let i = first; i < last; i++) {
      const r = view[i];
      const tr = el('tr');
      tr.style.height = ROW_HEIGHT + 'px';
      const spark = el('td');
      spark.append(sparkline(r));
      tr.append(el('td', r.host), el('td', r.iface ?? ''), el('td', text(r.rxPps, 'packets/s'), 'num'),
        el('td', text(r.txPps, 'packets/s'), 'num'), el('td', text(r.rxBps, 'bit/s'), 'num'),
        el('td', text(r.txBps, 'bit/s'), 'num'), spark,
        el('td', r.updated ? Math.max(0, Math.round((now - r.updated) / 1000)) + ' s' : '—', 'num'));
      tr.dataset.host = r.host;
      trs.push(tr);
    }
    trs.push(spacer((view.length - last) * ROW_HEIGHT));
    body.replaceChildren(...trs);
    window.np.rendered(performance.now() - started);
  }

  function schedule(resort) {
    if (resort) dirty = true;
    if (!frame) frame = requestAnimationFrame(render);
  }

  document.querySelectorAll('#fleet th.sortable').forEach((th) => th.addEventListener('click', () => {
    const key = th.dataset.key;
    sortDir = key === sortKey ? -sortDir : (key === 'host' || key === 'iface' ? 1 : -1);
    sortKey = key;
    document.querySelectorAll('#fleet th').forEach((h) => h.classList.remove('sorted-asc', 'sorted-desc'));
    th.classList.add(sortDir > 0 ? 'sorted-asc' : 'sorted-desc');
    schedule(true);
  }));
  $('filter').addEventListener('input', () => schedule(true));
  scroller.addEventListener('scroll', () => schedule(false));
  window.addEventListener('resize', () => schedule(false));

  // the feed first, then the snapshot: every change after the snapshot comes in a later "hosts" event
  feed('fleet', { hosts: (changed) => { changed.forEach(merge); schedule(true); } }, $('status'));
  json('/api/hosts').then((snapshot) => snapshot.hosts.forEach(merge)).catch(() => {}).finally(() => {
    schedule(true);
    setInterval(() => schedule(false), 1000); // ages tick
  });
})();
