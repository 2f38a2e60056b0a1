// The proxy dashboard: reads the API next to it (../api/...) every five seconds and renders tables.
// Everything shown comes from providers (tags, labels, files), so it is written with textContent only, never as HTML.
'use strict';

const API = new URL('../api/', document.baseURI);
const REFRESH_MS = 5000;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function badge(status) {
  return el('span', {class: 'badge ' + status}, status);
}

function list(items) {
  return (items || []).join(', ');
}

async function get(path) {
  const r = await fetch(new URL(path, API), {headers: {Accept: 'application/json'}});
  if (!r.ok) throw new Error(path + ': ' + r.status);
  return {body: await r.json(), next: r.headers.get('X-Next-Page')};
}

// Follows X-Next-Page (1 on the last page) through a paged list.
async function getAll(path) {
  const out = [];
  for (let page = 1; ; ) {
    const sep = path.includes('?') ? '&' : '?';
    const {body, next} = await get(path + sep + 'page=' + page + '&per_page=500');
    out.push(...body);
    const n = Number(next || 1);
    if (n <= page) return out;
    page = n;
  }
}

function fill(tableId, rows) {
  const body = document.querySelector('#' + tableId + ' tbody');
  body.replaceChildren(...rows);
}

function renderOverview(o) {
  const cards = [];
  for (const [kind, c] of Object.entries(o.http)) {
    cards.push(el('div', {class: 'card', 'data-kind': kind},
      el('h3', {}, kind[0].toUpperCase() + kind.slice(1)),
      el('div', {class: 'big'}, c.total),
      el('div', {}, el('span', {class: 'badge warning'}, c.warnings + ' warnings'), ' ',
        el('span', {class: 'badge disabled'}, c.errors + ' errors'))));
  }
  cards.push(el('div', {class: 'card'}, el('h3', {}, 'Features'),
    el('div', {}, 'Metrics: ' + (o.features.metrics || 'off')),
    el('div', {}, 'Access log: ' + (o.features.accessLog ? 'on' : 'off'))));
  cards.push(el('div', {class: 'card'}, el('h3', {}, 'Configuration'),
    el('div', {}, o.configurationReloads + ' reloads'),
    el('div', {class: 'muted'}, o.lastConfigurationReload ? 'last ' + o.lastConfigurationReload : 'none yet')));
  document.getElementById('overview-cards').replaceChildren(...cards);
}

function renderEntryPoints(eps) {
  fill('entrypoints-table', eps.map(ep => el('tr', {'data-name': ep.name},
    el('td', {}, ep.name), el('td', {}, el('code', {}, ep.address)), el('td', {}, ep.port ?? ''),
    el('td', {}, list(ep.http.middlewares)))));
}

function problem(item) {
  return item.error && item.error.length ? el('div', {class: 'error-text'}, item.error.join('; ')) : null;
}

function renderRouters(routers) {
  fill('routers-table', routers.map(r => el('tr', {'data-name': r.name, 'data-status': r.status},
    el('td', {}, badge(r.status)),
    el('td', {}, el('span', {class: 'router-name'}, r.name), problem(r)),
    el('td', {}, el('code', {}, r.rule || '')),
    el('td', {}, list(r.using || r.entryPoints)),
    el('td', {}, list(r.middlewares)),
    el('td', {}, r.service || ''),
    el('td', {}, r.provider))));
  applySearch();
}

function renderServices(services) {
  fill('services-table', services.map(s => {
    const servers = Object.entries(s.serverStatus || {}).map(([url, st]) =>
      el('span', {class: 'server', 'data-url': url}, el('span', {class: 'badge ' + st.toLowerCase()}, st), ' ',
        el('code', {}, url)));
    if (!servers.length && s.loadBalancer) {
      for (const srv of s.loadBalancer.servers || []) {
        servers.push(el('span', {class: 'server', 'data-url': srv.url}, el('code', {}, srv.url), ' ',
          el('span', {class: 'muted'}, '(not in use)')));
      }
    }
    if (s.weighted) {
      for (const m of s.weighted.services || []) servers.push(el('span', {class: 'server'}, m.name + ' × ' + m.weight));
    }
    return el('tr', {'data-name': s.name, 'data-status': s.status},
      el('td', {}, badge(s.status)), el('td', {}, s.name, problem(s)), el('td', {}, s.type),
      el('td', {}, ...servers), el('td', {}, list(s.usedBy)), el('td', {}, s.provider));
  }));
}

