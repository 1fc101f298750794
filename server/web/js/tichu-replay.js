// A Tichu match replayed: every hand open, the round, the calls, the combinations of the
// trick and the score after the step (tichu.js `tichuReplayInfo`). Its tricks are stepped
// through as Skat's are: a trick ends when it is closed (all passed after the last play).

import { cardFace, cardName, sortTichu } from "./cards.js";
import { t } from "./i18n.js";
import { tichuReplayInfo } from "./tichu.js";
import { h, icon } from "./ui.js";

/** Whether the step from `before` to `after` closed a trick. */
export function tichuTakesTrick(before, after) {
  return !!after.trick_closed && !before.trick_closed;
}

/** Every hand after step `step`, and what lies on the table. `ctx` as `drawSkatReplay`'s. */
export function drawTichuReplay(replay, step, ctx) {
  const { view, hands } = replay.steps[step];
  return h("div", { class: "replay-body" },
    h("section", { class: "replay-hands", "aria-label": t("replay.hands") },
      hands.map((cards, seat) => h("div", { class: `replay-hand ${view.to_move === seat ? "to-move" : ""}`, "data-seat": seat },
        h("strong", {}, ctx.bot(seat) ? [icon("bot", t("seat.bot")), " "] : null, ctx.name(seat)),
        h("div", { class: "mini-row", "data-hand": seat }, sortTichu(cards).map((card) =>
          h("span", { class: "mini lg", "data-card": card, "data-seat": seat, title: cardName(card, ctx.deck), html: cardFace(card, ctx.deck) })))))),
    h("section", { class: "replay-table", "aria-label": t("table.centre") }, tichuReplayInfo(view, ctx.name, ctx.deck)));
}
