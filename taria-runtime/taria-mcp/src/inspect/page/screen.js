// The app's screen, drawn from the feed's `screen` messages: each row as runs of
// text in one style. App text is only ever written as text (textContent), never as
// markup; colours are checked before they reach a style.

// The terminal's first sixteen colours, as ratatui names them (xterm's defaults).
const NAMED = [
  ["Black", "#000000"], ["Red", "#cd3131"], ["Green", "#0dbc79"], ["Yellow", "#e5e510"],
  ["Blue", "#2472c8"], ["Magenta", "#bc3fbc"], ["Cyan", "#11a8cd"], ["Gray", "#e5e5e5"],
  ["DarkGray", "#666666"], ["LightRed", "#f14c4c"], ["LightGreen", "#23d18b"],
  ["LightYellow", "#f5f543"], ["LightBlue", "#3b8eea"], ["LightMagenta", "#d670d6"],
  ["LightCyan", "#29b8db"], ["White", "#ffffff"],
];
const BY_NAME = new Map(NAMED);
const HEX = /^#[0-9A-Fa-f]{6}$/;

// An indexed colour (0–255) as CSS: the named sixteen, the 6×6×6 cube, the grays.
function indexed(i) {
  if (i < 16) return NAMED[i][1];
  if (i < 232) {
    const levels = [0, 95, 135, 175, 215, 255];
    const n = i - 16;
    const rgb = [Math.floor(n / 36), Math.floor(n / 6) % 6, n % 6].map((c) => levels[c]);
    return `rgb(${rgb.join(",")})`;
  }
  const g = 8 + 10 * (i - 232);
  return `rgb(${g},${g},${g})`;
}

// A colour as ratatui writes it (`Red`, `#FF8800`, `208`), as CSS; null for the
// terminal's default (or anything else).
export function cssColor(color) {
  if (typeof color !== "string") return null;
  if (HEX.test(color)) return color;
  if (BY_NAME.has(color)) return BY_NAME.get(color);
  if (/^\d{1,3}$/.test(color) && Number(color) < 256) return indexed(Number(color));
  return null;
}

// Applies a cell style (`fg`, `bg`, `modifiers`) to a span.
function applyStyle(span, style) {
  const modifiers = new Set(Array.isArray(style.modifiers) ? style.modifiers : []);
  let fg = cssColor(style.fg);
  let bg = cssColor(style.bg);
  if (modifiers.has("reversed")) {
    [fg, bg] = [bg ?? "var(--term-bg)", fg ?? "var(--term-fg)"];
  }
  if (fg) span.style.color = fg;
  if (bg) span.style.backgroundColor = bg;
  if (modifiers.has("hidden")) span.style.color = bg ?? "var(--term-bg)";
  if (modifiers.has("bold")) span.style.fontWeight = "bold";
  if (modifiers.has("dim")) span.style.opacity = "0.6";
  if (modifiers.has("italic")) span.style.fontStyle = "italic";
  const lines = [];
  if (modifiers.has("underlined")) lines.push("underline");
  if (modifiers.has("crossed_out")) lines.push("line-through");
  if (lines.length) span.style.textDecoration = lines.join(" ");
}

export class ScreenView {
  // `share`: how much of the window's width the screen may take; `tall`: whether it
  // must also fit the window's height below its top.
  constructor(screen, highlight, { share = 0.62, tall = true } = {}) {
    this.screen = screen;
    this.highlight = highlight;
    this.share = share;
    this.tall = tall;
    this.cols = 0;
    this.rows = 0;
  }

  // Draws rows of text alone (a recording keeps no colours), `cols` wide.
  renderText(rows, cols, revision) {
    const runs = rows.map((row) => [[String(row), [...String(row)].length, 0]]);
    this.render({ rows: runs, styles: [], cols, revision });
  }

  // Shows nothing.
  clear() {
    this.screen.replaceChildren();
    this.drawn = null;
    this.cols = 0;
    this.rows = 0;
    this.show(null);
  }

