// The Skat table: seats, bidding with the bid ladder, skat or hand, discarding, declaring,
// playing (only the view's legal cards are enabled), the current and last trick, the deal's
// result and the running list with Seeger-Fabian points. Everything shown is derived from
// the seat's view; every action sent is one of the view's `legal` actions.

import { cardBack, cardFace, cardName, sortSkatHand, suitIcon } from "./cards.js";
import { h, icon, numberButtons, rovingFocus, signed } from "./ui.js";

const GAMES = ["clubs", "spades", "hearts", "diamonds", "grand", "null"];
const SUIT_LETTER = { clubs: "C", spades: "S", hearts: "H", diamonds: "D" };
const FRENCH_GAME = { clubs: "Clubs", spades: "Spades", hearts: "Hearts", diamonds: "Diamonds", grand: "Grand", null: "Null" };
const GERMAN_GAME = { clubs: "Acorns", spades: "Leaves", hearts: "Hearts", diamonds: "Bells", grand: "Grand", null: "Null" };
const ROLE = { forehand: "Forehand", middlehand: "Middlehand", rearhand: "Rearhand" };

/** The display name of a game type for the chosen deck. */
export function gameName(game, deck) {
  return (deck === "german" ? GERMAN_GAME : FRENCH_GAME)[game] || game;
}

/** "Clubs Hand Schneider announced", "Null Ouvert", "Grand". */
export function contractText(contract, handGame, deck) {
  if (!contract) return "";
  const parts = [gameName(contract.game, deck)];
  if (handGame) parts.push("Hand");
  if (contract.ouvert) parts.push("Ouvert");
  else if (contract.schwarz) parts.push("Schwarz announced");
  else if (contract.schneider) parts.push("Schneider announced");
  return parts.join(" ");
}

function sameAction(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Seats of this deal in playing order: forehand, middlehand, rearhand. */
function order(view) {
  return [view.forehand, view.middlehand, view.rearhand];
}

/** Who played the i-th card of the current trick. */
function trickPlayer(view, index) {
  const seats = order(view);
  const lead = seats.indexOf(view.trick_leader);
  return seats[(lead + index) % 3];
}

function roleOf(view, seat) {
  if (view.players === 4 && seat === view.dealer) return "Dealer, sits out";
  if (seat === view.forehand) return ROLE.forehand;
  if (seat === view.middlehand) return ROLE.middlehand;
  if (seat === view.rearhand) return ROLE.rearhand;
  return "";
}

/** The last bidding word of each seat in this deal: "18", "yes", "pass". */
function biddingWords(moves) {
  const words = {};
  for (const { seat, action } of moves) {
    if (!action) continue;
    if (action.type === "bid") words[seat] = String(action.value);
    else if (action.type === "hold") words[seat] = "yes";
    else if (action.type === "pass") words[seat] = "pass";
  }
  return words;
}

/**
 * Render the Skat table of `model` into a fresh element.
 * `ctx`: {deck, ui (survives re-renders), act(action), rerender(), tableId}.
 */
export function renderSkat(model, ctx) {
  const view = model.view;
  const root = h("div", { class: `felt skat players-${view.players}` });
  const me = model.seat;
  const base = me ?? 0;
  const n = view.players;
  const slots = n === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "left", "right"];
  const position = (seat) => slots[(seat - base + n) % n];
  const words = view.phase === "bidding" ? biddingWords(model.moves) : {};
  for (let seat = 0; seat < n; seat += 1) {
    if (seat === base) continue;
    root.append(seatBox(model, ctx, seat, position(seat), words[seat]));
  }
  root.append(centre(model, ctx, position));
  root.append(ownArea(model, ctx, words[base]));
  return root;
}

