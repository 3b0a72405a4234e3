// A stand-in for ECharts with just what browser.Check looks at: init()
// puts a canvas in the element and marks it as ECharts does, setOption()
// draws on it, getInstanceByDom() finds the instance again.
window.echarts = (function () {
  var instances = new Map();
  function init(el) {
    var canvas = document.createElement('canvas');
    canvas.width = el.clientWidth || 300;
    canvas.height = el.clientHeight || 200;
    el.appendChild(canvas);
    el.setAttribute('_echarts_instance_', 'standin_' + instances.size);
    var inst = {
      setOption: function (opt) {
        // Drawn on the next frame, as ECharts does.
        requestAnimationFrame(function () {
          var ctx = canvas.getContext('2d');
          ctx.fillStyle = '#5470c6';
          (opt.data || [1]).forEach(function (v, i) { ctx.fillRect(10 + 30 * i, canvas.height - 10 * v, 20, 10 * v); });
        });
      },
      isDisposed: function () { return false; }
    };
    instances.set(el, inst);
    return inst;
  }
  return { init: init, getInstanceByDom: function (el) { return instances.get(el); } };
})();
