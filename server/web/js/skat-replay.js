// A Skat deal replayed on the felt: the table's seats, trick places and card faces (css
// `.felt`, js/cards.js), every hand open, the trick as it lies after the step (a trick just
// taken stays until the next lead, as at the table), and beside the felt the bidding, the
// skat and what the declarer laid away. `view` is the public view after the step; `hands`
// every seat's cards then.

import { cardBack, cardFace, cardName, SKAT_ORDER, sortSkatHand } from "./cards.js";
import { describeAction } from "./hints.js";
import { biddingWords, contractLine, describeResult, order, roleOf } from "./skat.js";
import { contractText } from "./skat-words.js";
import { t } from "./i18n.js";
import { h, icon, signed } from "./ui.js";

// The moves before the play, as the panel lists them.
const AUCTION = new Set(["bid", "hold", "pass", "pickup", "discard", "declare", "kontra", "re"]);

/** Whether the step from `before` to `after` completed a trick. */
export function skatTakesTrick(before, after) {
  return (after.tricks?.length ?? 0) > (before.tricks?.length ?? 0);
}

/** The skat as dealt: the cards in no hand after the deal. */
function dealtSkat(first) {
  const held = new Set(first.hands.flat());
  return SKAT_ORDER.filter((card) => !held.has(card));
}

function card(code, seat, deck) {
  return h("span", { class: "mini", "data-card": code, "data-seat": seat ?? "", title: cardName(code, deck), html: cardFace(code, deck) });
}

function seatBox(view, hand, seat, pos, word, ctx) {
  const declarer = view.declarer === seat;
  const toMove = view.to_move === seat && view.phase !== "over";
  const sitting = view.players === 4 && seat === view.dealer;
  return h("section", { class: `seat-box pos-${pos} ${toMove ? "to-move" : ""} ${declarer ? "declarer" : ""}`,
    dataset: { seat }, "aria-label": ctx.name(seat) },
  h("div", { class: "seat-name" },
    ctx.bot(seat) ? icon("bot", t("seat.bot")) : null,
    h("strong", {}, ctx.name(seat)),
    declarer ? h("span", { class: "badge declarer-badge" }, t("skat.declarer")) : null,
    h("span", { class: "seat-role muted" }, roleOf(view, seat))),
  word ? h("div", { class: `bubble ${word.pass ? "pass" : ""}` }, word.text) : null,
  sitting ? null : h("div", { class: "mini-hand open seat-cards", "data-hand": seat, "aria-label": t("skat.open_cards", { name: ctx.name(seat) }) },
    sortSkatHand(hand, view.contract?.game ?? (view.ramsch ? "grand" : null)).map((c) => card(c, seat, ctx.deck))),
  view.phase === "over" && !sitting ? h("div", { class: "muted small" }, t("skat.card_points", { n: view.trick_points[seat] })) : null);
}

/** The trick on the felt: the cards of the one being played, else the one just taken. */
function trick(view, position, ctx) {
  const box = h("div", { class: "trick", "aria-label": t("skat.current_trick") });
  const lay = (cards, leader, taken) => {
    const seats = order(view);
    const lead = seats.indexOf(leader);
    cards.forEach((code, i) => {
      const seat = seats[(lead + i) % 3];
      box.append(h("div", { class: `trick-card at-${position(seat)} ${taken ? "taken" : ""}`, style: { zIndex: i + 1 },
        "data-card": code, "data-seat": seat, title: `${ctx.name(seat)}: ${cardName(code, ctx.deck)}`, html: cardFace(code, ctx.deck) }));
    });
  };
  if (view.trick.length) lay(view.trick, view.trick_leader, false);
  else if (view.tricks.length) {
    const last = view.tricks[view.tricks.length - 1];
    lay(last.cards, last.leader, true);
    return [box, h("div", { class: "taken-by" }, t("skat.takes_trick", { name: ctx.name(last.winner) }))];
  } else if (["bidding", "skat"].includes(view.phase)) {
    box.append(h("div", { class: "skat-backs", "aria-label": t("skat.skat_face_down") },
      h("span", { class: "mini back lg", html: cardBack() }), h("span", { class: "mini back lg", html: cardBack() })));
  }
  return [box];
}

function result(view, ctx) {
  if (!view.result) return null;
  const { title, lines } = describeResult({ name: ctx.name }, view.result, ctx.deck);
  return h("div", { class: `result-panel ${view.result.won ? "won" : view.result.won === false ? "lost" : ""}`, role: "status" },
    h("h3", {}, title),
    lines.length ? h("p", { class: "small" }, lines.join(" · ")) : null,
    h("p", { class: "small" }, `${t("skat.result.list_points")} `,
      view.result.seeger_fabian.map((v, s) => h("span", { class: "sf" }, `${ctx.name(s)} ${signed(v)}`))));
}

/** The bidding and the declarer's moves (bids, the skat taken, the cards laid away, the game;
 * Kontra and Re), those after the step greyed, and the skat as dealt. */
function auction(steps, step, ctx) {
  const rows = [];
  steps.forEach((s, i) => {
    if (!s.action || !AUCTION.has(s.action.type)) return;
    const { action } = s;
    const deed = action.type === "bid" ? String(action.value)
      : action.type === "hold" ? t("skat.yes")
        : action.type === "pass" ? t("skat.pass")
          : action.type === "discard" ? action.cards.map((c) => card(c, s.seat, ctx.deck))
            : action.type === "declare" ? contractText(action, s.view.hand_game, ctx.deck)
              : action.type === "kontra" ? t("skat.kontra")
                : action.type === "re" ? t("replay.re")
                  : describeAction(action, ctx.deck);
    rows.push(h("li", { class: i > step ? "future" : "", "data-step": i },
      h("span", { class: "who" }, `${ctx.name(s.seat)}: `), deed));
  });
  return h("section", { class: "panel replay-auction", "aria-label": t("replay.bidding") },
    h("h2", {}, t("replay.bidding")),
    rows.length ? h("ol", {}, rows) : h("p", { class: "muted small" }, t("replay.all_passed")),
    h("div", { class: "skat-shown" }, h("span", { class: "muted small" }, `${t("replay.dealt_skat")}: `),
      dealtSkat(steps[0]).map((c) => card(c, null, ctx.deck))));
}

/**
 * The felt and the panels of step `step` of a Skat replay.
 * `ctx`: {deck, name(seat), bot(seat), bottom: the seat drawn at the bottom}.
 */
export function drawSkatReplay(replay, step, ctx) {
  const { view, hands } = replay.steps[step];
  const n = view.players;
  const slots = n === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "left", "right"];
  const position = (seat) => slots[(seat - ctx.bottom + n) % n];
  const words = view.phase === "bidding" ? biddingWords(replay.steps.slice(1, step + 1)) : {};
  const felt = h("div", { class: `felt skat players-${n} replay-felt` });
  for (let seat = 0; seat < n; seat += 1) {
    if (seat !== ctx.bottom) felt.append(seatBox(view, hands[seat], seat, position(seat), words[seat], ctx));
  }
  felt.append(h("section", { class: "centre", "aria-label": t("table.centre") },
    contractLine({ view, name: ctx.name, info: null }, ctx), ...trick(view, position, ctx), result(view, ctx)));
  felt.append(h("div", { class: "own" }, seatBox(view, hands[ctx.bottom], ctx.bottom, "bottom", words[ctx.bottom], ctx)));
  return h("div", { class: "replay-body" }, h("div", { class: "felt-holder" }, felt),
    h("aside", { class: "replay-panels" }, auction(replay.steps, step, ctx)));
}
