// kwire web console: a single page over the console's JSON API (/api/...). No build step.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const enc = encodeURIComponent;
const REFRESH_MS = 3000;
let readOnly = false;
let timer = null;
let current = null; // {render, live}
let pendingFlash = null; // [message, kind] to show once the next page is up

function fmtBytes(n) {
  if (n == null) return "–";
  const u = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : n) + " " + u[i];
}
function fmtTime(ms) { return ms < 0 ? "–" : new Date(ms).toISOString().replace("T", " ").replace("Z", ""); }

async function api(path, opts = {}) {
  const init = {method: opts.method || (opts.body !== undefined ? "POST" : "GET"), headers: {}};
  if (opts.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.headers["X-Kwire-Console"] = "1";
    init.body = JSON.stringify(opts.body);
  }
  const r = await fetch(path, init);
  let data = null;
  try { data = await r.json(); } catch (e) { data = {error: "HTTP_" + r.status, message: r.statusText}; }
  if (!r.ok) { const err = new Error(data.message || data.error); err.kafka = data.error; err.status = r.status; throw err; }
  return data;
}

function flash(msg, kind = "error") {
  const f = $("#flash");
  f.className = msg ? kind : "";
  f.textContent = msg || "";
}

function confirmAction(text, expected) {
  return new Promise((resolve) => {
    const m = $("#modal"), input = $("#modal-input");
    $("#modal-text").textContent = text;
    $("#modal-hint").innerHTML = "Type <b>" + esc(expected) + "</b> to confirm.";
    input.value = "";
    m.classList.remove("hidden");
    input.focus();
    const done = (ok) => {
      m.classList.add("hidden");
      $("#modal-ok").onclick = $("#modal-cancel").onclick = null;
      resolve(ok);
    };
    $("#modal-cancel").onclick = () => done(false);
    $("#modal-ok").onclick = () => {
      if (input.value !== expected) { $("#modal-hint").innerHTML = "<span class=bad>Type exactly " + esc(expected) + "</span>"; return; }
      done(true);
    };
  });
}

// -- rendering of keys and values -----------------------------------------------------------
function renderBytes(v, format) {
  if (v == null) return '<span class="muted">null</span>';
  const hex = '<span class="badge binary">hex</span><pre class="hex">' + esc(v.hex.replace(/(..)/g, "$1 ").trim()) + "</pre>";
  if (format === "hex") return hex;
  if (v.kind === "binary") return '<span class="badge binary">binary</span>' + hex.replace('<span class="badge binary">hex</span>', "");
  if ((format === "auto" || format === "json") && v.json !== undefined) return '<span class="badge">json</span><pre class="json">' + esc(v.json) + "</pre>";
  return "<pre class=\"text\">" + esc(v.text) + "</pre>";
}

// -- pages -----------------------------------------------------------------------------------
async function clusterPage() {
  const c = await api("/api/cluster");
  readOnly = c.read_only;
  const card = (k, v, cls = "") => `<div class="card"><div class="v ${cls}" id="card-${k.replace(/\W+/g, "-").toLowerCase()}">${esc(v)}</div><div class="k">${esc(k)}</div></div>`;
  return `<h1>Cluster</h1><div class="cards">
    ${card("Cluster id", c.cluster_id)}${card("Controller", c.controller)}${card("Brokers", c.brokers.length)}
    ${card("Topics", c.topics)}${card("Partitions", c.partitions)}
    ${card("Under-replicated", c.under_replicated, c.under_replicated ? "bad" : "good")}
    ${card("Offline partitions", c.offline, c.offline ? "bad" : "good")}</div>
    <h2>Brokers</h2><table id="brokers"><thead><tr><th>Id</th><th>Host</th><th>Port</th><th>Rack</th><th>Controller</th><th class=num>Leaders</th><th class=num>Replicas</th></tr></thead><tbody>
    ${c.brokers.map((b) => `<tr><td>${b.id}</td><td>${esc(b.host)}</td><td>${b.port}</td><td>${esc(b.rack ?? "–")}</td><td>${b.controller ? "yes" : ""}</td><td class=num>${b.leaders}</td><td class=num>${b.replicas}</td></tr>`).join("")}
    </tbody></table>`;
}

