// The lobby: the live list of tables (`watch_lobby`: the list, then each change pushed as
// `lobby_table`), creating a Skat or Tichu table with its rule options, the running bot
// tournaments (read again every half minute while the lobby shows), the leaderboard, and the
// people panel of social.js. The create form sets the rules, the bots' level and the move clock.

import { clockLabel, gameLabel, gameOf, moveClock, progress, rulesSummary, tableName } from "./games.js";
import { errorText, has, number, t } from "./i18n.js";
import { profileHash } from "./profile.js";
import { h, icon, replace, toast } from "./ui.js";

// The move clocks a table may have, in seconds (0: none; server/core/timers.py MOVE_CLOCKS).
// At the timeout a bot of the table's level plays the seat until its owner takes it back.
const MOVE_CLOCKS = [0, 20, 40, 120];
const TOURNAMENTS_MS = 30000; // tournaments are few and slow: their games take minutes
// Named bot levels, strongest first (the first offered is the default at a table); `LEVEL:BIDDER`
// variants and the frozen Skat `baseline` stay out of the menus.
const LEVEL_ORDER = ["expert", "strong", "club", "classic", "beginner", "greedy", "random"];
// Openskill's ordinal (mu - 3 sigma, 0 for a new player) on an Elo-like scale (1500 at the start).
const RATING_BASE = 1500;
const RATING_SCALE = 24;
const PROVISIONAL_SIGMA = 5;

/** The bot levels of `game` a player chooses from, strongest first. */
export function botLevels(games, game) {
  const offered = games?.[game]?.bots || [];
  return LEVEL_ORDER.filter((level) => offered.includes(level));
}

/** A bot level's name as players read it ("strong" -> "Stark"). */
export function levelName(level) {
  const base = String(level).split(":")[0];
  return LEVEL_ORDER.includes(base) ? t(`bot.${base}`) : base;
}

/** A level as the menus offer it: its name and, where the catalogue has one, a line on what
 * playing against it is like ("Beginner – learning the game, makes mistakes"). */
export function levelChoice(game, level) {
  const key = `bot.about.${game}.${level}`;
  return has(key) ? `${levelName(level)} – ${t(key)}` : levelName(level);
}

/** The rating shown to people: the ordinal on an Elo-like scale. */
export function displayRating(entry) {
  return Math.round(RATING_BASE + RATING_SCALE * entry.ordinal);
}

export class Lobby {
  /** `app` gives `net`, `games` (name -> the game as `list_games` describes it: bot levels,
   * the create form's rules and list lengths, tournament columns), `openTable(id, invite, role)`. */
  constructor(app) {
    this.app = app;
    this.root = h("main", { class: "lobby", id: "lobby" });
    this.tablesBox = h("section", { class: "panel tables", "aria-labelledby": "tables-title" });
    this.boardBox = h("section", { class: "panel board", "aria-labelledby": "board-title" });
    this.createBox = h("section", { class: "panel create", "aria-labelledby": "create-title" });
    this.tournamentBox = h("section", { class: "panel tournaments", "aria-labelledby": "tournaments-title" });
    this.boardGame = null; // the first game `list_games` names, once it has answered
    this.boardEveryone = false; // the board shows people (accounts); bots and guests on request
    this.timer = null;
    this.tables = new Map(); // the public tables by id, kept by the server's pushes
    this.shown = false;
    this.form = { game: null, series: "", private: false, fill: "", bot: null, clock: "0", rules: {} };
    replace(this.root, this.createBox, this.tablesBox, app.people.box, this.tournamentBox, this.boardBox);
  }

