(function () {
      var sci = function (v) {
        var p = v.toExponential(2).split('e'), sup = '\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079';
        return p[0] + '\u00d710' + String(Number(p[1])).replace(/./g, function (c) { return c === '-' ? '\u207b' : sup[c]; });
      };
      var extreme = function (a) { return a !== 0 && (a < 1e-4 || a >= 1e6); };
      var sig = function (v) { return extreme(Math.abs(v)) ? sci(v) : v.toLocaleString('en-US', {maximumSignificantDigits: 3}); };
      var guard = function (f) { return function (v) { return typeof v === 'number' && isFinite(v) ? f(v) : String(v); }; };
      var units = {
        number: guard(function (v) {
          var a = Math.abs(v);
          if (Number.isInteger(v) && a < 1e15) { return v.toLocaleString('en-US'); }
          if (extreme(a)) { return sci(v); }
          return a >= 1 ? v.toLocaleString('en-US', {maximumFractionDigits: 2}) : sig(v);
        }),
        seconds: guard(function (v) {
          var a = Math.abs(v);
          if (a === 0) { return '0'; } // beside ticks in ms, "0 s" reads as another unit
          if (a >= 1) { return sig(v) + ' s'; }
          if (a >= 1e-3) { return sig(v * 1e3) + ' ms'; }
          if (a >= 1e-6) { return sig(v * 1e6) + ' \u00b5s'; }
          if (a >= 1e-9) { return sig(v * 1e9) + ' ns'; }
          return sci(v) + ' s';
        }),
        bytes: guard(function (v) {
          var a = Math.abs(v), i = 0, u = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
          while (a >= 1024 && i < u.length - 1) { a /= 1024; i++; }
          return sig(v < 0 ? -a : a) + ' ' + u[i];
        })
      };
      var list = function (a) { return a === undefined || a === null ? [] : Array.isArray(a) ? a : [a]; };
      var tooltip = function (fx, fy, xn, yn) {
        return function (p) {
          var e = echarts.format.encodeHTML, v = p.value;
          if (!Array.isArray(v)) { return e(String(p.seriesName)) + '<br>' + e(String(p.name)) + ': ' + e(fy(v)); }
          var r = e(String(p.seriesName)) + '<br>' + e(xn) + ': ' + e(fx(v[0])) + '<br>' + e(yn) + ': ' + e(fy(v[1]));
          if (v.length > 3 && v[2] !== v[3]) { r += '<br>min ' + e(fy(v[2])) + ', max ' + e(fy(v[3])); }
          return r;
        };
      };
      var whisker = function (params, api) {
        var x = api.value(0), lo = api.value(2), hi = api.value(3);
        if (lo === hi) { return; }
        var a = api.coord([x, lo]), b = api.coord([x, hi]), w = 4;
        var st = {stroke: api.visual('color'), lineWidth: 1};
        return {type: 'group', children: [
          {type: 'line', shape: {x1: a[0], y1: a[1], x2: b[0], y2: b[1]}, style: st},
          {type: 'line', shape: {x1: a[0] - w, y1: a[1], x2: a[0] + w, y2: a[1]}, style: st},
          {type: 'line', shape: {x1: b[0] - w, y1: b[1], x2: b[0] + w, y2: b[1]}, style: st}
        ]};
      };
      var prepare = function (o) {
        var first = {};
        ['xAxis', 'yAxis'].forEach(function (k) {
          list(o[k]).forEach(function (a, i) {
            var t = a.type || (k === 'yAxis' ? 'value' : 'category');
            if (k === 'yAxis' && a.position !== 'right' && (a.nameLocation || 'end') === 'end') {
              // The name starts at the axis and runs right, over the plot,
              // rather than centred on the axis, where the left edge cuts it.
              a.nameTextStyle = Object.assign({align: 'left'}, a.nameTextStyle);
            }
            if (t !== 'value' && t !== 'log') { return; }
            a.axisLabel = a.axisLabel || {};
            var n = a.axisLabel.formatter;
            if (n === undefined || n === null || n === '') { n = 'number'; }
            if (typeof n !== 'string' || !Object.prototype.hasOwnProperty.call(units, n)) { return; }
            a.axisLabel.formatter = units[n];
            if (i === 0) { first[k] = {f: units[n], name: a.name}; }
          });
        });
        var x = first.xAxis || {f: String, name: 'x'}, y = first.yAxis || {f: String, name: 'y'};
        o.tooltip = o.tooltip || {};
        o.tooltip.formatter = tooltip(x.f, y.f, String(x.name || 'x'), String(y.name || 'y'));
        list(o.series).forEach(function (s) { if (s.type === 'custom') { s.renderItem = whisker; } });
        return o;
      };
      var fit = function (chart) {
        var lg, view;
        try {
          lg = chart.getModel().getComponent('legend');
          view = lg && lg.get('show') !== false && chart.getViewOfComponentModel(lg);
        } catch (err) { return; }
        if (!view) { return; }
        var g = view.group, r = g.getBoundingRect(), grid = chart.getOption().grid;
        var top = Math.ceil(g.y + r.y + r.height) + (chart.lvPaper ? 28 : 36);
        if (grid && grid[0] && grid[0].top !== top) { chart.setOption({grid: {top: top}}); }
        // A plot left short by its legend (a half-width chart on paper)
        // labels fewer ticks, so that they do not crowd: a linear axis
        // gets fewer, a log axis of many decades labels every second or
        // third.
        var plot = chart.getHeight() - top - 40, ys = chart.getOption().yAxis || [], ax = ys[0];
        // On paper a legend of many rows would squash the plot of a
        // half-width chart: the chart grows until the plot keeps 90 px.
        var el = chart.getDom();
        if (chart.lvPaper && plot < 90 && el) {
          el.style.setProperty('height', (chart.getHeight() + 90 - plot) + 'px', 'important');
          chart.resize();
          plot = 90;
        }
        if (!ax || ax.type === 'category') { return; }
        if (ax.type === 'value') {
          var split = plot < 80 ? 2 : plot < 130 ? 3 : 5;
          if (ax.splitNumber !== split) { chart.setOption({yAxis: {splitNumber: split}}); }
          return;
        }
        var f = ax.axisLabel && ax.axisLabel.formatter;
        if (ax.type !== 'log' || typeof f !== 'function') { return; }
        var base = f.base || f;
        // The decades labelled are counted down from the top one, so
        // that the largest is always labelled.
        var lb = ax.logBase || 10, hi = 0, lo = Infinity;
        (chart.getOption().series || []).forEach(function (se) {
          (se.data || []).forEach(function (d) {
            var v = d && d.value !== undefined ? d.value : d;
            // [x, y] or, with whiskers, [x, y, min, max].
            (Array.isArray(v) ? v.slice(1) : [v]).forEach(function (y) {
              if (typeof y === 'number' && isFinite(y) && y > 0) { hi = Math.max(hi, y); lo = Math.min(lo, y); }
            });
          });
        });
        // The axis ends at the powers of its base at or above and at or
        // below the data. Every decade is labelled where a label has 24
        // px to itself; else every second, or third.
        var top = hi > 0 ? Math.ceil(Math.log(hi) / Math.log(lb) - 1e-9) : 0;
        var bottom = hi > 0 ? Math.floor(Math.log(lo) / Math.log(lb) + 1e-9) : 0;
        var room = plot / Math.max(1, top - bottom);
        var every = room >= 24 ? 1 : room >= 12 ? 2 : 3;
        if ((f.every || 1) === every && f.top === top) { return; }
        var g = every === 1 ? base : function (v, i) {
          var d = Math.round(Math.log(v) / Math.log(lb));
          return ((top - d) % every + every) % every ? '' : base(v, i);
        };
        g.base = base; g.every = every; g.top = top;
        chart.setOption({yAxis: {axisLabel: {formatter: g}}});
      };
      var follow = function (chart, el, hasToolbox) {
        var again = function () {
          if (chart.isDisposed() || !document.body.contains(el)) { return; }
          chart.resize();
          fit(chart);
        };
        var printing = function (on) {
          if (chart.isDisposed()) { return; }
          if (hasToolbox) { chart.setOption({toolbox: {show: !on}}); }
          // The screen's height is kept, to be restored after printing.
          var dom = chart.getDom();
          if (on && chart.lvHeight === undefined) { chart.lvHeight = dom.style.height; }
          if (!on && chart.lvHeight !== undefined) { dom.style.setProperty('height', chart.lvHeight); chart.lvHeight = undefined; }
          chart.lvPaper = on;
          // On paper the legend is set smaller, so that a half-width
          // chart keeps most of its height for the plot.
          chart.setOption({legend: {textStyle: {fontSize: on ? 9.5 : 12}, itemWidth: on ? 12 : 25, itemHeight: on ? 8 : 14, itemGap: on ? 4 : 10}});
          again();
        };
        window.addEventListener('resize', again);
        // The element's own size too: a notebook may draw the chart before
        // its output is in the page, or widen it later.
        if (window.ResizeObserver) { new ResizeObserver(again).observe(el); }
        window.addEventListener('beforeprint', function () { printing(true); });
        window.addEventListener('afterprint', function () { printing(false); });
        var mq = window.matchMedia && window.matchMedia('print');
        if (mq && mq.addEventListener) { mq.addEventListener('change', function (e) { printing(e.matches); }); }
        fit(chart);
      };
      return {units: units, prepare: prepare, fit: fit, follow: follow};
    })()