function topicsControls() {
  if (readOnly) return "";
  return `<form class="inline" id="create-topic"><b>New topic</b>
    <label>Name <input name="name" id="new-topic-name" required></label>
    <label>Partitions <input name="partitions" id="new-topic-partitions" type="number" min="1" value="1"></label>
    <label>Replication factor <input name="rf" type="number" min="-1" value="-1" title="-1: the broker default"></label>
    <button class="primary" id="create-topic-button">Create</button></form>`;
}

function bindTopicsControls() {
  const f = $("#create-topic");
  if (!f) return;
  f.onsubmit = async (ev) => {
    ev.preventDefault();
    const name = f.name.value.trim();
    try {
      await api("/api/topics", {body: {name, partitions: +f.partitions.value, replication_factor: +f.rf.value}});
      flash(`Topic ${name} created.`, "info");
      f.name.value = "";
      await refresh();
    } catch (e) { flash(`Could not create topic ${name}: ${e.kafka}: ${e.message}`); }
  };
}

async function topicsPage() {
  const d = await api("/api/topics");
  readOnly = d.read_only;
  return `<h1>Topics</h1><table id="topics"><thead><tr><th>Name</th><th class=num>Partitions</th><th class=num>Replication</th><th class=num>Under-replicated</th><th class=num>Size</th></tr></thead><tbody>
    ${d.topics.map((t) => `<tr data-topic="${esc(t.name)}"><td><a href="#/topic/${enc(t.name)}">${esc(t.name)}</a>${t.internal ? ' <span class="badge">internal</span>' : ""}</td><td class=num>${t.partitions}</td><td class=num>${t.replication_factor}</td><td class="num ${t.under_replicated ? "bad" : ""}">${t.under_replicated}</td><td class=num>${fmtBytes(t.size)}</td></tr>`).join("")}
    </tbody></table>`;
}

async function topicPage(name) {
  const t = await api("/api/topics/" + enc(name));
  readOnly = t.read_only;
  const del = readOnly ? "" : `<button class="danger" id="delete-topic">Delete topic</button>`;
  return `<h1>Topic ${esc(t.name)} ${t.internal ? '<span class="badge">internal</span>' : ""}</h1>
    <p><a id="browse" href="#/records/${enc(name)}">Browse records</a> · id <code>${esc(t.topic_id)}</code> ${del}</p>
    <h2>Partitions</h2><table id="partitions"><thead><tr><th>Partition</th><th>Leader</th><th>Replicas</th><th>ISR</th><th class=num>Start offset</th><th class=num>End offset</th><th class=num>Messages</th><th class=num>Size</th></tr></thead><tbody>
    ${t.partitions.map((p) => `<tr><td>${p.partition}</td><td>${p.leader}</td><td>${p.replicas.join(", ")}</td><td class="${p.isr.length < p.replicas.length ? "bad" : ""}">${p.isr.join(", ")}</td><td class=num>${p.start_offset}</td><td class=num>${p.end_offset}</td><td class=num>${p.messages}</td><td class=num>${fmtBytes(p.size)}</td></tr>`).join("")}
    </tbody></table>
    <h2>Configs (non-default)</h2>${t.configs.length ? `<table id="configs"><tbody>${t.configs.map((c) => `<tr><td>${esc(c.name)}</td><td>${esc(c.value)}</td><td class=muted>${esc(c.source)}</td></tr>`).join("")}</tbody></table>` : '<p class="muted">none</p>'}`;
}

function bindTopic(name) {
  const b = $("#delete-topic");
  if (!b) return;
  b.onclick = async () => {
    if (!(await confirmAction(`Delete topic ${name} and all its records?`, name))) return;
    try {
      await api("/api/topics/" + enc(name) + "/delete", {body: {confirm: name}});
      pendingFlash = [`Topic ${name} deleted.`, "info"]; // shown by the page navigated to
      location.hash = "#/topics";
    } catch (e) { flash(`Could not delete topic ${name}: ${e.kafka}: ${e.message}`); }
  };
}

function recordsControls(name, q) {
  return `<h1>Records of ${esc(name)}</h1><form class="inline" id="records-form">
    <label>Partition <input name="partition" id="rec-partition" type="number" min="0" value="${esc(q.partition ?? 0)}"></label>
    <label>From <select name="mode" id="rec-mode">
      <option value="newest">newest</option><option value="offset">offset</option><option value="timestamp">timestamp (ms or ISO)</option></select></label>
    <label>Offset / time <input name="at" id="rec-at" value="${esc(q.at ?? "")}"></label>
    <label>Limit <input name="limit" id="rec-limit" type="number" min="1" max="500" value="${esc(q.limit ?? 50)}"></label>
    <label>Show as <select name="format" id="rec-format"><option value="auto">auto</option><option value="text">UTF-8</option><option value="json">JSON</option><option value="hex">hex</option></select></label>
    <button class="primary" id="rec-go">Show</button></form>`;
}

