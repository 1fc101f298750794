// The Tichu table: Grand Tichu and Tichu calls (confirmed before they are sent), the exchange
// (tap or drag one card to each player; the cards received are marked), selecting a
// combination with a live hint (what it is and whether it may be played: both from the view's
// legal plays, each named by the server from the engine's classification), passing, bombs out of turn, the Mah Jong's wish asked when it is played, giving the
// Dragon trick, the last trick taken, cards left per player, round and match scores.

import { cardBack, cardFace, cardName, rankName, sortTichu } from "./cards.js";
import { t } from "./i18n.js";
import { replayHash } from "./replay.js";
import { dialog, h, icon, numberButtons, rovingFocus, setFan, signed } from "./ui.js";

const DECK = "tichu";
const WISH_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const SLOTS = ["left", "partner", "right"];
const RANK_SHORT = { 1: "1", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A" };
const SPECIAL_SINGLES = { Dog: "combo.dog", Phoenix: "combo.phoenix", Dragon: "combo.dragon", MahJong: "combo.mahjong" };

/** Seat at `offset` (1 right, 2 partner, 3 left) from `seat`, as engine/tichu/deal.py counts. */
export function seatAt(seat, offset) {
  return (seat + offset) % 4;
}

export function teamOf(seat) {
  return seat % 2;
}

function plays(legal) {
  return legal.filter((a) => a.type === "play");
}

/** The key under which a play's cards are compared with a selection (order-free). */
function cardsKey(cards) {
  return [...cards].sort().join(" ");
}

/** Legal plays whose cards are exactly `selection` (one per wish the Mah Jong may make), each
 * with the combination the server named for it: {action, combination}. */
function matchingPlays(model, selection) {
  const key = cardsKey(selection);
  const names = model.view.combinations || [];
  return model.legal.map((action, i) => ({ action, combination: names[i] }))
    .filter(({ action }) => action.type === "play" && cardsKey(action.cards) === key);
}

/** A combination as the server names it ({kind, rank, length}), in words; `cards` are the
 * play's cards (a single special card has its own name). */
export function comboLabel(combination, cards) {
  const { kind, rank, length } = combination;
  const top = RANK_SHORT[rank] || String(rank);
  const plural = () => t(`combo.rank_plural.${rank}`);
  switch (kind) {
    case "dog": return t("combo.dog");
    case "single": return SPECIAL_SINGLES[cards[0]] ? t(SPECIAL_SINGLES[cards[0]]) : t("combo.single", { rank: top });
    case "pair": return t("combo.pair", { rank: plural() });
    case "triple": return t("combo.triple", { rank: plural() });
    case "fullhouse": return t("combo.fullhouse", { rank: plural() });
    case "straight": return t("combo.straight", { n: length, top });
    case "stairs": return t("combo.stairs", { n: length / 2, top });
    case "bomb4": return t("combo.bomb4", { rank: plural() });
    default: return t("combo.bombsf", { top });
  }
}

function isBomb(combination) {
  return combination?.kind === "bomb4" || combination?.kind === "bombsf";
}

/** The combination to beat: none once the trick is closed (its winner leads anew). */
function toBeat(view) {
  return view.trick_closed ? [] : view.table;
}

/** Render the Tichu table of `model`. `ctx` as in skat.js. */
export function renderTichu(model, ctx) {
  const view = model.view;
  const me = model.seat;
  const base = me ?? 0;
  const root = h("div", { class: `felt tichu phase-${view.phase}` });
  const positions = { 1: "right", 2: "top", 3: "left" };
  const lastWords = trickWords(view);
  for (const offset of [1, 2, 3]) {
    const seat = seatAt(base, offset);
    root.append(seatBox(model, seat, positions[offset], lastWords[seat], offset === 2));
  }
  root.append(centre(model, ctx, (seat) => (seat === base ? "bottom" : positions[(seat - base + 4) % 4])));
  root.append(ownArea(model, ctx, lastWords[base]));
  return root;
}

/** Who passed in the current trick (until he plays again). */
function trickWords(view) {
  const words = {};
  if (view.trick_closed) return words;
  for (const event of view.trick || []) {
    if (event.action.type === "pass") words[event.seat] = t("tichu.passed");
    else if (event.action.type === "play") delete words[event.seat];
  }
  return words;
}

function status(view, seat) {
  const bits = [];
  const call = view.calls[seat];
  if (call !== "none") bits.push(h("span", { class: `badge call ${call}` }, t(`tichu.call.${call}`)));
  const out = view.finish.indexOf(seat);
  if (out >= 0) bits.push(h("span", { class: "badge out" }, t("tichu.out", { n: out + 1 })));
  if (view.phase === "grand_tichu") bits.push(h("span", { class: "muted small" }, t(view.grand_tichu_decided[seat] ? "tichu.decided" : "tichu.thinking")));
  if (view.phase === "exchange") bits.push(h("span", { class: "muted small" }, t(view.exchanged[seat] ? "tichu.cards_passed" : "tichu.choosing")));
  return bits;
}

function seatBox(model, seat, pos, word, partner) {
  const view = model.view;
  const info = model.seats[seat] || {};
  const toMove = view.to_move === seat && view.phase !== "over";
  const count = view.hand_sizes[seat];
  const name = model.name(seat);
  const label = [name, t(partner ? "tichu.partner" : "tichu.opponent"), t("seat.cards", { n: count })];
  if (toMove) label.push(t("seat.moves"));
  return h("section", { class: `seat-box pos-${pos} ${toMove ? "to-move" : ""} team-${teamOf(seat)}`, dataset: { seat }, "aria-label": label.join(", ") },
    h("div", { class: "seat-name" },
      info.bot || info.client_bot ? icon("bot", t("seat.bot")) : null,
      h("strong", {}, name),
      h("span", { class: "muted small relation" }, t(partner ? "tichu.partner" : "tichu.opponent"))),
    h("div", { class: "seat-status" }, status(view, seat)),
    info.away ? h("div", { class: "away" }, icon("bot"), ` ${t("seat.away")}`) : null,
    word ? h("div", { class: "bubble pass" }, word) : null,
    h("div", { class: "mini-hand", "aria-hidden": "true" },
      Array.from({ length: Math.min(count, 14) }, () => h("span", { class: "mini back", html: cardBack() }))),
    h("div", { class: "cards-left", "data-count": count }, t("seat.cards", { n: count }),
      h("span", { class: "left-word" }, ` ${t("tichu.left")}`)));
}

function combo(event, position, classes, label) {
  return h("div", { class: `combo at-${position(event.seat)} ${classes}` },
    h("div", { class: "combo-cards" }, event.action.cards.map((c) =>
      h("span", { class: "mini lg", title: cardName(c, DECK), html: cardFace(c, DECK) }))),
    label ? h("div", { class: "combo-who small" }, label) : null);
}

function centre(model, ctx, position) {
  const view = model.view;
  const box = h("section", { class: "centre", "aria-label": t("table.centre") });
  box.append(h("div", { class: "contract-line" },
    h("span", { class: "muted" }, t("tichu.round", { n: view.round_index + 1 })),
    h("span", { class: "contract" }, `${teamName(model, 0)} ${view.totals[0]} : ${view.totals[1]} ${teamName(model, 1)}`),
    view.wish ? h("span", { class: "badge wish", title: t("tichu.wish_title") }, t("tichu.wish", { rank: rankName(view.wish, DECK) })) : null));
  const rounds = view.rounds || [];
  // Only a round that ends while we are at the table opens the panel (not one before a reload).
  const seen = ctx.ui.seenRounds ?? (ctx.ui.seenRounds = rounds.length);
  if (rounds.length > seen || view.phase === "over") box.append(roundPanel(model, ctx, rounds));
  const trick = h("div", { class: "trick tichu-trick", "aria-label": t("tichu.table"), "aria-live": "polite" });
  const played = (view.trick || []).filter((e) => e.action.type === "play");
  // The lead note sits at the bottom edge, unless the trick taken lies there (ours).
  let noteAt = "";
  if (view.trick_closed && played.length) {
    // Everybody passed: the trick is taken; it stays in view, faded, until the next lead.
    const top = played[played.length - 1];
    trick.append(combo(top, position, "taken", t("tichu.takes_trick", { name: model.name(top.seat) })));
    if (position(top.seat) === "bottom") noteAt = "at-top";
  } else {
    played.slice(-3).forEach((event, i, shown) => {
      const top = i === shown.length - 1;
      trick.append(combo(event, position, top ? "top" : "under", top ? model.name(event.seat) : null));
    });
  }
  if ((!played.length || view.trick_closed) && view.phase === "play") {
    trick.append(h("p", { class: `muted lead-note ${noteAt}` }, view.to_move === model.seat ? t("tichu.your_lead") : t("tichu.leads", { name: model.name(view.to_move) })));
  }
  box.append(trick);
  if (model.lastTrick) box.append(lastTrick(model, ctx));
  return box;
}

/** The last trick taken, on demand (as in Skat). */
function lastTrick(model, ctx) {
  const open = ctx.ui.showLastTrick;
  const { events, winner } = model.lastTrick;
  return h("div", { class: "last-trick" },
    h("button", { type: "button", class: "link", id: "last-trick", "aria-expanded": String(!!open),
      onclick: () => { ctx.ui.showLastTrick = !open; ctx.rerender(); } }, t("tichu.last_trick")),
    open ? h("ol", { class: "last-plays", "aria-label": t("tichu.last_trick_by", { name: model.name(winner) }) },
      events.map((event) => h("li", {},
        h("span", { class: "small" }, `${model.name(event.seat)}: `),
        event.action.type === "play"
          ? event.action.cards.map((c) => h("span", { class: "mini", title: cardName(c, DECK), html: cardFace(c, DECK) }))
          : h("span", { class: "muted small" }, t("tichu.passed")))),
      h("li", { class: "muted small" }, `→ ${model.name(winner)}`)) : null);
}

function teamName(model, team) {
  return t("tichu.team", { a: model.name(team), b: model.name(team + 2) });
}

/** A finished round (or the match): in the flow of the table, never over the next round. */
function roundPanel(model, ctx, rounds) {
  const view = model.view;
  const last = rounds[rounds.length - 1];
  const over = view.phase === "over";
  const close = () => { ctx.ui.seenRounds = rounds.length; ctx.rerender(); };
  const title = over
    ? view.winner === null || view.winner === undefined ? t("tichu.draw") : t("tichu.match_won", { team: teamName(model, view.winner) })
    : t("tichu.round_over", { n: rounds.length });
  return h("div", { class: "result-panel", role: "status", "aria-label": t("tichu.round_result") },
    h("h3", {}, title),
    last ? h("table", { class: "round-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, teamName(model, 0)), h("th", {}, teamName(model, 1)))),
      h("tbody", {},
        h("tr", {}, h("td", {}, t(last.double_victory ? "tichu.double_victory" : "tichu.card_points")), h("td", {}, last.card_points[0]), h("td", {}, last.card_points[1])),
        h("tr", {}, h("td", {}, t("tichu.calls")), h("td", {}, signed(last.call_points[0])), h("td", {}, signed(last.call_points[1]))),
        h("tr", { class: "sum" }, h("td", {}, t("tichu.round_sum")), h("td", {}, signed(last.points[0])), h("td", {}, signed(last.points[1]))),
        h("tr", { class: "sum" }, h("td", {}, t("tichu.match")), h("td", {}, view.totals[0]), h("td", {}, view.totals[1])))) : null,
    last ? h("p", { class: "small muted" }, t("tichu.out_order", { names: last.finish.map((s) => model.name(s)).join(", ") })) : null,
    over
      ? h("div", { class: "row-buttons" }, h("a", { href: replayHash(model.id, model.info.deal ?? 0, model.invite), class: "button replay-link" }, t("replay.link")))
      : h("div", { class: "row-buttons" }, h("button", { type: "button", class: "primary", id: "result-ok", onclick: close }, t("common.ok"))));
}

// --- own hand and actions ----------------------------------------------------------------

function ownArea(model, ctx, word) {
  const view = model.view;
  const me = model.seat;
  const seat = me ?? 0;
  const info = model.seats[seat] || {};
  const toMove = view.to_move === seat && view.phase !== "over";
  const box = h("section", { class: "own", "aria-label": me === null ? t("seat.number", { n: 1 }) : t("seat.your_hand") });
  box.append(h("div", { class: `seat-box pos-bottom ${toMove ? "to-move" : ""} team-${teamOf(seat)}`, dataset: { seat } },
    h("div", { class: "seat-name" }, h("strong", {}, me === null ? model.name(seat) : `${model.name(seat)} ${t("seat.you")}`),
      h("span", { class: "seat-status" }, status(view, seat))),
    info.away ? h("div", { class: "away" }, icon("bot"), ` ${t("seat.away_you")}`) : null,
    word ? h("div", { class: "bubble pass" }, word) : null));
  if (me !== null) box.append(actionBar(model, ctx));
  box.append(hand(model, ctx, seat));
  return box;
}

function exchangeChoice(ctx) {
  return ctx.ui.exchange || (ctx.ui.exchange = { left: null, partner: null, right: null });
}

/** The cards received in the exchange, by card: from whom ("left", "partner", "right"). */
function receivedFrom(view) {
  const from = {};
  if (view.received && view.phase !== "exchange") for (const slot of SLOTS) from[view.received[slot]] = slot;
  return from;
}

function hand(model, ctx, seat) {
  const view = model.view;
  const me = model.seat;
  const row = h("div", { class: "hand tichu-hand", role: "group", "aria-label": t("seat.your_cards") });
  if (me === null) {
    for (let i = 0; i < view.hand_sizes[seat]; i += 1) row.append(h("span", { class: "card back", html: cardBack() }));
    return row;
  }
  const exchanging = view.phase === "exchange" && view.must_exchange;
  const choice = exchangeChoice(ctx);
  const placed = new Set(Object.values(choice).filter(Boolean));
  const selected = ctx.ui.selected || (ctx.ui.selected = new Set());
  for (const card of [...selected]) if (!view.hand.includes(card)) selected.delete(card);
  const canSelect = view.phase === "play" && plays(model.legal).length > 0;
  const from = receivedFrom(view);
  const cards = sortTichu(view.hand).filter((card) => !(exchanging && placed.has(card)));
  setFan(row, cards.length);
  for (const card of cards) {
    const gift = from[card];
    const mark = gift ? [h("span", { class: `gift-tag small`, "aria-hidden": "true" }, t(`tichu.from_short.${gift}`))] : [];
    const name = gift ? `${cardName(card, DECK)} (${t(`tichu.from.${gift}`)})` : cardName(card, DECK);
    if (exchanging) {
      row.append(h("button", { type: "button", class: "card", "data-card": card, draggable: "true",
        "aria-label": t("tichu.pass_it", { card: cardName(card, DECK) }), html: cardFace(card, DECK),
        ondragstart: (e) => { e.dataTransfer.setData("text/plain", card); },
        onclick: () => { placeCard(choice, card, ctx.ui.slot); ctx.ui.slot = null; ctx.rerender(); } }));
    } else if (canSelect) {
      const on = selected.has(card);
      row.append(h("button", { type: "button", class: `card ${on ? "selected" : ""} ${gift ? "received" : ""}`, "data-card": card,
        "aria-pressed": String(on), "aria-label": name, html: cardFace(card, DECK),
        onclick: () => { if (on) selected.delete(card); else selected.add(card); ctx.rerender(); } }, ...mark));
    } else {
      row.append(h("button", { type: "button", class: `card idle ${gift ? "received" : ""}`, "data-card": card, "aria-disabled": "true",
        "aria-label": name, html: cardFace(card, DECK) }, ...mark));
    }
  }
  rovingFocus(row, ctx.ui.focus);
  return row;
}

/** Put `card` into `slot` (or the first empty one); `replace`: even if `slot` holds a card,
 * which goes back to the hand. A card is never in two places. */
function placeCard(choice, card, slot, replace = false) {
  const target = slot && (replace || !choice[slot]) ? slot : SLOTS.find((s) => !choice[s]);
  if (!target) return;
  for (const s of SLOTS) if (choice[s] === card) choice[s] = null;
  choice[target] = card;
}

/** Calls cost 100 or 200 points: they are sent only after the player confirms. */
function callButton(ctx, action, key, classes) {
  return h("button", { type: "button", class: `act call ${classes}`, dataset: { act: action.type },
    onclick: () => ctx.confirmAct(t(`tichu.${key}_question`), t(`tichu.${key}_text`), action, t(`tichu.${key}_yes`)) },
  t(`tichu.${key}_button`));
}

function actionBar(model, ctx) {
  const view = model.view;
  const legal = model.legal;
  const bar = h("div", { class: "action-bar", id: "action-bar" });
  const prompt = (text) => bar.append(h("p", { class: "prompt" }, text));
  const button = (label, action, primary = false) =>
    h("button", { type: "button", class: `act ${primary ? "primary" : ""}`, dataset: { act: action.type },
      onclick: () => ctx.act(action) }, label);
  // While a bot plays our seat the bar says so instead of asking us (the take-back box gives
  // the seat back).
  if (ctx.away) {
    prompt(ctx.away);
    return bar;
  }
  const tichu = legal.find((a) => a.type === "tichu");
  if (view.phase === "grand_tichu") {
    const grand = legal.find((a) => a.type === "grand_tichu");
    const decline = legal.find((a) => a.type === "decline_grand_tichu");
    if (grand || decline) {
      prompt(t("tichu.grand_prompt"));
      if (grand) bar.append(callButton(ctx, grand, "grand", "grand"));
      if (decline) bar.append(button(t("tichu.decline_grand"), decline, true));
    } else prompt(t("tichu.grand_waiting"));
  } else if (view.phase === "exchange") {
    exchangePanel(model, ctx, bar, prompt);
  } else if (view.phase === "dragon") {
    const gifts = legal.filter((a) => a.type === "give_dragon");
    if (gifts.length) {
      prompt(t("tichu.dragon_prompt"));
      for (const gift of gifts) bar.append(button(t("tichu.give_to", { name: model.name(gift.to) }), gift, true));
    } else prompt(t("tichu.dragon_waiting", { name: model.name(view.to_move) }));
  } else if (view.phase === "play") {
    playControls(model, ctx, bar, prompt, button);
  } else if (view.phase === "over") {
    prompt(t("tichu.match_over"));
  }
  if (tichu) bar.append(callButton(ctx, tichu, "tichu", ""));
  return numberButtons(bar);
}

function exchangePanel(model, ctx, bar, prompt) {
  const view = model.view;
  const me = model.seat;
  const offsets = { right: 1, partner: 2, left: 3 };
  if (!view.must_exchange) {
    prompt(t("tichu.exchange_waiting"));
    if (view.given) {
      bar.append(h("div", { class: "exchange given" }, SLOTS.map((slot) =>
        h("div", { class: "slot filled" }, h("span", { class: "slot-label small" }, t(`tichu.slot.${slot}`)),
          h("span", { class: "mini lg", html: cardFace(view.given[slot], DECK) })))));
    }
    return;
  }
  const choice = exchangeChoice(ctx);
  prompt(t("tichu.exchange_prompt"));
  const slots = h("div", { class: "exchange", role: "group", "aria-label": t("tichu.exchange_group") });
  for (const slot of SLOTS) {
    const who = model.name(seatAt(me, offsets[slot]));
    const card = choice[slot];
    const chosen = ctx.ui.slot === slot;
    slots.append(h("button", { type: "button", class: `slot ${card ? "filled" : ""} ${chosen ? "chosen" : ""}`, "data-slot": slot,
      "aria-label": card ? t("tichu.slot_filled", { card: cardName(card, DECK), name: who }) : t("tichu.slot_empty", { name: who }),
      ondragover: (e) => e.preventDefault(),
      ondrop: (e) => {
        e.preventDefault();
        const dropped = e.dataTransfer.getData("text/plain");
        if (dropped) { placeCard(choice, dropped, slot, true); ctx.rerender(); }
      },
      onclick: () => { if (card) choice[slot] = null; else ctx.ui.slot = chosen ? null : slot; ctx.rerender(); } },
    h("span", { class: "slot-label small" }, h("span", { class: "slot-role" }, `${t(`tichu.slot.${slot}`)}: `), who),
    card ? h("span", { class: "mini lg", html: cardFace(card, DECK) }) : h("span", { class: "slot-empty" }, "+")));
  }
  bar.append(slots);
  const ready = choice.left && choice.partner && choice.right;
  bar.append(h("button", { type: "button", class: "act primary", disabled: !ready, dataset: { act: "exchange" },
    onclick: () => { const action = { type: "exchange", left: choice.left, partner: choice.partner, right: choice.right };
      ctx.ui.exchange = null; ctx.act(action); } }, t("tichu.pass_cards")));
}

/** Ask for the Mah Jong's wish among the plays the engine offers: a rank, null for no wish,
 * undefined when the player cancels. */
async function askWish(matches) {
  const wishes = matches.map((a) => a.wish ?? "");
  const ranks = WISH_RANKS.filter((r) => wishes.includes(r));
  const buttons = ranks.map((r) => ({ label: rankName(r, DECK), value: r, id: `wish-${r}` }));
  if (wishes.includes("")) buttons.push({ label: t("tichu.no_wish"), value: "", id: "wish-none" });
  buttons.push({ label: t("common.cancel"), value: null, id: "cancel" });
  const box = h("div", { class: "wish-dialog" }, h("p", {}, t("tichu.wish_text")));
  const answer = await dialog(t("tichu.wish_question"), box, buttons);
  return answer === null ? undefined : answer || null;
}

/** Whether the Mah Jong's wish binds the seat on turn: on a trick, passing is not among the
 * legal actions (the wish is the one thing that forbids it); on a lead, every legal play holds
 * the wished rank. */
function wishBinds(view, legal) {
  if (!view.wish) return false;
  if (toBeat(view).length) return !legal.some((a) => a.type === "pass");
  return plays(legal).every((a) => a.cards.some((card) => card.slice(0, -1) === view.wish));
}

function playControls(model, ctx, bar, prompt, button) {
  const view = model.view;
  const legal = model.legal;
  const mine = view.to_move === model.seat;
  const selection = [...(ctx.ui.selected || [])];
  const matches = matchingPlays(model, selection);
  const canPlay = plays(legal).length > 0;
  const hint = selectionHint(view, matches, mine);
  if (mine && wishBinds(view, legal)) prompt(t("tichu.wish_binds", { rank: rankName(view.wish, DECK) }));
  else if (mine) prompt(toBeat(view).length ? t("tichu.beat_or_pass") : t("tichu.lead_any"));
  else if (canPlay) prompt(t("tichu.bomb_chance", { name: model.name(view.to_move) }));
  else if (view.hand_sizes[model.seat] === 0) prompt(t("tichu.you_are_out"));
  else prompt(t("skat.waiting_for", { name: model.name(view.to_move) }));
  if (selection.length) bar.append(h("p", { class: `combo-hint ${matches.length ? "ok" : "no"}`, role: "status" }, hint));
  if (canPlay) {
    const bomb = isBomb(matches[0]?.combination);
    bar.append(h("button", { type: "button", class: `act ${bomb ? "bomb" : "primary"}`, disabled: !matches.length,
      dataset: { act: "play" }, onclick: async () => {
        const actions = matches.map((m) => m.action);
        let action = actions[0];
        if (actions.some((a) => a.cards.includes("MahJong"))) {
          const wish = await askWish(actions);
          if (wish === undefined) return;
          action = actions.find((a) => (a.wish ?? null) === wish);
          if (!action) return;
        }
        ctx.ui.selected = new Set();
        ctx.act(action);
      } }, bomb && !mine ? t("tichu.bomb_button") : t("tichu.play")));
  }
  const pass = legal.find((a) => a.type === "pass");
  if (pass) bar.append(button(t("tichu.pass"), pass));
  if (selection.length) {
    bar.append(h("button", { type: "button", class: "quiet", onclick: () => { ctx.ui.selected = new Set(); ctx.rerender(); } }, t("tichu.clear")));
  }
}

/** The live hint under a selection. A legal play is named as the server names it; a selection
 * that is no legal play is not classified here (the engine alone knows combinations): the hint
 * says why nothing may be played now. */
export function selectionHint(view, matches, mine) {
  const open = toBeat(view).length > 0;
  if (matches.length) {
    const { action, combination } = matches[0];
    const what = comboLabel(combination, action.cards);
    return open ? t("tichu.hint.beats", { what }) : t("tichu.hint.playable", { what });
  }
  if (!mine) return t("tichu.hint.no_bomb");
  if (view.wish) return t("tichu.hint.no_wish", { rank: rankName(view.wish, DECK) });
  return open ? t("tichu.hint.no_beat") : t("combo.none");
}

// --- scores --------------------------------------------------------------------------------

/** Round by round scores of the match, and the totals. */
export function renderTichuScores(model) {
  const view = model.view;
  if (!view) return h("p", { class: "muted" }, t("tichu.not_begun"));
  // A round's calls and double victory go on a line of their own below its points, so the
  // two team columns get the panel's whole width (issue 28, bug 1).
  const rows = (view.rounds || []).map((r, i) => {
    const note = [r.double_victory ? t("tichu.double_victory_short") : "", callSummary(r)].filter(Boolean).join(" ");
    return [h("tr", { class: `round ${note ? "noted" : ""}` },
      h("td", {}, i + 1),
      h("td", {}, signed(r.points[0])), h("td", {}, signed(r.points[1]))),
    note ? h("tr", { class: "round-note" }, h("td", {}), h("td", { colspan: 2, class: "small muted" }, note)) : null];
  });
  return h("div", { class: "list" },
    h("table", { class: "list-table score-table", "aria-label": t("tichu.scores") },
      h("thead", {}, h("tr", {}, h("th", { class: "col-no" }, "#"), teamHead(model, 0), teamHead(model, 1))),
      h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: 3, class: "muted" }, t("tichu.no_round")))),
      h("tfoot", {}, h("tr", {}, h("th", { title: t("skat.list.total"), "aria-label": t("skat.list.total") }, "Σ"), h("th", {}, view.totals[0]), h("th", {}, view.totals[1])))),
    h("p", { class: "small muted tichu-goal" }, goal(model.info?.rules ?? {})));
}

