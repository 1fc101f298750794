// Card faces drawn as SVG by this project: French and German suits for Skat, the four Tichu
// suits and the four special cards. Every face is an <svg> that references shared <symbol>s
// (installed once by `installCardSymbols`), so a hand of cards stays a small DOM and scales
// crisply at any size.

import { language, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// --- suit and special symbols (100 x 100 unless noted) -------------------------------------

const SYMBOLS = {
  // French suits
  "fr-C": `<g fill="currentColor"><circle cx="50" cy="27" r="20"/><circle cx="26" cy="58" r="20"/>
    <circle cx="74" cy="58" r="20"/><path d="M45 50 C45 72 39 86 29 97 L71 97 C61 86 55 72 55 50 Z"/></g>`,
  "fr-S": `<path fill="currentColor" d="M50 3 C60 22 97 38 97 63 C97 77 87 86 74 86 C65 86 58 81 54 74
    C55 84 59 91 68 97 L32 97 C41 91 45 84 46 74 C42 81 35 86 26 86 C13 86 3 77 3 63 C3 38 40 22 50 3 Z"/>`,
  "fr-H": `<path fill="currentColor" d="M50 94 C20 70 3 52 3 30 C3 14 15 4 29 4 C39 4 46 10 50 19
    C54 10 61 4 71 4 C85 4 97 14 97 30 C97 52 80 70 50 94 Z"/>`,
  "fr-D": `<path fill="currentColor" d="M50 2 Q66 30 90 50 Q66 70 50 98 Q34 70 10 50 Q34 30 50 2 Z"/>`,
  // German suits: Eichel (acorns), Gruen (leaves), Herz (hearts), Schellen (bells)
  "de-C": `<g><path fill="#6b8e23" d="M30 50 C28 22 40 6 50 6 C60 6 72 22 70 50 Z"/>
    <path fill="none" stroke="#3d5214" stroke-width="3" d="M40 14 C38 28 38 40 40 50 M60 14 C62 28 62 40 60 50"/>
    <path fill="#8b5a2b" d="M24 48 L76 48 C78 64 68 78 50 80 C32 78 22 64 24 48 Z"/>
    <path fill="none" stroke="#5a3515" stroke-width="2.5" d="M28 56 L72 56 M30 64 L70 64 M35 72 L65 72
      M38 48 L42 78 M50 48 L50 80 M62 48 L58 78"/>
    <path fill="none" stroke="#5a3515" stroke-width="5" stroke-linecap="round" d="M50 80 L50 96"/></g>`,
  "de-S": `<g><path fill="#3f9b3a" d="M50 90 C18 80 6 52 14 22 C30 28 42 20 50 4 C58 20 70 28 86 22
      C94 52 82 80 50 90 Z"/>
    <path fill="none" stroke="#1f5d1c" stroke-width="3" stroke-linecap="round" d="M50 98 L50 14
      M50 40 L32 30 M50 40 L68 30 M50 58 L30 46 M50 58 L70 46 M50 74 L34 64 M50 74 L66 64"/></g>`,
  "de-H": `<g><path fill="#d32f2f" d="M50 94 C20 70 3 52 3 30 C3 14 15 4 29 4 C39 4 46 10 50 19
      C54 10 61 4 71 4 C85 4 97 14 97 30 C97 52 80 70 50 94 Z"/>
    <path fill="#ff8a80" opacity=".7" d="M24 16 C16 18 12 26 14 34 C18 28 22 24 30 22 Z"/></g>`,
  "de-D": `<g><circle cx="50" cy="56" r="38" fill="#f2b01e" stroke="#a86f00" stroke-width="3"/>
    <path fill="none" stroke="#a86f00" stroke-width="4" d="M14 46 Q50 38 86 46 M14 58 Q50 50 86 58"/>
    <circle cx="50" cy="76" r="7" fill="#6b4200"/><path stroke="#6b4200" stroke-width="4" d="M50 82 L50 94"/>
    <circle cx="50" cy="12" r="7" fill="none" stroke="#a86f00" stroke-width="4"/></g>`,
  // Tichu suits: Jade, Sword, Pagoda, Star
  "ti-j": `<g><path fill="#1e8c55" fill-rule="evenodd" d="M50 4 L90 27 L90 73 L50 96 L10 73 L10 27 Z
      M50 34 A16 16 0 1 0 50.01 34 Z"/>
    <path fill="none" stroke="#0d5c33" stroke-width="3" d="M50 4 L50 34 M90 27 L64 42 M90 73 L64 58
      M50 96 L50 66 M10 73 L36 58 M10 27 L36 42"/></g>`,
  "ti-s": `<g fill="#263238"><path d="M50 2 L63 16 L63 62 L37 62 L37 16 Z"/>
    <rect x="16" y="62" width="68" height="10" rx="4"/><rect x="43" y="72" width="14" height="16"/>
    <circle cx="50" cy="91" r="8"/><path fill="#90a4ae" d="M50 9 L55 17 L55 60 L50 60 Z"/></g>`,
  "ti-p": `<g fill="#1f5fbf"><path d="M50 2 L54 10 L46 10 Z"/><path d="M22 26 Q50 8 78 26 L70 26 L70 32 L30 32 L30 26 Z"/>
    <rect x="36" y="32" width="28" height="10"/><path d="M14 54 Q50 32 86 54 L76 54 L76 60 L24 60 L24 54 Z"/>
    <rect x="30" y="60" width="40" height="12"/><path d="M6 84 Q50 62 94 84 L84 84 L84 90 L16 90 L16 84 Z"/>
    <rect x="10" y="90" width="80" height="8"/></g>`,
  "ti-t": `<path fill="#d3263a" d="M50 3 L61 36 L96 37 L68 58 L78 92 L50 72 L22 92 L32 58 L4 37 L39 36 Z"/>`,
  // Tichu specials (drawn in the card's centre area)
  "sp-MahJong": `<g><path fill="#8d6e63" d="M24 64 C22 44 38 30 58 34 C66 22 84 22 90 30 L80 34 C84 40 82 52 74 60
      C66 70 44 74 24 64 Z"/>
    <path fill="#5d4037" d="M30 58 C40 52 56 50 70 52 C62 60 46 64 30 58 Z"/>
    <circle cx="76" cy="30" r="3" fill="#212121"/><path fill="#ffb300" d="M88 28 L98 31 L88 34 Z"/>
    <path stroke="#5d4037" stroke-width="3" d="M44 70 L40 84 M54 70 L54 84"/>
    <path fill="none" stroke="#c62828" stroke-width="4" d="M6 96 L94 96"/></g>`,
  "sp-Dog": `<g><path fill="#795548" d="M20 30 C18 14 30 8 38 16 L46 26 L62 26 L70 16 C78 8 90 14 88 30
      L84 44 C90 60 82 82 64 90 C56 94 44 94 36 90 C18 82 10 60 16 44 Z"/>
    <path fill="#d7ccc8" d="M36 62 C36 52 44 48 54 48 C64 48 70 52 70 62 C70 76 62 84 54 84 C44 84 36 76 36 62 Z"/>
    <circle cx="38" cy="44" r="5" fill="#212121"/><circle cx="68" cy="44" r="5" fill="#212121"/>
    <path fill="#212121" d="M46 58 C46 52 60 52 60 58 C60 63 53 66 53 66 C53 66 46 63 46 58 Z"/>
    <path fill="none" stroke="#212121" stroke-width="3" d="M53 66 L53 72 M44 74 Q53 80 62 74"/></g>`,
  "sp-Phoenix": `<g><path fill="#ff7043" d="M50 96 C30 84 26 62 36 46 C28 46 16 40 6 26 C22 30 32 30 40 36
      C36 26 38 14 46 4 C48 16 52 24 58 30 C64 22 76 18 94 18 C82 28 74 38 68 46 C78 58 74 82 50 96 Z"/>
    <path fill="#ffca28" d="M50 86 C40 78 40 62 48 54 C52 62 58 66 60 72 C60 78 56 84 50 86 Z"/>
    <circle cx="49" cy="22" r="3" fill="#4e342e"/></g>`,
  "sp-Dragon": `<g><path fill="none" stroke="#c62828" stroke-width="11" stroke-linecap="round"
      d="M20 88 C4 70 14 50 34 52 C54 54 60 38 48 28 C40 22 46 10 58 10"/>
    <path fill="none" stroke="#ffd54f" stroke-width="3" stroke-dasharray="4 5"
      d="M20 88 C4 70 14 50 34 52 C54 54 60 38 48 28 C40 22 46 10 58 10"/>
    <path fill="#c62828" d="M56 2 L84 8 L96 18 L80 20 L70 26 L58 20 Z"/>
    <circle cx="74" cy="12" r="3" fill="#ffd54f"/>
    <path fill="#ffd54f" d="M84 22 L90 30 L80 28 Z M64 24 L62 34 L70 28 Z"/>
    <circle cx="74" cy="74" r="14" fill="#fff3e0" stroke="#ef6c00" stroke-width="4"/></g>`,
};

// --- decks ------------------------------------------------------------------------------------

const SPECIALS = ["MahJong", "Dog", "Phoenix", "Dragon"];
// Court card corners: the German deck's Unter and Ober; the French deck's letters depend on
// the language (Jack, Queen / Bube, Dame).
const GERMAN_LETTER = { J: "U", Q: "O", K: "K", A: "A" };

/** Colours of the French suits: classic two-colour or the four-colour tournament deck. */
const FRENCH_COLOURS = {
  french: { C: "#1b1b1b", S: "#1b1b1b", H: "#c8102e", D: "#c8102e" },
  french4: { C: "#1b1b1b", S: "#1d7a34", H: "#c8102e", D: "#e08a00" },
};
const TICHU_COLOURS = { j: "#1e8c55", s: "#263238", p: "#1f5fbf", t: "#d3263a" };

export const DECKS = ["french", "french4", "german"];

/** A deck's name for the deck chooser. */
export function deckLabel(deck) {
  return t(`deck.${deck}`);
}

/** Put the shared symbols into the page once (a hidden <svg> with <symbol>s). */
export function installCardSymbols(doc = document) {
  if (doc.getElementById("card-symbols")) return;
  const defs = Object.entries(SYMBOLS)
    .map(([id, body]) => `<symbol id="sym-${id}" viewBox="0 0 100 100">${body}</symbol>`)
    .join("");
  const holder = doc.createElement("div");
  holder.innerHTML =
    `<svg id="card-symbols" xmlns="${SVG_NS}" width="0" height="0" aria-hidden="true" ` +
    `style="position:absolute">${defs}${backPattern()}</svg>`;
  doc.body.prepend(holder.firstElementChild);
}

function backPattern() {
  return `<pattern id="card-back-pattern" width="10" height="10" patternUnits="userSpaceOnUse"
    patternTransform="rotate(45)"><rect width="10" height="10" fill="#24508f"/>
    <path d="M0 5 H10 M5 0 V10" stroke="#3c6db3" stroke-width="2"/></pattern>`;
}

// --- names for people and screen readers ---------------------------------------------------

/** "Jack of clubs" / "Kreuz Bube", "Ober of leaves" / "Grün Ober", "10 of Jade", "Phoenix". */
export function cardName(code, deck = "french") {
  if (SPECIALS.includes(code)) return t(`card.special.${code}`);
  const suit = code.slice(-1);
  const style = deck === "tichu" ? "tichu" : deck === "german" ? "german" : "french";
  return t("card.name", { rank: rankName(code.slice(0, -1), deck), suit: t(`card.suit.${style}.${suit}`) });
}

/** A rank ("Q", "T", "7") as card names say it: "Queen" / "Dame", "Ober", "10", "7". */
export function rankName(rank, deck = "french") {
  if (rank === "T") return "10";
  if (/^[2-9]$/.test(rank)) return rank;
  return t(`card.rank.${deck === "german" ? "german" : "french"}.${rank}`);
}

/** The suit symbol for inline use in text (e.g. "♣ Clubs" buttons), as an SVG element string. */
export function suitIcon(suit, deck = "french", size = "1em") {
  const id = deck === "german" ? `de-${suit}` : `fr-${suit}`;
  const colour = deck === "german" ? "" : `color:${FRENCH_COLOURS[deck === "french4" ? "french4" : "french"][suit]}`;
  return `<svg class="suit-icon" viewBox="0 0 100 100" width="${size}" height="${size}" ` +
    `style="${colour}" aria-hidden="true"><use href="#sym-${id}"/></svg>`;
}

// --- faces --------------------------------------------------------------------------------

const W = 100;
const H = 150;
const cache = new Map();

/** The SVG markup of a face-up card (`code` like "JC", "Tj", "Phoenix") for `deck`. */
export function cardFace(code, deck = "french") {
  const key = `${language()}:${deck}:${code}`;
  let svg = cache.get(key);
  if (!svg) {
    svg = deck === "tichu" ? tichuFace(code) : skatFace(code, deck);
    cache.set(key, svg);
  }
  return svg;
}

/** The SVG markup of a card back. */
export function cardBack() {
  return frame(
    `<rect x="6" y="6" width="88" height="138" rx="6" fill="url(#card-back-pattern)" stroke="#fff" stroke-width="2"/>
     <circle cx="50" cy="75" r="20" fill="#1a3b6b" stroke="#fff" stroke-width="2"/>
     <text x="50" y="84" text-anchor="middle" font-size="26" font-weight="700" fill="#fff">T</text>`,
    "back",
  );
}

function frame(body, cls = "") {
  return `<svg class="card-svg ${cls}" viewBox="0 0 ${W} ${H}" xmlns="${SVG_NS}" aria-hidden="true">` +
    `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="8" fill="#fffdf8" stroke="#9a958a" stroke-width="1.5"/>` +
    `${body}</svg>`;
}

function use(symbol, x, y, size, colour, rotate = false) {
  const transform = rotate ? ` transform="rotate(180 ${x + size / 2} ${y + size / 2})"` : "";
  const style = colour ? ` style="color:${colour}"` : "";
  return `<use href="#sym-${symbol}" x="${x}" y="${y}" width="${size}" height="${size}"${style}${transform}/>`;
}

function corners(label, symbol, colour) {
  const size = label.length > 1 ? 19 : 22;
  const corner =
    `<text x="13" y="23" text-anchor="middle" font-size="${size}" font-weight="700" ` +
    `font-family="system-ui, sans-serif" fill="${colour}">${label}</text>` +
    use(symbol, 5, 27, 16, colour);
  return corner + `<g transform="rotate(180 50 75)">${corner}</g>`;
}

// Pip positions (card coordinates of the pip centres) for number cards 2..10.
const COL = [34, 50, 66];
const ROW = [38, 56.5, 75, 93.5, 112];
const PIPS = {
  2: [[1, 0], [1, 4]],
  3: [[1, 0], [1, 2], [1, 4]],
  4: [[0, 0], [2, 0], [0, 4], [2, 4]],
  5: [[0, 0], [2, 0], [1, 2], [0, 4], [2, 4]],
  6: [[0, 0], [2, 0], [0, 2], [2, 2], [0, 4], [2, 4]],
  7: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2], [0, 4], [2, 4]],
  8: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2], [1, 3], [0, 4], [2, 4]],
  9: [[0, 0], [2, 0], [0, 1.5], [2, 1.5], [1, 2], [0, 2.5], [2, 2.5], [0, 4], [2, 4]],
  10: [[0, 0], [2, 0], [1, 0.9], [0, 1.5], [2, 1.5], [0, 2.5], [2, 2.5], [1, 3.1], [0, 4], [2, 4]],
};