let recordsQuery = {};
function bindRecords(name) {
  const f = $("#records-form");
  f.mode.value = recordsQuery.mode || "newest";
  f.format.value = recordsQuery.format || "auto";
  f.onsubmit = (ev) => {
    ev.preventDefault();
    recordsQuery = {partition: f.partition.value, mode: f.mode.value, at: f.at.value, limit: f.limit.value, format: f.format.value};
    refresh();
  };
  f.format.onchange = () => { recordsQuery.format = f.format.value; refresh(); };
}

async function recordsPage(name) {
  const q = recordsQuery;
  let path = `/api/topics/${enc(name)}/records?partition=${enc(q.partition ?? 0)}&limit=${enc(q.limit ?? 50)}`;
  if (q.mode === "offset" && q.at !== "") path += "&offset=" + enc(q.at);
  if (q.mode === "timestamp" && q.at !== "") {
    const ms = /^\d+$/.test(q.at) ? +q.at : Date.parse(q.at);
    if (isNaN(ms)) throw new Error("not a time: " + q.at);
    path += "&timestamp=" + ms;
  }
  const d = await api(path);
  const fmt = q.format || "auto";
  return `<p class="muted" id="rec-range">partition ${d.partition}: offsets ${d.start_offset} to ${d.end_offset}; showing ${d.records.length} from ${d.from_offset}</p>
    <table id="records"><thead><tr><th class=num>Offset</th><th>Timestamp</th><th>Key</th><th>Value</th><th>Headers</th></tr></thead><tbody>
    ${d.records.map((r) => r.error ? `<tr><td class=num>${r.offset}</td><td colspan=4 class=bad>${esc(r.error)}</td></tr>` :
      `<tr data-offset="${r.offset}"><td class=num>${r.offset}</td><td>${fmtTime(r.timestamp)}</td><td class="key">${renderBytes(r.key, fmt)}</td><td class="value">${renderBytes(r.value, fmt)}</td><td class="headers">${r.headers.map((h) => `<div><b>${esc(h.key)}</b>: ${renderBytes(h.value, fmt)}</div>`).join("")}</td></tr>`).join("")}
    </tbody></table>`;
}

async function groupsPage() {
  const d = await api("/api/groups");
  return `<h1>Consumer groups</h1><table id="groups"><thead><tr><th>Group</th><th>State</th><th>Type</th><th class=num>Members</th><th class=num>Lag</th></tr></thead><tbody>
    ${d.groups.map((g) => `<tr data-group="${esc(g.group)}"><td><a href="#/group/${enc(g.group)}">${esc(g.group)}</a></td><td>${esc(g.state)}</td><td>${esc(g.type ?? g.protocol_type)}</td><td class=num>${g.members ?? "–"}</td><td class=num>${g.lag ?? "–"}</td></tr>`).join("")}
    </tbody></table>${d.truncated ? '<p class="muted">Only the first groups are shown.</p>' : ""}`;
}

function chart(history) {
  const W = 720, H = 180, P = 36;
  if (!history.length) return '<p class="muted">No lag samples yet.</p>';
  const t0 = history[0].t, t1 = Math.max(history[history.length - 1].t, t0 + 1);
  const max = Math.max(1, ...history.map((h) => h.lag));
  const x = (t) => P + (W - 2 * P) * (t - t0) / (t1 - t0);
  const y = (v) => H - P + (-(H - 2 * P) * v / max);
  const pts = history.map((h) => `${x(h.t).toFixed(1)},${y(h.lag).toFixed(1)}`).join(" ");
  const span = t1 - t0;
  const ago = span < 120 ? Math.round(span) + " s ago" : (span / 60).toFixed(1) + " min ago";
  return `<svg class="chart" id="lag-chart" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" data-points="${history.length}">
    <line class="axis" x1="${P}" y1="${H - P}" x2="${W - P}" y2="${H - P}"/><line class="axis" x1="${P}" y1="${P}" x2="${P}" y2="${H - P}"/>
    <text x="4" y="${P + 4}">${max}</text><text x="4" y="${H - P}">0</text>
    <text x="${P}" y="${H - 10}">${ago}</text><text x="${W - P - 30}" y="${H - 10}">now</text>
    <polyline class="line" points="${pts}"/>${history.length === 1 ? `<circle cx="${x(history[0].t)}" cy="${y(history[0].lag)}" r="3" fill="#2f6feb"/>` : ""}</svg>`;
}