function seatBox(model, ctx, seat, pos, word) {
  const view = model.view;
  const info = model.seats[seat] || {};
  const declarer = view.declarer === seat;
  const toMove = view.to_move === seat && view.phase !== "over";
  const open = view.open_hands?.[seat];
  const count = view.hand_sizes[seat];
  const classes = ["seat-box", `pos-${pos}`, toMove ? "to-move" : "", declarer ? "declarer" : ""];
  const sitting = view.players === 4 && seat === view.dealer;
  return h("section", { class: classes.join(" "), "aria-label": `${model.name(seat)}${toMove ? ", to move" : ""}` },
    h("div", { class: "seat-name" },
      info.bot ? icon("bot", `bot (${info.bot})`) : info.client_bot ? icon("bot", "bot (own program)") : null,
      h("strong", {}, model.name(seat)),
      info.bot ? h("span", { class: "muted small seat-level" }, info.bot) : null,
      declarer ? h("span", { class: "badge declarer-badge" }, "Declarer") : null),
    h("div", { class: "seat-role muted" }, roleOf(view, seat)),
    info.away ? h("div", { class: "away" }, icon("bot"), " a bot plays while they are away") : null,
    word ? h("div", { class: `bubble ${word === "pass" ? "pass" : ""}` }, word) : null,
    sitting ? null
      : open
        ? h("div", { class: "mini-hand open", "aria-label": `${model.name(seat)}'s open cards` },
            sortSkatHand(open, view.contract?.game).map((c) => miniCard(c, ctx.deck)))
        : h("div", { class: "mini-hand", "aria-label": `${count} cards` },
            Array.from({ length: count }, () => h("span", { class: "mini back", html: cardBack() })),
            h("span", { class: "count" }, String(count))),
    view.phase === "over" && !sitting
      ? h("div", { class: "muted small" }, `${view.trick_points[seat]} card points`) : null);
}

function miniCard(card, deck) {
  return h("span", { class: "mini", title: cardName(card, deck), html: cardFace(card, deck) });
}

function cardButton(card, deck, props = {}) {
  return h("button", { type: "button", class: "card", "data-card": card, "aria-label": cardName(card, deck),
    html: cardFace(card, deck), ...props });
}

// --- the middle of the table -------------------------------------------------------------

function centre(model, ctx, position) {
  const view = model.view;
  const box = h("section", { class: "centre", "aria-label": "Table centre" });
  box.append(contractLine(model, ctx));
  const trick = h("div", { class: "trick", "aria-label": "Current trick", "aria-live": "polite" });
  if (view.phase === "play" && view.to_move === model.seat && model.seat !== null && view.trick.length) {
    trick.append(h("div", { class: "trick-slot at-bottom", "aria-hidden": "true" }));
  }
  if (view.phase === "play" && view.trick.length) {
    view.trick.forEach((card, i) => {
      const seat = trickPlayer(view, i);
      trick.append(h("div", { class: `trick-card at-${position(seat)}`, style: { zIndex: i + 1 },
        title: `${model.name(seat)}: ${cardName(card, ctx.deck)}`, html: cardFace(card, ctx.deck) }));
    });
  } else if (view.phase === "play" && view.tricks.length) {
    // Between tricks the one just taken stays in view until the next card is led.
    const last = view.tricks[view.tricks.length - 1];
    const seats = order(view);
    const lead = seats.indexOf(last.leader);
    last.cards.forEach((card, i) => {
      const seat = seats[(lead + i) % 3];
      trick.append(h("div", { class: `trick-card taken at-${position(seat)}`, html: cardFace(card, ctx.deck) }));
    });
    box.append(h("div", { class: "taken-by" }, `${model.name(last.winner)} takes the trick`));
  } else if (["bidding", "skat"].includes(view.phase)) {
    trick.append(h("div", { class: "skat-backs", "aria-label": "The skat, face down" },
      h("span", { class: "mini back lg", html: cardBack() }), h("span", { class: "mini back lg", html: cardBack() })));
  }
  box.append(trick);
  if (view.phase === "play" && view.tricks.length) box.append(lastTrick(model, ctx));
  if (model.lastOver && ctx.ui.seenResult !== model.lastOver.number) box.append(resultPanel(model, ctx));
  return box;
}

