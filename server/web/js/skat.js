// The Skat table: seats, bidding with the bid ladder, skat or hand, discarding (the skat's
// cards marked), declaring with each game's value against the bid, playing (only the view's
// legal cards are enabled), claims, the current and last trick, the deal's result and the
// list (skat-list.js). Everything shown is derived from the seat's view;
// every action sent is one of the view's `legal` actions.

import { cardBack, cardFace, cardName, sortSkatHand, suitIcon } from "./cards.js";
import { explainHint } from "./hints.js";
import { replayHash } from "./replay.js";
import { t } from "./i18n.js";
import { contractText, gameName, SUIT_LETTER } from "./skat-words.js";
import { h, icon, numberButtons, rovingFocus, setFan, signed } from "./ui.js";

const GAMES = ["clubs", "spades", "hearts", "diamonds", "grand", "null"];

/** Seats of this deal in playing order: forehand, middlehand, rearhand. */
export function order(view) {
  return [view.forehand, view.middlehand, view.rearhand];
}

/** Who played the i-th card of the current trick. */
function trickPlayer(view, index) {
  const seats = order(view);
  const lead = seats.indexOf(view.trick_leader);
  return seats[(lead + index) % 3];
}

export function roleOf(view, seat) {
  if (view.players === 4 && seat === view.dealer) return t("skat.role.dealer");
  if (seat === view.forehand) return t("skat.role.forehand");
  if (seat === view.middlehand) return t("skat.role.middlehand");
  if (seat === view.rearhand) return t("skat.role.rearhand");
  return "";
}

/** The last bidding word of each seat in this deal (`moves`: {seat, action}): {text, pass}. */
export function biddingWords(moves) {
  const words = {};
  for (const { seat, action } of moves) {
    if (!action) continue;
    if (action.type === "bid") words[seat] = { text: String(action.value), pass: false };
    else if (action.type === "hold") words[seat] = { text: t("skat.yes"), pass: false };
    else if (action.type === "pass") words[seat] = { text: t("skat.pass"), pass: true };
  }
  return words;
}

// --- game values: the server's `worth` of each declaration (server/games/skat.py) ----------

/** A declaration's value before the play as the server computed it (`view.worth`, aligned
 * with `legal`), and its levels in words: "with 2, game 3, clubs = 36". */
function contractValue(model, contract, hand, deck) {
  const worth = model.view.worth?.[model.legal.indexOf(contract)];
  if (!worth) return { value: 0, text: "" };
  const { value, matadors: m, levels } = worth;
  if (m === null) {
    return { value, text: `${gameName("null", deck)}${hand ? ` ${t("skat.hand")}` : ""}${contract.ouvert ? ` ${t("skat.ouvert")}` : ""} = ${value}` };
  }
  const parts = [t(m > 0 ? "skat.with" : "skat.without", { n: Math.abs(m) })];
  levels.forEach((level, i) => parts.push(t(`skat.level.${level}`, { n: Math.abs(m) + 1 + i })));
  return { value, text: `${parts.join(", ")}, ${gameName(contract.game, deck)} = ${value}` };
}

/**
 * Render the Skat table of `model` into a fresh element.
 * `ctx`: {deck, ui (survives re-renders), act(action), confirmAct(...), rerender(), tableId,
 * away (while a bot plays our seat: the words that say so, else null)}.
 */
