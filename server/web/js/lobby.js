// The lobby: the live list of tables (polled with `list_tables`), creating a Skat or Tichu
// table with its rule options, and the leaderboard.

import { h, icon, replace, toast } from "./ui.js";

const POLL_MS = 3000;
export const DEFAULT_BOTS = { skat: ["random", "greedy"], tichu: ["random"] };
const GAME_LABEL = { skat: "Skat", tichu: "Tichu" };

/** A one-line description of a table's rules. */
export function rulesSummary(game, rules) {
  if (game === "skat") {
    const parts = [`${rules.players ?? 3} players`];
    if (rules.all_pass === "ramsch") parts.push("Ramsch");
    if (rules.kontra) parts.push("Kontra/Re");
    if (rules.iss_compat) parts.push("ISS rules");
    return parts.join(" · ");
  }
  if (game === "tichu") {
    const parts = [`to ${rules.target_points ?? 1000}`];
    if (rules.max_rounds) parts.push(`max ${rules.max_rounds} rounds`);
    if (rules.wish_required) parts.push("wish required");
    if (rules.phoenix_as_one) parts.push("Phoenix as 1");
    if (rules.dog_bombable) parts.push("Dog bombable");
    if (rules.tie === "draw") parts.push("ties draw");
    return parts.join(" · ");
  }
  return "";
}

export class Lobby {
  /** `app` gives `net`, `games` (name -> bot levels), `openTable(id, invite, role)`. */
  constructor(app) {
    this.app = app;
    this.root = h("main", { class: "lobby", id: "lobby" });
    this.tablesBox = h("section", { class: "panel tables", "aria-labelledby": "tables-title" });
    this.boardBox = h("section", { class: "panel board", "aria-labelledby": "board-title" });
    this.createBox = h("section", { class: "panel create", "aria-labelledby": "create-title" });
    this.tournamentBox = h("section", { class: "panel tournaments", "aria-labelledby": "tournaments-title" });
    this.boardGame = "skat";
    this.timer = null;
    this.form = { game: "skat", players: "3", all_pass: "throw_in", kontra: false,
      iss_compat: false, series: "12", private: false, fill: "", bot: "random",
      target_points: "1000", tie: "play_on", wish_required: false, phoenix_as_one: false,
      dog_bombable: false, max_rounds: "" };
    replace(this.root, this.createBox, this.tablesBox, this.tournamentBox, this.boardBox);
  }