function contractLine(model, ctx) {
  const view = model.view;
  const bits = [];
  if (view.phase === "bidding") bits.push(view.bid ? `Bidding at ${view.bid}` : "Bidding");
  else if (view.ramsch) bits.push("Ramsch");
  else if (view.declarer !== null) {
    const what = view.contract ? contractText(view.contract, view.hand_game, ctx.deck) : "declaring…";
    bits.push(`${model.name(view.declarer)}: ${what}`);
    bits.push(`bid ${view.bid}`);
  }
  if (view.kontra >= 1) bits.push(view.kontra >= 2 ? "Kontra & Re" : "Kontra");
  const deal = model.info ? `Deal ${model.info.deal + 1} of ${model.info.series_length}` : "";
  return h("div", { class: "contract-line" },
    h("span", { class: "deal-no muted" }, deal),
    h("span", { class: "contract" }, bits.join(" · ")));
}

function lastTrick(model, ctx) {
  const view = model.view;
  const last = view.tricks[view.tricks.length - 1];
  const open = ctx.ui.showLastTrick;
  return h("div", { class: "last-trick" },
    h("button", { type: "button", class: "link", "aria-expanded": String(!!open),
      onclick: () => { ctx.ui.showLastTrick = !open; ctx.rerender(); } },
      `Last trick (${view.tricks.length}/10)`),
    open ? h("div", { class: "last-cards", "aria-label": `Last trick, taken by ${model.name(last.winner)}` },
      last.cards.map((c) => miniCard(c, ctx.deck)),
      h("span", { class: "muted small" }, `→ ${model.name(last.winner)}`)) : null);
}

// --- own hand and actions ----------------------------------------------------------------

function ownArea(model, ctx, word) {
  const view = model.view;
  const me = model.seat;
  const seat = me ?? 0;
  const box = h("section", { class: "own", "aria-label": me === null ? "Table seat 1" : "Your hand" });
  const info = model.seats[seat] || {};
  const toMove = view.to_move === seat && view.phase !== "over";
  const sitting = view.players === 4 && seat === view.dealer;
  box.append(h("div", { class: `seat-box pos-bottom ${toMove ? "to-move" : ""} ${view.declarer === seat ? "declarer" : ""}` },
    h("div", { class: "seat-name" },
      h("strong", {}, me === null ? model.name(seat) : `${model.name(seat)} (you)`),
      view.declarer === seat ? h("span", { class: "badge declarer-badge" }, "Declarer") : null,
      h("span", { class: "seat-role muted" }, roleOf(view, seat))),
    info.away ? h("div", { class: "away" }, icon("bot"), " a bot is playing for you") : null,
    word ? h("div", { class: `bubble ${word === "pass" ? "pass" : ""}` }, word) : null));
  if (me !== null && !sitting) box.append(actionBar(model, ctx));
  else if (sitting && me !== null) box.append(h("p", { class: "prompt" }, "You deal this game and sit out."));
  box.append(hand(model, ctx, seat));
  return box;
}

function hand(model, ctx, seat) {
  const view = model.view;
  const me = model.seat;
  const cards = me !== null ? view.hand : view.open_hands?.[seat] ?? null;
  const row = h("div", { class: "hand", role: "group", "aria-label": "Your cards" });
  if (!cards) {
    for (let i = 0; i < view.hand_sizes[seat]; i += 1) row.append(h("span", { class: "card back", html: cardBack() }));
    return row;
  }
  const game = view.contract?.game ?? (view.ramsch ? "grand" : null);
  const sorted = sortSkatHand(cards, game);
  row.style.setProperty("--n", String(Math.max(sorted.length, 2)));
  const playable = new Set(model.legal.filter((a) => a.type === "play").map((a) => a.card));
  const discarding = view.phase === "discard" && view.to_move === me;
  const selected = ctx.ui.selected || (ctx.ui.selected = new Set());
  for (const card of sorted) {
    if (discarding) {
      const on = selected.has(card);
      row.append(cardButton(card, ctx.deck, {
        class: `card ${on ? "selected" : ""}`, "aria-pressed": String(on),
        onclick: () => {
          if (on) selected.delete(card);
          else if (selected.size < 2) selected.add(card);
          ctx.rerender();
        },
      }));
    } else if (playable.size) {
      const ok = playable.has(card);
      // Unplayable cards stay focusable (aria-disabled) so arrow keys walk the whole hand.
      row.append(cardButton(card, ctx.deck, {
        class: `card ${ok ? "playable" : "unplayable"}`, "aria-disabled": ok ? null : "true",
        onclick: () => { if (ok) ctx.act({ type: "play", card }); },
      }));
    } else {
      row.append(cardButton(card, ctx.deck, { class: "card idle", "aria-disabled": "true" }));
    }
  }
  rovingFocus(row, ctx.ui.focus);
  return row;
}