export function renderSkat(model, ctx) {
  const view = model.view;
  const root = h("div", { class: `felt skat players-${view.players} phase-${view.phase}` });
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

function bubble(word) {
  return word ? h("div", { class: `bubble ${word.pass ? "pass" : ""}` }, word.text) : null;
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
  const name = model.name(seat);
  return h("section", { class: classes.join(" "), dataset: { seat }, "aria-label": toMove ? t("seat.to_move", { name }) : name },
    h("div", { class: "seat-name" },
      info.bot || info.client_bot ? icon("bot", t("seat.bot")) : null,
      h("strong", {}, name),
      declarer ? h("span", { class: "badge declarer-badge" }, t("skat.declarer")) : null,
      declarer && view.claimed && view.phase !== "over" ? h("span", { class: "badge claim-badge" }, t("skat.cards_shown")) : null),
    h("div", { class: "seat-role muted" }, roleOf(view, seat)),
    info.away ? h("div", { class: "away" }, icon("bot"), ` ${t("seat.away")}`) : null,
    bubble(word),
    sitting ? null
      : open
        ? h("div", { class: "mini-hand open", "aria-label": t("skat.open_cards", { name }) },
            sortSkatHand(open, view.contract?.game).map((c) => miniCard(c, ctx.deck)))
        : h("div", { class: "mini-hand", "aria-label": t("seat.cards", { n: count }) },
            Array.from({ length: count }, () => h("span", { class: "mini back", html: cardBack() })),
            h("span", { class: "count" }, String(count))),
    view.phase === "over" && !sitting
      ? h("div", { class: "muted small" }, t("skat.card_points", { n: view.trick_points[seat] })) : null);
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
  const box = h("section", { class: "centre", "aria-label": t("table.centre") });
  box.append(contractLine(model, ctx));
  if (model.lastOver && ctx.ui.seenResult !== model.lastOver.number) box.append(resultPanel(model, ctx));
  const refusal = claimRefusal(model);
  if (refusal) box.append(refusal);
  const trick = h("div", { class: "trick", "aria-label": t("skat.current_trick"), "aria-live": "polite" });
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
    box.append(h("div", { class: "taken-by" }, t("skat.takes_trick", { name: model.name(last.winner) })));
  } else if (["bidding", "skat"].includes(view.phase) || (view.phase === "push" && view.hand_sizes[view.to_move] === 10)) {
    // In a Schieberamsch the skat lies on the table until the player to move picks it up.
    trick.append(h("div", { class: "skat-backs", "aria-label": t("skat.skat_face_down") },
      h("span", { class: "mini back lg", html: cardBack() }), h("span", { class: "mini back lg", html: cardBack() })));
  }
  box.append(trick);
  if (view.phase === "play" && view.tricks.length) box.append(lastTrick(model, ctx));
  return box;
}

/** A refused claim, said at the table until three more cards are played: who refused it,
 * what a refusal means and that play goes on (before, play simply went on). A bot's own
 * reasons stay with the bots' explanations, which everyone sees once the deal is over. */
function claimRefusal(model) {
  const view = model.view;
  if (view.phase !== "play" || !view.claimed || view.claim_open) return null;
  const at = model.moves.findLastIndex((move) => move.action?.type === "refuse_claim");
  if (at < 0 || model.moves.slice(at + 1).filter((move) => move.action?.type === "play").length >= 3) return null;
  const name = model.name(model.moves[at].seat);
  const ours = view.declarer === model.seat;
  return h("p", { class: "claim-refused", role: "status" },
    h("strong", {}, ours ? t("skat.claim_refused_yours", { name }) : t("skat.claim_refused", { name, declarer: model.name(view.declarer) })),
    ` ${t(view.contract?.game === "null" ? "skat.claim_refused_why_null" : "skat.claim_refused_why")}`,
    ` ${t(ours ? "skat.claim_again" : "skat.claim_play_on")}`);
}

/** The deal's bid or game, the declarer and Kontra/Re (`model.info`: the deal number, if any). */
export function contractLine(model, ctx) {
  const view = model.view;
  const bits = [];
  if (view.phase === "bidding") bits.push(view.bid ? t("skat.bidding_at", { bid: view.bid }) : t("skat.bidding"));
  else if (view.ramsch) {
    bits.push(t(view.phase === "push" || view.pushes ? "rules.schieberamsch" : "rules.ramsch"));
    if (view.pushes) bits.push(t("skat.push.count", { n: view.pushes, factor: 2 ** view.pushes }));
  }
  else if (view.declarer !== null) {
    const what = view.contract ? contractText(view.contract, view.hand_game, ctx.deck) : t("skat.declaring");
    bits.push(`${model.name(view.declarer)}: ${what}`);
    bits.push(t("skat.bid_was", { bid: view.bid }));
  }
  if (view.kontra >= 1) bits.push(view.kontra >= 2 ? t("skat.kontra_re") : t("skat.kontra"));
  if (view.bock) bits.push(t("skat.bock_deal"));
  const deal = model.info ? t("status.deal", { deal: model.info.deal + 1, of: model.info.series_length }) : "";
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
      t("skat.last_trick", { n: view.tricks.length })),
    open ? h("div", { class: "last-cards", "aria-label": t("skat.last_trick_by", { name: model.name(last.winner) }) },
      last.cards.map((c) => miniCard(c, ctx.deck)),
      h("span", { class: "muted small" }, `→ ${model.name(last.winner)}`)) : null);
}

