// Draws the report's charts from the JSON data block. Names from the topics are only ever passed to uPlot
// as labels (which it sets as text) or set with textContent: never parsed as markup or evaluated.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];

  // 9400000000 bit/s -> "9.40 G": per-second units read best with SI prefixes, as on the dashboard
  function si(v, unit) {
    if (v == null) {
      return '';
    }
    var a = Math.abs(v);
    if (/\/s$/.test(unit || '') && a >= 1000) {
      var prefixes = ['k', 'M', 'G', 'T'];
      var i = -1;
      while (a >= 1000 && i < prefixes.length - 1) {
        v /= 1000;
        a /= 1000;
        i++;
      }
      return v.toPrecision(3) + ' ' + prefixes[i];
    }
    return a >= 100 || v === Math.round(v) ? String(Math.round(v * 100) / 100) : v.toPrecision(3);
  }

  function width(el) {
    return Math.max(360, Math.min(640, (el.parentNode.parentNode.clientWidth || 1000) / 2 - 24));
  }

  // tick labels with as many decimals as the tick step needs: 9.412 G, 9.414 G rather than 9.41 G twice
  function ticksSi(ticks, step, unit) {
    var top = Math.max.apply(null, ticks.map(Math.abs));
    var scale = 1;
    var prefix = '';
    if (/\/s$/.test(unit || '') && top >= 1000) {
      var prefixes = ['k', 'M', 'G', 'T'];
      for (var i = 0; i < prefixes.length && top / scale >= 1000; i++) {
        scale *= 1000;
        prefix = ' ' + prefixes[i];
      }
    }
    var decimals = Math.min(6, Math.max(0, -Math.floor(Math.log10(step / scale) + 1e-9)));
    return ticks.map(function (t) { return t === 0 ? '0' : (t / scale).toFixed(decimals) + prefix; });
  }

  function yAxis(unit, label) {
    return {
      label: label + ' (' + unit + ')',
      size: 70,
      values: function (u, ticks, axis, space, step) { return ticksSi(ticks, step || 1, unit); }
    };
  }

  function lineChart(el, s) {
    var ps = s.perSecond;
    var series = [{ label: 's' }];
    var columns = [ps.x];
    ps.series.forEach(function (line, i) {
      series.push({
        label: 'repetition ' + line.repetition,
        stroke: colours[i % colours.length],
        width: 1.5,
        // x holds every repetition's window offsets (each started at its own phase of the second), so each
        // line has nulls where the others have points: join across them
        spanGaps: true,
        value: function (u, v) { return v == null ? '-' : si(v, ps.unit) + ' ' + ps.unit; }
      });
      columns.push(line.values);
    });
    return new uPlot({
      width: width(el),
      height: 260,
      scales: { x: { time: false } },
      axes: [{ label: 'seconds since measuring began' }, yAxis(ps.unit, ps.metric)],
      series: series
    }, columns, el);
  }

  function barChart(el, s) {
    var x = s.values.map(function (p) { return p.repetition; });
    var y = s.values.map(function (p) { return p.value; });
    var series = [{ label: 'repetition' }, {
      label: s.metric,
      fill: 'rgba(31,119,180,0.45)',
      stroke: '#1f77b4',
      paths: uPlot.paths && uPlot.paths.bars ? uPlot.paths.bars({ size: [0.6, 80] }) : undefined,
      points: { show: false },
      value: function (u, v) { return v == null ? '-' : si(v, s.unit) + ' ' + s.unit; }
    }, {
      label: 'mean', stroke: '#222', width: 2, points: { show: false },
      value: function () { return si(s.mean, s.unit) + ' ' + s.unit; }
    }];
    var columns = [x, y, x.map(function () { return s.mean; })];
    var bands = [];
    if (s.ci95 != null) {
      series.push({ label: 'mean + ci95', stroke: '#888', dash: [5, 4], points: { show: false } });
      series.push({ label: 'mean - ci95', stroke: '#888', dash: [5, 4], points: { show: false } });
      columns.push(x.map(function () { return s.mean + s.ci95; }));
      columns.push(x.map(function () { return s.mean - s.ci95; }));
      bands.push({ series: [3, 4], fill: 'rgba(0,0,0,0.08)' });
    }
    var lo = Math.min.apply(null, [0].concat(y, s.ci95 != null ? [s.mean - s.ci95] : []));
    var hi = Math.max.apply(null, y.concat([s.mean + (s.ci95 || 0)]));
    return new uPlot({
      width: width(el),
      height: 260,
      bands: bands,
      scales: {
        x: { time: false, range: function () { return [Math.min.apply(null, x) - 0.5, Math.max.apply(null, x) + 0.5]; } },
        y: { range: function () { return [lo, hi > lo ? hi * 1.1 : lo + 1]; } }
      },
      axes: [{ label: 'repetition', splits: function () { return x; } }, yAxis(s.unit, s.metric)],
      series: series
    }, columns, el);
  }

  var drawn = 0;
  data.sections.forEach(function (s, i) {
    if (s.perSecond) {
      lineChart(document.getElementById('series-' + i), s);
      drawn++;
    }
    barChart(document.getElementById('bars-' + i), s);
    drawn++;
  });
  document.body.setAttribute('data-charts', String(drawn)); // tests wait for this
})();
