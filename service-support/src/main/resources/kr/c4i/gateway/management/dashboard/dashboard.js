// Reads dashboard/figures every few seconds and draws each chart's recent history with Chart.js.
// Rates are computed here, from the change of a counter's total between two reads; a ratio is the change of one
// total over the change of another (its "of") between two reads.
(function () {
  'use strict';
  const REFRESH_MS = 2000;
  const HISTORY = 150;
  const charts = new Map();   // chart title -> Chart
  const previous = new Map(); // "chart/series" -> {value, time} for rates
  const status = document.getElementById('status');

  function format(unit, value) {
    if (value === null || value === undefined) {
      return '-';
    }
    if (unit === 'bytes') {
      return (value / 1048576).toFixed(1) + ' MB';
    }
    return (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2)) + ' ' + unit;
  }

  function create(chart, id) {
    const figure = document.createElement('figure');
    const caption = document.createElement('figcaption');
    caption.textContent = chart.title + ' (' + (chart.unit === 'bytes' ? 'MB' : chart.unit) + ')';
    const canvas = document.createElement('canvas');
    canvas.id = 'chart-' + id;
    canvas.dataset.title = chart.title;
    const plot = document.createElement('div');
    plot.className = 'plot';
    plot.append(canvas);
    figure.append(caption, plot);
    document.getElementById('charts').append(figure);
    return new Chart(canvas, {
      type: 'line',
      data: { labels: [], datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        spanGaps: true,
        elements: { point: { radius: 0 } },
        scales: {
          x: { ticks: { maxTicksLimit: 8 } },
          y: { beginAtZero: true, ticks: { callback: (v) => format(chart.unit, v) } }
        },
        plugins: { legend: { position: 'bottom' } }
      }
    });
  }

  function point(chart, series, time) {
    if (series.kind === 'ratio') {
      return ratio(chart, series, time);
    }
    if (series.kind !== 'rate' || series.value === null) {
      return series.value;
    }
    const key = chart.title + '/' + series.label;
    const last = previous.get(key);
    previous.set(key, { value: series.value, time: time });
    if (!last || time <= last.time) {
      return null;
    }
    return Math.max(0, (series.value - last.value) * 1000 / (time - last.time));
  }

  function ratio(chart, series, time) {
    if (series.value === null || series.of === null || series.of === undefined) {
      return null;
    }
    const key = chart.title + '/' + series.label;
    const last = previous.get(key);
    previous.set(key, { value: series.value, of: series.of, time: time });
    if (!last || time <= last.time || series.of <= last.of) {
      return null;
    }
    return Math.max(0, (series.value - last.value) / (series.of - last.of));
  }

  function update(figures) {
    document.getElementById('title').textContent = figures.service + ' dashboard';
    document.title = figures.service + ' dashboard';
    const label = new Date(figures.time).toLocaleTimeString();
    figures.charts.forEach((chart, index) => {
      let drawn = charts.get(chart.title);
      if (!drawn) {
        drawn = create(chart, index);
        charts.set(chart.title, drawn);
      }
      const data = drawn.data;
      data.labels.push(label);
      chart.series.forEach((series) => {
        let dataset = data.datasets.find((d) => d.label === series.label);
        if (!dataset) {
          // A line that appears later (a new quarantine reason) starts with gaps before its first value.
          dataset = { label: series.label, data: new Array(data.labels.length - 1).fill(null), borderWidth: 1.5 };
          data.datasets.push(dataset);
        }
        dataset.data.push(point(chart, series, figures.time));
      });
      data.datasets.forEach((d) => {
        while (d.data.length < data.labels.length) {
          d.data.push(null);
        }
      });
      if (data.labels.length > HISTORY) {
        data.labels.shift();
        data.datasets.forEach((d) => d.data.shift());
      }
      drawn.update('none');
    });
  }

  async function refresh() {
    try {
      const response = await fetch('dashboard/figures', { cache: 'no-store', credentials: 'same-origin' });
      if (!response.ok) {
        throw new Error('figures answered ' + response.status);
      }
      update(await response.json());
      status.textContent = 'updated ' + new Date().toLocaleTimeString() + ', every ' + REFRESH_MS / 1000 + ' s';
      status.className = '';
    } catch (error) {
      status.textContent = 'cannot read the figures: ' + error.message;
      status.className = 'error';
    }
  }

  refresh();
  setInterval(refresh, REFRESH_MS);
}());