function rowY(index) {
  const low = Math.floor(index);
  const frac = index - low;
  return frac === 0 ? ROW[low] : ROW[low] + (ROW[low + 1] - ROW[low]) * frac;
}

function pips(count, symbol, colour) {
  const size = count >= 9 ? 18 : 21;
  return PIPS[count]
    .map(([c, r]) => {
      const x = COL[c] - size / 2;
      const y = rowY(r) - size / 2;
      return use(symbol, x, y, size, colour, r > 2);
    })
    .join("");
}

function court(rank, letter, symbol, colour, accent) {
  return `<rect x="22" y="28" width="56" height="94" rx="5" fill="${accent}" stroke="${colour}" stroke-width="2"/>
    <rect x="26" y="32" width="48" height="86" rx="3" fill="none" stroke="${colour}" stroke-width="0.8" stroke-dasharray="2 2"/>
    ${crown(rank, colour)}
    <text x="50" y="92" text-anchor="middle" font-size="34" font-weight="800" font-family="Georgia, serif" fill="${colour}">${letter}</text>
    ${use(symbol, 38, 96, 24, colour)}`;
}

function crown(rank, colour) {
  if (rank === "K") {
    return `<path fill="#f2b01e" stroke="${colour}" stroke-width="1.5" d="M34 56 L36 40 L43 48 L50 36 L57 48 L64 40 L66 56 Z"/>`;
  }
  if (rank === "Q") {
    return `<path fill="#f2b01e" stroke="${colour}" stroke-width="1.5" d="M37 56 Q50 34 63 56 Z"/><circle cx="50" cy="40" r="3" fill="${colour}"/>`;
  }
  return `<path fill="${colour}" opacity=".85" d="M36 56 Q38 42 50 40 Q62 42 64 56 Q50 50 36 56 Z"/><circle cx="62" cy="44" r="3" fill="#f2b01e"/>`;
}