// --- own hand and actions ----------------------------------------------------------------

function ownArea(model, ctx, word) {
  const view = model.view;
  const me = model.seat;
  const seat = me ?? 0;
  const box = h("section", { class: "own", "aria-label": me === null ? t("seat.number", { n: 1 }) : t("seat.your_hand") });
  const info = model.seats[seat] || {};
  const toMove = view.to_move === seat && view.phase !== "over";
  const sitting = view.players === 4 && seat === view.dealer;
  box.append(h("div", { class: `seat-box pos-bottom ${toMove ? "to-move" : ""} ${view.declarer === seat ? "declarer" : ""}`, dataset: { seat } },
    h("div", { class: "seat-name" },
      h("strong", {}, me === null ? model.name(seat) : `${model.name(seat)} ${t("seat.you")}`),
      view.declarer === seat ? h("span", { class: "badge declarer-badge" }, t("skat.declarer")) : null,
      view.declarer === seat && view.claimed && view.phase !== "over" ? h("span", { class: "badge claim-badge" }, t("skat.cards_shown")) : null,
      h("span", { class: "seat-role muted" }, roleOf(view, seat))),
    info.away ? h("div", { class: "away" }, icon("bot"), ` ${t("seat.away_you")}`) : null,
    bubble(word)));
  if (me !== null && !sitting) box.append(actionBar(model, ctx));
  else if (sitting && me !== null) box.append(h("p", { class: "prompt" }, t("skat.you_sit_out")));
  box.append(hand(model, ctx, seat));
  return box;
}

/** The skat's two cards while the declarer holds them (discard) and after (declare). */
function skatCards(view, me) {
  return me !== null && me === view.declarer && ["discard", "declare"].includes(view.phase) ? new Set(view.skat) : new Set();
}

