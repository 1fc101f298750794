// The analysis of a finished Skat deal in the replay (issue 26): an "Analyse" button that asks
// the server (`analyze`), a progress bar while the bot pool computes it, then a chart of the
// declarer's winning chances over the cards, each mistake marked on the card played (on the
// felt, and in the grade of the step's card) with the better card named, a step to the next mistake, the bidding and skat panel with the expected
// scores, and the points each player lost. The server grades; this module only draws.

import { cardFace, cardName } from "./cards.js";
import { errorText, number, t } from "./i18n.js";
import { contractText } from "./skat-words.js";
import { storage } from "./storage.js";
import { h, replace, signed } from "./ui.js";

const MARKED = ["mistake", "blunder"];

/** Whether a card review carries a mark in either column. */
function isMarked(review) {
  return MARKED.includes(review.mark) || MARKED.includes(review.open_mark);
}

export class AnalysisPanel {
  /** @param screen the replay screen: `replay`, `step`, `go(step)`, `name(seat)`, `app`. */
  constructor(screen) {
    this.screen = screen;
    this.state = "idle"; // idle, running, failed, done
    this.progress = { done: 0, total: 1 };
    this.analysis = null;
    this.error = "";
    this.root = h("section", { class: "analysis", id: "analysis", "aria-label": t("analysis.title") });
  }

  /** The panel for the replay's current step (the replay shows it for a game whose replay
   * has `analysis`: Skat). */
  render() {
    this.redraw();
    queueMicrotask(() => this.markPlayed()); // once the felt is on the page
    return this.root;
  }

  /** The analysis of the current step's card (null: not a card, or no analysis yet). */
  currentReview() {
    const index = this.playSteps.indexOf(this.screen.step);
    return this.analysis && index >= 0 ? this.analysis.cards[index] : null;
  }

  /** The card of the current step, on the felt, marked when it was a mistake. */
  markPlayed() {
    const review = this.currentReview();
    const mark = [review?.mark, review?.open_mark].find((m) => MARKED.includes(m));
    if (!mark) return;
    const played = this.screen.root.querySelector(`.trick-card[data-card="${review.card}"]`);
    if (!played) return;
    played.classList.add("analysis-marked", mark);
    played.title = `${played.title} · ${t(`analysis.mark.${mark}`)}`;
  }

  redraw() {
    replace(this.root, h("h2", {}, t("analysis.title")), ...this.content());
  }

  content() {
    if (this.state === "idle") {
      return [h("button", { type: "button", id: "analyse", class: "primary", onclick: () => this.start() }, t("analysis.start"))];
    }
    if (this.state === "running") {
      const { done, total } = this.progress;
      return [h("label", { class: "analysis-progress" }, t("analysis.computing", { done, total }),
        h("progress", { max: total, value: done }))];
    }
    if (this.state === "failed") {
      return [h("p", { class: "error" }, this.error),
        h("button", { type: "button", id: "analyse", onclick: () => this.start() }, t("analysis.again"))];
    }
    return [this.chart(), this.cardNote(), this.navigation(), this.bidding(), this.summary()];
  }

  start() {
    const { table, deal, invite } = this.screen;
    this.state = "running";
    this.redraw();
    this.screen.app.net.stream("analyze", { table, deal, ...(invite ? { invite } : {}) }, (message) => {
      if (message.type === "analysis_progress") {
        this.progress = message;
      } else if (message.type === "analysis") {
        this.analysis = message.analysis;
        this.state = "done";
      } else if (message.type === "error") {
        this.error = errorText(message);
        this.state = "failed";
      }
      this.redraw();
      return this.state !== "running";
    });
  }

  get deck() {
    return storage.get("deck", "french");
  }

  /** The replay step of each card played, in the order of the analysis's `cards`. */
  get playSteps() {
    return this.screen.replay.steps.flatMap((step, index) => step.action?.type === "play" ? [index] : []);
  }

  card(code) {
    return h("span", { class: "mini", "data-card": code, title: cardName(code, this.deck), html: cardFace(code, this.deck) });
  }

  /** A contract of the analysis ("grand hand schneider", "pickup") in the player's words. */
  contract(label) {
    if (label === "pickup") return t("analysis.pickup");
    const [game, ...flags] = label.split(" ");
    const has = (flag) => flags.includes(flag);
    return contractText({ game, schneider: has("schneider"), schwarz: has("schwarz"), ouvert: has("ouvert") }, has("hand"), this.deck);
  }

  mark(mark) {
    return mark === "ok" ? null : h("span", { class: `analysis-mark ${mark}` }, t(`analysis.mark.${mark}`));
  }