  show(container) {
    replace(container, this.root);
    this.shown = true;
    this.renderCreate();
    this.renderTables();
    this.app.people.render();
    this.watch();
    this.loadBoard();
    this.refreshTournaments();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.refreshTournaments(), TOURNAMENTS_MS);
  }

  hide() {
    this.shown = false;
    clearInterval(this.timer);
    this.timer = null;
  }

  /** Ask for the tables and their changes from now on (again after a reconnect: a watch
   * lasts as long as its connection). */
  async watch() {
    let reply;
    try {
      reply = await this.app.net.request("watch_lobby");
    } catch {
      return; // offline: the app watches again when it is back
    }
    this.tables = new Map(reply.tables.map((table) => [table.id, table]));
    if (this.shown) this.renderTables();
  }

  /** A `lobby_table` push: a public table was created or changed, or left (finished). */
  changed(table) {
    if (table.status === "finished") this.tables.delete(table.id);
    else this.tables.set(table.id, table);
    if (this.shown) this.renderTables();
  }

  // --- tournaments (run by `tischrunde tournament`; their tables can be watched) ---------

  async refreshTournaments() {
    let running = [];
    try {
      const listing = await (await fetch("/api/tournaments")).json();
      const live = listing.tournaments.filter((x) => x.status === "running").slice(0, 3);
      running = await Promise.all(live.map(async (x) => (await fetch(`/api/tournaments/${x.id}`)).json()));
      running = running.filter((x) => !x.organizer); // people's tournaments: their own page
    } catch {
      return; // offline: the next reading tries again
    }
    replace(
      this.tournamentBox,
      h("h2", { id: "tournaments-title" }, t("lobby.tournaments")),
      h("p", {}, h("a", { href: "#/tournaments", class: "primary", id: "people-tournaments" }, t("tournaments.link"))),
      running.length
        ? h("ul", { class: "table-list", "aria-label": t("lobby.running_tournaments") }, running.map((x) => this.tournamentRow(x)))
        : h("p", { class: "empty" }, t("lobby.no_tournament")),
      h("p", { class: "muted small" }, h("a", { href: "/api/tournaments" }, t("lobby.tournaments_json"))),
    );
  }

  tournamentRow(tour) {
    const leaders = tour.standings.slice(0, 4).map((s) =>
      h("li", { class: "seat-chip bot" }, `${levelName(s.player)} ${s.mean >= 0 ? "+" : ""}${number(s.mean, 1)}`));
    return h("li", { class: "table-row", dataset: { tournament: tour.id } },
      h("div", { class: "table-head" },
        h("strong", {}, `${gameLabel(tour.game)} · ${tour.players.map(levelName).join(", ")}`),
        h("span", { class: "status playing" }, t("lobby.tournament_game", { played: tour.played, total: tour.total }))),
      h("ul", { class: "seat-chips", "aria-label": t("lobby.tournament_standings") }, leaders),
      h("div", { class: "row-buttons" },
        tour.tables.slice(0, 3).map((id) =>
          h("button", { onclick: () => this.app.openTable(id, null, "watch") }, t("lobby.watch_table", { id })))));
  }

  renderTables() {
    const tables = [...this.tables.values()];
    const mine = this.app.myTables();
    const rows = tables.map((table) => this.tableRow(table, mine.has(table.id)));
    const ownPrivate = [...mine].filter((id) => !tables.some((table) => table.id === id));
    replace(
      this.tablesBox,
      h("h2", { id: "tables-title" }, t("lobby.tables")),
      ownPrivate.length
        ? h("p", { class: "mine" }, t("lobby.your_tables"), " ",
            ownPrivate.map((id) => {
              // An open table's info, else what its snapshot left in storage (a table
              // remembered by an older client has neither: its id is all there is).
              const info = this.app.models.get(id)?.info ?? this.app.remembered()[id];
              return h("a", { href: this.app.tableLink(id), class: "chip", dataset: { table: id } },
                info.game ? tableName(info) : id);
            }))
        : null,
      rows.length
        ? h("ul", { class: "table-list", "aria-label": t("lobby.open_tables") }, rows)
        : h("p", { class: "empty" }, t("lobby.no_tables")),
    );
  }

  tableRow(table, mine) {
    const seats = table.seats.map((s) =>
      h("li", { class: `seat-chip ${s.name ? (s.bot || s.client_bot ? "bot" : "human") : "free"}` },
        s.name ? (s.bot || s.client_bot ? [icon("bot", t("seat.bot")), ` ${levelName(s.name.replace(/^bot:/, ""))}`] : s.name)
          : t("seat.free")),
    );
    const free = table.seats.filter((s) => !s.name).length;
    const status = table.status === "waiting" ? t("status.waiting_free", { n: free }) : progress(table);
    const clock = moveClock(table);
    return h("li", { class: "table-row", dataset: { table: table.id } },
      h("div", { class: "table-head" },
        h("strong", { class: "table-name" }, tableName(table)),
        h("span", { class: "muted" }, rulesSummary(table.game, table.rules)),
        clock ? h("span", { class: "muted clock-setting" }, icon("clock"), ` ${clock}`) : null,
        h("span", { class: `status ${table.status}` }, status),
        table.spectators ? h("span", { class: "muted", title: t("lobby.spectators") }, icon("eye"), ` ${table.spectators}`) : null),
      h("ul", { class: "seat-chips" }, seats),
      h("div", { class: "row-buttons" },
        mine ? h("button", { class: "primary", onclick: () => this.app.openTable(table.id, null, "seat") }, t("lobby.back_to_table"))
          : [
              table.status === "waiting" && free
                ? h("button", { class: "primary", onclick: () => this.app.openTable(table.id, null, "seat") }, t("lobby.join"))
                : null,
              h("button", { onclick: () => this.app.openTable(table.id, null, "watch") }, t("lobby.watch")),
            ]));
  }

  // --- create ---------------------------------------------------------------------------

  renderCreate() {
    const f = this.form;
    const games = this.app.games;
    if (!(f.game in games)) this.chooseGame(Object.keys(games)[0]);
    const info = games[f.game];
    const levels = botLevels(games, f.game);
    if (!levels.includes(f.bot)) f.bot = levels[0] ?? null;
    const set = (key) => (e) => {
      const value = e.target.type === "checkbox" ? e.target.checked : e.target.value;
      if (key === "game") this.chooseGame(value);
      else f[key] = value;
      this.renderCreate();
    };
    const gameChoice = (game) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "game", value: game, checked: f.game === game, onchange: set("game") }),
      gameLabel(game));
    const fills = [["", "fill.never"], ["0", "fill.at_once"], ["30", "fill.s30"], ["60", "fill.m1"], ["300", "fill.m5"]];
    const clocks = MOVE_CLOCKS.map((s) => [String(s), clockLabel(s)]);
    replace(
      this.createBox,
      h("h2", { id: "create-title" }, t("lobby.new_table")),
      h("form", { class: "create-form", onsubmit: (e) => { e.preventDefault(); this.create(); } },
        h("fieldset", { class: "games" }, h("legend", {}, t("lobby.game")), Object.keys(games).map(gameChoice)),
        info ? this.ruleOptions(info) : null,
        h("fieldset", {},
          h("legend", {}, t("lobby.table")),
          h("label", { class: "check" }, h("input", { type: "checkbox", name: "private", checked: f.private, onchange: set("private") }),
            t("lobby.private")),
          h("label", {}, t("lobby.fill_after"),
            h("select", { name: "fill", onchange: set("fill") },
              fills.map(([v, key]) => h("option", { value: v, selected: f.fill === v }, t(key))))),
          h("label", {}, t("table.bot_level"),
            h("select", { name: "bot", onchange: set("bot") },
              levels.map((b) => h("option", { value: b, selected: f.bot === b }, levelChoice(f.game, b))))),
          h("label", {}, t("lobby.move_clock"),
            h("select", { name: "clock", onchange: set("clock") },
              clocks.map(([v, label]) => h("option", { value: v, selected: f.clock === v }, label))))),
        h("button", { class: "primary big", type: "submit", disabled: !info },
          info ? t("lobby.create", { game: gameLabel(f.game) }) : t("lobby.not_here"))),
    );
  }

  /** Choose `game` in the create form: its rules at their defaults, its default list length,
   * the bot level chosen again. */
  chooseGame(game) {
    const f = this.form;
    const info = this.app.games[game];
    f.game = game ?? null;
    f.bot = null;
    f.series = String(info?.series_default ?? "");
    f.rules = Object.fromEntries((info?.rules ?? []).map((o) => [o.name, o.default]));
  }

  /** The game's rules as `list_games` describes them: checkboxes, radio buttons and menus
   * (a choice's label is a catalogue key, `{n}` its value), and the list length. */
  ruleOptions(info) {
    const rules = this.form.rules;
    const choose = (option, raw) => {
      rules[option.name] = option.choices.find((c) => String(c.value ?? "") === raw)?.value ?? null;
      this.renderCreate();
    };
    const choiceLabel = (c) => t(c.label, { n: c.value });
    const control = (o) => {
      if (o.control === "check") {
        return h("label", { class: "check" }, h("input", { type: "checkbox", name: o.name, checked: !!rules[o.name],
          onchange: (e) => { rules[o.name] = e.target.checked; this.renderCreate(); } }), t(o.label));
      }
      if (o.control === "radio") {
        return h("div", { class: "inline" }, t(o.label), o.choices.map((c) =>
          h("label", { class: "choice" }, h("input", { type: "radio", name: o.name, value: String(c.value ?? ""),
            checked: rules[o.name] === c.value, onchange: (e) => choose(o, e.target.value) }), choiceLabel(c))));
      }
      return h("label", {}, t(o.label),
        h("select", { name: o.name, onchange: (e) => choose(o, e.target.value) },
          o.choices.map((c) => h("option", { value: String(c.value ?? ""), selected: rules[o.name] === c.value }, choiceLabel(c)))));
    };
    const f = this.form;
    const series = info.series?.length
      ? h("label", {}, t("lobby.deals"),
          h("select", { name: "series", onchange: (e) => { f.series = e.target.value; this.renderCreate(); } },
            info.series.map((n) => h("option", { value: String(n), selected: f.series === String(n) }, String(n)))))
      : null;
    return h("fieldset", {}, h("legend", {}, t(info.rules_label)), (info.rules ?? []).map(control), series);
  }

  /** The `create_table` request. Bots "at once" are seated by this client after it sat down
   * itself (a server filling at once would take the creator's seat too). A rule left null
   * is left out (the server's default applies). */
  createRequest() {
    const f = this.form;
    const rules = Object.fromEntries(Object.entries(f.rules).filter(([, value]) => value !== null));
    const request = { game: f.game, private: f.private, bot_level: f.bot, move_seconds: Number(f.clock), rules };
    if (this.app.games[f.game]?.series?.length) request.series_length = Number(f.series);
    if (f.fill !== "" && f.fill !== "0") request.fill_bots_after = Number(f.fill);
    return request;
  }

  async create() {
    const f = this.form;
    try {
      const reply = await this.app.net.request("create_table", this.createRequest());
      const fill = f.fill === "0" ? { level: f.bot, seats: reply.table.seats.length } : null;
      this.app.openTable(reply.table.id, reply.invite, "seat", { bot: f.bot, fill });
    } catch (error) {
      toast(t("lobby.create_failed", { reason: errorText(error) }), "error");
    }
  }

  // --- leaderboard ----------------------------------------------------------------------

  async loadBoard() {
    if (!(this.boardGame in this.app.games)) this.boardGame = Object.keys(this.app.games)[0] ?? null;
    let entries = [];
    try {
      entries = (await this.app.net.request("leaderboard", { game: this.boardGame, people: !this.boardEveryone })).entries;
    } catch {
      /* offline */
    }
    const tab = (game) => h("button", { role: "tab", "aria-selected": String(this.boardGame === game),
      class: this.boardGame === game ? "tab active" : "tab",
      onclick: () => { this.boardGame = game; this.loadBoard(); } }, gameLabel(game));
    const words = gameOf(this.boardGame).words;
    const rating = (e) => h("td", { class: "rating", title: t("board.rating_detail", { mu: number(e.mu, 1), sigma: number(e.sigma, 1) }) },
      String(displayRating(e)), e.sigma > PROVISIONAL_SIGMA ? h("span", { class: "muted small" }, ` ${t("board.provisional")}`) : null);
    replace(
      this.boardBox,
      h("h2", { id: "board-title" }, t("board.title")),
      h("div", { class: "tabs", role: "tablist" }, Object.keys(this.app.games).map(tab)),
      entries.length
        ? h("table", { class: "board-table" },
            h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("board.player")),
              h("th", { title: t(words.ratingHelp) }, t("board.rating")), h("th", {}, t(words.boardCount)))),
            h("tbody", {}, entries.map((e, i) => h("tr", { class: e.bot ? "bot" : e.guest ? "guest" : "" },
              h("td", {}, i + 1), h("td", {}, h("a", { href: profileHash(e.name), class: "player-link" },
                e.bot ? [icon("bot", t("seat.bot")), ` ${levelName(e.name.replace(/^bot:/, ""))}`] : e.name),
                e.guest ? h("span", { class: "badge" }, t("menu.guest")) : null),
              rating(e), h("td", {}, e.lists)))))
        : h("p", { class: "empty" }, t(this.boardEveryone ? words.boardEmpty : words.boardNobody)),
      h("label", { class: "check board-everyone" },
        h("input", { type: "checkbox", name: "board-everyone", checked: this.boardEveryone,
          onchange: (e) => { this.boardEveryone = e.target.checked; this.loadBoard(); } }),
        t("board.everyone")),
      h("p", { class: "muted small board-scale" }, t("board.scale")),
      h("p", { class: "muted small" }, h("a", { href: `/api/leaderboard?game=${this.boardGame}${this.boardEveryone ? "" : "&people=1"}` }, t("common.as_json"))),
    );
  }
}
