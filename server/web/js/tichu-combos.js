// What a set of Tichu cards is, for the live hint under the player's selection. Whether a
// selection may be played comes from the view's legal plays (the engine decides); this only
// names it ("Pair of 7s", "Straight to 10") the way engine/tichu/combos.py classifies.

import { tichuValue } from "./cards.js";
import { t } from "./i18n.js";

const RANK_SHORT = { 1: "1", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A" };

/** "7s", "Jacks" / "Siebenen"... as the catalogue says a rank in the plural. */
function plural(value) {
  return t(`combo.rank_plural.${value}`);
}

function short(value) {
  return RANK_SHORT[value] || String(value);
}

/**
 * Classify `cards` (card texts). Returns {kind, label, bomb} or null when the cards form no
 * combination. `kind`: single, pair, triple, fullhouse, straight, stairs, bomb4, bombsf, dog.
 */
export function classify(cards) {
  const n = cards.length;
  if (n === 0) return null;
  const phoenix = cards.includes("Phoenix");
  if (n === 1) return single(cards[0]);
  if (cards.includes("Dog") || cards.includes("Dragon")) return null;
  const normal = cards.filter((c) => c !== "Phoenix");
  const mahjong = normal.includes("MahJong");
  const values = normal.map(tichuValue);
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);

  if (!phoenix && !mahjong && n === 4 && counts.size === 1) {
    return { kind: "bomb4", label: t("combo.bomb4", { rank: plural(values[0]) }), bomb: true };
  }
  if (!phoenix && !mahjong && n >= 5 && isRun(values) && new Set(normal.map((c) => c[1])).size === 1) {
    return { kind: "bombsf", label: t("combo.bombsf", { top: short(Math.max(...values)) }), bomb: true };
  }
  if (!mahjong && counts.size === 1 && n <= 3) {
    const v = values[0];
    return n === 2 ? { kind: "pair", label: t("combo.pair", { rank: plural(v) }) } : { kind: "triple", label: t("combo.triple", { rank: plural(v) }) };
  }
  if (!mahjong && n === 5) {
    const house = fullHouse(counts, phoenix);
    if (house) return house;
  }
  if (n >= 5) {
    const top = straightTop(values, phoenix);
    if (top) return { kind: "straight", label: t("combo.straight", { n, top: short(top) }) };
  }
  if (!mahjong && n >= 4 && n % 2 === 0) {
    const top = stairsTop(counts, phoenix, n / 2);
    if (top) return { kind: "stairs", label: t("combo.stairs", { n: n / 2, top: short(top) }) };
  }
  return null;
}

function single(card) {
  if (card === "Dog") return { kind: "dog", label: t("combo.dog") };
  if (card === "Phoenix") return { kind: "single", label: t("combo.phoenix") };
  if (card === "Dragon") return { kind: "single", label: t("combo.dragon") };
  if (card === "MahJong") return { kind: "single", label: t("combo.mahjong") };
  return { kind: "single", label: t("combo.single", { rank: short(tichuValue(card)) }) };
}

function isRun(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.every((v, i) => i === 0 || v === sorted[i - 1] + 1);
}

function fullHouse(counts, phoenix) {
  const entries = [...counts.entries()].sort((a, b) => b[0] - a[0]);
  if (!phoenix && entries.length === 2) {
    const triple = entries.find(([, c]) => c === 3);
    if (triple && entries.some(([, c]) => c === 2)) {
      return { kind: "fullhouse", label: t("combo.fullhouse", { rank: plural(triple[0]) }) };
    }
  }
  if (phoenix && entries.length === 2) {
    const [high, low] = entries;
    if (high[1] === 2 && low[1] === 2) return { kind: "fullhouse", label: t("combo.fullhouse", { rank: plural(high[0]) }) };
    if (high[1] === 3 && low[1] === 1) return { kind: "fullhouse", label: t("combo.fullhouse", { rank: plural(high[0]) }) };
    if (high[1] === 1 && low[1] === 3) return { kind: "fullhouse", label: t("combo.fullhouse", { rank: plural(low[0]) }) };
  }
  return null;
}

/** The top value of a straight made of `values` (Phoenix fills one gap or extends), or 0. */
function straightTop(values, phoenix) {
  if (new Set(values).size !== values.length || values.some((v) => v > 14)) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const gaps = sorted[sorted.length - 1] - sorted[0] + 1 - sorted.length;
  if (gaps === 0) {
    if (!phoenix) return sorted[sorted.length - 1];
    return sorted[sorted.length - 1] < 14 ? sorted[sorted.length - 1] + 1 : sorted[sorted.length - 1];
  }
  if (gaps === 1 && phoenix) return sorted[sorted.length - 1];
  return 0;
}

/** The top value of stairs of `pairs` consecutive pairs (Phoenix completes one pair), or 0. */
function stairsTop(counts, phoenix, pairs) {
  const ranks = [...counts.keys()].sort((a, b) => a - b);
  if (ranks.length !== pairs || ranks.some((v) => v < 2 || v > 14)) return 0;
  if (!isRun(ranks)) return 0;
  const singles = ranks.filter((v) => counts.get(v) === 1).length;
  const bad = ranks.some((v) => counts.get(v) > 2);
  if (bad) return 0;
  if (singles === 0 && !phoenix) return ranks[ranks.length - 1];
  if (singles === 1 && phoenix) return ranks[ranks.length - 1];
  return 0;
}

/** The key under which a play's cards are compared with a selection (order-free). */
export function cardsKey(cards) {
  return [...cards].sort().join(" ");
}
