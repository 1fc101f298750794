// The Tichu table: Grand Tichu and Tichu calls, the exchange (tap or drag one card to each
// player), selecting a combination with a live hint (what it is, whether it may be played:
// the view's legal plays decide), passing, bombs out of turn, the Mah Jong wish, giving the
// Dragon trick, cards left per player, round and match scores.

import { cardBack, cardFace, cardName, sortTichu } from "./cards.js";
import { cardsKey, classify } from "./tichu-combos.js";
import { h, icon, numberButtons, rovingFocus, signed } from "./ui.js";

const DECK = "tichu";
const WISH_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const RANK_LABEL = { T: "10" };
const SLOTS = [["left", "Left opponent"], ["partner", "Partner"], ["right", "Right opponent"]];
const CALL_LABEL = { tichu: "Tichu", grand_tichu: "Grand Tichu" };

/** Seat at `offset` (1 right, 2 partner, 3 left) from `seat`, as engine/tichu/deal.py counts. */
export function seatAt(seat, offset) {
  return (seat + offset) % 4;
}

export function teamOf(seat) {
  return seat % 2;
}

function rankLabel(rank) {
  return RANK_LABEL[rank] || rank;
}

function plays(legal) {
  return legal.filter((a) => a.type === "play");
}

/** Legal plays whose cards are exactly `selection`, keyed by wish (null: no wish). */
function matchingPlays(legal, selection) {
  const key = cardsKey(selection);
  return plays(legal).filter((a) => cardsKey(a.cards) === key);
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

/** What each seat last did in the current trick: "pass" or the cards' count. */
function trickWords(view) {
  const words = {};
  for (const event of view.trick || []) {
    if (event.action.type === "pass") words[event.seat] = "pass";
    else if (event.action.type === "play") delete words[event.seat];
  }
  return words;
}

function status(view, seat) {
  const bits = [];
  const call = view.calls[seat];
  if (call !== "none") bits.push(h("span", { class: `badge call ${call}` }, CALL_LABEL[call]));
  const out = view.finish.indexOf(seat);
  if (out >= 0) bits.push(h("span", { class: "badge out" }, `${["1st", "2nd", "3rd", "4th"][out]} out`));
  if (view.phase === "grand_tichu") bits.push(h("span", { class: "muted small" }, view.grand_tichu_decided[seat] ? "decided" : "thinking…"));
  if (view.phase === "exchange") bits.push(h("span", { class: "muted small" }, view.exchanged[seat] ? "cards passed" : "choosing cards…"));
  return bits;
}

function seatBox(model, seat, pos, word, partner) {
  const view = model.view;
  const info = model.seats[seat] || {};
  const toMove = view.to_move === seat && view.phase !== "over";
  const count = view.hand_sizes[seat];
  return h("section", { class: `seat-box pos-${pos} ${toMove ? "to-move" : ""} team-${teamOf(seat)}`,
    "aria-label": `${model.name(seat)}${partner ? " (partner)" : ""}, ${count} cards${toMove ? ", to move" : ""}` },
  h("div", { class: "seat-name" },
    info.bot ? icon("bot", `bot (${info.bot})`) : info.client_bot ? icon("bot", "bot (own program)") : null,
    h("strong", {}, model.name(seat)),
    info.bot ? h("span", { class: "muted small seat-level" }, info.bot) : null,
    h("span", { class: "muted small" }, partner ? "partner" : "opponent")),
  h("div", { class: "seat-status" }, status(view, seat)),
  info.away ? h("div", { class: "away" }, icon("bot"), " a bot plays while they are away") : null,
  word ? h("div", { class: "bubble pass" }, word) : null,
  h("div", { class: "mini-hand", "aria-hidden": "true" },
    Array.from({ length: Math.min(count, 14) }, () => h("span", { class: "mini back", html: cardBack() }))),
  h("div", { class: "cards-left", "data-count": count },
    `${count} card${count === 1 ? "" : "s"}`, h("span", { class: "left-word" }, " left")));
}

function centre(model, ctx, position) {
  const view = model.view;
  const box = h("section", { class: "centre", "aria-label": "Table centre" });
  const line = [`Round ${view.round_index + 1}`, `${teamName(model, 0)} ${view.totals[0]} : ${view.totals[1]} ${teamName(model, 1)}`];
  box.append(h("div", { class: "contract-line" },
    h("span", { class: "muted" }, line[0]), h("span", { class: "contract" }, line[1]),
    view.wish ? h("span", { class: "badge wish", title: "The Mah Jong's wish" }, `Wish: ${rankLabel(view.wish)}`) : null));
  const trick = h("div", { class: "trick tichu-trick", "aria-label": "Table", "aria-live": "polite" });
  const plays = (view.trick || []).filter((e) => e.action.type === "play");
  plays.slice(-3).forEach((event, i, shown) => {
    const top = i === shown.length - 1;
    trick.append(h("div", { class: `combo at-${position(event.seat)} ${top ? "top" : "under"}` },
      h("div", { class: "combo-cards" }, event.action.cards.map((c) =>
        h("span", { class: "mini lg", title: cardName(c, DECK), html: cardFace(c, DECK) }))),
      top ? h("div", { class: "combo-who small" }, `${model.name(event.seat)}${view.trick_closed ? " takes the trick" : ""}`) : null));
  });
  if (!plays.length && view.phase === "play") {
    trick.append(h("p", { class: "muted" }, view.to_move === model.seat ? "Your lead." : `${model.name(view.to_move)} leads.`));
  }
  box.append(trick);
  const rounds = view.rounds || [];
  // Only a round that ends while we are at the table opens the panel (not one before a reload).
  const seen = ctx.ui.seenRounds ?? (ctx.ui.seenRounds = rounds.length);
  if (rounds.length > seen || view.phase === "over") box.append(roundPanel(model, ctx, rounds));
  return box;
}

function teamName(model, team) {
  return `${model.name(team)} & ${model.name(team + 2)}`;
}

function roundPanel(model, ctx, rounds) {
  const view = model.view;
  const last = rounds[rounds.length - 1];
  const over = view.phase === "over";
  const close = () => { ctx.ui.seenRounds = rounds.length; ctx.rerender(); };
  const title = over
    ? view.winner === null || view.winner === undefined ? "The match is a draw" : `${teamName(model, view.winner)} win the match`
    : `Round ${rounds.length} is over`;
  return h("div", { class: "result-panel", role: "dialog", "aria-label": "Round result" },
    h("h3", {}, title),
    last ? h("table", { class: "round-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, teamName(model, 0)), h("th", {}, teamName(model, 1)))),
      h("tbody", {},
        h("tr", {}, h("td", {}, last.double_victory ? "Double victory" : "Card points"), h("td", {}, last.card_points[0]), h("td", {}, last.card_points[1])),
        h("tr", {}, h("td", {}, "Calls"), h("td", {}, signed(last.call_points[0])), h("td", {}, signed(last.call_points[1]))),
        h("tr", { class: "sum" }, h("td", {}, "Round"), h("td", {}, signed(last.points[0])), h("td", {}, signed(last.points[1]))),
        h("tr", { class: "sum" }, h("td", {}, "Match"), h("td", {}, view.totals[0]), h("td", {}, view.totals[1])))) : null,
    last ? h("p", { class: "small muted" }, `Out: ${last.finish.map((s) => model.name(s)).join(", ")}`) : null,
    over ? null : h("div", { class: "row-buttons" }, h("button", { type: "button", class: "primary", id: "result-ok", onclick: close }, "OK")));
}

// --- own hand and actions ----------------------------------------------------------------

function ownArea(model, ctx, word) {
  const view = model.view;
  const me = model.seat;
  const seat = me ?? 0;
  const info = model.seats[seat] || {};
  const toMove = view.to_move === seat && view.phase !== "over";
  const box = h("section", { class: "own", "aria-label": me === null ? "Seat 1" : "Your hand" });
  box.append(h("div", { class: `seat-box pos-bottom ${toMove ? "to-move" : ""} team-${teamOf(seat)}` },
    h("div", { class: "seat-name" }, h("strong", {}, me === null ? model.name(seat) : `${model.name(seat)} (you)`),
      h("span", { class: "seat-status" }, status(view, seat))),
    info.away ? h("div", { class: "away" }, icon("bot"), " a bot is playing for you") : null,
    word ? h("div", { class: "bubble pass" }, word) : null));
  if (me !== null) box.append(actionBar(model, ctx));
  box.append(hand(model, ctx, seat));
  return box;
}

function exchangeChoice(ctx) {
  return ctx.ui.exchange || (ctx.ui.exchange = { left: null, partner: null, right: null });
}

function hand(model, ctx, seat) {
  const view = model.view;
  const me = model.seat;
  const row = h("div", { class: "hand tichu-hand", role: "group", "aria-label": "Your cards" });
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
  row.style.setProperty("--n", String(Math.max(view.hand.length, 2)));
  for (const card of sortTichu(view.hand)) {
    if (exchanging) {
      if (placed.has(card)) continue;
      row.append(h("button", { type: "button", class: "card", "data-card": card, draggable: "true",
        "aria-label": `${cardName(card, DECK)}: pass it`, html: cardFace(card, DECK),
        ondragstart: (e) => { e.dataTransfer.setData("text/plain", card); },
        onclick: () => { placeCard(choice, card, ctx.ui.slot); ctx.ui.slot = null; ctx.rerender(); } }));
    } else if (canSelect) {
      const on = selected.has(card);
      row.append(h("button", { type: "button", class: `card ${on ? "selected" : ""}`, "data-card": card,
        "aria-pressed": String(on), "aria-label": cardName(card, DECK), html: cardFace(card, DECK),
        onclick: () => { if (on) selected.delete(card); else selected.add(card); ctx.rerender(); } }));
    } else {
      row.append(h("button", { type: "button", class: "card idle", "data-card": card, "aria-disabled": "true",
        "aria-label": cardName(card, DECK), html: cardFace(card, DECK) }));
    }
  }
  rovingFocus(row, ctx.ui.focus);
  return row;
}

/** Put `card` into `slot` (or the first empty one); `replace`: even if `slot` holds a card,
 * which goes back to the hand. A card is never in two places. */
function placeCard(choice, card, slot, replace = false) {
  const target = slot && (replace || !choice[slot]) ? slot : SLOTS.map(([s]) => s).find((s) => !choice[s]);
  if (!target) return;
  for (const [s] of SLOTS) if (choice[s] === card) choice[s] = null;
  choice[target] = card;
}

function actionBar(model, ctx) {
  const view = model.view;
  const legal = model.legal;
  const bar = h("div", { class: "action-bar", id: "action-bar" });
  const prompt = (text) => bar.append(h("p", { class: "prompt" }, text));
  const button = (label, action, primary = false) =>
    h("button", { type: "button", class: `act ${primary ? "primary" : ""}`, onclick: () => ctx.act(action) }, label);
  const tichu = legal.find((a) => a.type === "tichu");
  if (view.phase === "grand_tichu") {
    const grand = legal.find((a) => a.type === "grand_tichu");
    const decline = legal.find((a) => a.type === "decline_grand_tichu");
    if (grand || decline) {
      prompt("Your first eight cards. Call Grand Tichu (±200) before you see the rest?");
      if (grand) bar.append(button("Grand Tichu!", grand));
      if (decline) bar.append(button("No, deal my six cards", decline, true));
    } else prompt("Waiting for the others to decide on Grand Tichu…");
  } else if (view.phase === "exchange") {
    exchangePanel(model, ctx, bar, prompt);
  } else if (view.phase === "dragon") {
    const gifts = legal.filter((a) => a.type === "give_dragon");
    if (gifts.length) {
      prompt("You won the trick with the Dragon: give it to an opponent.");
      for (const gift of gifts) bar.append(button(`Give to ${model.name(gift.to)}`, gift, true));
    } else prompt(`${model.name(view.to_move)} gives away the Dragon trick…`);
  } else if (view.phase === "play") {
    playControls(model, ctx, bar, prompt, button);
  } else if (view.phase === "over") {
    prompt("The match is over.");
  }
  if (tichu) bar.append(h("button", { type: "button", class: "act call", onclick: () => ctx.act(tichu) }, "Tichu!"));
  return numberButtons(bar);
}

function exchangePanel(model, ctx, bar, prompt) {
  const view = model.view;
  const me = model.seat;
  if (!view.must_exchange) {
    prompt("Cards passed. Waiting for the others…");
    if (view.given) {
      bar.append(h("div", { class: "exchange given" }, SLOTS.map(([slot, label]) =>
        h("div", { class: "slot filled" }, h("span", { class: "slot-label small" }, label),
          h("span", { class: "mini lg", html: cardFace(view.given[slot], DECK) })))));
    }
    return;
  }
  const choice = exchangeChoice(ctx);
  prompt("Pass one card to each player: tap a card (or drag it onto a place).");
  const slots = h("div", { class: "exchange", role: "group", "aria-label": "Cards to pass" });
  for (const [slot, label] of SLOTS) {
    const offset = { right: 1, partner: 2, left: 3 }[slot];
    const who = model.name(seatAt(me, offset));
    const card = choice[slot];
    const chosen = ctx.ui.slot === slot;
    slots.append(h("button", { type: "button", class: `slot ${card ? "filled" : ""} ${chosen ? "chosen" : ""}`, "data-slot": slot,
      "aria-label": card ? `${cardName(card, DECK)} to ${who}; take it back` : `Place for ${who}`,
      ondragover: (e) => e.preventDefault(),
      ondrop: (e) => {
        e.preventDefault();
        const dropped = e.dataTransfer.getData("text/plain");
        if (dropped) { placeCard(choice, dropped, slot, true); ctx.rerender(); }
      },
      onclick: () => { if (card) choice[slot] = null; else ctx.ui.slot = chosen ? null : slot; ctx.rerender(); } },
    h("span", { class: "slot-label small" }, `${label}: ${who}`),
    card ? h("span", { class: "mini lg", html: cardFace(card, DECK) }) : h("span", { class: "slot-empty" }, "+")));
  }
  bar.append(slots);
  const ready = choice.left && choice.partner && choice.right;
  bar.append(h("button", { type: "button", class: "act primary", disabled: !ready,
    onclick: () => { const action = { type: "exchange", left: choice.left, partner: choice.partner, right: choice.right };
      ctx.ui.exchange = null; ctx.act(action); } }, "Pass these cards"));
}

function playControls(model, ctx, bar, prompt, button) {
  const view = model.view;
  const legal = model.legal;
  const mine = view.to_move === model.seat;
  const selection = [...(ctx.ui.selected || [])];
  const matches = matchingPlays(legal, selection);
  const combo = classify(selection);
  const canPlay = plays(legal).length > 0;
  const hint = selectionHint(view, selection, combo, matches, mine);
  if (mine) prompt(view.table.length ? "Your turn: beat the table or pass." : "Your lead: play any combination.");
  else if (canPlay) prompt(`${model.name(view.to_move)} is to move. You hold a bomb: you may throw it now.`);
  else if (view.hand_sizes[model.seat] === 0) prompt("You are out. Watch your partner!");
  else prompt(`Waiting for ${model.name(view.to_move)}…`);
  if (selection.length) bar.append(h("p", { class: `combo-hint ${matches.length ? "ok" : "no"}`, role: "status" }, hint));
  const withMahJong = matches.some((a) => a.cards.includes("MahJong"));
  if (withMahJong) {
    const wishes = matches.map((a) => a.wish ?? "");
    const wish = wishes.includes(ctx.ui.wish ?? "") ? ctx.ui.wish ?? "" : wishes[0];
    bar.append(h("label", { class: "wish-choice" }, "Wish for ",
      h("select", { name: "wish", onchange: (e) => { ctx.ui.wish = e.target.value; } },
        WISH_RANKS.filter((r) => wishes.includes(r)).length || wishes.includes("")
          ? ["", ...WISH_RANKS].filter((r) => wishes.includes(r)).map((r) =>
              h("option", { value: r, selected: r === wish }, r ? rankLabel(r) : "no wish"))
          : null)));
  }
  if (canPlay) {
    const bomb = combo?.bomb;
    bar.append(h("button", { type: "button", class: `act ${bomb ? "bomb" : "primary"}`, disabled: !matches.length,
      onclick: () => {
        const wish = withMahJong ? (bar.querySelector("select[name=wish]")?.value || null) : null;
        const action = matches.find((a) => (a.wish ?? null) === wish) || matches[0];
        ctx.ui.selected = new Set();
        ctx.ui.wish = null;
        ctx.act(action);
      } }, bomb && !mine ? "Bomb!" : "Play"));
  }
  const pass = legal.find((a) => a.type === "pass");
  if (pass) bar.append(button("Pass", pass));
  if (selection.length) {
    bar.append(h("button", { type: "button", class: "quiet", onclick: () => { ctx.ui.selected = new Set(); ctx.rerender(); } }, "Clear"));
  }
}

/** The live hint under a selection: what it is and whether it can be played now. */
export function selectionHint(view, selection, combo, matches, mine) {
  const what = combo ? combo.label : "Not a combination";
  if (matches.length) return view.table.length ? `${what} — beats the table ✓` : `${what} — playable ✓`;
  if (!combo) return what;
  if (!mine && !combo.bomb) return `${what} — wait for your turn`;
  if (view.wish && mine) return `${what} — not allowed now (a wished ${rankLabel(view.wish)} may have to be played)`;
  return view.table.length ? `${what} — does not beat the table` : `${what} — not playable now`;
}

// --- scores --------------------------------------------------------------------------------

/** Round by round scores of the match, and the totals. */
export function renderTichuScores(model) {
  const view = model.view;
  if (!view) return h("p", { class: "muted" }, "The match has not begun.");
  const rows = (view.rounds || []).map((r, i) => h("tr", {},
    h("td", {}, i + 1),
    h("td", {}, signed(r.points[0])), h("td", {}, signed(r.points[1])),
    h("td", { class: "small muted" }, [r.double_victory ? "double victory" : "", callSummary(r)].filter(Boolean).join(" "))));
  return h("div", { class: "list" },
    h("table", { class: "list-table", "aria-label": "Scores" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, teamName(model, 0)), h("th", {}, teamName(model, 1)), h("th", {}, ""))),
      h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: 4, class: "muted" }, "No round finished yet."))),
      h("tfoot", {}, h("tr", {}, h("th", {}, "Total"), h("th", {}, view.totals[0]), h("th", {}, view.totals[1]), h("th", {}, "")))),
    h("p", { class: "small muted" }, `Target: ${model.info?.rules?.target_points ?? 1000} points`));
}

function callSummary(round) {
  const calls = round.call_points;
  return calls[0] || calls[1] ? `calls ${signed(calls[0])} / ${signed(calls[1])}` : "";
}
