// Reads dashboard/figures every few seconds and draws each chart's recent history with Chart.js.
// Rates are computed here, from the change of a counter's total between two reads; a ratio is the change of one
// total over the change of another (its "of") between two reads.
// The search box asks custody/<message id> where a message is and shows its trail above the charts.
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

  // Where is message X: the custody endpoint beside this one (same listener, same credential) answers with the steps
  // this service's custody log has of the message and its last known position. Every value is untrusted (message ids
  // and details come from the C4I applications and from other sites): text nodes only, never markup.
  const SEARCH_TIMEOUT_MS = 10000;
  const STEP_HEADINGS = ['Time (UTC)', 'Where', 'Step', 'Peer', 'Link', 'Precedence', 'Detail'];
  const HOP_HEADINGS = ['Time (UTC)', 'Where', 'Action'];
  const custody = document.getElementById('custody');
  const messageId = document.getElementById('message-id');
  let asked = 0; // the latest question: the answer to an older one, arriving late, is dropped

  // Relative to the page, /actuator/dashboard: /actuator/custody/<id>. Each part between slashes encoded on its own:
  // the endpoint takes the rest of the path as the id, and the listener refuses an encoded slash.
  function custodyUrl(id) {
    return 'custody/' + id.split('/').map(encodeURIComponent).join('/');
  }

  function element(tag, id, text) {
    const made = document.createElement(tag);
    if (id) {
      made.id = id;
    }
    if (text !== undefined) {
      made.textContent = text;
    }
    return made;
  }

  function cell(value) {
    return value === null || value === undefined || value === '' ? '-' : String(value);
  }

  function lower(value) {
    return cell(value).toLowerCase();
  }

  function show(id, ...parts) {
    const heading = element('h2');
    heading.append('Message ', element('code', 'custody-id', id));
    custody.replaceChildren(heading, ...parts);
    custody.hidden = false;
  }

  function failed(id, text) {
    const line = element('p', 'custody-error', text.replace(/\s+/g, ' '));
    line.className = 'error';
    line.title = line.textContent;
    show(id, line);
  }

  function trail(id, answer) {
    const parts = [element('p', 'custody-position', answer.position)];
    if (answer.steps.length > 0) {
      const table = element('table', 'custody-steps');
      const headings = table.createTHead().insertRow();
      STEP_HEADINGS.forEach((title) => headings.append(element('th', null, title)));
      const rows = table.createTBody();
      answer.steps.forEach((step) => {
        const row = rows.insertRow();
        [step.at, cell(step.hopKind) + ' ' + cell(step.hop), step.event, (step.peers || []).join(', '), step.link,
          step.precedence, step.detail].forEach((value) => {
          row.insertCell().textContent = cell(value);
        });
      });
      parts.push(table);
    }
    // The hops the message carried into this node's inbox: its whole path, through sites this node cannot ask.
    (Array.isArray(answer.carried) ? answer.carried : []).forEach((carried) => {
      const hops = carried && carried.trace && Array.isArray(carried.trace.hops) ? carried.trace.hops : [];
      parts.push(element('p', null, 'Hops it carried into ' + cell(carried && carried.place) + '\u2019s inbox'));
      const table = element('table', 'custody-hops');
      const headings = table.createTHead().insertRow();
      HOP_HEADINGS.forEach((title) => headings.append(element('th', null, title)));
      const rows = table.createTBody();
      hops.forEach((hop, i) => {
        const row = rows.insertRow();
        [hop.at, lower(hop.kind) + ' ' + cell(hop.name), lower(hop.action)].forEach((value) => {
          row.insertCell().textContent = cell(value);
        });
        if (i === 0 && carried.trace.omitted > 0) {
          rows.insertRow().insertCell().textContent = '(' + carried.trace.omitted + ' hops omitted)';
        }
      });
      parts.push(table);
    });
    show(typeof answer.messageId === 'string' ? answer.messageId : id, ...parts);
  }

  async function find(event) {
    event.preventDefault();
    const question = ++asked;
    const id = messageId.value.trim();
    if (id === '') {
      custody.hidden = true;
      custody.replaceChildren();
      return;
    }
    // A browser resolves "." and ".." in a path, and the listener refuses an empty part: such an id would ask for
    // another one, or for nothing.
    if (id.split('/').some((part) => part === '' || part === '.' || part === '..')) {
      failed(id, 'cannot ask for this id in a URL (an empty, "." or ".." part between slashes); '
          + 'bin/gateway trace takes any id');
      return;
    }
    show(id, element('p', 'custody-pending', 'asking\u2026'));
    try {
      const response = await fetch(custodyUrl(id), { cache: 'no-store', credentials: 'same-origin',
        signal: AbortSignal.timeout(SEARCH_TIMEOUT_MS) });
      const answer = await response.json().catch(() => null);
      if (question !== asked) {
        return;
      }
      if (!response.ok) {
        // 400: the listener refuses some characters in a path (%, ;, \) before the endpoint sees the id.
        throw new Error('the custody endpoint answered ' + response.status
            + (answer && typeof answer.error === 'string' ? ': ' + answer.error : '')
            + (response.status === 400 ? ' (the listener refuses this id in a URL; bin/gateway trace takes any id)'
              : ''));
      }
      if (!answer || typeof answer.position !== 'string' || !Array.isArray(answer.steps)) {
        throw new Error('the custody endpoint answered something else than a custody trail');
      }
      trail(id, answer);
    } catch (error) {
      if (question === asked) {
        failed(id, 'cannot ask where the message is: ' + (error.name === 'TimeoutError'
          ? 'no answer within ' + SEARCH_TIMEOUT_MS / 1000 + ' s' : error.message));
      }
    }
  }

  document.getElementById('search').addEventListener('submit', find);

  refresh();
  setInterval(refresh, REFRESH_MS);
}());