function actionBar(model, ctx) {
  const view = model.view;
  const legal = model.legal;
  const bar = h("div", { class: "action-bar", id: "action-bar" });
  const prompt = (text) => bar.append(h("p", { class: "prompt" }, text));
  const button = (label, action, extra = {}) =>
    h("button", { type: "button", class: `act ${extra.primary ? "primary" : ""}`, onclick: () => ctx.act(action), ...extra.props }, label);
  const mine = view.to_move === model.seat;
  if (view.phase === "bidding") {
    if (!mine) prompt(`Waiting for ${model.name(view.to_move)}…`);
    else bidding(model, ctx, bar, button, prompt);
  } else if (view.phase === "skat") {
    if (!mine) prompt(`${model.name(view.declarer)} won the bidding at ${view.bid}.`);
    else if (ctx.ui.handMode) declarePanel(model, ctx, bar, true);
    else {
      prompt(`You play at ${view.bid}. Take the skat or play hand?`);
      bar.append(button("Take the skat", { type: "pickup" }, { primary: true }));
      bar.append(h("button", { type: "button", class: "act", onclick: () => { ctx.ui.handMode = true; ctx.rerender(); } }, "Play hand"));
    }
  } else if (view.phase === "discard") {
    if (!mine) prompt(`${model.name(view.declarer)} takes the skat and lays away two cards…`);
    else discardControls(model, ctx, bar, prompt);
  } else if (view.phase === "declare") {
    if (!mine) prompt(`${model.name(view.declarer)} is declaring…`);
    else declarePanel(model, ctx, bar, false);
  } else if (view.phase === "play") {
    prompt(mine ? "Your turn: play a card." : `Waiting for ${model.name(view.to_move)}…`);
    const extras = [["kontra", "Kontra!"], ["re", "Re!"]];
    for (const [type, label] of extras) {
      const action = legal.find((a) => a.type === type);
      if (action) bar.append(button(label, action));
    }
    if (legal.some((a) => a.type === "resign")) {
      bar.append(h("button", { type: "button", class: "act quiet", onclick: () => ctx.confirmAct("Give up this game?", { type: "resign" }) }, "Resign"));
    }
  }
  return numberButtons(bar);
}

function bidding(model, ctx, bar, button, prompt) {
  const view = model.view;
  const legal = model.legal;
  const bids = legal.filter((a) => a.type === "bid").map((a) => a.value).sort((a, b) => a - b);
  const hold = legal.find((a) => a.type === "hold");
  const last = [...model.moves].reverse().find((m) => m.action && m.seat !== model.seat);
  if (hold) prompt(`${model.name(last?.seat ?? view.to_move)} says ${view.bid}. Hold (yes) or pass?`);
  else if (bids.length) prompt(view.bid ? `Say more than ${view.bid}, or pass.` : "Your bid: say 18 or more, or pass.");
  if (hold) bar.append(button(`Yes, ${view.bid}`, hold, { primary: true }));
  if (bids.length) {
    bar.append(button(`Bid ${bids[0]}`, { type: "bid", value: bids[0] }, { primary: !hold }));
    if (bids.length > 1) bar.append(button(`${bids[1]}`, { type: "bid", value: bids[1] }));
    const jump = ctx.ui.jump && bids.includes(ctx.ui.jump) ? ctx.ui.jump : bids[Math.min(2, bids.length - 1)];
    bar.append(h("span", { class: "jump" },
      h("label", { for: "jump-bid", class: "sr-only" }, "Jump bid"),
      h("select", { id: "jump-bid", onchange: (e) => { ctx.ui.jump = Number(e.target.value); } },
        bids.map((v) => h("option", { value: v, selected: v === jump }, v))),
      h("button", { type: "button", class: "act", onclick: () => {
        const value = Number(document.getElementById("jump-bid").value);
        ctx.act({ type: "bid", value });
      } }, "Jump")));
  }
  const pass = legal.find((a) => a.type === "pass");
  if (pass) bar.append(button("Pass", pass));
}

