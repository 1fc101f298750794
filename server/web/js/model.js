// What the client knows about one table, folded from the protocol's pushes: the `snapshot`
// after join/watch/resume and every `event` after it, in `seq` order.

import { gameOf } from "./games.js";
import { t } from "./i18n.js";

export class TableModel {
  constructor(id, invite = null) {
    this.id = id;
    this.invite = invite;
    this.info = null; // TableInfo: game, rules, seats, status, deal, ...
    this.seat = null; // our seat, null for a spectator
    this.seq = 0;
    this.view = null; // our view of the running deal (observation without history)
    this.moves = []; // this deal's moves as we saw them: {seat, action} (action null: hidden)
    this.chat = [];
    this.results = []; // finished deals of the list: {number, result}
    this.lastOver = null; // {number, view} of the latest finished deal
    this.standings = null;
    this.hints = []; // bot explanations we may see: {seq, seat, action, why}
    this.lastTrick = null; // Tichu: the events of the last trick taken, as the view showed them
    this.clock = null; // the move clock: {seq, seats, bot, deadline (Date.now() ms)}
    this.playedForUs = []; // our seat's moves a bot made since it took the seat over
    this.timeoutBot = null; // the level that plays at the timeout, as the last clock said
    this.gameSeq = 0; // seq of the last event that changed the game (0: unknown, after a snapshot)
  }

  get game() {
    return this.info?.game ?? "skat";
  }

  get seats() {
    return this.info?.seats ?? [];
  }

  get status() {
    return this.info?.status ?? "waiting";
  }

  /** The name shown for a seat. */
  name(seat) {
    const info = this.seats[seat];
    if (!info || !info.name) return t("seat.number", { n: seat + 1 });
    if (info.bot) return t("seat.bot_n", { n: seat + 1 }); // every bot is "bot:<level>": tell them apart
    return info.name;
  }

  applySnapshot(message) {
    this.info = structuredClone(message.table);
    this.seq = message.seq;
    this.gameSeq = 0;
    this.clock = null; // the server sends the running clock right after the snapshot
    this.seat = message.seat;
    this.view = message.view ?? null;
    this.moves = message.view?.history ? [...message.view.history] : [];
    this.standings = message.standings ?? null;
    // The table's recent chat (the server keeps the last lines), so a reload keeps it.
    this.chat = (message.chat ?? []).map(({ seq, seat, name, text }) => ({ seat, name, text, seq }));
    if (Array.isArray(message.results)) {
      this.results = message.results.map((result, number) => ({ number, result }));
    }
    if (this.view && this.view.phase === "over") {
      this.lastOver = { number: this.info.deal, view: this.view, moves: this.moves };
    }
  }

  /** Fold one event in; returns false for an event we have already seen. */
  applyEvent(message) {
    if (message.seq <= this.seq) return false;
    this.seq = message.seq;
    const event = message.event;
    if (event.kind !== "chat") {
      this.gameSeq = message.seq;
      this.clock = null; // the game moved on: a new clock comes if it waits for someone
    }
    if (message.view) {
      this._keepTakenTrick(message.view);
      this.view = message.view;
    }
    switch (event.kind) {
      case "seated":
        this._seat(event.seat, { seat: event.seat, name: event.name, bot: event.bot, client_bot: event.client_bot, away: false });
        break;
      case "vacated":
        this._seat(event.seat, { seat: event.seat });
        break;
      case "taken_over":
        this._seat(event.seat, { ...this.seats[event.seat], away: event.bot });
        if (event.seat === this.seat) this.playedForUs = [];
        break;
      case "deal":
        if (this.info) {
          this.info.status = "playing";
          this.info.deal = event.number;
        }
        this.moves = [];
        break;
      case "move":
        this.moves.push({ seat: event.seat, action: event.action });
        if (event.seat === this.seat && this.awayFromSeat) this.playedForUs.push(event.action);
        if (event.why) {
          this.hints.push({ deal: this.info?.deal, seat: event.seat, action: event.action, why: event.why, own: true });
        }
        if (event.hints) {
          const deal = this.info?.deal;
          this.hints = this.hints.filter((hint) => hint.deal !== deal || hint.own);
          for (const hint of event.hints) this.hints.push({ ...hint, deal });
        }
        if (this.view && this.view.phase === "over") this._dealOver();
        break;
      case "chat":
        this.chat.push({ seat: event.seat, name: event.name, text: event.text, seq: message.seq });
        break;
      case "series_end":
        this.standings = event.standings;
        if (this.info) this.info.status = "finished";
        break;
      default:
        break;
    }
    return true;
  }

  /** A `clock` push: who must act by when (in this browser's time), unless the game has
   * moved past it; returns whether it was taken. */
  applyClock(message) {
    if (message.seq < this.gameSeq) return false;
    this.clock = { seq: message.seq, seats: message.seats, bot: message.bot, deadline: Date.now() + message.seconds * 1000 };
    this.timeoutBot = message.bot;
    return true;
  }

  /** Whether a bot plays our seat now (the move clock ran out, or we were gone too long). */
  get awayFromSeat() {
    return this.seat !== null && this.status === "playing" && !!this.seats[this.seat]?.away;
  }

  /** Whether the list ended while a bot played our seat (it played to the end for us). */
  get finishedForUs() {
    return this.seat !== null && this.status === "finished" && !!this.seats[this.seat]?.away;
  }

  /** Whole seconds left on the move clock (null: no clock runs). */
  secondsLeft() {
    if (!this.clock) return null;
    return Math.max(0, Math.ceil((this.clock.deadline - Date.now()) / 1000));
  }

  /** Tichu: when a closed trick leaves the table, keep it for the last-trick review. */
  _keepTakenTrick(next) {
    const before = this.view;
    if (!gameOf(this.game).tricksReviewed || !before?.trick_closed || !before.trick?.length) return;
    const same = next.trick?.length >= before.trick.length &&
      JSON.stringify(next.trick.slice(0, before.trick.length)) === JSON.stringify(before.trick);
    if (!same) this.lastTrick = { events: before.trick, winner: before.table_seat };
  }

  _seat(seat, value) {
    if (!this.info) return;
    this.info.seats[seat] = value;
  }

  _dealOver() {
    const number = this.info?.deal ?? this.results.length;
    this.lastOver = { number, view: this.view, moves: [...this.moves] };
    if (gameOf(this.game).dealList && this.view.result) {
      this.results = this.results.filter((r) => r.number !== number);
      this.results.push({ number, result: this.view.result });
    }
  }

  /** Legal actions of our seat in the current view. */
  get legal() {
    const view = this.view;
    if (!view || this.seat === null) return [];
    return view.legal ?? [];
  }
}
