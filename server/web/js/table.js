// The table screen shared by both games: header (invite link, deck, leave), the waiting room
// (take a seat, add bots), the game area (drawn by skat.js or tichu.js), and the side panel
// with the running list or scores, the chat and the bots' explanations.

import { DECKS } from "./cards.js";
import { DEFAULT_BOTS, rulesSummary } from "./lobby.js";
import { explainHint, renderList, renderSkat } from "./skat.js";
import { renderTichu, renderTichuScores } from "./tichu.js";
import { dialog, focusedCard, h, icon, replace, storage, toast } from "./ui.js";

const GAME_LABEL = { skat: "Skat", tichu: "Tichu" };

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
    this.side = h("aside", { class: "side", "aria-label": "List, chat and hints" });
    this.tabs = h("div", { class: "tabs", role: "tablist" });
    this.panel = h("div", { class: "tab-panel" });
    this.chatLog = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": "Chat" });
    this.chatInput = h("input", { type: "text", name: "chat", maxlength: "500", placeholder: "Say something…", "aria-label": "Chat message", autocomplete: "off" });
    this.chatForm = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.say(); } },
      this.chatInput, h("button", { type: "submit" }, "Send"));
    this.side.append(this.tabs, this.panel);
    replace(this.root, this.header, h("div", { class: "table-body" }, this.felt, this.side));
  }

  get deck() {
    const deck = storage.get("deck", "french");
    return this.model.game === "tichu" ? "tichu" : deck;
  }

  show(container) {
    replace(container, this.root);
    this.render();
  }

  /** Re-render after the model changed (a push arrived). */
  update() {
    this.render();
  }

  render() {
    if (!this.model.info) {
      replace(this.felt, h("p", { class: "loading" }, "Opening the table…"));
      return;
    }
    this.renderHeader();
    this.renderFelt();
    this.renderSide();
  }

  renderHeader() {
    const model = this.model;
    const info = model.info;
    const deckChooser = model.game === "skat"
      ? h("label", { class: "deck-choice" }, h("span", { class: "sr-only" }, "Card deck"),
          h("select", { name: "deck", "aria-label": "Card deck", onchange: (e) => { storage.set("deck", e.target.value); this.render(); } },
            DECKS.map((d) => h("option", { value: d.id, selected: storage.get("deck", "french") === d.id }, d.label))))
      : null;
    const status = info.status === "waiting" ? "waiting for players"
      : info.status === "finished" ? "list finished"
        : model.game === "skat" ? `deal ${info.deal + 1} of ${info.series_length}` : "playing";
    replace(this.header,
      h("a", { href: "#/", class: "back", "aria-label": "Back to the lobby" }, "←"),
      h("div", { class: "title" },
        h("strong", {}, `${GAME_LABEL[model.game] || model.game}`),
        h("span", { class: "muted small" }, ` ${rulesSummary(model.game, info.rules)} · ${status}`),
        model.seat === null ? h("span", { class: "badge" }, "watching") : null,
        info.private ? h("span", { class: "badge" }, "private") : null),
      h("div", { class: "top-buttons" },
        deckChooser,
        h("button", { type: "button", onclick: () => this.invite() }, "Invite"),
        h("button", { type: "button", class: "quiet", onclick: () => this.leave() }, model.seat === null ? "Stop watching" : "Leave")));
  }

  renderFelt() {
    const model = this.model;
    const keep = focusedCard(this.felt);
    this.ui.focus = keep;
    let content;
    if (model.status === "waiting" || !model.view) content = h("div", { class: "felt waiting-felt" }, this.waitingRoom());
    else {
      const ctx = this.context();
      content = model.game === "tichu" ? renderTichu(model, ctx) : renderSkat(model, ctx);
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
      act: (action) => this.act(action),
      confirmAct: (question, action) => this.confirmAct(question, action),
      rerender: () => this.renderFelt(),
    };
  }

  waitingRoom() {
    const model = this.model;
    const me = model.seat;
    const levels = this.app.games[model.game] || DEFAULT_BOTS[model.game] || ["random"];
    const level = this.ui.botLevel && levels.includes(this.ui.botLevel) ? this.ui.botLevel : levels[0];
    const seats = model.seats.map((seat, i) => {
      const taken = !!seat.name;
      return h("li", { class: `wait-seat ${taken ? "taken" : "free"}`, dataset: { seat: i } },
        h("span", { class: "seat-no" }, `Seat ${i + 1}`),
        taken ? h("strong", {}, seat.bot || seat.client_bot ? [icon("bot", "bot"), ` ${seat.name}`] : seat.name, i === me ? " (you)" : "")
          : h("span", { class: "muted" }, "free"),
        !taken && me === null && model.status === "waiting"
          ? h("button", { type: "button", class: "primary", onclick: () => this.sit(i) }, "Sit here") : null,
        !taken && me !== null
          ? h("button", { type: "button", onclick: () => this.addBot(i, this.ui.botLevel || level), "aria-label": `Add a bot on seat ${i + 1}` }, "Add bot") : null);
    });
    const free = model.seats.filter((s) => !s.name).length;
    return h("div", { class: "waiting-room" },
      h("h2", {}, `${GAME_LABEL[model.game]} table`),
      h("p", { class: "muted" }, "The list starts as soon as every seat is taken."),
      h("ol", { class: "wait-seats" }, seats),
      me !== null && free ? h("div", { class: "row-buttons" },
        h("label", {}, "Bot level ", h("select", { name: "bot-level", onchange: (e) => { this.ui.botLevel = e.target.value; } },
          levels.map((l) => h("option", { value: l, selected: l === level }, l)))),
        h("button", { type: "button", class: "primary", onclick: () => this.fillBots(this.ui.botLevel || level) }, "Fill free seats with bots")) : null,
      h("div", { class: "invite-box" },
        h("label", { for: "invite-link" }, "Invite link"),
        h("input", { id: "invite-link", readonly: true, value: this.inviteLink(), onfocus: (e) => e.target.select() }),
        h("button", { type: "button", onclick: () => this.invite() }, "Copy")));
  }

  finalStandings() {
    const model = this.model;
    const rows = model.standings.map((s, i) => h("li", {}, h("strong", {}, model.name(s.seat)), ` — ${s.points ?? s.performance}`));
    return h("div", { class: "final", role: "status" },
      h("h2", {}, "The list is over"),
      h("ol", {}, rows),
      h("a", { href: "#/", class: "button primary" }, "Back to the lobby"));
  }

  renderSide() {
    const model = this.model;
    const tabs = [["list", model.game === "skat" ? "List" : "Score"], ["chat", `Chat${model.chat.length ? ` (${model.chat.length})` : ""}`]];
    if (model.hints.length) tabs.push(["hints", "Bot hints"]);
    if (!tabs.some(([id]) => id === this.tab)) this.tab = "list";
    replace(this.tabs, tabs.map(([id, label]) => h("button", {
      type: "button", role: "tab", class: `tab ${this.tab === id ? "active" : ""}`, "aria-selected": String(this.tab === id),
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
      replace(this.panel, model.game === "tichu" ? renderTichuScores(model, ctx) : renderList(model, ctx));
    }
  }

  /** The bots' explanations, newest deal first. */
  hintList() {
    const model = this.model;
    const deals = [...new Set(model.hints.map((hint) => hint.deal ?? 0))].sort((a, b) => b - a);
    return h("div", { class: "hint-groups" }, deals.map((deal) => [
      model.game === "skat" ? h("h3", { class: "small" }, `Deal ${deal + 1}`) : null,
      h("ul", { class: "hint-list" }, model.hints.filter((hint) => (hint.deal ?? 0) === deal)
        .map((hint) => h("li", {}, explainHint(model, hint, this.deck)))),
    ]));
  }

  // --- requests --------------------------------------------------------------------------

  async act(action) {
    if (this.busy || !action) return;
    this.busy = true;
    try {
      await this.app.net.request("act", { table: this.model.id, seq: this.model.seq, action });
    } catch (error) {
      // A stale seq only means the table moved on meanwhile: the new view is on its way.
      if (error.code !== "stale_seq") toast(error.message, "error");
    } finally {
      this.busy = false;
    }
  }

  async confirmAct(question, action) {
    const answer = await dialog(question, h("p", {}, "This cannot be undone."),
      [{ label: "Cancel", value: false }, { label: "Yes", value: true, primary: true, submit: true }]);
    if (answer) this.act(action);
  }

  async say() {
    const text = this.chatInput.value.trim();
    if (!text) return;
    try {
      await this.app.net.request("chat", { table: this.model.id, text });
      this.chatInput.value = "";
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async sit(seat) {
    try {
      await this.app.net.request("join", { table: this.model.id, seat, invite: this.model.invite ?? undefined });
      this.app.remember(this.model.id, "seat", this.model.invite);
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async addBot(seat, level) {
    try {
      await this.app.net.request("add_bot", { table: this.model.id, seat, level });
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async fillBots(level) {
    const free = this.model.seats.map((s, i) => (s.name ? null : i)).filter((i) => i !== null);
    for (const seat of free) {
      try {
        await this.app.net.request("add_bot", { table: this.model.id, seat, level });
      } catch (error) {
        if (error.code !== "seat_taken") {
          toast(error.message, "error");
          return;
        }
      }
    }
  }

  inviteLink() {
    return `${location.origin}/${this.app.tableLink(this.model.id, this.model.invite)}`;
  }

  async invite() {
    const link = this.inviteLink();
    try {
      await navigator.clipboard.writeText(link);
      toast("Invite link copied");
    } catch {
      await dialog("Invite link", h("input", { readonly: true, value: link, class: "wide", onfocus: (e) => e.target.select() }),
        [{ label: "Close", value: null, primary: true }]);
    }
  }

  async leave() {
    const model = this.model;
    if (model.seat !== null && model.status === "playing") {
      const answer = await dialog("Leave the table?",
        h("p", {}, "A bot takes your seat for the rest of the list."),
        [{ label: "Stay", value: false }, { label: "Leave", value: true, primary: true }]);
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
