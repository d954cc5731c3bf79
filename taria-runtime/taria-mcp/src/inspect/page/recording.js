// The recording viewer: the steps of a `--record` file (as the bridge reads it, see
// inspect/recording.rs) on a timeline; for each step its input, the app's answer, and
// the tree drawn after it, compared line by line with the tree before.

import { ScreenView } from "./screen.js";
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
    this.viewed = null;
    this.at = 0;
    elements.prev.addEventListener("click", () => this.go(this.at - 1));
    elements.next.addEventListener("click", () => this.go(this.at + 1));
    elements.slider.addEventListener("input", () => this.go(Number(elements.slider.value)));
  }

  // Shows a recording (`app`, `size`, `mode`, `steps`, `trees`) from its first step.
  show(viewed) {
    this.viewed = viewed;
    const steps = Array.isArray(viewed.steps) ? viewed.steps : [];
    this.el.info.textContent = `${viewed.app} · ${viewed.size?.[0]}×${viewed.size?.[1]} · `
      + `${viewed.mode} · ${steps.length} steps · taria ${viewed.taria}`;
    this.el.slider.max = String(Math.max(0, steps.length - 1));
    this.el.steps.replaceChildren(...steps.map((step, i) => {
      const item = document.createElement("li");
      item.dataset.kind = step.kind;
      item.textContent = step.status ? `${step.title} → ${step.status}` : step.title;
      item.addEventListener("click", () => this.go(i));
      return item;
    }));
    this.el.view.hidden = false;
    this.go(0);
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
        // As wide as its longest row: the recording may have resized the terminal
        // since its header's size.
        const rows = screens[index];
        const width = Math.max(Number(this.viewed.size?.[0]) || 0,
          ...rows.map((row) => [...String(row)].length));
        view.renderText(rows, width, index);
        const drawn = view === this.after && Number.isInteger(this.viewed.steps[i].screen);
        info.textContent = view === this.after && !drawn ? "(unchanged: this step drew none)" : "";
      }
    }
  }

  go(i) {
    const steps = this.viewed?.steps ?? [];
    if (!steps.length) return;
    this.at = Math.max(0, Math.min(i, steps.length - 1));
    const step = steps[this.at];
    this.el.slider.value = String(this.at);
    this.el.position.textContent = `step ${this.at + 1} of ${steps.length}`;
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