/** The match's end as its rules set it, in full (the table's header may cut it short on a
 * phone): the target and, if set, the most rounds. */
function goal(rules) {
  const target = t("tichu.target", { points: rules.target_points ?? 1000 });
  return rules.max_rounds ? `${target} · ${t("rules.max_rounds", { n: rules.max_rounds })}` : target;
}

/** A team's column head: the names wrap between the two players, never inside a name. */
function teamHead(model, team) {
  const names = { "\u0001": model.name(team), "\u0002": model.name(team + 2) };
  const parts = t("tichu.team", { a: "\u0001", b: "\u0002" }).split(/([\u0001\u0002])/);
  return h("th", { class: "team-head" },
    parts.map((part) => (names[part] ? h("span", { class: "name", title: names[part] }, names[part]) : part)));
}

function callSummary(round) {
  const calls = round.call_points;
  return calls[0] || calls[1] ? t("tichu.calls_summary", { a: signed(calls[0]), b: signed(calls[1]) }) : "";
}

// --- replays ------------------------------------------------------------------------------

/** What a replay step shows of a Tichu match besides the hands (`view`: the public view after
 * the step): the round, the calls, the combinations of the trick, the score. */
export function tichuReplayInfo(view, name) {
  const calls = view.calls.map((call, seat) => (call === "none" ? null : `${name(seat)}: ${t(`tichu.call.${call}`)}`)).filter(Boolean);
  const played = (view.trick || []).filter((e) => e.action.type === "play");
  const team = (k) => t("tichu.team", { a: name(k), b: name(k + 2) });
  return [
    h("p", {}, h("span", { class: "muted" }, t("tichu.round", { n: view.round_index + 1 })), " ",
      h("span", { class: "contract" }, `${team(0)} ${view.totals[0]} : ${view.totals[1]} ${team(1)}`)),
    calls.length ? h("p", { class: "small" }, `${t("tichu.calls")}: ${calls.join(", ")}`) : null,
    view.wish ? h("p", { class: "small" }, t("tichu.wish", { rank: rankName(view.wish, DECK) })) : null,
    played.length ? h("ol", { class: "replay-trick" }, played.map((event) => h("li", {},
      h("span", { class: "small" }, `${name(event.seat)}: `),
      event.action.cards.map((c) => h("span", { class: "mini", title: cardName(c, DECK), html: cardFace(c, DECK) }))))) : null,
    view.phase === "over" ? h("div", { class: "result-panel", role: "status" }, h("h3", {},
      view.winner === null || view.winner === undefined ? t("tichu.draw") : t("tichu.match_won", { team: team(view.winner) }))) : null,
  ];
}