function ace(symbol, colour) {
  return use(symbol, 22, 45, 56, colour);
}

function skatFace(code, deck) {
  const rank = code[0];
  const suit = code[1];
  const german = deck === "german";
  const symbol = german ? `de-${suit}` : `fr-${suit}`;
  const colour = german
    ? { C: "#5a3515", S: "#1f5d1c", H: "#b71c1c", D: "#a86f00" }[suit]
    : FRENCH_COLOURS[deck === "french4" ? "french4" : "french"][suit];
  const label = rank === "T" ? "10" : german ? GERMAN_LETTER[rank] || rank : "JQKA".includes(rank) ? t(`card.corner.${rank}`) : rank;
  let centre;
  if (rank === "A") centre = ace(symbol, colour);
  else if ("JQK".includes(rank)) {
    const accent = rank === "J" ? "#e8f0fb" : rank === "Q" ? "#fbeef0" : "#fdf5e0";
    centre = court(rank, label, symbol, colour, accent);
  } else centre = pips(rank === "T" ? 10 : Number(rank), symbol, colour);
  return frame(corners(label, symbol, colour) + centre, `skat ${german ? "german" : "french"}`);
}

function tichuFace(code) {
  if (SPECIALS.includes(code)) return specialFace(code);
  const rank = code[0];
  const suit = code[1];
  const colour = TICHU_COLOURS[suit];
  const symbol = `ti-${suit}`;
  const label = rank === "T" ? "10" : rank;
  let centre;
  if (rank === "A") centre = ace(symbol, colour);
  else if ("JQK".includes(rank)) centre = court(rank, label, symbol, colour, "#f4f1e8");
  else centre = pips(rank === "T" ? 10 : Number(rank), symbol, colour);
  return frame(corners(label, symbol, colour) + centre, "tichu");
}

