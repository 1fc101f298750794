// The table screen shared by both games: header (invite link, deck, leave), the waiting room
// (take a seat, add bots), the game area (drawn by skat.js or tichu.js), and the side panel
// with the running list or scores, the chat and the bots' explanations.

import { deckLabel, DECKS } from "./cards.js";
import { describeAction, explainHint } from "./hints.js";
import { errorText, t } from "./i18n.js";
import { gameLabel, gameOf, moveClock, progress, rulesSummary } from "./games.js";
import { botLevels, levelChoice, levelName } from "./lobby.js";
import { storage } from "./storage.js";
import { dialog, focusedCard, h, icon, replace, toast } from "./ui.js";

// How long a trick just taken stays on the felt when another seat leads the next one at once.
const TRICK_HOLD_MS = 1500;

/** Seat bots of `level` on `seats` of a table; a seat taken meanwhile is skipped. */
export async function fillFreeSeats(net, table, level, seats) {
  for (const seat of seats) {
    try {
      await net.request("add_bot", { table, seat, level });
    } catch (error) {
      if (error.code !== "seat_taken") {
        toast(errorText(error), "error");
        return;
      }
    }
  }
}

export class TableScreen {
  constructor(app, model) {
    this.app = app;
    this.model = model;
    this.ui = {}; // view state that survives re-renders: selections, open panels, focus
    this.busy = false;
    this.tab = "list";
    this.root = h("main", { class: "table-screen", id: "table-screen" });
    this.header = h("header", { class: "table-top" });
    this.felt = h("div", { class: "felt-holder" });
    this.side = h("aside", { class: "side" }); // named by renderSide, once the game is known
    this.tabs = h("div", { class: "tabs", role: "tablist" });
    this.panel = h("div", { class: "tab-panel" });
    this.chatLog = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": t("table.chat") });
    this.chatInput = h("input", { type: "text", name: "chat", maxlength: "500", placeholder: t("table.say"), "aria-label": t("table.chat_message"), autocomplete: "off" });
    this.chatForm = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.say(); } },
      this.chatInput, h("button", { type: "submit" }, t("table.send")));
    this.side.append(this.tabs, this.panel);
    // The clock and the take-back notice lie over the top of the table (they come and go
    // with every move: taking room, they would push the table down each time).
    this.clockBar = h("div", { class: "move-clock", role: "timer", hidden: true });
    this.takeBackBox = h("div", { class: "take-back", role: "status", hidden: true });
    this.notices = h("div", { class: "table-notices" }, this.clockBar, this.takeBackBox);
    replace(this.root, h("div", { class: "table-header" }, this.header, this.notices),
      h("div", { class: "table-body" }, this.felt, this.side));
    this.ticker = null;
    this.seenView = null; // the model's view at the last update
    this.held = null; // a trick just taken, still drawn: {view (that shows it), deal, timer}
  }

  get deck() {
    return gameOf(this.model.game).deck ?? storage.get("deck", "french");
  }

  show(container) {
    replace(container, this.root);
    this.render();
  }

  /** Re-render after the model changed (a push arrived). */
  update() {
    this.holdTakenTrick();
    this.render();
  }

  /** When a trick is taken and another seat is to lead, the felt keeps showing the view
   * that shows the trick taken for TRICK_HOLD_MS, even if the next trick's first card comes
   * at once, so the player sees who took what. Only the drawing waits: the model stays
   * current, and so do our hand and actions. We never wait: there is no hold when we are to
   * lead, our turn ends one (we must see the trick we follow), and so does acting. */
  holdTakenTrick() {
    const model = this.model;
    const before = this.seenView;
    const view = model.view;
    this.seenView = view;
    // Our turn ends a hold: we follow the trick on the table, so we must see it.
    const ours = view?.to_move === model.seat;
    if (this.held && (ours || view?.phase !== "play" || model.info?.deal !== this.held.deal)) this.releaseTrick();
    if (!before || !view || view === before || view.phase !== "play" || ours) return;
    if (!gameOf(model.game).replay.takesTrick(before, view)) return;
    this.releaseTrick();
    const timer = setTimeout(() => {
      this.held = null;
      if (this.root.isConnected) this.render();
    }, TRICK_HOLD_MS);
    this.held = { view, deal: model.info?.deal, timer };
  }

  releaseTrick() {
    clearTimeout(this.held?.timer);
    this.held = null;
  }

  render() {
    if (!this.model.info) {
      replace(this.felt, h("p", { class: "loading" }, t("table.opening")));
      return;
    }
    this.renderHeader();
    this.renderFelt();
    this.renderSide();
    this.renderClock();
    this.renderTakeBack();
  }

  /** While a bot plays our seat (our move clock ran out): what it played for us, and one
   * click to play ourselves again (a `join` of our own seat takes it back). */
  renderTakeBack() {
    const model = this.model;
    this.takeBackBox.hidden = !model.awayFromSeat && !model.finishedForUs;
    if (model.finishedForUs) {
      replace(this.takeBackBox, h("span", {}, t("seat.bot_finished_for_you")));
      return;
    }
    if (!model.awayFromSeat) return;
    const deeds = model.playedForUs.map((action) => describeAction(action, this.deck));
    replace(this.takeBackBox,
      h("span", {}, this.awayText()),
      deeds.length ? h("span", { class: "played-for-us" }, ` ${t("clock.played", { deeds: deeds.join(", ") })}`) : null,
      h("button", { type: "button", class: "primary", id: "take-back", onclick: () => this.takeBack() }, t("clock.take_back")));
  }

  /** That a bot plays our seat, and which one if the move clock said. */
  awayText() {
    const bot = this.model.timeoutBot;
    return bot ? t("clock.taken", { bot: levelName(bot) }) : t("seat.away_you");
  }

  async takeBack() {
    try {
      await this.app.net.request("join", { table: this.model.id, invite: this.model.invite ?? undefined });
    } catch (error) {
      toast(errorText(error), "error");
    }
  }

  /** The move clock: each seat the server times shows its time left (on its seat box, which
   * the game's drawing marks with `data-seat`), and the bar above the table says it again
   * with what happens at the timeout; ticks every second while a clock runs and shows. */
  renderClock() {
    const model = this.model;
    const left = model.secondsLeft();
    for (const old of this.felt.querySelectorAll(".seat-clock")) old.remove();
    if (left === null || !this.root.isConnected) {
      this.clockBar.hidden = true;
      clearInterval(this.ticker);
      this.ticker = null;
      return;
    }
    const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    const bot = levelName(model.clock.bot);
    const urgent = left <= 10 ? "urgent" : "";
    replace(this.clockBar, model.clock.seats.map((seat) =>
      h("span", { class: `clock-seat ${seat === model.seat ? "mine" : ""} ${urgent}`, dataset: { seat } },
        seat === model.seat ? t("clock.yours", { time, bot }) : t("clock.seat", { name: model.name(seat), time, bot }))));
    for (const seat of model.clock.seats) {
      this.felt.querySelector(`.seat-box[data-seat="${seat}"] .seat-name`)
        ?.append(h("span", { class: `seat-clock ${urgent}`, "aria-label": t("clock.left", { time }) }, time));
    }
    this.clockBar.hidden = false;
    this.ticker ??= setInterval(() => this.renderClock(), 1000);
  }

  renderHeader() {
    const model = this.model;
    const info = model.info;
    const deckChooser = gameOf(model.game).deck === null
      ? h("label", { class: "deck-choice" }, h("span", { class: "sr-only" }, t("table.deck")),
          h("select", { name: "deck", "aria-label": t("table.deck"), onchange: (e) => { storage.set("deck", e.target.value); this.render(); } },
            DECKS.map((d) => h("option", { value: d, selected: storage.get("deck", "french") === d }, deckLabel(d)))))
      : null;
    const status = info.status === "waiting" ? t("status.waiting") : progress({ ...info, game: model.game });
    const clock = moveClock(info);
    replace(this.header,
      h("a", { href: "#/", class: "back", "aria-label": t("table.back") }, "←"),
      h("div", { class: "title" },
        h("strong", {}, gameLabel(model.game)),
        h("span", { class: "muted small" }, ` ${rulesSummary(model.game, info.rules)} · ${status}`),
        clock ? h("span", { class: "muted small clock-setting" }, " · ", icon("clock"), ` ${clock}`) : null,
        model.seat === null ? h("span", { class: "badge" }, t("table.watching")) : null,
        info.private ? h("span", { class: "badge" }, t("table.private")) : null),
      h("div", { class: "top-buttons" },
        deckChooser,
        h("button", { type: "button", onclick: () => this.invite() }, t("table.invite")),
        h("button", { type: "button", class: "quiet", onclick: () => this.leave() }, t(model.seat === null ? "table.stop_watching" : "table.leave"))));
  }

  renderFelt() {
    const model = this.model;
    const keep = focusedCard(this.felt);
    this.ui.focus = keep;
    let content;
    if (model.status === "waiting" || !model.view) content = h("div", { class: "felt waiting-felt" }, this.waitingRoom());
    else {
      const ctx = this.context();
      const game = gameOf(model.game);
      content = game.render(model, ctx);
      if (this.held) {
        // A trick held in view (see holdTakenTrick): the table as it was when the trick was
        // taken, with our own hand and actions as they are now.
        const then = game.render(Object.assign(Object.create(model), { view: this.held.view }), ctx);
        then.querySelector(".own").replaceWith(content.querySelector(".own"));
        content = then;
      }
    }
    if (model.status === "finished" && model.standings) content = h("div", { class: "finished-wrap" }, content, this.finalStandings());
    replace(this.felt, content);
    if (keep !== undefined) {
      const card = this.felt.querySelector(`.hand [data-card="${CSS.escape(keep)}"]`) ||
        this.felt.querySelector(".hand .card.playable, .hand .card:not(.idle)");
      card?.focus();
    } else if (this.app.keyboard && document.activeElement === document.body) {
      // A keyboard player whose turn it is to play gets the focus on his first playable card.
      this.felt.querySelector(".hand .card.playable")?.focus({ preventScroll: true });
    }
  }

  context() {
    return {
      deck: this.deck,
      ui: this.ui,
      tableId: this.model.id,
      away: this.model.awayFromSeat ? this.awayText() : null,
      act: (action) => this.act(action),
      confirmAct: (question, text, action, yes) => this.confirmAct(question, text, action, yes),
      rerender: () => this.renderFelt(),
    };
  }

  /** The bot level to offer first: the one chosen when the table was created, else the strongest. */
  botLevel(levels) {
    const chosen = this.ui.botLevel ?? this.app.remembered()[this.model.id]?.bot;
    return levels.includes(chosen) ? chosen : levels[0];
  }

  waitingRoom() {
    const model = this.model;
    const me = model.seat;
    const levels = botLevels(this.app.games, model.game);
    const level = this.botLevel(levels);
    const seats = model.seats.map((seat, i) => {
      const taken = !!seat.name;
      return h("li", { class: `wait-seat ${taken ? "taken" : "free"}`, dataset: { seat: i } },
        h("span", { class: "seat-no" }, t("seat.number", { n: i + 1 })),
        taken ? h("strong", {}, seat.bot || seat.client_bot ? [icon("bot", t("seat.bot")), ` ${levelName(seat.bot || t("seat.own_program"))}`] : seat.name,
          i === me ? ` ${t("seat.you")}` : "")
          : h("span", { class: "muted" }, t("seat.free")),
        !taken && me === null && model.status === "waiting"
          ? h("button", { type: "button", class: "primary", onclick: () => this.sit(i) }, t("table.sit_here")) : null,
        !taken && me !== null
          ? h("button", { type: "button", onclick: () => this.addBot(i, this.botLevel(levels)), "aria-label": t("table.add_bot_on", { n: i + 1 }) }, t("table.add_bot")) : null);
    });
    const free = model.seats.filter((s) => !s.name).length;
    return h("div", { class: "waiting-room" },
      h("h2", {}, t("table.game_table", { game: gameLabel(model.game) })),
      h("p", { class: "muted" }, t(gameOf(model.game).words.startsWhenFull)),
      h("ol", { class: "wait-seats" }, seats),
      me !== null && free ? h("div", { class: "row-buttons" },
        h("label", {}, t("table.bot_level"), h("select", { name: "bot-level", onchange: (e) => { this.ui.botLevel = e.target.value; } },
          levels.map((l) => h("option", { value: l, selected: l === level }, levelChoice(model.game, l))))),
        h("button", { type: "button", class: "primary", onclick: () => this.fillBots(this.botLevel(levels)) }, t("table.fill_bots"))) : null,
      h("div", { class: "invite-box" },
        h("label", { for: "invite-link" }, t("table.invite_link")),
        h("input", { id: "invite-link", readonly: true, value: this.inviteLink(), onfocus: (e) => e.target.select() }),
        h("button", { type: "button", onclick: () => this.invite() }, t("table.copy"))));
  }

  finalStandings() {
    const model = this.model;
    const rows = model.standings.map((s) => h("li", {}, h("strong", {}, model.name(s.seat)), ` — ${s.points ?? s.performance}`));
    return h("div", { class: "final", role: "status" },
      h("h2", {}, t(gameOf(model.game).words.over)),
      h("ol", {}, rows),
      h("a", { href: "#/", class: "button primary" }, t("table.back_to_lobby")));
  }

  renderSide() {
    const model = this.model;
    const scores = t(gameOf(model.game).scoresTab);
    this.side.setAttribute("aria-label", t("table.side", { scores }));
    const tabs = [["list", scores],
      ["chat", model.chat.length ? t("table.tab_chat_count", { n: model.chat.length }) : t("table.tab_chat")]];
    if (model.hints.length) tabs.push(["hints", t("table.tab_hints")]);
    if (!tabs.some(([id]) => id === this.tab)) this.tab = "list";
    replace(this.tabs, tabs.map(([id, label]) => h("button", {
      type: "button", role: "tab", class: `tab ${this.tab === id ? "active" : ""}`, "aria-selected": String(this.tab === id),
      dataset: { tab: id },
      onclick: () => { this.tab = id; this.renderSide(); if (id === "chat") this.chatInput.focus(); },
    }, label)));
    if (this.tab === "chat") {
      replace(this.chatLog, model.chat.map((line) => h("li", {}, h("strong", {}, `${line.name}: `), line.text)));
      if (this.panel.firstChild !== this.chatLog) replace(this.panel, this.chatLog, this.chatForm);
      this.chatLog.scrollTop = this.chatLog.scrollHeight;
    } else if (this.tab === "hints") {
      replace(this.panel, this.hintList());
    } else {
      const ctx = this.context();
      replace(this.panel, gameOf(model.game).renderScores(model, ctx));
    }
  }

  /** The bots' explanations, newest deal first. */
  hintList() {
    const model = this.model;
    const deals = [...new Set(model.hints.map((hint) => hint.deal ?? 0))].sort((a, b) => b - a);
    return h("div", { class: "hint-groups" }, deals.map((deal) => [
      gameOf(model.game).dealList ? h("h3", { class: "small" }, t("skat.deal_no", { n: deal + 1 })) : null,
      h("ul", { class: "hint-list" }, model.hints.filter((hint) => (hint.deal ?? 0) === deal)
        .map((hint) => h("li", {}, explainHint(model, hint, this.deck)))),
    ]));
  }

  // --- requests --------------------------------------------------------------------------

  async act(action) {
    if (this.busy || !action) return;
    this.busy = true;
    this.releaseTrick();
    try {
      await this.app.net.request("act", { table: this.model.id, seq: this.model.seq, action });
    } catch (error) {
      // A stale seq only means the table moved on meanwhile: the new view is on its way.
      if (error.code !== "stale_seq") toast(errorText(error), "error");
    } finally {
      this.busy = false;
    }
  }

  /** Ask before a costly action; it is sent only after "yes". */
  async confirmAct(question, text, action, yes = t("common.yes")) {
    const answer = await dialog(question, h("p", {}, text),
      [{ label: t("common.cancel"), value: false, id: "cancel" }, { label: yes, value: true, primary: true, submit: true, id: "confirm" }]);
    if (answer) await this.act(action);
    return !!answer;
  }

  async say() {
    const text = this.chatInput.value.trim();
    if (!text) return;
    try {
      await this.app.net.request("chat", { table: this.model.id, text });
      this.chatInput.value = "";
    } catch (error) {
      toast(errorText(error), "error");
    }
  }

  async sit(seat) {
    try {
      await this.app.net.request("join", { table: this.model.id, seat, invite: this.model.invite ?? undefined });
      this.app.remember(this.model.id, "seat", this.model.invite);
    } catch (error) {
      toast(errorText(error), "error");
    }
  }

  async addBot(seat, level) {
    try {
      await this.app.net.request("add_bot", { table: this.model.id, seat, level });
    } catch (error) {
      toast(errorText(error), "error");
    }
  }

  async fillBots(level) {
    const free = this.model.seats.map((s, i) => (s.name ? null : i)).filter((i) => i !== null);
    await fillFreeSeats(this.app.net, this.model.id, level, free);
  }

  inviteLink() {
    return `${location.origin}/${this.app.tableLink(this.model.id, this.model.invite)}`;
  }

  async invite() {
    const link = this.inviteLink();
    try {
      await navigator.clipboard.writeText(link);
      toast(t("table.invite_copied"));
    } catch {
      await dialog(t("table.invite_link"), h("input", { readonly: true, value: link, class: "wide", onfocus: (e) => e.target.select() }),
        [{ label: t("common.close"), value: null, primary: true }]);
    }
  }

  async leave() {
    const model = this.model;
    if (model.seat !== null && model.status === "playing") {
      const answer = await dialog(t("table.leave_title"),
        h("p", {}, t(gameOf(model.game).words.leaveText)),
        [{ label: t("table.stay"), value: false }, { label: t("table.leave"), value: true, primary: true }]);
      if (!answer) return;
    }
    try {
      await this.app.net.request("leave", { table: model.id });
    } catch {
      /* not at the table any more: nothing to undo */
    }
    this.app.forget(model.id);
    location.hash = "#/";
  }
}