let resetState = {}; // the reset form's choices, kept across live refreshes
async function groupPage(id) {
  const g = await api("/api/groups/" + enc(id));
  readOnly = g.read_only;
  const topics = [...new Set(g.offsets.map((o) => o.topic))];
  const sel = (v, cur) => (v === cur ? " selected" : "");
  const tos = [["earliest", "earliest"], ["latest", "latest"], ["offset", "offset"], ["timestamp", "timestamp (ms)"]];
  const reset = readOnly ? "" : `<form class="inline" id="reset-form"><b>Reset offsets</b>
    <label>Topic <select name="topic" id="reset-topic">${topics.map((t) => `<option${sel(t, resetState.topic)}>${esc(t)}</option>`).join("")}</select></label>
    <label>To <select name="to" id="reset-to">${tos.map(([v, l]) => `<option value="${v}"${sel(v, resetState.to)}>${l}</option>`).join("")}</select></label>
    <label>Value <input name="value" id="reset-value" value="${esc(resetState.value ?? "")}"></label>
    <button class="danger" id="reset-button">Reset…</button></form>`;
  return `<h1>Group ${esc(g.group)}</h1>
    <div class="cards"><div class="card"><div class="v" id="group-state">${esc(g.state)}</div><div class="k">State</div></div>
    <div class="card"><div class="v">${g.members.length}</div><div class="k">Members</div></div>
    <div class="card"><div class="v" id="group-lag">${g.total_lag}</div><div class="k">Total lag</div></div>
    <div class="card"><div class="v">${esc(g.protocol || "–")}</div><div class="k">Assignor</div></div></div>
    <h2>Lag over the last minutes</h2>${chart(g.history)}
    <h2>Members</h2><table id="members"><thead><tr><th>Member</th><th>Client id</th><th>Host</th><th>Assignment</th></tr></thead><tbody>
    ${g.members.map((m) => `<tr><td>${esc(m.member_id)}</td><td>${esc(m.client_id)}</td><td>${esc(m.host)}</td><td>${Object.entries(m.assignment).map(([t, ps]) => esc(t) + ": " + ps.join(", ")).join("<br>")}</td></tr>`).join("") || '<tr><td colspan=4 class="muted">no active members</td></tr>'}
    </tbody></table>
    <h2>Offsets and lag</h2><table id="offsets"><thead><tr><th>Topic</th><th class=num>Partition</th><th class=num>Committed</th><th class=num>End offset</th><th class=num>Lag</th><th>Member</th></tr></thead><tbody>
    ${g.offsets.map((o) => `<tr data-tp="${esc(o.topic)}-${o.partition}"><td>${esc(o.topic)}</td><td class=num>${o.partition}</td><td class=num>${o.committed ?? "–"}</td><td class=num>${o.end_offset ?? "–"}</td><td class="num lag">${o.lag ?? "–"}</td><td>${esc(o.member ?? "")}</td></tr>`).join("")}
    </tbody></table>${reset}`;
}

function bindGroup(id) {
  const f = $("#reset-form");
  if (!f) return;
  f.oninput = f.onchange = () => { resetState = {topic: f.topic.value, to: f.to.value, value: f.value.value}; };
  f.onsubmit = async (ev) => {
    ev.preventDefault();
    const body = {topic: f.topic.value, to: f.to.value, value: f.value.value, confirm: id};
    if (!(await confirmAction(`Reset the offsets of group ${id} on ${body.topic} to ${body.to} ${body.value}?`, id))) return;
    try {
      const r = await api("/api/groups/" + enc(id) + "/reset-offsets", {body});
      flash(`Offsets of ${id} reset: ` + r.offsets.map((o) => `${o.partition}→${o.offset}`).join(", "), "info");
      await refresh();
    } catch (e) { flash(`Could not reset the offsets of ${id}: ${e.kafka}: ${e.message}`); }
  };
}

