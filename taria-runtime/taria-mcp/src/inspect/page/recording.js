// The recording viewer: the steps of a `--record` file (as the bridge reads it, see
// inspect/recording.rs) on a timeline and a strip of their screens, filtered by tool
// and status; for each step its input, the app's answer and how long it took, the
// lines logged at it, the step as a generated test's line, and the tree and screen
// drawn after it, compared with the ones before.

import { ScreenView } from "./screen.js";
import { atEachStep, statusOf, toolOf, took } from "./steps.js";
import { Strip } from "./strip.js";
import { TreeView } from "./tree.js";

// The lines of a tree, indented by depth, for the diff.
function outlineLines(entries) {
  return (entries ?? []).map((e) => `${"  ".repeat(e.depth)}${e.line}`);
}

// The line diff of `old` and `now`: [kind, line] with kind " ", "-" or "+". Common
// ends are matched first; the middle by longest common subsequence.
export function diffLines(old, now) {
  let start = 0;
  while (start < old.length && start < now.length && old[start] === now[start]) start++;
  let end = 0;
  while (end < old.length - start && end < now.length - start
    && old[old.length - 1 - end] === now[now.length - 1 - end]) end++;
  const a = old.slice(start, old.length - end);
  const b = now.slice(start, now.length - end);
  const out = old.slice(0, start).map((l) => [" ", l]);
  if (a.length * b.length > 4_000_000) {
    out.push(...a.map((l) => ["-", l]), ...b.map((l) => ["+", l]));
  } else {
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
    for (let i = a.length - 1; i >= 0; i--) {
      for (let j = b.length - 1; j >= 0; j--) {
        lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        out.push([" ", a[i]]);
        i++;
        j++;
      } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
        out.push(["-", a[i++]]);
      } else {
        out.push(["+", b[j++]]);
      }
    }
  }
  out.push(...old.slice(old.length - end).map((l) => [" ", l]));
  return out;
}

export class RecordingView {
  constructor(elements) {
    this.el = elements;
    this.tree = new TreeView(elements.tree);
    const beside = { share: 0.44, tall: false };
    this.before = new ScreenView(elements.before, elements.beforeHighlight, beside);
    this.after = new ScreenView(elements.after, elements.afterHighlight, beside);
    this.strip = new Strip(elements.strip, (i) => this.go(i));
    this.viewed = null;
    this.at = 0;
    // The indices of the steps the filters let through, in order.
    this.visible = [];
    elements.prev.addEventListener("click", () => this.step(-1));
    elements.next.addEventListener("click", () => this.step(1));
    elements.slider.addEventListener("input", () => {
      this.go(this.visible[Number(elements.slider.value)] ?? this.at);
    });
    for (const select of [elements.filterTool, elements.filterStatus]) {
      select.addEventListener("change", () => this.filter());
    }
    elements.testCopy.addEventListener("click", () => this.copy());
    elements.afterSvg.addEventListener("click", () => this.save("svg"));
    elements.afterPng.addEventListener("click", () => this.save("png"));
  }

  // How many columns a recorded screen spans: the header's width, or its longest
  // row's (the recording may have resized the terminal since).
  cols(rows) {
    return Math.max(Number(this.viewed.size?.[0]) || 0, ...rows.map((row) => [...String(row)].length));
  }