const SPECIAL_STYLE = {
  MahJong: { colour: "#2e7d32", bg: "#edf7ee" },
  Dog: { colour: "#5d4037", bg: "#f5efe9" },
  Phoenix: { colour: "#e65100", bg: "#fff3e0" },
  Dragon: { colour: "#b71c1c", bg: "#fdecea" },
};

function specialFace(code) {
  const { colour, bg } = SPECIAL_STYLE[code];
  const label = t(`card.special_short.${code}`);
  const size = label.length > 2 ? 14 : label.length > 1 ? 17 : 22;
  const corner =
    `<text x="15" y="23" text-anchor="middle" font-size="${size}" font-weight="800" ` +
    `font-family="system-ui, sans-serif" fill="${colour}">${label}</text>`;
  return frame(
    `<rect x="8" y="30" width="84" height="90" rx="6" fill="${bg}"/>` +
      corner +
      `<g transform="rotate(180 50 75)">${corner}</g>` +
      use(`sp-${code}`, 16, 36, 68, "") +
      `<text x="50" y="116" text-anchor="middle" font-size="12" font-weight="700" ` +
      `font-family="system-ui, sans-serif" fill="${colour}">${t(`card.special.${code}`)}</text>`,
    "tichu special",
  );
}

// --- orders -------------------------------------------------------------------------------

