// Names of Skat games and contracts as players say them, per language and deck: French
// suits are Kreuz/Pik/Herz/Karo, German suits Eichel/Grün/Rot/Schellen.

import { t } from "./i18n.js";

export const SUIT_LETTER = { clubs: "C", spades: "S", hearts: "H", diamonds: "D" };

/** The display name of a game type for the chosen deck. */
export function gameName(game, deck) {
  if (!game) return "";
  if (game === "grand" || game === "null") return t(`skat.game.${game}`);
  return t(`skat.game.${deck === "german" ? "german" : "french"}.${game}`);
}

/** "Kreuz Hand Schneider angesagt", "Null Ouvert", "Grand". */
export function contractText(contract, handGame, deck) {
  if (!contract) return "";
  const parts = [gameName(contract.game, deck)];
  if (handGame) parts.push(t("skat.hand"));
  if (contract.ouvert) parts.push(t("skat.ouvert"));
  else if (contract.schwarz) parts.push(t("skat.schwarz_announced"));
  else if (contract.schneider) parts.push(t("skat.schneider_announced"));
  return parts.join(" ");
}
