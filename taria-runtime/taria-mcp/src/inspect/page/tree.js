// The tree as an outline the page's accessibility tree mirrors: a `tree` of
// `treeitem`s nested in `group`s, each named by its outline line. Lines are app text,
// written as text only.

export class TreeView {
  // `onHover(entry | null)`: a line was hovered (or left); `onSelect(entry)`: clicked.
  constructor(list, { onHover = () => {}, onSelect = () => {} } = {}) {
    this.list = list;
    this.onHover = onHover;
    this.onSelect = onSelect;
    this.entries = [];
    this.items = [];
    this.selected = null;
  }

  // Shows `entries` (`depth`, `line`, `id`, `bounds`), keeping the selection by id.
  render(entries) {
    this.entries = Array.isArray(entries) ? entries : [];
    this.items = [];
    const fragment = document.createDocumentFragment();
    // The open groups, one per depth: a line goes into the group of its depth.
    const groups = [fragment];
    for (const [index, entry] of this.entries.entries()) {
      const depth = Math.max(0, Math.min(Number(entry.depth) || 0, groups.length - 1));
      const item = document.createElement("li");
      item.setAttribute("role", "treeitem");
      item.setAttribute("aria-label", String(entry.line));
      item.setAttribute("aria-selected", "false");
      item.dataset.id = String(entry.id);
      item.dataset.index = String(index);
      item.tabIndex = -1;
      item.append(this.line(entry, index));
      groups.length = depth + 1;
      groups[depth].append(item);
      const group = document.createElement("ul");
      group.setAttribute("role", "group");
      item.append(group);
      groups.push(group);
      this.items.push(item);
    }
    // Leaves have no group.
    for (const item of this.items) {
      const group = item.lastElementChild;
      if (!group.childElementCount) group.remove();
    }
    if (this.items.length) this.items[0].tabIndex = 0;
    this.list.replaceChildren(fragment);
    const again = this.selected === null
      ? -1
      : this.entries.findIndex((e) => e.id === this.selected);
    if (again >= 0) this.mark(again);
  }

  line(entry, index) {
    const line = document.createElement("div");
    line.className = "line";
    // The item's name is the line already (its aria-label): read once.
    line.setAttribute("aria-hidden", "true");
    const text = String(entry.line);
    const space = text.indexOf(" ");
    const role = document.createElement("span");
    role.className = "role";
    role.textContent = space < 0 ? text : text.slice(0, space);
    line.append(role, space < 0 ? "" : text.slice(space));
    line.addEventListener("mouseenter", () => this.onHover(this.entries[index]));
    line.addEventListener("mouseleave", () => this.onHover(null));
    line.addEventListener("click", () => {
      this.mark(index);
      this.onSelect(this.entries[index]);
    });
    return line;
  }

  // Marks line `index` selected and scrolls it into view.
  mark(index) {
    for (const item of this.list.querySelectorAll('[aria-selected="true"]')) {
      item.setAttribute("aria-selected", "false");
    }
    const item = this.items[index];
    if (!item) return;
    item.setAttribute("aria-selected", "true");
    this.selected = this.entries[index].id;
    item.firstElementChild.scrollIntoView({ block: "nearest" });
  }

  // The deepest line whose node covers cell `[x, y]` (the smallest, among equals).
  find([x, y]) {
    let best = -1;
    for (const [i, entry] of this.entries.entries()) {
      const b = entry.bounds;
      if (!Array.isArray(b) || x < b[0] || y < b[1] || x >= b[0] + b[2] || y >= b[1] + b[3]) {
        continue;
      }
      const better = best < 0
        || entry.depth > this.entries[best].depth
        || (entry.depth === this.entries[best].depth
          && b[2] * b[3] < this.entries[best].bounds[2] * this.entries[best].bounds[3]);
      if (better) best = i;
    }
    return best;
  }
}