/** Skat cards in the order of `engine.skat.cards.format_cards`: jacks, then C S H D by A T K Q 9 8 7. */
export const SKAT_ORDER = (() => {
  const order = ["JC", "JS", "JH", "JD"];
  for (const suit of "CSHD") for (const rank of "ATKQ987") order.push(rank + suit);
  return order;
})();

const NULL_RANKS = "AKQJT987";
const SUIT_OF_GAME = { clubs: "C", spades: "S", hearts: "H", diamonds: "D" };

/** Sort a Skat hand for display: trumps first for the game being played, then suits. */
export function sortSkatHand(cards, game = null) {
  const key = (card) => {
    const rank = card[0];
    const suit = card[1];
    const suitIndex = "CSHD".indexOf(suit);
    if (game === "null") return suitIndex * 10 + NULL_RANKS.indexOf(rank);
    if (rank === "J") return -10 + "CSHD".indexOf(suit);
    const trump = SUIT_OF_GAME[game];
    const base = suit === trump ? -5 : suitIndex * 10;
    return base + "ATKQ987".indexOf(rank) / 10;
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** Tichu cards in canonical order (value, then suit j s p t; Phoenix last), as the engine formats. */
export function tichuValue(card) {
  if (card === "Dog") return 0;
  if (card === "MahJong") return 1;
  if (card === "Dragon") return 15;
  if (card === "Phoenix") return 16;
  return "23456789TJQKA".indexOf(card[0]) + 2;
}

export function sortTichu(cards) {
  const key = (c) => tichuValue(c) * 4 + (SPECIALS.includes(c) ? 0 : "jspt".indexOf(c[1]));
  return [...cards].sort((a, b) => key(a) - key(b));
}
