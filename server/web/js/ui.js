// Small DOM helpers: element construction, toasts, dialogs, and the shortcut keys of action
// buttons. No framework: screens rebuild their regions from state with `h`.

/**
 * Create an element. `props`: `class`, `on<event>` listeners, `html` (trusted markup only:
 * our own SVG), `dataset`, `style` (object), booleans as attribute presence, the rest as
 * attributes. Children: nodes, strings (as text), arrays, null/false (skipped).
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "html") el.innerHTML = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key === "value") el.value = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A short message at the bottom of the screen; `kind` "error" or "info". */
export function toast(text, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = h("div", { class: `toast ${kind}` }, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

/**
 * A modal dialog built from `content` with buttons; resolves with the chosen button's value
 * (or null when dismissed with Escape). `onSubmit(value)`, if given, runs when a submit
 * button is chosen: a returned text is shown in the dialog as an error and the dialog stays
 * open with everything typed in it; anything else closes it.
 */
export function dialog(title, content, buttons, { onSubmit = null } = {}) {
  return new Promise((resolve) => {
    const error = h("p", { class: "dialog-error", role: "alert", hidden: true });
    const close = (value) => {
      back.remove();
      resolve(value);
    };
    const choose = async (button) => {
      if (!(button.submit && onSubmit)) return close(button.value);
      const problem = await onSubmit(button.value);
      if (typeof problem !== "string") return close(button.value);
      error.textContent = problem;
      error.hidden = false;
      return undefined;
    };
    const box = h(
      "div",
      { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title },
      h("h2", {}, title),
      content,
      error,
      h(
        "div",
        { class: "dialog-buttons" },
        buttons.map((b) =>
          h("button", { class: b.primary ? "primary" : "", type: b.submit ? "submit" : "button",
            dataset: b.id ? { choice: b.id } : null,
            onclick: (e) => { e.preventDefault(); choose(b); } }, b.label),
        ),
      ),
    );
    const back = h("form", { class: "dialog-back", onkeydown: (e) => {
      if (e.key === "Escape") close(null);
    }, onsubmit: (e) => {
      e.preventDefault();
      const submit = buttons.find((b) => b.submit);
      if (submit) choose(submit);
      else close(null);
    } }, box);
    document.body.append(back);
    const first = box.querySelector("input, select, button.primary, button");
    if (first) first.focus();
  });
}

/**
 * Number keys for a row of action buttons: the n-th enabled button of the visible action bar
 * answers to key n. `bar()` returns the current bar element (or null).
 */
export function installActionKeys(bar) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ||
        target instanceof HTMLSelectElement) return;
    if (!/^[1-9]$/.test(event.key)) return;
    const el = bar();
    if (!el) return;
    const button = el.querySelector(`[data-key="${event.key}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });
}

/** Number the buttons of an action bar 1..9 (shown as small key hints). */
export function numberButtons(bar) {
  let n = 0;
  for (const button of bar.querySelectorAll("button.act")) {
    n += 1;
    if (n > 9) break;
    button.dataset.key = String(n);
    button.prepend(h("kbd", { "aria-hidden": "true" }, String(n)));
    button.setAttribute("aria-keyshortcuts", String(n));
  }
  return bar;
}

/**
 * Arrow keys move the focus along a row of cards (a "roving" tabindex: one card is tabbable).
 * Call after rendering the row; `keep` is the key of the card that had the focus.
 */
export function rovingFocus(row, keep) {
  const cards = [...row.querySelectorAll(".card[data-card]")];
  if (!cards.length) return;
  let index = Math.max(0, cards.findIndex((c) => c.dataset.card === keep));
  cards.forEach((card, i) => { card.tabIndex = i === index ? 0 : -1; });
  row.onkeydown = (event) => {
    const current = cards.indexOf(document.activeElement);
    if (current >= 0) index = current;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: 1, ArrowDown: -1 }[event.key];
    if (step === undefined) {
      if (event.key === "Home") index = 0;
      else if (event.key === "End") index = cards.length - 1;
      else return;
    } else index = (index + step + cards.length) % cards.length;
    event.preventDefault();
    cards.forEach((card, i) => { card.tabIndex = i === index ? 0 : -1; });
    cards[index].focus();
  };
}

/** The key of the focused card inside `root` (to restore focus after a re-render). */
export function focusedCard(root) {
  const active = document.activeElement;
  return active && root.contains(active) && active.dataset ? active.dataset.card : undefined;
}

/** Size a hand's fan: `--n` cards in one row (wide screens) or `--half` per row in two rows
 * (phones, where one row would leave less than 40 px of each card to tap). */
export function setFan(row, count) {
  row.style.setProperty("--n", String(Math.max(count, 2)));
  row.style.setProperty("--half", String(Math.max(Math.ceil(count / 2), 2)));
}

/** Format a signed number with an explicit plus. */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

const ICONS = {
  bot: `<svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true"><rect x="4" y="7" width="16" height="12" rx="3"
    fill="currentColor"/><circle cx="9" cy="13" r="1.8" fill="#fff"/><circle cx="15" cy="13" r="1.8" fill="#fff"/>
    <path d="M12 7 V3.5" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="3" r="1.6" fill="currentColor"/>
    <path d="M2 12 V15 M22 12 V15" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`,
  eye: `<svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true"><path d="M1 12 C5 5 19 5 23 12 C19 19 5 19 1 12 Z"
    fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.5" fill="currentColor"/></svg>`,
  clock: `<svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true"><circle cx="12" cy="12" r="9.5" fill="none"
    stroke="currentColor" stroke-width="2"/><path d="M12 6.5 V12 L15.5 14" fill="none" stroke="currentColor" stroke-width="2"
    stroke-linecap="round"/></svg>`,
  download: `<svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true"><path d="M12 3 V15 M6 10 L12 16 L18 10 M4 20 H20"
    fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
};

/** A small inline icon (our own SVG; no emoji font is needed). */
export function icon(name, label = null) {
  return h("span", { class: `icon icon-${name}`, html: ICONS[name], title: label, role: label ? "img" : null,
    "aria-label": label });
}
