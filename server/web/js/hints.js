// "Why did the bot play that?": a bot move's diagnostics (as the Skat and Tichu bots report
// them, bots/) said in words, e.g. "won in 94 of 100 sampled deals". Keys this file does not
// know are left out rather than shown as raw data.

import { cardName } from "./cards.js";
import { has, number, t } from "./i18n.js";
import { contractText, gameName } from "./skat-words.js";

const percent = (rate) => `${Math.round(rate * 100)} %`;

/** What the bot did, as a short phrase ("played the Jack of clubs"). */
export function describeAction(act, deck) {
  if (!act) return t("hint.did.acted");
  switch (act.type) {
    case "bid": return t("hint.did.bid", { value: act.value });
    case "hold": return t("hint.did.hold");
    case "pass": return t("hint.did.pass");
    case "play":
      if (act.cards) return t("hint.did.play_cards", { cards: act.cards.map((c) => cardName(c, "tichu")).join(", ") });
      return t("hint.did.play", { card: cardName(act.card, deck) });
    case "declare": return t("hint.did.declare", { game: gameName(act.game, deck) });
    case "discard": return t("hint.did.discard", { cards: act.cards.map((c) => cardName(c, deck)).join(` ${t("common.and")} `) });
    case "pickup": return t("hint.did.pickup");
    case "accept_claim": return t("hint.did.accept_claim");
    case "refuse_claim": return t("hint.did.refuse_claim");
    case "tichu": return t("hint.did.tichu");
    case "grand_tichu": return t("hint.did.grand_tichu");
    case "decline_grand_tichu": return t("hint.did.decline_grand_tichu");
    case "exchange": return t("hint.did.exchange");
    case "give_dragon": return t("hint.did.give_dragon");
    default: return t("hint.did.acted");
  }
}

/** Odds per game ({grand: 0.8, clubs: 0.55}) as "Grand 80 %, Clubs 55 %". */
function odds(table, deck) {
  return Object.entries(table).map(([game, rate]) => `${gameName(game, deck)} ${percent(Array.isArray(rate) ? rate[0] : rate)}`).join(", ");
}

/** A score bidder's contract label ("grand hand schneider") in the player's words. */
function contractLabel(label, deck) {
  const [game, ...flags] = String(label).split(" ");
  const on = (flag) => flags.includes(flag);
  return contractText({ game, schneider: on("schneider"), schwarz: on("schwarz"), ouvert: on("ouvert") }, on("hand"), deck);
}

/** What the score bidder expected (bots/skat/score_bidding.py): the best plan and its score. */
function expectation(why, act, deck) {
  const points = why.expected !== undefined ? number(why.expected, 0) : null;
  if (why.plan === "pickup") return t("hint.plan_pickup", { points });
  if (why.contract) {
    return t("hint.expected", { contract: contractLabel(why.contract, deck), points, rate: percent(why.solved) });
  }
  if (why.contract === null || (why.bid !== undefined && act?.type === "pass")) return t("hint.no_contract", { bid: why.bid });
  return null;
}

/** The reasons a bot gave, in words. */
export function reasons(why, act, deck) {
  const out = [];
  const reason = why.reason && `hint.reason.${String(why.reason).toLowerCase().replace(/[^a-z0-9]+/g, "_")}`;
  if (reason && has(reason)) out.push(t(reason));
  if (why.cards && act?.card && why.cards[act.card]) {
    const [rate, points] = why.cards[act.card];
    const wins = Math.round(rate * why.worlds);
    out.push(t("hint.won_in", { wins, worlds: why.worlds }));
    // The second number is the declarer's mean card points only where the solver gave exact
    // values (bots/skat/montecarlo.py): in bound mode it is null, or, after a tie broken at a
    // second bound (`tie_target`), a count of worlds, not points.
    const isMean = points !== null && points !== undefined && (why.tie_target ?? null) === null;
    if (isMean) out.push(t("hint.mean_points", { points: number(points, 0) }));
  }
  if (why.limit !== undefined) {
    out.push(why.limit > 0
      ? t(why.game ? "hint.limit_game" : "hint.limit", { limit: why.limit, game: gameName(why.game, deck) })
      : t("hint.too_weak"));
  } else if (why.game) out.push(t("hint.had_in_mind", { game: gameName(why.game, deck) }));
  const expected = expectation(why, act, deck);
  if (expected) out.push(expected);
  if (why.hand && typeof why.hand === "object") { // hand or pickup: both plans' expectations
    const inHand = expectation(why.hand, null, deck);
    if (inHand) out.push(t("hint.in_hand", { what: inHand }));
    if (why.pickup !== null && why.pickup !== undefined) out.push(t("hint.plan_pickup", { points: number(why.pickup, 0) }));
  }
  if (why.chances && why.game && why.chances[why.game] !== undefined) {
    out.push(t("hint.chance", { game: gameName(why.game, deck), rate: percent(why.chances[why.game]) }));
  }
  if (why.hand_odds) out.push(t("hint.hand_odds", { odds: odds(why.hand_odds, deck) }));
  if (why.candidates) out.push(t("hint.candidates", { odds: odds(why.candidates, deck) }));
  if (why.odds) out.push(t("hint.odds", { odds: odds(why.odds, deck) }));
  if (why.value !== undefined && why.odds) out.push(t("hint.game_value", { value: why.value }));
  if (why.strength !== undefined) out.push(t("hint.strength", { strength: number(why.strength, 1) }));
  if (why.points_saved !== undefined) out.push(t("hint.points_saved", { points: why.points_saved }));
  if (why.reaches_bid !== undefined) out.push(t(why.reaches_bid ? "hint.reaches_bid" : "hint.misses_bid"));
  if (why.claim_proved !== undefined) {
    out.push(t(why.claim_proved ? "hint.claim_proved" : "hint.claim_not_proved", { worlds: why.worlds }));
  }
  if (why.choices !== undefined) out.push(t("hint.random", { n: why.choices }));
  if (why.utility !== undefined) out.push(t("hint.utility", { value: number(why.utility, 1) }));
  if (why.lookahead) out.push(t("hint.lookahead", { n: why.lookahead.length }));
  else if (why.value !== undefined && !why.odds) out.push(t("hint.value", { value: number(why.value, 1) }));
  if (why.plans_call) out.push(t("hint.plans_call"));
  return out;
}

/** A bot move and its reasons as one readable line. */
export function explainHint(model, hint, deck) {
  const why = hint.why || {};
  const found = reasons(why, hint.action, deck);
  const line = t("hint.line", { name: model.name(hint.seat), deed: describeAction(hint.action, deck) });
  return found.length ? `${line} — ${found.join("; ")}` : line;
}