function hand(model, ctx, seat) {
  const view = model.view;
  const me = model.seat;
  const cards = me !== null ? view.hand : view.open_hands?.[seat] ?? null;
  const row = h("div", { class: "hand", role: "group", "aria-label": t("seat.your_cards") });
  if (!cards) {
    for (let i = 0; i < view.hand_sizes[seat]; i += 1) row.append(h("span", { class: "card back", html: cardBack() }));
    return row;
  }
  const game = view.contract?.game ?? (view.ramsch ? "grand" : null);
  const sorted = sortSkatHand(cards, game);
  setFan(row, sorted.length);
  const playable = new Set(model.legal.filter((a) => a.type === "play").map((a) => a.card));
  const discarding = ["discard", "push"].includes(view.phase) && view.to_move === me &&
    model.legal.some((a) => a.type === "discard");
  const fromSkat = skatCards(view, me);
  const selected = ctx.ui.selected || (ctx.ui.selected = new Set());
  for (const card of sorted) {
    const skat = fromSkat.has(card) ? " from-skat" : "";
    const label = fromSkat.has(card) ? `${cardName(card, ctx.deck)} (${t("skat.from_skat")})` : cardName(card, ctx.deck);
    if (discarding) {
      const on = selected.has(card);
      row.append(cardButton(card, ctx.deck, {
        class: `card ${on ? "selected" : ""}${skat}`, "aria-pressed": String(on), "aria-label": label,
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
      row.append(cardButton(card, ctx.deck, { class: `card idle${skat}`, "aria-disabled": "true", "aria-label": label }));
    }
  }
  rovingFocus(row, ctx.ui.focus);
  return row;
}

function actionBar(model, ctx) {
  const view = model.view;
  const bar = h("div", { class: "action-bar", id: "action-bar" });
  const prompt = (text) => bar.append(h("p", { class: "prompt" }, text));
  const button = (label, action, extra = {}) =>
    h("button", { type: "button", class: `act ${extra.primary ? "primary" : ""}`, dataset: { act: action.type },
      onclick: () => ctx.act(action), ...extra.props }, label);
  // While a bot plays our seat the bar says so instead of asking us (the take-back box gives
  // the seat back).
  if (ctx.away) {
    prompt(ctx.away);
    return bar;
  }
  const mine = view.to_move === model.seat;
  if (view.phase === "bidding") {
    if (!mine) prompt(t("skat.waiting_for", { name: model.name(view.to_move) }));
    else bidding(model, ctx, bar, button, prompt);
  } else if (view.phase === "skat") {
    if (!mine) prompt(t("skat.won_bidding", { name: model.name(view.declarer), bid: view.bid }));
    else if (ctx.ui.handMode) declarePanel(model, ctx, bar, true);
    else {
      prompt(t("skat.skat_or_hand", { bid: view.bid }));
      bar.append(button(t("skat.take_skat"), { type: "pickup" }, { primary: true }));
      bar.append(h("button", { type: "button", class: "act", dataset: { act: "hand" },
        onclick: () => { ctx.ui.handMode = true; ctx.rerender(); } }, t("skat.play_hand")));
    }
  } else if (view.phase === "push") {
    if (!mine) prompt(t("skat.push.waiting", { name: model.name(view.to_move) }));
    else pushControls(model, ctx, bar, button, prompt);
  } else if (view.phase === "discard") {
    if (!mine) prompt(t("skat.others_discard", { name: model.name(view.declarer) }));
    else discardControls(model, ctx, bar, prompt);
  } else if (view.phase === "declare") {
    if (!mine) prompt(t("skat.others_declare", { name: model.name(view.declarer) }));
    else declarePanel(model, ctx, bar, false);
  } else if (view.phase === "play" && view.claim_open) {
    claimAnswer(model, ctx, bar, button, prompt);
  } else if (view.phase === "play") {
    playControls(model, ctx, bar, button, prompt);
  }
  return numberButtons(bar);
}

function playControls(model, ctx, bar, button, prompt) {
  const view = model.view;
  const legal = model.legal;
  const mine = view.to_move === model.seat;
  prompt(mine ? t("skat.your_turn") : t("skat.waiting_for", { name: model.name(view.to_move) }));
  for (const [type, key] of [["kontra", "skat.say_kontra"], ["re", "skat.say_re"]]) {
    const action = legal.find((a) => a.type === type);
    if (action) bar.append(button(t(key), action));
  }
  const declarer = view.declarer === model.seat;
  if (legal.some((a) => a.type === "claim")) {
    const text = t(view.contract?.game === "null" ? "skat.claim_null_text" : "skat.claim_text");
    bar.append(h("button", { type: "button", class: "act", id: "claim",
      onclick: () => ctx.confirmAct(t("skat.claim_question"), text, { type: "claim" }, t("skat.claim")) }, t("skat.claim")));
  }
  if (legal.some((a) => a.type === "resign")) {
    const [question, text] = declarer ? ["skat.resign_question", "skat.resign_text"] : ["skat.concede_question", "skat.concede_text"];
    bar.append(h("button", { type: "button", class: "act quiet", id: "resign",
      onclick: () => ctx.confirmAct(t(question), t(text), { type: "resign" }, t("skat.resign")) }, t("skat.resign")));
  }
}

/** A claim is open: the defenders accept or refuse it; the others wait. */
function claimAnswer(model, ctx, bar, button, prompt) {
  const view = model.view;
  const legal = model.legal;
  const accept = legal.find((a) => a.type === "accept_claim");
  const refuse = legal.find((a) => a.type === "refuse_claim");
  const claimant = model.name(view.declarer);
  const key = view.contract?.game === "null" ? "skat.claim_open_null" : "skat.claim_open";
  if (accept) {
    prompt(t(key, { name: claimant }));
    bar.append(button(t("skat.accept_claim"), accept, { primary: true }));
    if (refuse) bar.append(button(t("skat.refuse_claim"), refuse));
  } else if (view.declarer === model.seat) prompt(t("skat.claim_waiting"));
  else prompt(t("skat.claim_waiting_for", { name: model.name(view.to_move) }));
}

function bidding(model, ctx, bar, button, prompt) {
  const view = model.view;
  const legal = model.legal;
  const bids = legal.filter((a) => a.type === "bid").map((a) => a.value).sort((a, b) => a - b);
  const hold = legal.find((a) => a.type === "hold");
  const last = [...model.moves].reverse().find((m) => m.action && m.seat !== model.seat);
  if (hold) prompt(t("skat.hold_or_pass", { name: model.name(last?.seat ?? view.to_move), bid: view.bid }));
  else if (bids.length) prompt(view.bid ? t("skat.say_more", { bid: view.bid }) : t("skat.first_bid"));
  if (hold) bar.append(button(t("skat.hold", { bid: view.bid }), hold, { primary: true }));
  if (bids.length) {
    bar.append(button(t("skat.bid", { bid: bids[0] }), { type: "bid", value: bids[0] }, { primary: !hold }));
    if (bids.length > 1) bar.append(button(`${bids[1]}`, { type: "bid", value: bids[1] }));
    // A value chosen in this deal stays chosen while it may be bid; a new deal starts afresh.
    const deal = model.info?.deal;
    const chosen = ctx.ui.jump?.deal === deal ? ctx.ui.jump.value : null;
    const jump = bids.includes(chosen) ? chosen : bids[Math.min(2, bids.length - 1)];
    bar.append(h("span", { class: "jump" },
      h("label", { for: "jump-bid", class: "sr-only" }, t("skat.jump_bid")),
      h("select", { id: "jump-bid", onchange: (e) => { ctx.ui.jump = { deal, value: Number(e.target.value) }; } },
        bids.map((v) => h("option", { value: v, selected: v === jump }, v))),
      h("button", { type: "button", class: "act", dataset: { act: "jump" }, onclick: () => {
        const value = Number(document.getElementById("jump-bid").value);
        ctx.act({ type: "bid", value });
      } }, t("skat.jump"))));
  }
  const pass = legal.find((a) => a.type === "pass");
  if (pass) bar.append(button(t("skat.pass"), pass));
}

/** Schieberamsch: pick up the skat or pass it on unseen; after a pick-up, choose two cards
 * (the engine offers no pair with a jack) and push them on. */
function pushControls(model, ctx, bar, button, prompt) {
  const legal = model.legal;
  if (legal.some((a) => a.type === "pickup")) {
    prompt(t("skat.push.prompt"));
    bar.append(button(t("skat.push.pick_up"), { type: "pickup" }));
    bar.append(button(t("skat.push.pass_on"), { type: "pass" }, { primary: true }));
    return;
  }
  const selected = ctx.ui.selected || (ctx.ui.selected = new Set());
  const action = selected.size === 2
    ? legal.find((a) => a.type === "discard" && a.cards.every((c) => selected.has(c)))
    : null;
  prompt(t("skat.push.choose"));
  bar.append(h("button", { type: "button", class: "act primary", disabled: !action, dataset: { act: "push" },
    onclick: () => { ctx.ui.selected = new Set(); ctx.act(action); } }, t("skat.push.push")));
}

function discardControls(model, ctx, bar, prompt) {
  const selected = ctx.ui.selected || (ctx.ui.selected = new Set());
  const chosen = [...selected];
  const action = chosen.length === 2
    ? model.legal.find((a) => a.type === "discard" && a.cards.every((c) => selected.has(c)))
    : null;
  prompt(chosen.length === 2 ? t("skat.discard_these") : t("skat.choose_discard", { n: 2 - chosen.length }));
  bar.append(h("p", { class: "prompt small skat-note" }, t("skat.skat_marked")));
  bar.append(h("button", { type: "button", class: "act primary", disabled: !action, dataset: { act: "discard" },
    onclick: () => { ctx.ui.selected = new Set(); ctx.act(action); } }, t("skat.discard")));
}

/** Game type buttons (each with its value against the bid) and announcement switches; only
 * combinations in `legal` can be sent, and one worth less than the bid asks first. */
function declarePanel(model, ctx, bar, hand) {
  const view = model.view;
  const declares = model.legal.filter((a) => a.type === "declare");
  const choice = ctx.ui.declare || (ctx.ui.declare = { game: null, schneider: false, schwarz: false, ouvert: false });
  if (choice.game && !declares.some((a) => a.game === choice.game)) choice.game = null;
  bar.append(h("p", { class: "prompt" }, hand ? t("skat.declare_hand", { bid: view.bid }) : t("skat.declare", { bid: view.bid })));
  const games = h("div", { class: "game-buttons", role: "group", "aria-label": t("skat.game") });
  for (const game of GAMES) {
    const possible = declares.some((a) => a.game === game);
    const suit = SUIT_LETTER[game] ? suitIcon(SUIT_LETTER[game], ctx.deck) : "";
    // The value of the simplest form the engine offers (a null below the bid only as ouvert).
    const worth = contractValue(model, declares.find((a) => a.game === game) ?? { game }, hand, ctx.deck);
    games.append(h("button", { type: "button", class: `act game ${choice.game === game ? "chosen" : ""} ${worth.value < view.bid ? "below-bid" : ""}`,
      "aria-pressed": String(choice.game === game), disabled: !possible, dataset: { game },
      onclick: () => { choice.game = game; normalise(choice, declares, null); ctx.rerender(); } },
    h("span", { class: "game-name" }, h("span", { html: suit }), gameName(game, ctx.deck)),
    h("span", { class: "game-value small" }, String(worth.value))));
  }
  bar.append(games);
  const flags = h("div", { class: "announce", role: "group", "aria-label": t("skat.announcements") });
  for (const flag of ["schneider", "schwarz", "ouvert"]) {
    const possible = choice.game && declares.some((a) => a.game === choice.game && a[flag]);
    flags.append(h("label", { class: `check ${possible ? "" : "disabled"}` },
      h("input", { type: "checkbox", name: flag, checked: choice[flag], disabled: !possible,
        onchange: (e) => { choice[flag] = e.target.checked; normalise(choice, declares, flag); ctx.rerender(); } }),
      t(`skat.${flag}`)));
  }
  bar.append(flags);
  const action = declares.find((a) => a.game === choice.game && a.schneider === choice.schneider &&
    a.schwarz === choice.schwarz && a.ouvert === choice.ouvert);
  if (action) {
    const worth = contractValue(model, action, hand, ctx.deck);
    const below = worth.value < view.bid;
    bar.append(h("p", { class: `prompt small game-worth ${below ? "warn" : ""}`, id: "game-worth" },
      below ? t("skat.worth_below_bid", { text: worth.text, bid: view.bid }) : t("skat.worth", { text: worth.text, bid: view.bid }),
      hand && action.game !== "null" ? ` ${t("skat.skat_jacks_count")}` : ""));
  }
  const label = action ? t("skat.play_contract", { contract: contractText(action, hand, ctx.deck) }) : t("skat.declare_button");
  const send = () => {
    ctx.ui.declare = null;
    ctx.ui.handMode = false;
    ctx.act(action);
  };
  const buttons = h("div", { class: "row-buttons" },
    h("button", { type: "button", class: "act primary", disabled: !action, dataset: { act: "declare" }, onclick: async () => {
      const worth = contractValue(model, action, hand, ctx.deck);
      if (worth.value >= view.bid) return send();
      const sure = await ctx.confirmAct(t("skat.overbid_question"), t("skat.overbid_text", { text: worth.text, bid: view.bid }),
        action, t("skat.play_anyway"));
      if (sure) {
        ctx.ui.declare = null;
        ctx.ui.handMode = false;
      }
      return undefined;
    } }, label));
  if (hand) {
    buttons.append(h("button", { type: "button", class: "act", onclick: () => { ctx.ui.handMode = false; ctx.rerender(); } }, t("common.back")));
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
  if (result.passed_in) return { title: t("skat.result.passed_in"), lines: [] };
  if (result.ramsch) {
    const losers = result.seeger_fabian.map((v, s) => [v, s]).filter(([v]) => v < 0);
    const bock = result.bock ? [t("skat.bock_deal")] : [];
    if (result.pushes) bock.unshift(t("skat.push.count", { n: result.pushes, factor: 2 ** result.pushes }));
    return { title: t("rules.ramsch"), lines: [...losers.map(([v, s]) => `${model.name(s)} ${signed(v)}`), ...bock] };
  }
  if (result.aborted) return { title: t("skat.result.aborted"), lines: [] };
  const contract = contractText(
    { game: result.game, schneider: result.schneider_announced, schwarz: result.schwarz_announced, ouvert: result.ouvert },
    result.hand, deck);
  const title = t(result.won ? "skat.result.wins" : "skat.result.loses", { name: who, contract, value: signed(result.list_value) });
  const lines = [];
  if (result.game !== "null") {
    lines.push(t("skat.result.points", { points: result.declarer_points, tricks: result.declarer_tricks }));
    const m = result.matadors;
    lines.push(`${t(m >= 0 ? "skat.with" : "skat.without", { n: Math.abs(m) })} · ${t("skat.result.game_value", { value: result.game_value })}`);
    const levels = [result.schneider && t("skat.schneider"), result.schwarz && t("skat.schwarz")].filter(Boolean);
    if (levels.length) lines.push(levels.join(", "));
  } else {
    lines.push(`${t("skat.result.tricks", { n: result.declarer_tricks })} · ${t("skat.result.game_value", { value: result.game_value })}`);
  }
  if (result.overbid) lines.push(t("skat.result.overbid", { bid: result.bid }));
  if (result.ended_by === "claimed") lines.push(t("skat.result.claimed"));
  if (result.resigned) lines.push(t("skat.result.resigned"));
  if (result.kontra) lines.push(result.kontra >= 2 ? t("skat.kontra_re") : t("skat.kontra"));
  if (result.bock) lines.push(t("skat.bock_deal"));
  return { title, lines };
}

/** A deal's record as a text file: a private table's needs its invite (docs/protocol.md,
 * Records). */
function recordUrl(model, number) {
  const invite = model.invite ? `?invite=${encodeURIComponent(model.invite)}` : "";
  return `/api/records/${encodeURIComponent(model.id)}/${number}${invite}`;
}

/** The finished deal's result: in the flow of the table (never over the next deal's bidding),
 * closed with OK or Escape. */
function resultPanel(model, ctx) {
  const { number, view } = model.lastOver;
  const result = view.result;
  if (!result) return null;
  const { title, lines } = describeResult(model, result, ctx.deck);
  const close = () => { ctx.ui.seenResult = number; ctx.rerender(); };
  const hints = model.hints.filter((hint) => hint.deal === number || hint.deal === undefined);
  return h("div", { class: `result-panel ${result.won ? "won" : result.won === false ? "lost" : ""}`,
    role: "status", "aria-label": t("skat.result.label"), onkeydown: (e) => { if (e.key === "Escape") close(); } },
    h("h3", {}, title),
    lines.length ? h("p", { class: "small" }, lines.join(" · ")) : null,
    view.skat?.length ? h("div", { class: "skat-shown" }, h("span", { class: "muted small" }, `${t("skat.skat")}: `),
      view.skat.map((c) => miniCard(c, ctx.deck))) : null,
    h("p", { class: "small" }, `${t("skat.result.list_points")} `,
      result.seeger_fabian.map((v, s) => h("span", { class: "sf" }, `${model.name(s)} ${signed(v)}`))),
    hints.length ? h("details", { class: "hints" }, h("summary", {}, t("hint.why")),
      h("ul", {}, hints.map((hint) => h("li", {}, explainHint(model, hint, ctx.deck))))) : null,
    h("div", { class: "row-buttons" },
      h("a", { href: recordUrl(model, number), download: `tischrunde-${model.id}-${number + 1}.txt`, class: "button" }, t("skat.record")),
      h("a", { href: replayHash(model.id, number, model.invite), class: "button replay-link" }, t("replay.link")),
      h("button", { type: "button", class: "primary", id: "result-ok", onclick: close }, t("common.ok"))));
}