function discardControls(model, ctx, bar, prompt) {
  const selected = ctx.ui.selected || (ctx.ui.selected = new Set());
  const chosen = [...selected];
  const action = chosen.length === 2
    ? model.legal.find((a) => a.type === "discard" && a.cards.every((c) => selected.has(c)))
    : null;
  prompt(chosen.length === 2 ? "Lay these two away?" : `Choose ${2 - chosen.length} card${chosen.length === 1 ? "" : "s"} to lay away.`);
  bar.append(h("button", { type: "button", class: "act primary", disabled: !action,
    onclick: () => { ctx.ui.selected = new Set(); ctx.act(action); } }, "Discard"));
}

/** Game type buttons and announcement switches; only combinations in `legal` can be sent. */
function declarePanel(model, ctx, bar, hand) {
  const view = model.view;
  const declares = model.legal.filter((a) => a.type === "declare");
  const choice = ctx.ui.declare || (ctx.ui.declare = { game: null, schneider: false, schwarz: false, ouvert: false });
  if (choice.game && !declares.some((a) => a.game === choice.game)) choice.game = null;
  bar.append(h("p", { class: "prompt" }, hand
    ? `Hand game at ${view.bid}: choose the game and announcements.`
    : `You play at ${view.bid}: choose the game.`));
  const games = h("div", { class: "game-buttons", role: "group", "aria-label": "Game" });
  for (const game of GAMES) {
    const possible = declares.some((a) => a.game === game);
    const icon = SUIT_LETTER[game] ? suitIcon(SUIT_LETTER[game], ctx.deck) : "";
    games.append(h("button", { type: "button", class: `act game ${choice.game === game ? "chosen" : ""}`,
      "aria-pressed": String(choice.game === game), disabled: !possible,
      onclick: () => { choice.game = game; normalise(choice, declares, null); ctx.rerender(); } },
    h("span", { html: icon }), gameName(game, ctx.deck)));
  }
  bar.append(games);
  const flags = h("div", { class: "announce", role: "group", "aria-label": "Announcements" });
  for (const flag of ["schneider", "schwarz", "ouvert"]) {
    const possible = choice.game && declares.some((a) => a.game === choice.game && a[flag]);
    flags.append(h("label", { class: `check ${possible ? "" : "disabled"}` },
      h("input", { type: "checkbox", name: flag, checked: choice[flag], disabled: !possible,
        onchange: (e) => { choice[flag] = e.target.checked; normalise(choice, declares, flag); ctx.rerender(); } }),
      flag[0].toUpperCase() + flag.slice(1)));
  }
  bar.append(flags);
  const action = declares.find((a) => a.game === choice.game && a.schneider === choice.schneider &&
    a.schwarz === choice.schwarz && a.ouvert === choice.ouvert);
  const label = action ? `Play ${contractText(action, hand, ctx.deck)}` : "Declare";
  const buttons = h("div", { class: "row-buttons" },
    h("button", { type: "button", class: "act primary", disabled: !action,
      onclick: () => { ctx.ui.declare = null; ctx.ui.handMode = false; ctx.act(action); } }, label));
  if (hand) {
    buttons.append(h("button", { type: "button", class: "act", onclick: () => { ctx.ui.handMode = false; ctx.rerender(); } }, "Back"));
  }
  bar.append(buttons);
}

