// taria-mcp's inspector page: the live feed (a WebSocket from the bridge, which this
// page never sends anything on), the screen, the tree, the inputs and logs, and the
// recording viewer. Every string from the app is written as text, never as markup.

import { ScreenView } from "./screen.js";
import { TreeView } from "./tree.js";
import { RecordingView } from "./recording.js";

const $ = (id) => document.getElementById(id);

const screen = new ScreenView($("screen"), $("highlight"));
const tree = new TreeView($("tree"), {
  onHover: (entry) => screen.show(entry?.bounds ?? null),
  onSelect: (entry) => screen.show(entry?.bounds ?? null),
});
const recording = new RecordingView({
  view: $("recording-view"),
  info: $("recording-info"),
  steps: $("steps"),
  slider: $("step-slider"),
  prev: $("step-prev"),
  next: $("step-next"),
  position: $("step-position"),
  title: $("step-title"),
  detail: $("step-detail"),
  diff: $("step-diff"),
  tree: $("rec-tree"),
  before: $("rec-before"),
  beforeHighlight: $("rec-before-highlight"),
  beforeInfo: $("rec-before-info"),
  after: $("rec-after"),
  afterHighlight: $("rec-after-highlight"),
  afterInfo: $("rec-after-info"),
  strip: $("strip"),
  filterTool: $("filter-tool"),
  filterStatus: $("filter-status"),
  testPart: $("step-test-part"),
  test: $("step-test"),
  testNote: $("step-test-note"),
  testCopy: $("step-test-copy"),
  testCopied: $("step-test-copied"),
  logsPart: $("step-logs-part"),
  logs: $("step-logs"),
  afterSvg: $("rec-after-svg"),
  afterPng: $("rec-after-png"),
});

// The screens keep fitting the window, and fit again once the bundled font has
// loaded (they were measured with a fallback).
const fitAll = () => [screen, recording.before, recording.after].forEach((view) => view.fit());
window.addEventListener("resize", fitAll);
document.fonts?.load("13px \"taria mono\"").then(fitAll);

// Clicking the screen finds the node drawn there.
$("screen").addEventListener("click", (event) => {
  const cell = screen.cellAt(event);
  const index = cell ? tree.find(cell) : -1;
  if (index >= 0) {
    tree.mark(index);
    screen.show(tree.entries[index].bounds);
  }
});

// Tabs.
function showTab(name) {
  for (const tab of ["live", "recording"]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(tab).hidden = tab !== name;
  }
}
$("tab-live").addEventListener("click", () => showTab("live"));
$("tab-recording").addEventListener("click", () => showTab("recording"));

function status(state, text) {
  const el = $("status");
  el.dataset.state = state;
  el.textContent = text;
}

// The feed's messages, by type; types this page does not know are skipped.
const handlers = {
  hello(message) {
    document.body.dataset.mode = message.mode;
    if (message.mode === "view") {
      $("tab-live").hidden = true;
      showTab("recording");
      status("connected", message.bridge);
      loadRecording(fetch("recording"));
    }
  },
  link(message) {
    if (message.connected) {
      status("connected", "connected to the app");
      $("screen-note").hidden = true;
    } else {
      status(message.note ? "gone" : "waiting", "no app");
      $("screen-note").textContent = message.note ?? "";
      $("screen-note").hidden = !message.note;
    }
  },
  tree(message) {
    tree.render(message.entries);
    $("tree").dataset.revision = String(message.revision);
    $("tree-info").textContent = `revision ${message.revision}, ${tree.entries.length} lines`;
    $("tree-note").hidden = tree.entries.length > 0;
  },
  screen(message) {
    screen.render(message);
    const colours = {
      app: "",
      terminal: " · colours from the terminal taria-mcp runs the app in",
      none: " · without colours: this app's taria sends none (an earlier release)",
    };
    $("screen-info").textContent =
      `${message.cols}×${screen.rows}, revision ${message.revision}${colours[message.colors] ?? ""}`;
  },
  input(message) {
    const seqs = Array.isArray(message.seqs) ? message.seqs.join(" ") : "";
    addRow("inputs", [
      message.number, seqs, message.tool, message.status,
      changedCell(message), message.latencyMs,
    ], { status: message.status, failed: message.failed }, 4);
  },
  log(message) {
    const fields = Object.entries(message.fields ?? {})
      .map(([name, value]) => ` ${name}=${typeof value === "string" ? value : JSON.stringify(value)}`)
      .join("");
    const dropped = message.dropped ? ` (the app dropped ${message.dropped} entries before this)` : "";
    addRow("logs", [
      message.number, message.level, message.target, `${message.message}${fields}${dropped}`,
      message.input || "",
    ], { level: message.level }, 3);
  },
  missed(message) {
    const what = message.what === "inputs" ? "inputs" : "logs";
    const note = `${message.count} older entries are no longer kept`;
    const cells = what === "inputs" ? ["…", "", "", "", note, ""] : ["…", "", "", note, ""];
    addRow(what, cells, {}, what === "inputs" ? 4 : 3);
  },
};

// What an input call changed: the ids, and what the agent read when opened.
function changedCell(message) {
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  const ids = Array.isArray(message.changed) ? message.changed : [];
  const shown = ids.slice(0, 6).join(", ");
  summary.textContent = ids.length > 6 ? `${shown}, +${ids.length - 6} more` : (shown || "nothing");
  const text = document.createElement("pre");
  text.textContent = String(message.text ?? "");
  details.append(summary, text);
  return details;
}

// Appends a row of cells (text, or an element built here) to a log table, newest
// last, at most 500 rows; cell `wide` takes the room left and wraps.
function addRow(table, cells, data, wide) {
  const body = $(table).tBodies[0];
  const row = document.createElement("tr");
  for (const [key, value] of Object.entries(data)) {
    if (value !== undefined) row.dataset[key] = String(value);
  }
  for (const [i, cell] of cells.entries()) {
    const td = document.createElement("td");
    if (i === wide) td.className = "wide";
    if (cell instanceof Node) {
      td.append(cell);
    } else {
      td.textContent = cell === undefined || cell === null ? "" : String(cell);
    }
    row.append(td);
  }
  body.append(row);
  while (body.rows.length > 500) body.deleteRow(0);
  $(`${table}-note`).hidden = true;
  row.scrollIntoView({ block: "nearest" });
}

// The live feed, reconnected when it drops (taria-mcp may have stopped).
let retry = 250;
function connect() {
  const url = new URL("live", window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url);
  socket.addEventListener("open", () => {
    retry = 250;
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    handlers[message?.type]?.(message);
  });
  socket.addEventListener("close", () => {
    if (document.body.dataset.mode !== "view") {
      status("gone", "taria-mcp is not answering (stopped?); retrying…");
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}
connect();

// A recording: from `taria-mcp view FILE`, or a file picked here (sent to the
// bridge, which reads it as taria does).
async function loadRecording(response) {
  const error = $("recording-error");
  try {
    const answer = await response;
    const body = await answer.text();
    if (!answer.ok) throw new Error(body);
    error.hidden = true;
    recording.show(JSON.parse(body));
  } catch (e) {
    error.textContent = `This recording cannot be shown: ${e.message}`;
    error.hidden = false;
  }
}
$("recording-file").addEventListener("change", (event) => {
  const [file] = event.target.files;
  if (!file) return;
  showTab("recording");
  loadRecording(fetch("recording", { method: "POST", body: file }));
});
