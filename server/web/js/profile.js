// A player's profile page (route #/player/{name}): his rating per game as people read it, a
// chart of his rating after each rated list (inline SVG), his Skat statistics (lists, games
// declared and won by type, defence, Seeger-Fabian points per list and per 36 deals) and his
// latest lists with links to the replays of their deals. The data is the server's `profile`
// reply.

import { GAME_NAMES, gameLabel, gameOf } from "./games.js";
import { errorText, language, number, t } from "./i18n.js";
import { displayRating, levelName } from "./lobby.js";
import { replayHash } from "./replay.js";
import { gameName } from "./skat-words.js";
import { h, replace } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";
const CHART = { width: 560, height: 180, pad: 36 };
const MAX_REPLAY_LINKS = 12;

/** The route of a player's profile. */
export function profileHash(name) {
  return `#/player/${encodeURIComponent(name)}`;
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) el.append(child);
  return el;
}

/** The rating after each list (or match) as a line over them, with its lowest and highest
 * value; `point` is the catalogue key of one point's title. */
export function ratingChart(points, label, point) {
  const values = points.map((p) => displayRating(p));
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low;
  const { width, height, pad } = CHART;
  const x = (i) => pad + (values.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (values.length - 1));
  // One value (or all equal): a level line in the middle.
  const y = (v) => (span ? height - pad / 2 - ((v - low) * (height - pad)) / span : height / 2);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label },
    svg("title", {}, label),
    svg("line", { x1: pad, y1: y(low), x2: width - pad / 2, y2: y(low), class: "axis" }),
    svg("text", { x: 2, y: y(high) + 4, class: "tick" }, String(high)),
    span ? svg("text", { x: 2, y: y(low) + 4, class: "tick" }, String(low)) : "",
    svg("polyline", { points: line, class: "line", fill: "none" }),
    ...values.map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: 3, class: "point" },
      svg("title", {}, t(point, { n: i + 1, rating: v })))));
}

function when(iso) {
  return new Date(iso).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

/** A share as people read it: "7 of 10 (70 %)"; nothing played reads "–". */
function share(won, played) {
  return played ? t("profile.stats.share", { won, played, percent: Math.round((100 * won) / played) }) : "–";
}

/** The Skat statistics (the profile's `skat`): the lists and their list points, then the
 * player's games as declarer by type, in defence and in Ramsch. */
export function skatStatistics(stats) {
  const row = (label, value) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, value));
  const games = [["suit", t("profile.stats.suit")], ["grand", gameName("grand")], ["null", gameName("null")]];
  return h("section", { class: "panel skat-stats", "aria-labelledby": "skat-stats-title" },
    h("h2", { id: "skat-stats-title" }, t("profile.stats.title")),
    h("table", { class: "stats-table" }, h("tbody", {},
      row(t("profile.stats.lists"), String(stats.lists)),
      row(t("profile.stats.deals"), String(stats.deals)),
      row(t("profile.stats.per_list"), number(stats.per_list, 1)),
      row(t("profile.stats.per_36"), number(stats.per_36, 1)))),
    h("table", { class: "stats-table games" },
      h("thead", {}, h("tr", {}, h("th", {}, t("profile.stats.game")), h("th", {}, t("profile.stats.won_of")))),
      h("tbody", {},
        games.map(([kind, label]) => h("tr", { "data-kind": kind }, h("th", { scope: "row" }, t("profile.stats.declared", { game: label })),
          h("td", {}, share(stats.declared[kind].won, stats.declared[kind].played)))),
        h("tr", { "data-kind": "defence" }, h("th", { scope: "row" }, t("profile.stats.defence")),
          h("td", {}, share(stats.defence.won, stats.defence.played))),
        stats.ramsch.played ? h("tr", { "data-kind": "ramsch" }, h("th", { scope: "row" }, t("rules.ramsch")),
          h("td", {}, t("profile.stats.ramsch", { played: stats.ramsch.played, lost: stats.ramsch.lost }))) : null)));
}

export class ProfileScreen {
  constructor(app, name) {
    this.app = app;
    this.name = name;
    this.root = h("main", { class: "profile-screen", id: "profile-screen" });
  }

  async show(container) {
    replace(container, this.root);
    replace(this.root, h("p", { class: "loading" }, t("profile.loading")));
    try {
      this.render(await this.app.net.request("profile", { name: this.name }));
    } catch (error) {
      replace(this.root, h("p", { class: "empty" }, errorText(error)),
        h("a", { href: "#/", class: "button" }, t("table.back_to_lobby")));
    }
  }

  render(profile) {
    const shown = profile.bot ? levelName(profile.name.replace(/^bot:/, "")) : profile.name;
    const games = GAME_NAMES.filter((game) => profile.ratings[game]);
    replace(this.root,
      h("header", { class: "table-top" },
        h("a", { href: "#/", class: "back", "aria-label": t("table.back") }, "←"),
        h("div", { class: "title" }, h("h1", {}, shown))),
      games.length ? games.map((game) => this.gameBox(profile, game)) : h("p", { class: "empty" }, t("profile.no_rating")),
      profile.skat ? skatStatistics(profile.skat) : null,
      h("section", { class: "panel recent", "aria-labelledby": "recent-title" },
        h("h2", { id: "recent-title" }, t("profile.recent")),
        profile.recent.length ? this.recentTable(profile.recent) : h("p", { class: "empty" }, t("profile.no_lists"))));
  }

  gameBox(profile, game) {
    const rating = profile.ratings[game];
    const points = profile.history.filter((p) => p.game === game);
    const words = gameOf(game).words;
    return h("section", { class: "panel rating-box", "data-game": game },
      h("h2", {}, gameLabel(game)),
      h("p", {}, h("strong", { class: "rating" }, String(displayRating(rating))), " ",
        h("span", { class: "muted" }, t(words.rated, { n: rating.lists }))),
      points.length ? ratingChart(points, t(words.chart, { game: gameLabel(game) }), words.point) : null);
  }

  recentTable(recent) {
    return h("table", { class: "list-table recent-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("profile.when")), h("th", {}, t("lobby.game")),
        h("th", {}, t("profile.rank")), h("th", {}, t("profile.points")), h("th", {}, t("profile.replays")))),
      h("tbody", {}, recent.map((row) => h("tr", {},
        h("td", {}, when(row.finished_at)),
        h("td", {}, gameLabel(row.game)),
        h("td", {}, `${row.rank}.`),
        h("td", {}, String(row.points)),
        h("td", { class: "replay-links" }, this.replayLinks(row))))));
  }

  /** One link per deal of the list (a Tichu match is one deal); the latest deals of a long
   * list. */
  replayLinks(row) {
    const first = Math.max(0, row.deals - MAX_REPLAY_LINKS);
    const deals = Array.from({ length: row.deals - first }, (_, i) => first + i);
    const label = (deal) => (gameOf(row.game).dealList ? String(deal + 1) : t("replay.link"));
    return deals.map((deal) => h("a", { href: replayHash(row.table, deal), class: "replay-link",
      "aria-label": t("profile.replay_deal", { n: deal + 1 }) }, label(deal)));
  }
}