  // Saves the screen after the step as a picture the bridge draws
  // (`taria_schema::picture`, as `read_tree {format: "picture"}`), from its text.
  async save(format) {
    const index = this.lastAt(this.at, "screen");
    const rows = index === null ? null : this.viewed.screens?.[index];
    if (!Array.isArray(rows)) return;
    const cols = this.cols(rows);
    const name = `step-${this.at + 1}`;
    const response = await fetch(`picture.${format}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rows, cols, name }),
    });
    if (!response.ok) {
      this.el.afterInfo.textContent = `(not saved: ${await response.text()})`;
      return;
    }
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `${name}.${format}`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  // Goes `by` visible steps back or on.
  step(by) {
    const here = this.visible.indexOf(this.at);
    // From a step the filters hide: the nearest shown one that way.
    const next = here >= 0 ? this.visible[here + by]
      : by > 0 ? this.visible.find((i) => i > this.at) : this.visible.findLast((i) => i < this.at);
    if (next !== undefined) this.go(next);
  }

  // Shows the steps of the chosen tool and status only, in the list and the strip,
  // and goes to the first shown if the current one is not.
  filter() {
    this.applyFilters();
    if (this.visible.length && !this.visible.includes(this.at)) {
      this.go(this.visible[0]);
    } else {
      this.go(this.at);
    }
  }

  applyFilters() {
    const steps = this.viewed?.steps ?? [];
    const tool = this.el.filterTool.value;
    const status = this.el.filterStatus.value;
    this.visible = [];
    for (const [i, item] of [...this.el.steps.children].entries()) {
      const shown = (!tool || toolOf(steps[i]) === tool)
        && (!status || statusOf(steps[i]) === status);
      item.hidden = !shown;
      if (shown) this.visible.push(i);
    }
    this.strip.keep(new Set(this.visible));
    this.el.slider.max = String(Math.max(0, this.visible.length - 1));
    this.el.slider.disabled = this.visible.length === 0;
  }

  // Puts the step's test line on the clipboard.
  async copy() {
    const line = this.viewed?.steps?.[this.at]?.testLine;
    if (!line) return;
    try {
      await navigator.clipboard.writeText(line);
      this.el.testCopied.textContent = "copied";
    } catch {
      // No clipboard (a page not in a secure context): select it to copy by hand.
      window.getSelection()?.selectAllChildren(this.el.test);
      this.el.testCopied.textContent = "selected: copy it with Ctrl+C";
    }
  }

  // Fills a filter's choices with the values the steps have, keeping "all" first.
  choices(select, values) {
    const keep = select.options[0];
    const options = [...new Set(values.filter((v) => v !== null))].sort().map((value) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = value;
      return option;
    });
    select.replaceChildren(keep, ...options);
    select.value = "";
  }

  // Shows a recording (`app`, `size`, `mode`, `steps`, `trees`) from its first step.
  show(viewed) {
    this.viewed = viewed;
    const steps = Array.isArray(viewed.steps) ? viewed.steps : [];
    this.el.info.textContent = `${viewed.app} · ${viewed.size?.[0]}×${viewed.size?.[1]} · `
      + `${viewed.mode} · ${steps.length} steps · taria ${viewed.taria}`;
    this.at = 0;
    this.marks = atEachStep(steps);
    this.el.steps.replaceChildren(...steps.map((step, i) => {
      const item = document.createElement("li");
      item.value = i + 1;
      item.dataset.kind = step.kind;
      item.dataset.tool = toolOf(step);
      if (statusOf(step)) item.dataset.status = statusOf(step);
      if (this.marks.problems[i]) item.dataset.problem = this.marks.problems[i];
      item.textContent = step.status ? `${step.title} → ${step.status}` : step.title;
      const time = took(step);
      if (time) {
        const span = document.createElement("span");
        span.className = "took";
        span.textContent = ` · ${time}`;
        item.append(span);
      }
      item.addEventListener("click", () => this.go(i));
      return item;
    }));
    this.choices(this.el.filterTool, steps.map(toolOf));
    this.choices(this.el.filterStatus, steps.map(statusOf));
    const screens = Array.isArray(viewed.screens) ? viewed.screens : [];
    this.strip.show(steps, screens, Number(viewed.size?.[0]) || 0);
    this.el.view.hidden = false;
    this.filter();
  }

  // The index of the tree shown at step `i`: the last one drawn at or before it.
  treeAt(i) {
    return this.lastAt(i, "tree");
  }

  // The last step at or before `i` with a `field` (`tree`, `screen`): its index
  // into that list, or null.
  lastAt(i, field) {
    for (let k = i; k >= 0; k--) {
      const index = this.viewed.steps[k][field];
      if (Number.isInteger(index)) return index;
    }
    return null;
  }

  // The screens before step `i` and after it (the one it drew, else the one before,
  // unchanged), as the recording keeps them.
  screens(i) {
    const screens = Array.isArray(this.viewed.screens) ? this.viewed.screens : [];
    const before = i > 0 ? this.lastAt(i - 1, "screen") : null;
    const after = this.lastAt(i, "screen");
    for (const [view, index, info, none] of [
      [this.before, before, this.el.beforeInfo, "(none yet)"],
      [this.after, after, this.el.afterInfo, "(none recorded)"],
    ]) {
      if (index === null || !screens[index]) {
        view.clear();
        info.textContent = none;
      } else {
        view.renderText(screens[index], this.cols(screens[index]), index);
        const drawn = view === this.after && Number.isInteger(this.viewed.steps[i].screen);
        info.textContent = view === this.after && !drawn ? "(unchanged: this step drew none)" : "";
      }
      if (view === this.after) {
        this.el.afterSvg.disabled = index === null || !screens[index];
        this.el.afterPng.disabled = index === null || !screens[index];
      }
    }
  }

  go(i) {
    const steps = this.viewed?.steps ?? [];
    if (!steps.length) return;
    this.at = Math.max(0, Math.min(i, steps.length - 1));
    // A step the filters hide (a logged line's input, say): the filters go, so the
    // list, the strip and the slider show where it is.
    if (!this.visible.includes(this.at)) {
      this.el.filterTool.value = "";
      this.el.filterStatus.value = "";
      this.applyFilters();
    }
    const step = steps[this.at];
    const place = this.visible.indexOf(this.at);
    if (place >= 0) this.el.slider.value = String(place);
    const filtered = this.visible.length < steps.length
      ? ` · ${this.visible.length} shown by the filters` : "";
    this.el.position.textContent = `step ${this.at + 1} of ${steps.length}${filtered}`;
    this.strip.mark(this.at);
    for (const [k, item] of [...this.el.steps.children].entries()) {
      if (k === this.at) {
        item.setAttribute("aria-current", "step");
        item.scrollIntoView({ block: "nearest" });
      } else {
        item.removeAttribute("aria-current");
      }
    }
    this.el.title.textContent = step.title;
    this.detail(step);
    this.testLine(step);
    this.logsAt(this.at);
    const now = this.treeAt(this.at);
    const before = this.at > 0 ? this.treeAt(this.at - 1) : null;
    const trees = this.viewed.trees;
    this.tree.render(now === null ? [] : trees[now]);
    this.diff(Number.isInteger(step.tree) && before !== null ? trees[before] : null,
      Number.isInteger(step.tree) ? trees[step.tree] : null);
    this.screens(this.at);
  }

  detail(step) {
    const rows = [
      ["kind", step.kind],
      ["input step", step.step],
      ["call", step.call],
      ["tool", step.tool],
      ["status", step.status],
      ["reason", step.reason],
      ["message", step.message],
      ["arguments", step.arguments === undefined ? undefined : JSON.stringify(step.arguments)],
      ["revision", step.revision],
      ["answered in", took(step) ?? undefined],
    ];
    const parts = [];
    for (const [name, value] of rows) {
      if (value === undefined || value === null) continue;
      const dt = document.createElement("dt");
      dt.textContent = name;
      const dd = document.createElement("dd");
      dd.textContent = String(value);
      parts.push(dt, dd);
    }
    this.el.detail.replaceChildren(...parts);
  }

  // The step as `taria-mcp test-from` writes it, for an input.
  testLine(step) {
    const line = step.testLine ?? null;
    const note = step.testNote ?? null;
    this.el.testPart.hidden = line === null && note === null;
    this.el.test.textContent = line ?? "";
    this.el.test.hidden = line === null;
    this.el.testCopy.hidden = line === null;
    this.el.testCopied.textContent = "";
    this.el.testNote.textContent = note ?? "";
    this.el.testNote.hidden = note === null;
  }

  // The lines the app logged while it had step `i`'s input in hand.
  logsAt(i) {
    const steps = this.viewed.steps;
    const lines = this.marks.logs[i].map((k) => {
      const item = document.createElement("li");
      item.dataset.level = statusOf(steps[k]);
      item.textContent = `${statusOf(steps[k])} ${steps[k].message ?? ""}`;
      item.addEventListener("click", () => this.go(k));
      return item;
    });
    this.el.logs.replaceChildren(...lines);
    this.el.logsPart.hidden = lines.length === 0;
  }

  // The diff of the tree before this step and the one it drew, with a line of
  // context around each change.
  diff(before, after) {
    const pre = this.el.diff;
    if (after === null) {
      pre.textContent = "(no tree drawn by this step)";
      return;
    }
    if (before === null) {
      pre.textContent = "(the first tree: nothing to compare with)";
      return;
    }
    const ops = diffLines(outlineLines(before), outlineLines(after));
    const changed = ops.map(([kind]) => kind !== " ");
    const near = (i) => changed[i] || changed[i - 1] || changed[i + 1];
    const lines = [];
    let gap = false;
    for (const [i, [kind, line]] of ops.entries()) {
      if (!near(i)) {
        gap = true;
        continue;
      }
      if (gap && lines.length) lines.push(this.line("gap", "…"));
      gap = false;
      const cls = kind === "+" ? "add" : kind === "-" ? "del" : "same";
      lines.push(this.line(cls, `${kind} ${line}`));
    }
    if (!lines.length) lines.push(this.line("gap", "(the tree did not change)"));
    pre.replaceChildren(...lines);
  }

  line(cls, text) {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = `${text}\n`;
    return span;
  }
}