  // Draws a `screen` message.
  render(message) {
    // The same screen again (a page that just started watching; a recorded step
    // that drew what the step before drew): the rows stay as they are (replacing
    // them would undo a hover, and cost a layout, for nothing).
    const drawn = JSON.stringify([message.cols, message.rows, message.styles]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    const styles = Array.isArray(message.styles) ? message.styles : [];
    const fragment = document.createDocumentFragment();
    for (const runs of Array.isArray(message.rows) ? message.rows : []) {
      const row = document.createElement("div");
      row.className = "row";
      for (const run of Array.isArray(runs) ? runs : []) {
        const [text, columns, style] = run;
        const span = document.createElement("span");
        span.textContent = String(text);
        // A wide character (or a row given as text alone) is laid out by its columns.
        if ([...String(text)].length !== columns) {
          span.className = "wide";
          span.style.width = `${Number(columns)}ch`;
        }
        if (styles[style]) applyStyle(span, styles[style]);
        row.append(span);
      }
      fragment.append(row);
    }
    this.screen.replaceChildren(fragment);
    this.cols = Number(message.cols) || 0;
    this.rows = this.screen.childElementCount;
    this.screen.dataset.revision = String(message.revision);
    this.screen.style.width = `${this.cols}ch`;
    this.fit();
  }

  // Sizes the text so the whole screen shows without scrolling: at most 13px, as
  // wide as its share of the window and (`tall`) as tall as the window below the
  // screen's top.
  // Called on each screen and when the window changes size.
  fit() {
    if (!this.cols || !this.rows) return;
    this.screen.style.fontSize = "100px";
    const cell = this.cellSize();
    const top = this.screen.getBoundingClientRect().top + window.scrollY;
    const wide = (window.innerWidth * this.share) / (this.cols * cell.width);
    const tall = this.tall ? (window.innerHeight - top - 24) / (this.rows * cell.height) : wide;
    let size = Math.max(6, Math.min(13, Math.floor(100 * Math.min(wide, tall) * 10) / 10));
    this.screen.style.fontSize = `${size}px`;
    // A hinted font rounds each glyph's advance to whole pixels at small sizes, so
    // the measure at 100px can fall short: smaller until the screen really fits.
    const room = window.innerWidth * this.share;
    const width = () => Math.max(this.screen.getBoundingClientRect().width, this.screen.scrollWidth);
    while (size > 6 && width() > room) {
      size = Math.round((size - 0.2) * 10) / 10;
      this.screen.style.fontSize = `${size}px`;
    }
    this.screen.dataset.fontSize = String(size);
    this.show(this.shown);
  }

  // The size of a cell in pixels.
  cellSize() {
    const probe = document.createElement("span");
    probe.className = "probe";
    probe.textContent = "M".repeat(10);
    this.screen.append(probe);
    const width = probe.getBoundingClientRect().width / 10;
    probe.remove();
    const row = this.screen.querySelector(".row");
    const height = row ? row.getBoundingClientRect().height : 0;
    return { width, height };
  }

  // Outlines `bounds` (`[x, y, width, height]`) on the screen; null hides it.
  show(bounds) {
    this.shown = bounds;
    if (!bounds || !this.rows) {
      this.highlight.hidden = true;
      delete this.highlight.dataset.bounds;
      return;
    }
    const [x, y, w, h] = bounds;
    const cell = this.cellSize();
    Object.assign(this.highlight.style, {
      left: `${x * cell.width}px`,
      top: `${y * cell.height}px`,
      width: `${w * cell.width}px`,
      height: `${h * cell.height}px`,
    });
    this.highlight.dataset.bounds = bounds.join(",");
    this.highlight.hidden = false;
  }

  // The cell under a mouse event: `[x, y]`.
  cellAt(event) {
    const box = this.screen.getBoundingClientRect();
    const cell = this.cellSize();
    if (!cell.width || !cell.height) return null;
    return [
      Math.floor((event.clientX - box.left) / cell.width),
      Math.floor((event.clientY - box.top) / cell.height),
    ];
  }
}