/** Adjust announcement switches to the nearest legal combination after `changed` moved. */
function normalise(choice, declares, changed) {
  const candidates = declares.filter((a) => a.game === choice.game);
  if (!candidates.length) return;
  const score = (a) => ["schneider", "schwarz", "ouvert"].reduce(
    (s, f) => s + (a[f] === choice[f] ? (f === changed ? 10 : 1) : 0), 0);
  const best = candidates.reduce((x, y) => (score(y) > score(x) ? y : x));
  choice.schneider = best.schneider;
  choice.schwarz = best.schwarz;
  choice.ouvert = best.ouvert;
}

// --- the end of a deal -----------------------------------------------------------------

/** A sentence and detail lines describing a finished deal's result. */
export function describeResult(model, result, deck) {
  const who = result.declarer !== null && result.declarer !== undefined ? model.name(result.declarer) : null;
  if (result.passed_in) return { title: "Passed in: everybody passed", lines: [] };
  if (result.ramsch) {
    const losers = result.seeger_fabian.map((v, s) => [v, s]).filter(([v]) => v < 0);
    return { title: "Ramsch", lines: losers.map(([v, s]) => `${model.name(s)} ${signed(v)}`) };
  }
  if (result.aborted) return { title: "The deal was aborted", lines: [] };
  const contract = contractText(
    { game: result.game, schneider: result.schneider_announced, schwarz: result.schwarz_announced, ouvert: result.ouvert },
    result.hand, deck);
  const verb = result.won ? "wins" : "loses";
  const title = `${who} ${verb} ${contract} (${signed(result.list_value)})`;
  const lines = [];
  if (result.game !== "null") {
    lines.push(`${result.declarer_points} card points in ${result.declarer_tricks} tricks`);
    const m = result.matadors;
    lines.push(`${m >= 0 ? "with" : "without"} ${Math.abs(m)} · game value ${result.game_value}`);
    const levels = [result.schneider && "Schneider", result.schwarz && "Schwarz"].filter(Boolean);
    if (levels.length) lines.push(levels.join(", "));
  } else {
    lines.push(`${result.declarer_tricks} tricks taken · game value ${result.game_value}`);
  }
  if (result.overbid) lines.push(`Overbid: the bid was ${result.bid}`);
  if (result.resigned) lines.push("Ended by resignation");
  if (result.kontra) lines.push(result.kontra >= 2 ? "Kontra and Re" : "Kontra");
  return { title, lines };
}

function resultPanel(model, ctx) {
  const { number, view } = model.lastOver;
  const result = view.result;
  if (!result) return null;
  const { title, lines } = describeResult(model, result, ctx.deck);
  const close = () => { ctx.ui.seenResult = number; ctx.rerender(); };
  const hints = model.hints.filter((hint) => hint.deal === number || hint.deal === undefined);
  return h("div", { class: `result-panel ${result.won ? "won" : result.won === false ? "lost" : ""}`,
    role: "dialog", "aria-label": "Result of the deal", onkeydown: (e) => { if (e.key === "Escape") close(); } },
    h("h3", {}, title),
    lines.map((line) => h("p", {}, line)),
    view.skat?.length ? h("div", { class: "skat-shown" }, h("span", { class: "muted small" }, "Skat: "),
      view.skat.map((c) => miniCard(c, ctx.deck))) : null,
    h("p", { class: "small" }, "List points: ",
      result.seeger_fabian.map((v, s) => h("span", { class: "sf" }, `${model.name(s)} ${signed(v)}`))),
    hints.length ? h("details", { class: "hints" }, h("summary", {}, "Why did the bots play that?"),
      h("ul", {}, hints.map((hint) => h("li", {}, explainHint(model, hint, ctx.deck))))) : null,
    h("div", { class: "row-buttons" },
      h("a", { href: `/api/records/${model.id}/${number}`, download: `tischrunde-${model.id}-${number + 1}.txt`, class: "button" }, "Game record"),
      h("button", { type: "button", class: "primary", id: "result-ok", onclick: close }, "OK")));
}