  show(container) {
    replace(container, this.root);
    this.renderCreate();
    this.refresh();
    this.loadBoard();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.refresh(), POLL_MS);
  }

  hide() {
    clearInterval(this.timer);
    this.timer = null;
  }

  async refresh() {
    let reply;
    try {
      reply = await this.app.net.request("list_tables");
    } catch {
      return; // offline: the next poll tries again
    }
    this.renderTables(reply.tables);
    this.refreshTournaments();
  }

  // --- tournaments (run by `tischrunde tournament`; their tables can be watched) ---------

  async refreshTournaments() {
    let running = [];
    try {
      const listing = await (await fetch("/api/tournaments")).json();
      const live = listing.tournaments.filter((t) => t.status === "running").slice(0, 3);
      running = await Promise.all(live.map(async (t) => (await fetch(`/api/tournaments/${t.id}`)).json()));
    } catch {
      return; // offline: the next poll tries again
    }
    replace(
      this.tournamentBox,
      h("h2", { id: "tournaments-title" }, "Bot tournaments"),
      running.length
        ? h("ul", { class: "table-list", "aria-label": "Running tournaments" }, running.map((t) => this.tournamentRow(t)))
        : h("p", { class: "empty" }, "No tournament is running."),
      h("p", { class: "muted small" }, h("a", { href: "/api/tournaments" }, "all tournaments as JSON")),
    );
  }

  tournamentRow(t) {
    const leaders = t.standings.slice(0, 4).map((s) =>
      h("li", { class: "seat-chip bot" }, `${s.player} ${s.mean >= 0 ? "+" : ""}${s.mean.toFixed(1)}`));
    return h("li", { class: "table-row", dataset: { tournament: t.id } },
      h("div", { class: "table-head" },
        h("strong", {}, `${GAME_LABEL[t.game] || t.game} · ${t.players.join(", ")}`),
        h("span", { class: "status playing" }, `game ${t.played} of ${t.total}`)),
      h("ul", { class: "seat-chips", "aria-label": "standings, points per game" }, leaders),
      h("div", { class: "row-buttons" },
        t.tables.slice(0, 3).map((id) =>
          h("button", { onclick: () => this.app.openTable(id, null, "watch") }, `Watch ${id}`))));
  }

  renderTables(tables) {
    const mine = this.app.myTables();
    const rows = tables.map((t) => this.tableRow(t, mine.has(t.id)));
    const ownPrivate = [...mine].filter((id) => !tables.some((t) => t.id === id));
    replace(
      this.tablesBox,
      h("h2", { id: "tables-title" }, "Tables"),
      ownPrivate.length
        ? h("p", { class: "mine" }, "Your tables: ",
            ownPrivate.map((id) => h("a", { href: this.app.tableLink(id), class: "chip" }, id)))
        : null,
      rows.length
        ? h("ul", { class: "table-list", "aria-label": "Open tables" }, rows)
        : h("p", { class: "empty" }, "No public tables yet. Create one!"),
    );
  }

  tableRow(table, mine) {
    const seats = table.seats.map((s) =>
      h("li", { class: `seat-chip ${s.name ? (s.bot || s.client_bot ? "bot" : "human") : "free"}` },
        s.name ? (s.bot || s.client_bot ? [icon("bot", "bot"), ` ${s.name.replace(/^bot:/, "")}`] : s.name) : "free"),
    );
    const free = table.seats.filter((s) => !s.name).length;
    const status = table.status === "waiting"
      ? `waiting · ${free} free`
      : `deal ${table.deal + 1} of ${table.series_length}`;
    return h("li", { class: "table-row", dataset: { table: table.id } },
      h("div", { class: "table-head" },
        h("strong", {}, GAME_LABEL[table.game] || table.game),
        h("span", { class: "muted" }, rulesSummary(table.game, table.rules)),
        h("span", { class: `status ${table.status}` }, status),
        table.spectators ? h("span", { class: "muted", title: "spectators" }, icon("eye"), ` ${table.spectators}`) : null),
      h("ul", { class: "seat-chips" }, seats),
      h("div", { class: "row-buttons" },
        mine ? h("button", { class: "primary", onclick: () => this.app.openTable(table.id, null, "seat") }, "Back to table")
          : [
              table.status === "waiting" && free
                ? h("button", { class: "primary", onclick: () => this.join(table.id) }, "Join")
                : null,
              h("button", { onclick: () => this.app.openTable(table.id, null, "watch") }, "Watch"),
            ]));
  }

  async join(id) {
    this.app.openTable(id, null, "seat");
  }

  // --- create ---------------------------------------------------------------------------

  renderCreate() {
    const f = this.form;
    const games = this.app.games;
    const set = (key) => (e) => {
      f[key] = e.target.type === "checkbox" ? e.target.checked : e.target.value;
      if (key === "game") {
        f.bot = (games[f.game] || DEFAULT_BOTS[f.game] || ["random"])[0];
        f.series = f.game === "tichu" ? "1" : "12";
      }
      this.renderCreate();
    };
    const gameChoice = (game) => {
      const available = game in games;
      return h("label", { class: `choice ${available ? "" : "disabled"}` },
        h("input", { type: "radio", name: "game", value: game, checked: f.game === game,
          disabled: !available, onchange: set("game") }),
        GAME_LABEL[game], available ? null : h("small", {}, " (not on this server yet)"));
    };
    const bots = games[f.game] || DEFAULT_BOTS[f.game] || ["random"];
    const options = f.game === "skat" ? this.skatOptions(set) : this.tichuOptions(set);
    replace(
      this.createBox,
      h("h2", { id: "create-title" }, "New table"),
      h("form", { class: "create-form", onsubmit: (e) => { e.preventDefault(); this.create(); } },
        h("fieldset", { class: "games" }, h("legend", {}, "Game"), gameChoice("skat"), gameChoice("tichu")),
        options,
        h("fieldset", {},
          h("legend", {}, "Table"),
          h("label", { class: "check" }, h("input", { type: "checkbox", name: "private", checked: f.private, onchange: set("private") }),
            "Private (only people with the invite link)"),
          h("label", {}, "Fill empty seats with bots after ",
            h("select", { name: "fill", onchange: set("fill") },
              [["", "never"], ["0", "at once"], ["30", "30 s"], ["60", "1 min"], ["300", "5 min"]].map(([v, l]) =>
                h("option", { value: v, selected: f.fill === v }, l)))),
          h("label", {}, "Bot level ",
            h("select", { name: "bot", onchange: set("bot") },
              bots.map((b) => h("option", { value: b, selected: f.bot === b }, b))))),
        h("button", { class: "primary big", type: "submit", disabled: !(f.game in games) }, `Create ${GAME_LABEL[f.game]} table`)),
    );
  }

  skatOptions(set) {
    const f = this.form;
    const radio = (name, value, label) =>
      h("label", { class: "choice" }, h("input", { type: "radio", name, value, checked: f[name] === value, onchange: set(name) }), label);
    return h("fieldset", {},
      h("legend", {}, "Skat rules"),
      h("div", { class: "inline" }, "Players: ", radio("players", "3", "3"), radio("players", "4", "4 (dealer sits out)")),
      h("div", { class: "inline" }, "All pass: ", radio("all_pass", "throw_in", "throw in"), radio("all_pass", "ramsch", "Ramsch")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "kontra", checked: f.kontra, onchange: set("kontra") }), "Kontra and Re"),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "iss_compat", checked: f.iss_compat, onchange: set("iss_compat") }), "ISS conventions (resigning)"),
      h("label", {}, "Deals in the list ",
        h("select", { name: "series", onchange: set("series") },
          ["1", "2", "3", "6", "9", "12", "18", "36", "48"].map((n) => h("option", { value: n, selected: f.series === n }, n)))));
  }

  tichuOptions(set) {
    const f = this.form;
    return h("fieldset", {},
      h("legend", {}, "Tichu rules"),
      h("label", {}, "Play to ",
        h("select", { name: "target_points", onchange: set("target_points") },
          ["500", "1000", "1500"].map((n) => h("option", { value: n, selected: f.target_points === n }, `${n} points`)))),
      h("label", {}, "At most ",
        h("select", { name: "max_rounds", onchange: set("max_rounds") },
          [["", "any number of"], ["1", "1"], ["4", "4"], ["8", "8"], ["12", "12"]].map(([v, l]) =>
            h("option", { value: v, selected: f.max_rounds === v }, l))), " rounds"),
      h("label", {}, "A tie at the target ",
        h("select", { name: "tie", onchange: set("tie") },
          [["play_on", "plays on"], ["draw", "is a draw"]].map(([v, l]) => h("option", { value: v, selected: f.tie === v }, l)))),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "wish_required", checked: f.wish_required, onchange: set("wish_required") }), "The Mah Jong must wish"),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "phoenix_as_one", checked: f.phoenix_as_one, onchange: set("phoenix_as_one") }), "Phoenix may be the 1 of a straight"),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "dog_bombable", checked: f.dog_bombable, onchange: set("dog_bombable") }), "The Dog may be bombed"));
  }

  createRequest() {
    const f = this.form;
    const request = { game: f.game, private: f.private, bot_level: f.bot };
    if (f.game === "skat") {
      request.rules = { players: Number(f.players), all_pass: f.all_pass, kontra: f.kontra, iss_compat: f.iss_compat };
      request.series_length = Number(f.series);
    } else {
      request.rules = { target_points: Number(f.target_points), tie: f.tie, wish_required: f.wish_required,
        phoenix_as_one: f.phoenix_as_one, dog_bombable: f.dog_bombable };
      if (f.max_rounds) request.rules.max_rounds = Number(f.max_rounds);
    }
    if (f.fill !== "") request.fill_bots_after = Number(f.fill);
    return request;
  }

  async create() {
    try {
      const reply = await this.app.net.request("create_table", this.createRequest());
      this.app.openTable(reply.table.id, reply.invite, "seat");
    } catch (error) {
      toast(`Could not create the table: ${error.message}`, "error");
    }
  }

  // --- leaderboard ----------------------------------------------------------------------

  async loadBoard() {
    let entries = [];
    try {
      entries = (await this.app.net.request("leaderboard", { game: this.boardGame })).entries;
    } catch {
      /* offline */
    }
    const tab = (game) => h("button", { role: "tab", "aria-selected": String(this.boardGame === game),
      class: this.boardGame === game ? "tab active" : "tab",
      onclick: () => { this.boardGame = game; this.loadBoard(); } }, GAME_LABEL[game]);
    replace(
      this.boardBox,
      h("h2", { id: "board-title" }, "Leaderboard"),
      h("div", { class: "tabs", role: "tablist" }, tab("skat"), tab("tichu")),
      entries.length
        ? h("table", { class: "board-table" },
            h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", { title: "mu − 3·sigma" }, "Rating"), h("th", {}, "Lists"))),
            h("tbody", {}, entries.map((e, i) => h("tr", { class: e.bot ? "bot" : "" },
              h("td", {}, i + 1), h("td", {}, e.bot ? [icon("bot", "bot"), ` ${e.name}`] : e.name),
              h("td", {}, e.ordinal.toFixed(1)), h("td", {}, e.lists)))))
        : h("p", { class: "empty" }, "No finished lists yet."),
      h("p", { class: "muted small" }, h("a", { href: `/api/leaderboard?game=${this.boardGame}` }, "as JSON")),
    );
  }
}
