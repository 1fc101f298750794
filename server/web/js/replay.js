// A finished deal replayed in the browser as it was played: the cards on the felt trick by
// trick, every hand open, stepped through move by move or trick by trick (buttons and keys),
// with a link back to the table or profile it was opened from. The steps come from the server
// (`/api/records/{table}/{deal}/replay`, the engine replaying the stored moves), so this module
// draws and never judges a move; each game draws its own felt (games.js `replay`). A private
// table's replay needs its invite or a seat at it.
//
// What the page shows is one step, `screen.step` (0: the deal); the root carries it as
// `data-step`, every card drawn carries `data-card` and `data-seat` (each hand's box
// `data-hand`), so a panel beside the Skat felt (`.replay-panels`) or marks on cards can
// follow the step.

import { AnalysisPanel } from "./analysis.js";
import { gameLabel, gameOf } from "./games.js";
import { describeAction } from "./hints.js";
import { t } from "./i18n.js";
import { storage } from "./storage.js";
import { h, replace } from "./ui.js";

// The routes a replay may lead back to (anything else goes back to the lobby).
const BACK_ROUTE = /^#\/(table|player)\/[^#\s]+$/;

/** The route of a deal's replay; `from` is the route it leads back to (by default the page
 * that builds the link: a table or a profile). */
export function replayHash(table, deal, invite = null, from = location.hash) {
  const query = new URLSearchParams();
  if (invite) query.set("invite", invite);
  if (from && BACK_ROUTE.test(from)) query.set("from", from);
  const text = query.toString();
  return `#/replay/${encodeURIComponent(table)}/${deal}${text ? `?${text}` : ""}`;
}