/** A readable line from a bot's diagnostics (keys as the Skat bots report them). */
export function explainHint(model, hint, deck) {
  const why = hint.why || {};
  const act = hint.action;
  const did = !act ? "acted"
    : act.type === "bid" ? `bid ${act.value}`
      : act.type === "play" ? `played ${cardName(act.card, deck)}`
        : act.type === "declare" ? `declared ${gameName(act.game, deck)}`
          : act.type === "discard" ? `laid away ${act.cards.map((c) => cardName(c, deck)).join(" and ")}`
            : act.type === "pickup" ? "took the skat" : act.type;
  const reasons = [];
  if (why.reason) reasons.push(String(why.reason));
  if (why.game) reasons.push(`had ${gameName(why.game, deck)} in mind`);
  if (why.strength !== undefined) reasons.push(`hand strength ${why.strength}`);
  if (why.limit !== undefined) reasons.push(why.limit > 0 ? `would bid up to ${why.limit}` : "too weak to bid");
  if (why.points_saved !== undefined) reasons.push(`keeps ${why.points_saved} points safe`);
  if (why.reaches_bid !== undefined) reasons.push(why.reaches_bid ? "reaches the bid" : "cannot reach the bid");
  const known = ["reason", "game", "strength", "limit", "points_saved", "reaches_bid"];
  for (const [key, value] of Object.entries(why)) {
    if (!known.includes(key)) reasons.push(`${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`);
  }
  return `${model.name(hint.seat)} ${did}${reasons.length ? ` — ${reasons.join(", ")}` : ""}`;
}

// --- the running list ---------------------------------------------------------------------

/** The list so far: one row per deal with each seat's Seeger-Fabian points, totals below. */
export function renderList(model, ctx) {
  const n = model.seats.length;
  const totals = new Array(n).fill(0);
  const rows = model.results.map(({ number, result }) => {
    result.seeger_fabian.forEach((v, s) => { totals[s] += v; });
    const suit = SUIT_LETTER[result.game];
    const game = result.passed_in ? "passed in" : result.ramsch ? "Ramsch"
      : h("span", { class: "list-game", title: `${model.name(result.declarer)}: ${gameName(result.game, ctx.deck)}${result.hand ? " Hand" : ""}` },
          suit ? h("span", { html: suitIcon(suit, ctx.deck) }) : `${gameName(result.game, ctx.deck)} `,
          result.hand ? " H" : "", ` ${result.won ? "✓" : "✗"} ${result.game_value}`);
    return h("tr", {},
      h("td", {}, number + 1),
      h("td", {}, game),
      result.seeger_fabian.map((v, s) => h("td", { class: `${v > 0 ? "pos" : v < 0 ? "neg" : "zero"} ${s === result.declarer ? "decl" : ""}` },
        v ? signed(v) : "·")),
      h("td", {}, h("a", { href: `/api/records/${model.id}/${number}`, download: `tischrunde-${model.id}-${number + 1}.txt`,
        title: "Download the game record", "aria-label": `Game record of deal ${number + 1}` }, icon("download"))));
  });
  const names = Array.from({ length: n }, (_, s) => h("th", {}, model.name(s)));
  const table = h("table", { class: `list-table seats-${n}`, "aria-label": "Running list (Seeger-Fabian)" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Game"), names, h("th", {}, ""))),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: n + 3, class: "muted" }, "No deals finished yet."))),
    h("tfoot", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "Total"), totals.map((t) => h("th", {}, signed(t))), h("th", {}, ""))));
  const standings = model.standings
    ? h("div", { class: "standings" }, h("h3", {}, model.status === "finished" ? "Final standings" : "Standings"),
        h("ol", {}, model.standings.map((s) => h("li", {},
          h("strong", {}, model.name(s.seat)), ` ${s.performance ?? s.points} `,
          h("span", { class: "muted small" }, `(game points ${s.game_points}, won ${s.won}, lost ${s.lost}, Fabian ${s.fabian})`)))))
    : null;
  return h("div", { class: "list" }, table, standings);
}

/** Whether a keyboard or click action applies right now (used by tests through the DOM). */
export function isMyTurn(model) {
  return model.view && model.seat !== null && model.view.to_move === model.seat;
}

export { sameAction };