async function schemasPage() {
  const d = await api("/api/schemas");
  return `<h1>Schemas</h1><p>Global compatibility: <b id="global-compatibility">${esc(d.compatibility)}</b></p>
    <table id="schemas"><thead><tr><th>Subject</th><th>Type</th><th class=num>Latest version</th><th class=num>Id</th><th>Compatibility</th></tr></thead><tbody>
    ${d.subjects.map((s) => `<tr data-subject="${esc(s.subject)}"><td><a href="#/schema/${enc(s.subject)}">${esc(s.subject)}</a></td><td>${esc(s.type)}</td><td class=num>${s.version}</td><td class=num>${s.id}</td><td>${esc(s.compatibility)}</td></tr>`).join("") || '<tr><td colspan=5 class="muted">no subjects</td></tr>'}
    </tbody></table>${d.truncated ? '<p class="muted">Only the first subjects are shown.</p>' : ""}`;
}

async function schemaPage(subject) {
  const d = await api("/api/schemas/" + enc(subject));
  return `<h1>Subject ${esc(d.subject)}</h1><p>Compatibility: <b id="subject-compatibility">${esc(d.compatibility)}</b></p>
    ${d.versions.slice().reverse().map((v) => `<h2 class="schema-version" data-version="${v.version}">Version ${v.version} <span class="muted">id ${v.id} · ${esc(v.type)}</span></h2>
      ${v.references.length ? `<p>References: ${v.references.map((r) => esc(r.name) + " → " + `<a href="#/schema/${enc(r.subject)}">${esc(r.subject)}</a> v${r.version}`).join(", ")}</p>` : ""}
      <pre class="json">${esc(v.schema)}</pre>`).join("")}`;
}

// -- routing and live refresh --------------------------------------------------------------
function route() {
  const h = decodeURI(location.hash.slice(1) || "/");
  const parts = h.split("/").slice(1).map(decodeURIComponent);
  document.querySelectorAll("header nav a").forEach((a) => a.classList.remove("active"));
  if (parts[0] === "topics") return {nav: "topics", render: topicsPage, controls: topicsControls, bind: bindTopicsControls, live: true};
  if (parts[0] === "topic") return {nav: "topics", render: () => topicPage(parts[1]), bindContent: () => bindTopic(parts[1]), live: true};
  if (parts[0] === "records") { recordsQuery = {}; return {nav: "topics", render: () => recordsPage(parts[1]), controls: () => recordsControls(parts[1], recordsQuery), bind: () => bindRecords(parts[1]), live: false}; }
  if (parts[0] === "groups") return {nav: "groups", render: groupsPage, live: true};
  if (parts[0] === "schemas") return {nav: "schemas", render: schemasPage, live: true};
  if (parts[0] === "schema") return {nav: "schemas", render: () => schemaPage(parts[1]), live: true};
  if (parts[0] === "group") resetState = {};
  if (parts[0] === "group") return {nav: "groups", render: () => groupPage(parts[1]), bindContent: () => bindGroup(parts[1]), live: true, keepForms: true};
  return {nav: "cluster", render: clusterPage, live: true};
}

async function refresh(initial = false) {
  const page = current;
  if (!page) return;
  if (!initial && page.keepForms && document.activeElement && document.activeElement.closest("#content form")) return; // the user is typing
  try {
    const html = await page.render();
    if (page !== current) return;
    $("#content").innerHTML = html;
    if (page.bindContent) page.bindContent();
    $("#updated").textContent = "updated " + new Date().toLocaleTimeString();
    $("#mode").textContent = readOnly ? "read-only" : "";
  } catch (e) {
    if (page !== current) return;
    if (initial) $("#content").innerHTML = `<p class="bad" id="page-error">${esc(e.kafka || "ERROR")}: ${esc(e.message)}</p>`;
    else flash(`${e.kafka || "ERROR"}: ${e.message}`);
  }
}

async function navigate() {
  const page = current = route();
  $("#nav-" + page.nav).classList.add("active");
  $("#controls").innerHTML = "";
  $("#content").innerHTML = "<p>Loading…</p>";
  flash(...(pendingFlash || [""]));
  pendingFlash = null;
  try { readOnly = (await api("/api/cluster")).read_only; } catch (e) { /* shown by the page */ }
  if (page !== current) return;
  $("#mode").textContent = readOnly ? "read-only" : "";
  if (page.controls) { $("#controls").innerHTML = page.controls(); if (page.bind) page.bind(); }
  await refresh(true);
}

function tick() {
  if ($("#live").checked && current && current.live && $("#modal").classList.contains("hidden")) refresh();
}

window.addEventListener("hashchange", navigate);
window.addEventListener("load", () => { navigate(); timer = setInterval(tick, REFRESH_MS); });