/** The parts of a replay route, or null when `hash` is none. */
export function parseReplayHash(hash) {
  const match = hash.match(/^#\/replay\/([^/?]+)\/(\d+)(?:\?(.*))?$/);
  if (!match) return null;
  const query = new URLSearchParams(match[3] ?? "");
  return { table: decodeURIComponent(match[1]), deal: Number(match[2]), invite: query.get("invite"), from: query.get("from") };
}

/** Where the back link goes and what it says: the route the replay was opened from, else the
 * table if this browser sat at it or watched it, else the lobby. */
export function backLink(from, tableRoute) {
  const target = from && BACK_ROUTE.test(from) ? from : tableRoute;
  if (target?.startsWith("#/table/")) return { href: target, label: t("replay.back_to_table") };
  if (target?.startsWith("#/player/")) return { href: target, label: t("replay.back_to_profile") };
  return { href: "#/", label: t("table.back_to_lobby") };
}

/** The replay of deal `deal` of `table`, with our session token (a seat at a private table)
 * and the invite if we have it; null when the server has none we may see. Each step's `view`
 * arrives as the fields it changed and is completed here from the step before. */
export async function loadReplay(table, deal, invite, token) {
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const response = await fetch(`/api/records/${encodeURIComponent(table)}/${deal}/replay${query}`,
    { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) return null;
  const replay = await response.json();
  let view = {};
  for (const step of replay.steps) {
    view = { ...view, ...step.view };
    step.view = view;
  }
  return replay;
}

/** The steps after which a trick was taken, in order (the game decides what that means). */
export function trickEnds(replay) {
  const { takesTrick } = gameOf(replay.game).replay;
  const ends = [];
  replay.steps.forEach((step, i) => {
    if (i > 0 && takesTrick(replay.steps[i - 1].view, step.view)) ends.push(i);
  });
  return ends;
}

/** Whether a key press belongs to a field or a dialog rather than to the replay. */
function typing(event) {
  return event.ctrlKey || event.metaKey || event.altKey || document.querySelector(".dialog-back")
    || ["INPUT", "SELECT", "TEXTAREA"].includes(event.target?.tagName);
}

export class ReplayScreen {
  /** `back`: the table route this browser knows for the table (null: none). */
  constructor(app, { table, deal, invite, from }, back = null) {
    this.app = app;
    this.table = table;
    this.deal = deal;
    this.invite = invite;
    this.back = backLink(from, back);
    this.replay = null;
    this.step = 0;
    this.ends = [];
    this.root = h("main", { class: "replay-screen", id: "replay-screen" });
    this.keys = (event) => this.key(event);
    this.analysis = new AnalysisPanel(this);
  }

  async show(container) {
    replace(container, this.root);
    replace(this.root, h("p", { class: "loading" }, t("replay.loading")));
    document.addEventListener("keydown", this.keys);
    this.replay = await loadReplay(this.table, this.deal, this.invite, this.app.net.token);
    if (this.replay) this.ends = trickEnds(this.replay);
    this.render();
  }

  /** The name of a seat as the table showed it. */
  name(seat) {
    const player = this.replay.players[seat];
    if (!player) return t("seat.number", { n: seat + 1 });
    return player.bot ? t("seat.bot_n", { n: seat + 1 }) : player.name;
  }

  /** The seat drawn at the bottom: ours if we played this deal, else the first. */
  bottomSeat() {
    const mine = this.replay.players.findIndex((p) => p && !p.bot && p.name === this.app.user?.name);
    return Math.max(0, mine);
  }

  get last() {
    return this.replay.steps.length - 1;
  }

  /** The step after the next trick taken (or the end), and the one after the trick before the
   * current one's (or the start): a trick is seen whole, with who takes it. */
  nextTrick() {
    return this.ends.find((end) => end > this.step) ?? this.last;
  }

  previousTrick() {
    return [...this.ends].reverse().find((end) => end < this.step) ?? 0;
  }

  go(step) {
    this.step = Math.max(0, Math.min(step, this.last));
    this.render();
  }

  key(event) {
    if (!this.root.isConnected) {
      document.removeEventListener("keydown", this.keys);
      return;
    }
    if (!this.replay || typing(event)) return;
    const trick = event.shiftKey;
    const targets = {
      ArrowLeft: trick ? this.previousTrick() : this.step - 1,
      ArrowRight: trick ? this.nextTrick() : this.step + 1,
      PageUp: this.previousTrick(), PageDown: this.nextTrick(), Home: 0, End: this.last,
    };
    if (!(event.key in targets)) return;
    event.preventDefault();
    this.go(targets[event.key]);
  }

  render() {
    const header = (...title) => h("header", { class: "table-top" },
      h("a", { href: this.back.href, class: "back", id: "replay-back", "aria-label": this.back.label, title: this.back.label }, "←"),
      h("div", { class: "title" }, ...title));
    if (!this.replay) {
      replace(this.root, header(h("strong", {}, t("replay.page_title"))),
        h("p", { class: "empty" }, t("replay.not_found")),
        h("a", { href: this.back.href, class: "button" }, this.back.label));
      return;
    }
    const { game, steps } = this.replay;
    const step = steps[this.step];
    const deck = gameOf(game).deck ?? storage.get("deck", "french");
    const trick = this.ends.filter((end) => end <= this.step).length;
    this.root.dataset.step = String(this.step);
    replace(this.root,
      header(h("strong", {}, t("replay.title", { game: gameLabel(game) })),
        gameOf(game).dealList ? h("span", { class: "muted small" }, ` ${t("skat.deal_no", { n: this.deal + 1 })}`) : null),
      this.controls(),
      h("p", { class: "replay-where muted small" },
        h("span", { class: "replay-step", "aria-live": "polite" }, t("replay.step", { n: this.step, of: this.last })),
        this.ends.length ? ` · ${t("replay.tricks_taken", { n: trick, of: this.ends.length })}` : "",
        h("span", { class: "replay-keys" }, ` · ${t("replay.keys")}`)),
      h("p", { class: "replay-move" }, step.seat === null
        ? t("replay.dealt")
        : t("hint.line", { name: this.name(step.seat), deed: describeAction(step.action, deck) })),
      gameOf(game).replay.draw(this.replay, this.step, {
        deck, name: (seat) => this.name(seat), bottom: this.bottomSeat(), bot: (seat) => !!this.replay.players[seat]?.bot,
      }),
      gameOf(game).replay.analysis ? this.analysis.render() : null);
  }

  /** Start, a trick back, a move back, a move on, a trick on, the end. */
  controls() {
    const at = this.step;
    const last = this.last;
    const control = (id, target, disabled) => h("button", { type: "button", id, disabled,
      "aria-label": t(`replay.${id.replace("-", "_")}`), title: t(`replay.${id.replace("-", "_")}`),
      onclick: () => this.go(target) }, t(`replay.button.${id.replace("-", "_")}`));
    return h("nav", { class: "replay-controls row-buttons", "aria-label": t("replay.controls") },
      control("start", 0, at === 0),
      control("trick-back", this.previousTrick(), at === 0),
      control("back", at - 1, at === 0),
      control("forward", at + 1, at === last),
      control("trick-forward", this.nextTrick(), at === last),
      control("end", last, at === last));
  }
}
