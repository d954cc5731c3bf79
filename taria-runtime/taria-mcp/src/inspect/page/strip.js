// The strip of screens across a recorded session: one small picture per step that
// drew a screen, as the recording keeps it (text only), drawn as SVG text so it
// scales to any size. App text is only ever written as text (textContent).

const SVG = "http://www.w3.org/2000/svg";
// One cell, in the picture's units: a 10-unit monospace glyph is 6 wide; rows 11.5
// apart, as the page's screens.
const CELL_W = 6;
const CELL_H = 11.5;

// A small picture of `rows` (strings), `cols` wide.
export function thumbnail(rows, cols) {
  const svg = document.createElementNS(SVG, "svg");
  const width = Math.max(1, cols) * CELL_W;
  const height = Math.max(1, rows.length) * CELL_H;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("aria-hidden", "true");
  rows.forEach((row, r) => {
    if (!String(row).trim()) return;
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("x", "0");
    text.setAttribute("y", String(r * CELL_H + 9));
    text.textContent = String(row);
    svg.append(text);
  });
  return svg;
}

export class Strip {
  // `list`: the <ol> the pictures go in; `go(i)`: shows step i.
  constructor(list, go) {
    this.list = list;
    this.go = go;
    this.items = [];
  }

  // One picture for each step that drew a screen (`step.screen`, an index into
  // `screens`), `cols` wide at least.
  show(steps, screens, cols) {
    this.items = [];
    const items = [];
    steps.forEach((step, i) => {
      const rows = Number.isInteger(step.screen) ? screens[step.screen] : null;
      if (!Array.isArray(rows)) return;
      const width = Math.max(cols, ...rows.map((row) => [...String(row)].length));
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.step = String(i);
      button.setAttribute("aria-label", `step ${i + 1}: ${step.title}`);
      const label = document.createElement("span");
      label.textContent = String(i + 1);
      button.append(thumbnail(rows, width), label);
      button.addEventListener("click", () => this.go(i));
      const item = document.createElement("li");
      item.append(button);
      items.push(item);
      this.items.push([i, button]);
    });
    this.list.replaceChildren(...items);
    this.list.hidden = items.length === 0;
  }

  // Shows only the pictures of the steps in `shown` (a Set of indices).
  keep(shown) {
    for (const [i, button] of this.items) button.parentElement.hidden = !shown.has(i);
  }

  // Marks the picture of the screen shown at step `at`: the last drawn at or before it.
  mark(at) {
    let current = null;
    for (const [i, button] of this.items) {
      if (i <= at) current = button;
      button.removeAttribute("aria-current");
    }
    if (current) {
      current.setAttribute("aria-current", "step");
      current.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }
}