function renderMiddlewares(mws) {
  fill('middlewares-table', mws.map(m => el('tr', {'data-name': m.name, 'data-status': m.status},
    el('td', {}, badge(m.status)), el('td', {}, m.name, problem(m)), el('td', {}, m.type),
    el('td', {}, list(m.usedBy)), el('td', {}, m.provider))));
}

function renderProviders(providers) {
  fill('providers-table', providers.map(p => el('tr', {'data-name': p.name, 'data-status': p.status},
    el('td', {}, badge(p.status)), el('td', {}, p.name),
    el('td', {class: 'last-refresh'}, p.lastSuccessfulRefresh || 'never'),
    el('td', {}, p.refreshes), el('td', {}, p.failures),
    el('td', {class: 'error-text'}, p.lastError || ''), el('td', {}, p.routers))));
}

function renderErrors(raw) {
  const rows = [];
  for (const [kind, items] of [['router', raw.routers], ['service', raw.services], ['middleware', raw.middlewares]]) {
    for (const item of Object.values(items || {})) {
      if (item.status === 'enabled') continue;
      rows.push(el('tr', {'data-name': item.name}, el('td', {}, badge(item.status)), el('td', {}, kind),
        el('td', {}, item.name), el('td', {class: 'error-text'}, (item.error || []).join('; '))));
    }
  }
  fill('errors-table', rows);
  document.getElementById('no-errors').hidden = rows.length > 0;
}

async function renderExplain(providers) {
  const blocks = [];
  for (const p of providers.filter(p => p.explainable)) {
    const items = await getAll('providers/' + encodeURIComponent(p.name) + '/explain');
    const table = el('table', {class: 'explain', 'data-provider': p.name},
      el('thead', {}, el('tr', {}, el('th', {}, 'Item'), el('th', {}, 'Outcome'), el('th', {}, 'Reason'), el('th', {}, 'Routers'))),
      el('tbody', {}, ...items.map(i => el('tr', {},
        el('td', {}, i.item), el('td', {}, badge(i.exposed ? 'exposed' : 'skipped')),
        el('td', {}, i.reason), el('td', {}, list(i.routers))))));
    blocks.push(el('h3', {}, p.name), table);
  }
  document.getElementById('explain-tables').replaceChildren(...blocks);
}

function applySearch() {
  const q = document.getElementById('router-search').value.trim().toLowerCase();
  for (const tr of document.querySelectorAll('#routers-table tbody tr')) {
    tr.hidden = q !== '' && !tr.textContent.toLowerCase().includes(q);
  }
}

async function refresh() {
  const failure = document.getElementById('failure');
  try {
    const [overview, version, eps, raw, providers] = await Promise.all([
      get('overview'), get('version'), get('entrypoints'), get('rawdata'), getAll('providers')]);
    renderOverview(overview.body);
    document.getElementById('version').textContent = 'version ' + version.body.Version;
    renderEntryPoints(eps.body);
    renderRouters(Object.values(raw.body.routers));
    renderServices(Object.values(raw.body.services));
    renderMiddlewares(Object.values(raw.body.middlewares));
    renderProviders(providers);
    renderErrors(raw.body);
    await renderExplain(providers);
    document.getElementById('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
    document.body.dataset.loaded = 'true';
    failure.hidden = true;
  } catch (e) {
    failure.textContent = 'API unreachable: ' + e.message;
    failure.hidden = false;
  }
}

document.getElementById('router-search').addEventListener('input', applySearch);
refresh();
setInterval(refresh, REFRESH_MS);