  /** The declarer's winning chance after each card as its player saw it; a forced card keeps
   * the chance before it. Each bar steps the replay to its card. */
  chart() {
    const steps = this.playSteps;
    let chance = 0.5;
    const bars = this.analysis.cards.map((review, i) => {
      chance = review.declarer_chance ?? chance;
      const percent = Math.round(chance * 100);
      const label = t("analysis.bar", { trick: review.trick + 1, name: this.screen.name(review.seat),
        card: cardName(review.card, this.deck), percent });
      return h("button", { type: "button", class: `analysis-bar ${isMarked(review) ? review.mark === "blunder" || review.open_mark === "blunder" ? "blunder" : "mistake" : ""} ${steps[i] === this.screen.step ? "current" : ""}`,
        title: label, "aria-label": label, onclick: () => this.screen.go(steps[i]) },
      h("span", { class: "fill", style: `height: ${Math.max(percent, 2)}%` }));
    });
    return h("figure", { class: "analysis-chart-box" },
      h("div", { class: "analysis-chart", role: "group", "aria-label": t("analysis.chart") }, bars),
      h("figcaption", { class: "muted small" }, t("analysis.chart")));
  }

  /** What the analysis says about the card of the current step. */
  cardNote() {
    const review = this.currentReview();
    if (!review) return h("p", { class: "analysis-note muted" }, t("analysis.pick_card"));
    if (review.forced) return h("p", { class: "analysis-note" }, this.card(review.card), " ", t("analysis.forced"));
    const lines = [h("p", { class: `analysis-note ${review.mark}` }, this.card(review.card), " ",
      review.mark === "ok" ? t("analysis.good") : [this.mark(review.mark), " ", t("analysis.better"), " ", this.card(review.best),
        " ", t("analysis.lost", { points: number(review.lost, 1) })])];
    if (review.open_mark !== "ok") {
      lines.push(h("p", { class: `analysis-note open ${review.open_mark}` }, t("analysis.open"), " ", this.mark(review.open_mark), " ",
        t("analysis.better"), " ", this.card(review.open_best),
        review.open_lost_points ? ` ${t("analysis.card_points", { points: review.open_lost_points })}` : ""));
    }
    return h("div", { class: "analysis-notes" }, lines);
  }

  /** How many cards are marked, and a step to the next one after the current step. */
  navigation() {
    const steps = this.playSteps;
    const marked = this.analysis.cards.flatMap((review, i) => isMarked(review) ? [steps[i]] : []);
    const next = marked.find((step) => step > this.screen.step) ?? marked[0];
    return h("div", { class: "row-buttons analysis-nav" },
      h("span", {}, t("analysis.marked", { n: marked.length })),
      h("button", { type: "button", id: "next-mistake", disabled: !marked.length,
        onclick: () => this.screen.go(next) }, t("analysis.next")));
  }

  /** The auction, the skat and the declaration with their expected scores. */
  bidding() {
    const { bidding, skat, declaration } = this.analysis;
    const rows = bidding.map((bid) => h("li", {},
      h("strong", {}, this.screen.name(bid.seat)), " ",
      t(bid.went_on ? "analysis.went_on" : "analysis.passed", { bid: bid.bid }), " — ",
      bid.expected === null ? t("analysis.no_game") : t("analysis.expected", { score: signed(Math.round(bid.expected)) }),
      " ", t("analysis.pass_score", { score: signed(Math.round(bid.pass_score)) }), " ", this.mark(bid.mark)));
    const choice = (review, title) => review && h("div", { class: "analysis-choice" },
      h("h3", {}, title, " ", this.mark(review.mark)),
      h("table", {}, h("tbody", {}, review.options.map((option) => h("tr", {
        class: `${option.label === review.chosen.label ? "chosen" : ""} ${option.label === review.best.label ? "best" : ""}` },
      h("td", {}, this.contract(option.label),
        option.label === review.chosen.label ? ` (${t("analysis.chosen")})` : "",
        option.label === review.best.label ? ` (${t("analysis.best")})` : ""),
      h("td", { class: "num" }, signed(Math.round(option.expected))))))),
      review.discard ? h("p", {}, t("analysis.discard"), " ", review.discard.map((c) => this.card(c)), " — ",
        t("analysis.best_discard"), " ", review.best_discard.map((c) => this.card(c))) : null);
    return h("section", { class: "analysis-bidding" },
      h("h3", {}, t("analysis.bidding")), h("ul", {}, rows),
      choice(skat, t("analysis.skat")), choice(declaration, t("analysis.declaration")));
  }

  /** Per player: the points lost by mistakes, and how many. */
  summary() {
    return h("table", { class: "analysis-summary" },
      h("thead", {}, h("tr", {}, h("th", {}, t("analysis.player")), h("th", {}, t("analysis.points_lost")),
        h("th", {}, t("analysis.mark.mistake")), h("th", {}, t("analysis.mark.blunder")))),
      h("tbody", {}, this.analysis.players.map((player) => h("tr", {},
        h("td", {}, this.screen.name(player.seat)), h("td", { class: "num" }, number(player.points_lost, 1)),
        h("td", { class: "num" }, String(player.mistakes)), h("td", { class: "num" }, String(player.blunders))))));
  }
}
