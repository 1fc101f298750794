// The tournaments page (`#/tournaments`, one tournament at `#/tournaments/{id}`): the open ones
// to register for (and the organiser's form to open one), the running ones with live standings
// and "go to my table", the finished ones with their results and a link to every list. The
// server pushes a `tournament` message whenever a watched one changes, and `tournament_seat`
// when a series puts us at a table.

import { gameLabel } from "./games.js";
import { errorText, number, t } from "./i18n.js";
import { botLevels, levelName } from "./lobby.js";
import { replayHash } from "./replay.js";
import { h, replace, toast } from "./ui.js";

const HASH = /^#\/tournaments(?:\/([A-Za-z0-9_-]+))?$/;
const GROUPS = ["open", "running", "finished"];
const START_MINUTES = 10; // the create form's default start: in ten minutes

/** The tournament id of a tournaments route (null: the list), or undefined for another route. */
export function parseTournamentHash(hash) {
  const match = hash.match(HASH);
  return match ? match[1] ?? null : undefined;
}

/** A place's name as people read it: a bot's place "bot:greedy#2" is "Bot 2 (Greedy)". */
function placeName(name) {
  const bot = name.match(/^bot:(.+)#(\d+)$/);
  return bot ? t("tournaments.bot_place", { n: bot[2], level: levelName(bot[1]) }) : name;
}

function localInput(date) {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  return shifted.toISOString().slice(0, 16);
}

export class TournamentsScreen {
  /** `app` gives `net`, `games`, `user`, `openTable`; `id` one tournament or null (the list). */
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.root = h("main", { class: "tournaments-page", id: "tournaments" });
    this.list = [];
    this.info = null;
    this.partners = {}; // tournament id -> the partner chosen to register with
    this.form = { game: "skat", name: "", start: localInput(new Date(Date.now() + START_MINUTES * 60000)),
      series: "1", deals: "36", table_size: "4", fill_bots: true, bot_level: "", partners: "drawn" };
  }

  show(container) {
    replace(container, this.root);
    this.load();
  }

  /** A push; true if it was ours. */
  push(message) {
    if (message.type !== "tournament") return false;
    if (this.id && message.tournament.id === this.id) {
      this.info = message.tournament;
      this.render();
    }
    return true;
  }

  async load() {
    try {
      if (this.id) this.info = (await this.app.net.request("watch_tournament", { tournament: this.id })).tournament;
      else this.list = (await this.app.net.request("list_tournaments")).tournaments;
    } catch (error) {
      toast(errorText(error), "error");
    }
    this.render();
  }

  render() {
    if (this.id) return this.renderOne();
    const people = this.list.filter((x) => x.organizer);
    replace(this.root,
      h("p", {}, h("a", { href: "#/" }, t("tournaments.back_lobby"))),
      h("h1", {}, t("tournaments.title")),
      GROUPS.map((status) => {
        const items = people.filter((x) => x.status === status);
        return h("section", { class: "panel", dataset: { group: status } },
          h("h2", {}, t(`tournaments.${status}`)),
          items.length ? h("ul", { class: "table-list" }, items.map((x) => this.row(x)))
            : h("p", { class: "empty" }, t("tournaments.none")));
      }),
      this.createForm());
  }

  row(tour) {
    const mine = tour.players.includes(this.app.user?.name);
    const when = new Date(tour.starts_at).toLocaleString();
    return h("li", { class: "table-row", dataset: { tournament: tour.id } },
      h("div", { class: "table-head" },
        h("strong", {}, h("a", { href: `#/tournaments/${tour.id}` }, tour.name)),
        h("span", { class: "muted" }, `${gameLabel(tour.game)} · ${t("tournaments.by", { name: tour.organizer })}`),
        h("span", { class: `status ${tour.status}` }, tour.status === "open" ? when
          : t("lobby.tournament_game", { played: tour.played, total: tour.total }))),
      h("p", { class: "muted small" }, t("tournaments.registered", { n: tour.players.length })),
      h("div", { class: "row-buttons" }, this.buttons(tour, mine)));
  }

  buttons(tour, mine) {
    if (tour.status !== "open") return [];
    const act = (type, extra) => () => this.request(type, tour.id, extra);
    const out = [...this.partnerChoice(tour, mine),
      mine ? h("button", { class: "unregister", onclick: act("unregister_tournament") }, t("tournaments.unregister"))
        : h("button", { class: "primary register", onclick: () => this.register(tour) }, t("tournaments.register"))];
    if (tour.organizer === this.app.user?.name) {
      out.push(h("button", { class: "start", onclick: act("start_tournament") }, t("tournaments.start_now")),
        h("button", { class: "cancel", onclick: act("cancel_tournament") }, t("tournaments.cancel")));
    }
    return out;
  }

  /** With fixed partners (the game has partners): a registered player to play with. Who is
   * registered already names his partner by registering again ("Play together"). */
  partnerChoice(tour, mine) {
    const me = this.app.user?.name;
    const others = tour.players.filter((name) => name !== me);
    if (tour.settings?.partners !== "fixed" || !me || this.app.user.guest || !others.length) return [];
    const chosen = others.includes(this.partners[tour.id]) ? this.partners[tour.id] : "";
    const select = h("select", { name: "partner", "aria-label": t("tournaments.partner"),
      onchange: (e) => { this.partners[tour.id] = e.target.value; } },
    h("option", { value: "", selected: !chosen }, t("tournaments.no_partner")),
    others.map((name) => h("option", { value: name, selected: name === chosen }, name)));
    return mine ? [select, h("button", { class: "pair", onclick: () => this.register(tour) }, t("tournaments.play_together"))]
      : [select];
  }

  register(tour) {
    const partner = this.partners[tour.id];
    this.request("register_tournament", tour.id, partner && tour.players.includes(partner) ? { partner } : {});
  }

  async request(type, tournament, extra = {}) {
    try {
      const reply = await this.app.net.request(type, { tournament, ...extra });
      this.update(reply.tournament);
    } catch (error) {
      toast(errorText(error), "error");
    }
  }

  update(tour) {
    if (this.id) this.info = tour;
    else this.list = [tour, ...this.list.filter((x) => x.id !== tour.id)];
    this.render();
  }

  createForm() {
    if (!this.app.user || this.app.user.guest) {
      return h("section", { class: "panel" }, h("p", { class: "muted" }, t("tournaments.guests")));
    }
    const f = this.form;
    if (!(f.game in this.app.games)) f.game = Object.keys(this.app.games)[0];
    const levels = botLevels(this.app.games, f.game);
    const form = this.app.games[f.game]?.people;
    if (!levels.includes(f.bot_level)) f.bot_level = levels.includes("greedy") ? "greedy" : levels[0] ?? "";
    const set = (key) => (e) => {
      f[key] = e.target.type === "checkbox" ? e.target.checked : e.target.value;
      if (key === "game") this.render();
    };
    const field = (key, label, props) => h("label", {}, t(label), h("input", { name: key, value: f[key], oninput: set(key), ...props }));
    return h("section", { class: "panel create" },
      h("h2", {}, t("tournaments.new")),
      h("form", { class: "create-form", id: "tournament-form", onsubmit: (e) => { e.preventDefault(); this.create(); } },
        h("label", {}, t("lobby.game"), h("select", { name: "game", onchange: set("game") },
          Object.keys(this.app.games).map((g) => h("option", { value: g, selected: f.game === g }, gameLabel(g))))),
        field("name", "tournaments.name", { required: true, maxlength: 60 }),
        field("start", "tournaments.starts_at", { type: "datetime-local", required: true }),
        field("series", form.series_label, { type: "number", min: 1, max: 12 }),
        field("deals", form.deals_label, { type: "number", min: 1, max: 48 }),
        form.table_sizes.length > 1 ? h("label", {}, t("tournaments.table_size"), h("select", { name: "table_size", onchange: set("table_size") },
          form.table_sizes.map(String).map((n) => h("option", { value: n, selected: f.table_size === n }, n)))) : null,
        form.partners ? h("label", {}, t("tournaments.partners"), h("select", { name: "partners", onchange: set("partners") },
          ["drawn", "fixed"].map((p) => h("option", { value: p, selected: f.partners === p }, t(`tournaments.partners_${p}`))))) : null,
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "fill_bots", checked: f.fill_bots, onchange: set("fill_bots") }),
          t("tournaments.fill_bots")),
        h("label", {}, t("table.bot_level"), h("select", { name: "bot_level", onchange: set("bot_level") },
          levels.map((b) => h("option", { value: b, selected: f.bot_level === b }, levelName(b))))),
        h("p", { class: "muted small" }, t("tournaments.deals_hint")),
        h("button", { type: "submit", class: "primary" }, t("tournaments.open_it"))));
  }

  async create() {
    const f = this.form;
    const form = this.app.games[f.game].people;
    const size = Number(f.table_size);
    try {
      const reply = await this.app.net.request("create_tournament", {
        game: f.game, name: f.name.trim(), starts_at: new Date(f.start).toISOString(),
        series: Number(f.series), deals: Number(f.deals), table_size: form.table_sizes.includes(size) ? size : form.table_sizes.at(-1),
        fill_bots: f.fill_bots, bot_level: f.bot_level, partners: form.partners ? f.partners : "drawn" });
      toast(t("tournaments.opened", { name: reply.tournament.name }));
      this.update(reply.tournament);
    } catch (error) {
      toast(errorText(error), "error");
    }
  }

  renderOne() {
    const tour = this.info;
    if (!tour) return replace(this.root, h("p", {}, h("a", { href: "#/tournaments" }, t("tournaments.back"))));
    const me = this.app.user?.name;
    const myTable = tour.status === "running"
      ? (tour.lists || []).find((x) => x.series === tour.series_now && x.seats.includes(me) && tour.tables.includes(x.table)) : null;
    replace(this.root,
      h("p", {}, h("a", { href: "#/tournaments" }, t("tournaments.back"))),
      h("h1", {}, tour.name ?? tour.id),
      h("p", { class: "muted" }, `${gameLabel(tour.game)} · ${t(`tournaments.status_${tour.status}`)}`,
        tour.series_now ? ` · ${t("tournaments.series_of", { n: tour.series_now, of: tour.settings?.series ?? 1 })}` : "",
        tour.status === "open" ? ` · ${new Date(tour.starts_at).toLocaleString()}`
          : ` · ${t("lobby.tournament_game", { played: tour.played, total: tour.total })}`),
      myTable ? h("p", {}, h("button", { class: "primary", id: "my-table",
        onclick: () => this.app.openTable(myTable.table, null, "seat") }, t("tournaments.my_table"))) : null,
      tour.status === "open" ? h("div", { class: "row-buttons" }, this.buttons(tour, tour.players.includes(me))) : null,
      this.pairs(tour),
      this.standings(tour),
      this.lists(tour));
  }

  /** With fixed partners: the pairs confirmed so far (both named each other), so a player
   * sees whether his partner has answered. */
  pairs(tour) {
    if (tour.settings?.partners !== "fixed") return null;
    const pairs = tour.pairs || [];
    return h("p", { class: "muted small", id: "tournament-pairs" }, pairs.length
      ? t("tournaments.pairs", { pairs: pairs.map(([a, b]) => `${a} & ${b}`).join(", ") })
      : t("tournaments.pairs_none"));
  }

  standings(tour) {
    const rows = tour.standings || [];
    const form = this.app.games?.[tour.game]?.people;
    const declarer = Boolean(form?.declarer_games);
    return h("section", { class: "panel" },
      h("h2", {}, t("tournaments.standings")),
      rows.length ? h("div", { class: "standings-box" }, h("table", { class: "standings", id: "standings" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("tournaments.player")),
          h("th", {}, t("tournaments.games")), declarer ? h("th", {}, t("tournaments.won_lost")) : null,
          h("th", {}, t(form?.total_label ?? "tournaments.points")))),
        h("tbody", {}, rows.map((r, i) => h("tr", { class: r.player === this.app.user?.name ? "me" : "" },
          h("td", {}, String(i + 1)), h("td", {}, placeName(r.player)), h("td", {}, String(r.games)),
          declarer ? h("td", {}, `${r.won ?? 0} / ${r.lost ?? 0}`) : null,
          h("td", { class: "total" }, number(r.total)))))))
        : h("p", { class: "empty" }, tour.players.length
          ? t("tournaments.registered_list", { names: tour.players.join(", ") }) : t("tournaments.nobody")));
  }

  lists(tour) {
    const tables = tour.lists || [];
    if (!tables.length) return null;
    return h("section", { class: "panel" },
      h("h2", {}, t("tournaments.lists")),
      h("ul", { class: "table-list", id: "tournament-lists" }, tables.map((x) =>
        h("li", { class: "table-row", dataset: { table: x.table } },
          h("div", { class: "table-head" },
            h("strong", {}, t("tournaments.series_table", { n: x.series })),
            h("span", { class: "muted" }, x.seats.map(placeName).join(", ")),
            tour.tables.includes(x.table)
              ? h("button", { onclick: () => this.app.openTable(x.table, null, "watch") }, t("tournaments.watch"))
              : null),
          h("p", { class: "small" }, Array.from({ length: x.played }, (_, deal) =>
            h("a", { class: "chip", href: replayHash(x.table, deal) }, t("tournaments.deal", { n: deal + 1 }))))))));
  }
}
