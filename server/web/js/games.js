// The games this client draws, in one table: for each game name the server sends, its table
// and score drawing, how its rules and progress read, its deck and replays. What a game offers
// (bot levels, the create form's rules and list lengths, tournament columns) comes from the
// server's `list_games`. Everything else asks these instead of comparing game names.

import { t } from "./i18n.js";
import { renderSkat } from "./skat.js";
import { renderList } from "./skat-list.js";
import { drawSkatReplay, skatTakesTrick } from "./skat-replay.js";
import { renderTichu, renderTichuScores } from "./tichu.js";
import { drawTichuReplay, tichuTakesTrick } from "./tichu-replay.js";

function skatRules(rules) {
  const parts = [t("rules.players", { n: rules.players ?? 3 })];
  if (rules.all_pass === "ramsch") parts.push(t("rules.ramsch"));
  if (rules.all_pass === "schieberamsch") parts.push(t("rules.schieberamsch"));
  if (rules.kontra) parts.push(t("rules.kontra"));
  if (rules.bock) parts.push(t("rules.bock"));
  if (rules.iss_compat) parts.push(t("rules.iss"));
  return parts;
}

function tichuRules(rules) {
  const parts = [t("rules.target", { points: rules.target_points ?? 1000 })];
  if (rules.max_rounds) parts.push(t("rules.max_rounds", { n: rules.max_rounds }));
  if (rules.wish_required) parts.push(t("rules.wish_required"));
  if (rules.phoenix_as_one) parts.push(t("rules.phoenix_as_one"));
  if (rules.dog_bombable) parts.push(t("rules.dog_bombable"));
  if (rules.tie === "draw") parts.push(t("rules.tie_draw"));
  return parts;
}

/**
 * name -> {
 *   render(model, ctx), renderScores(model, ctx): the table (our hand and actions in its
 *     `.own` section) and the list or scores drawn;
 *   scoresTab: the catalogue key of the scores tab; rules(rules): the rules as phrases;
 *   deck: the deck its cards are drawn in (null: the player's choice applies);
 *   replay: {draw(replay, step, ctx): a replay step's felt and panels,
 *     takesTrick(viewBefore, viewAfter): whether a step (or a move at the table) ended a trick,
 *     analysis: a finished deal's analysis is offered beside it};
 *   dealList: a series is a list of numbered deals with a result each (false: one match
 *     whose rounds live inside the deal);
 *   tricksReviewed: the last trick taken is kept from the views for review;
 *   words: catalogue keys of what a table says of what it plays (a Skat list, a Tichu match):
 *     startsWhenFull, finished (the status), over (the final heading), leaveText; and what
 *     the profile and the leaderboard say of the rated ones: rated ("after 3 rated lists"),
 *     chart (its title), point (one point of it), boardCount (the column), boardEmpty,
 *     boardNobody (nothing rated yet, of everyone or of people), ratingHelp }.
 */
export const GAMES = {
  skat: {
    render: renderSkat, renderScores: renderList, scoresTab: "table.tab_list",
    rules: skatRules, deck: null,
    replay: { draw: drawSkatReplay, takesTrick: skatTakesTrick, analysis: true },
    dealList: true, tricksReviewed: false,
    words: { startsWhenFull: "table.starts_when_full", finished: "status.finished", over: "table.list_over", leaveText: "table.leave_text",
      rated: "profile.rating_lists", chart: "profile.chart", point: "profile.point",
      boardCount: "board.lists", boardEmpty: "board.empty", boardNobody: "board.no_people", ratingHelp: "board.rating_help" },
  },
  tichu: {
    render: renderTichu, renderScores: renderTichuScores, scoresTab: "table.tab_score",
    rules: tichuRules, deck: "tichu",
    replay: { draw: drawTichuReplay, takesTrick: tichuTakesTrick, analysis: false },
    dealList: false, tricksReviewed: true,
    words: { startsWhenFull: "table.match_starts_when_full", finished: "status.match_finished", over: "table.match_over", leaveText: "table.match_leave_text",
      rated: "profile.rating_matches", chart: "profile.match_chart", point: "profile.match_point",
      boardCount: "board.matches", boardEmpty: "board.match_empty", boardNobody: "board.match_no_people",
      ratingHelp: "board.match_rating_help" },
  },
};

export const GAME_NAMES = Object.keys(GAMES);

/** The entry of `name`; a table of an unknown game is drawn as Skat (the protocol's default). */
export function gameOf(name) {
  return GAMES[name] ?? GAMES.skat;
}

/** A one-line description of a table's rules. */
export function rulesSummary(game, rules) {
  return gameOf(game).rules(rules ?? {}).join(" · ");
}

/** Where a running table is: the deal of a list; a match only says it runs (the table's info
 * has no round number). */
export function progress(table) {
  if (table.status === "waiting") return null;
  if (table.status === "finished") return t(gameOf(table.game).words.finished);
  if (!gameOf(table.game).dealList) return t("status.match_running");
  return t("status.deal", { deal: table.deal + 1, of: table.series_length });
}

/** A move clock's length as players read it ("40 s", "2 min"; 0: "no clock"). */
export function clockLabel(seconds) {
  if (!seconds) return t("lobby.clock_off");
  return seconds < 60 ? t("lobby.clock_s", { n: seconds }) : t("lobby.clock_min", { n: seconds / 60 });
}

/** A table's move clock as a phrase ("40 s per move"); null for a table without one. */
export function moveClock(table) {
  return table.move_seconds ? t("table.move_clock", { time: clockLabel(table.move_seconds) }) : null;
}

export function gameLabel(game) {
  return t(`game.${game}`);
}

/** A table as people name it: who opened it and the game ("Anna's Skat table"); a
 * tournament's table by its game alone. */
export function tableName(table) {
  const game = gameLabel(table.game);
  return table.host ? t("lobby.table_name", { name: table.host, game }) : t("lobby.table_of_game", { game });
}
