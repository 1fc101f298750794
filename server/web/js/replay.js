// A finished deal replayed in the browser, step by step: every hand as it was, the move of each
// step, what lies on the table and, at the end, the result. The steps come from the server
// (`/api/records/{table}/{deal}/replay`, the engine replaying the stored moves), so this module
// draws and never judges a move. A private table's replay needs its invite or a seat at it.

import { AnalysisPanel } from "./analysis.js";
import { cardFace, cardName } from "./cards.js";
import { gameLabel, gameOf } from "./games.js";
import { describeAction } from "./hints.js";
import { t } from "./i18n.js";
import { storage } from "./storage.js";
import { h, icon, replace } from "./ui.js";

/** The route of a deal's replay. */
export function replayHash(table, deal, invite = null) {
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  return `#/replay/${encodeURIComponent(table)}/${deal}${query}`;
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

export class ReplayScreen {
  constructor(app, table, deal, invite) {
    this.app = app;
    this.table = table;
    this.deal = deal;
    this.invite = invite;
    this.replay = null;
    this.step = 0;
    this.root = h("main", { class: "replay-screen", id: "replay-screen" });
    this.analysis = new AnalysisPanel(this);
  }

  async show(container) {
    replace(container, this.root);
    replace(this.root, h("p", { class: "loading" }, t("replay.loading")));
    this.replay = await loadReplay(this.table, this.deal, this.invite, this.app.net.token);
    this.render();
  }

  /** The name of a seat as the table showed it. */
  name(seat) {
    const player = this.replay.players[seat];
    if (!player) return t("seat.number", { n: seat + 1 });
    return player.bot ? t("seat.bot_n", { n: seat + 1 }) : player.name;
  }

  go(step) {
    this.step = Math.max(0, Math.min(step, this.replay.steps.length - 1));
    this.render();
  }

  render() {
    if (!this.replay) {
      replace(this.root, h("p", { class: "empty" }, t("replay.not_found")),
        h("a", { href: "#/", class: "button" }, t("table.back_to_lobby")));
      return;
    }
    const { game, steps } = this.replay;
    const step = steps[this.step];
    const deck = gameOf(game).deck ?? storage.get("deck", "french");
    const last = steps.length - 1;
    const control = (id, label, target, disabled) => h("button", { type: "button", id, disabled,
      "aria-label": label, title: label, onclick: () => this.go(target) }, t(`replay.button.${id}`));
    replace(this.root,
      h("header", { class: "table-top" },
        h("a", { href: "#/", class: "back", "aria-label": t("table.back") }, "←"),
        h("div", { class: "title" }, h("strong", {}, t("replay.title", { game: gameLabel(game) })),
          h("span", { class: "muted small" }, ` ${t("skat.deal_no", { n: this.deal + 1 })}`))),
      h("nav", { class: "replay-controls row-buttons", "aria-label": t("replay.controls") },
        control("start", t("replay.start"), 0, this.step === 0),
        control("back", t("replay.back"), this.step - 1, this.step === 0),
        h("span", { class: "replay-step", "aria-live": "polite" }, t("replay.step", { n: this.step, of: last })),
        control("forward", t("replay.forward"), this.step + 1, this.step === last),
        control("end", t("replay.end"), last, this.step === last)),
      h("p", { class: "replay-move" }, step.seat === null
        ? t("replay.dealt")
        : t("hint.line", { name: this.name(step.seat), deed: describeAction(step.action, deck) })),
      h("section", { class: "replay-hands", "aria-label": t("replay.hands") },
        step.hands.map((cards, seat) => h("div", { class: `replay-hand ${step.view.to_move === seat ? "to-move" : ""}`, "data-seat": seat },
          h("strong", {}, this.replay.players[seat]?.bot ? [icon("bot", t("seat.bot")), " "] : null, this.name(seat)),
          h("div", { class: "mini-row" }, gameOf(game).sortHand(cards, step.view.contract?.game).map((card) =>
            h("span", { class: "mini lg", "data-card": card, title: cardName(card, deck), html: cardFace(card, deck) })))))),
      h("section", { class: "replay-table", "aria-label": t("table.centre") },
        gameOf(game).replayInfo(step.view, (seat) => this.name(seat), deck)),
      this.analysis.render());
    this.root.onkeydown = (e) => {
      const keys = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: last };
      if (e.key in keys) { e.preventDefault(); this.go(keys[e.key]); }
    };
  }
}
