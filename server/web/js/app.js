// Start-up and routing: the session (guest, login, register, name), the menu (language, turn
// sound), the lobby at `#/`, a table at `#/table/{id}` (with `?invite=...` for private
// tables) and the tournaments at `#/tournaments`, reconnecting transparently.

import { installCardSymbols } from "./cards.js";
import { LANGUAGES, errorText, language, preferredLanguage, setLanguage, t } from "./i18n.js";
import { Lobby } from "./lobby.js";
import { normalize, problem } from "./names.js";
import { TableModel } from "./model.js";
import { People } from "./social.js";
import { Net } from "./net.js";
import { profileHash, ProfileScreen } from "./profile.js";
import { parseReplayHash, ReplayScreen } from "./replay.js";
import { isOurTurn, TurnSound } from "./sound.js";
import { storage } from "./storage.js";
import { fillFreeSeats, TableScreen } from "./table.js";
import { parseTournamentHash, TournamentsScreen } from "./tournaments.js";
import { dialog, h, installActionKeys, replace, toast } from "./ui.js";

const PASSWORD_MIN = 8; // the server's rule for a new password (docs/protocol.md, Session)

/** What is wrong with a name typed for register or rename, as a sentence (null: nothing the
 * client can see; whether it is free only the server knows). */
function nameProblem(typed) {
  const reason = problem(normalize(typed));
  return reason ? t(`name.${reason}`) : null;
}

class App {
  constructor() {
    this.main = document.getElementById("app");
    this.userBox = document.getElementById("user");
    this.statusDot = document.getElementById("status");
    this.banner = document.getElementById("banner");
    this.models = new Map();
    this.screen = null;
    this.games = null; // game name -> the game as `list_games` describes it
    this.sound = new TurnSound();
    this.net = new Net({
      onPush: (message) => this.push(message),
      onWelcome: (user, how) => this.welcome(user, how),
      onStatus: (status) => this.status(status),
      resumeTables: () => this.resumeList(),
      language: () => language(),
      onTableLost: (id) => this.models.delete(id),
      onStrayError: (message) => toast(errorText(message), "error"),
    });
    this.people = new People(this); // before the lobby, which shows its panel
    this.lobby = new Lobby(this);
  }

  async start() {
    await setLanguage(preferredLanguage());
    installCardSymbols();
    installActionKeys(() => document.getElementById("action-bar"));
    // Whether the player uses the keyboard (then his hand gets the focus on his turn).
    this.keyboard = false;
    document.addEventListener("keydown", (event) => {
      if (/^[1-9]$/.test(event.key) || event.key.startsWith("Arrow") || event.key === "Tab") this.keyboard = true;
      if (event.key === "Escape") document.getElementById("result-ok")?.click();
    });
    document.addEventListener("pointerdown", () => { this.keyboard = false; });
    window.addEventListener("hashchange", () => this.route());
    navigator.serviceWorker?.register("/sw.js").catch(() => { /* the game works without it */ });
    this.status("connecting");
    this.net.start();
  }

  // --- session ----------------------------------------------------------------------------

  async welcome(user, { reconnected }) {
    this.renderUser(user);
    this.people.watch();
    if (reconnected && this.games) {
      if (this.screen === this.lobby) this.lobby.watch(); // the watch ended with the old connection
      if (this.screen instanceof TournamentsScreen) this.screen.load(); // so did a tournament's
      return;
    }
    try {
      const reply = await this.net.request("list_games");
      this.games = Object.fromEntries(reply.games.map((g) => [g.name, g]));
    } catch {
      return; // the connection dropped again: the next welcome asks once more
    }
    this.route();
  }

  status(status) {
    this.statusDot.className = `status-dot ${status}`;
    const label = t(`connection.${status}`);
    this.statusDot.title = label;
    this.statusDot.setAttribute("aria-label", label);
    this.banner.hidden = status !== "offline" && status !== "replaced";
    this.banner.dataset.i18n = status === "replaced" ? "app.replaced" : "app.offline";
    this.banner.textContent = t(this.banner.dataset.i18n);
  }

  renderUser(user) {
    this.user = user;
    replace(this.userBox,
      h("button", { type: "button", class: "user-button", id: "user-button", "aria-haspopup": "dialog",
        "aria-label": t("menu.open", { name: user.name }), onclick: () => this.menu() },
      h("span", { class: "user-name", id: "user-name" }, user.name),
      user.guest ? h("span", { class: "badge" }, t("menu.guest")) : null,
      h("span", { "aria-hidden": "true" }, "☰")));
  }

  /** The menu: account actions, the language and the turn sound. */
  async menu() {
    const user = this.user;
    const settings = h("div", { class: "settings" },
      h("fieldset", { class: "languages" }, h("legend", {}, t("menu.language")),
        LANGUAGES.map((lang) => h("label", { class: "choice" },
          h("input", { type: "radio", name: "language", value: lang, checked: language() === lang,
            onchange: () => this.changeLanguage(lang) }),
          t(`language.${lang}`)))),
      h("label", { class: "check" },
        h("input", { type: "checkbox", name: "sound", checked: this.sound.enabled,
          onchange: (e) => this.sound.setEnabled(e.target.checked) }),
        t("menu.sound")),
      h("p", {}, h("a", { href: profileHash(user.name), id: "my-profile", onclick: closeDialog }, t("profile.mine"))));
    const account = user.guest
      ? [{ label: t("menu.rename"), value: "rename" }, { label: t("menu.login"), value: "login" },
          { label: t("menu.register"), value: "register", primary: true }]
      : [{ label: t("menu.logout"), value: "logout" }, { label: t("common.close"), value: null, primary: true }];
    const text = user.guest ? t("menu.guest_text") : t("menu.logged_in", { name: user.name });
    const choice = await dialog(user.name, h("div", {}, h("p", {}, text), settings), account);
    if (choice === "rename") this.rename();
    else if (choice === "login" || choice === "register") this.account(choice);
    else if (choice === "logout") this.logout();
  }

  async changeLanguage(lang) {
    await setLanguage(lang, { remember: true });
    this.status(this.net.online ? "online" : "connecting");
    if (this.user) this.renderUser(this.user);
    closeDialog(); // the menu was drawn in the old language
    this.route();
  }

  async rename() {
    const input = h("input", { name: "name", required: true, autocomplete: "nickname", value: "",
      placeholder: t("account.name_placeholder"), title: t("account.name_rule") });
    await dialog(t("account.rename_title"), h("label", {}, t("account.name"), input),
      [{ label: t("common.cancel"), value: false }, { label: t("common.save"), value: true, primary: true, submit: true }],
      { onSubmit: async () => {
        const wrong = nameProblem(input.value);
        if (wrong) return wrong;
        try {
          const welcome = await this.net.request("rename", { name: normalize(input.value) });
          this.net.adopt(welcome);
          this.renderUser(welcome.user);
          return null;
        } catch (error) {
          return errorText(error);
        }
      } });
  }

  /** Log in or register; on an error the dialog stays open with the name and password. */
  async account(kind) {
    const register = kind === "register";
    // A guest registers under the name he plays as, the server's "guest-..."/"Gast-..." too.
    const name = h("input", { name: "name", required: true, autocomplete: "username", title: t("account.name_rule"),
      value: this.user?.guest && register ? this.user.name : "" });
    const password = h("input", { name: "password", type: "password", required: true,
      autocomplete: register ? "new-password" : "current-password", minlength: register ? PASSWORD_MIN : 1,
      "aria-describedby": register ? "password-rule" : null });
    const title = t(register ? "account.register_title" : "account.login_title");
    await dialog(title, h("div", { class: "fields" }, h("label", {}, t("account.name"), name), h("label", {}, t("account.password"), password),
      register ? h("p", { class: "muted small", id: "password-rule" }, t("account.password_rule")) : null),
      [{ label: t("common.cancel"), value: false }, { label: title, value: true, primary: true, submit: true }],
      { onSubmit: async () => {
        const wrong = register ? nameProblem(name.value) : null;
        if (wrong) return wrong;
        if (register && password.value.length < PASSWORD_MIN) return t("account.password_short");
        try {
          const welcome = await this.net.request(kind, { name: normalize(name.value), password: password.value });
          this.net.adopt(welcome);
          this.renderUser(welcome.user);
          this.people.watch(); // as the new user: the watch ended with the old one
          toast(t("account.welcome", { name: welcome.user.name }));
          return null;
        } catch (error) {
          return errorText(error);
        }
      } });
  }

  async logout() {
    this.models.clear();
    storage.set("tables", null);
    location.hash = "#/";
    await this.net.logout();
  }

  // --- tables we are at ----------------------------------------------------------------------

  /** Tables this browser sits at or watches: {id: {role, invite, bot}}. */
  remembered() {
    return storage.get("tables", {}) || {};
  }

  remember(id, role, invite, bot = null) {
    const tables = this.remembered();
    const known = tables[id] || {};
    tables[id] = { ...known, role, invite: invite ?? known.invite ?? null, bot: bot ?? known.bot ?? null };
    storage.set("tables", tables);
  }

  /** Keep a remembered table's game and host (from its snapshot), so that the lobby names it
   * after a reload as the lobby list does, before the table is opened again. */
  rememberName(info) {
    const tables = this.remembered();
    const known = tables[info.id];
    if (!known || (known.game === info.game && known.host === info.host)) return;
    tables[info.id] = { ...known, game: info.game, host: info.host };
    storage.set("tables", tables);
  }

  forget(id) {
    const tables = this.remembered();
    delete tables[id];
    storage.set("tables", tables);
    this.models.delete(id);
  }

  myTables() {
    return new Set(Object.entries(this.remembered()).filter(([, t]) => t.role === "seat").map(([id]) => id));
  }

  resumeList() {
    return [...this.models.values()].filter((m) => m.info).map((m) => ({ table: m.id, seq: m.seq, invite: m.invite }));
  }

  tableLink(id, invite = null) {
    return `#/table/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
  }

  /** Go to a table as a player (`role` "seat") or a spectator ("watch"). `fill`: a bot level
   * and the seat count, to seat bots on every free seat once we sit (bots "at once"). */
  openTable(id, invite, role, { bot = null, fill = null } = {}) {
    const known = this.remembered()[id];
    this.remember(id, role === "seat" ? "seat" : known?.role ?? "watch", invite ?? known?.invite, bot);
    if (fill) this.fillOnJoin = { id, ...fill };
    const target = this.tableLink(id, invite ?? known?.invite);
    if (location.hash === target) this.route();
    else location.hash = target;
  }

  // --- pushes and routing -----------------------------------------------------------------------

  push(message) {
    if (message.type === "lobby_table") return this.lobby.changed(message.table);
    if (message.type === "tournament_seat") return this.seated(message);
    if (this.screen instanceof TournamentsScreen && this.screen.push(message)) return;
    if (this.people.push(message)) return;
    const id = typeof message.table === "object" ? message.table.id : message.table;
    const model = this.models.get(id);
    if (!model) return;
    const waited = isOurTurn(model);
    if (message.type === "snapshot") {
      model.applySnapshot(message);
      this.rememberName(model.info);
    }
    else if (message.type === "clock") {
      if (!model.applyClock(message)) return;
    } else if (!model.applyEvent(message)) return;
    const shown = this.screen instanceof TableScreen && this.screen.model === model;
    if (shown && message.type === "event" && !waited && isOurTurn(model)) this.sound.play();
    if (shown) this.screen.update();
  }

  /** A tournament's series put us at a table: remember the seat, offer to go there. */
  seated(message) {
    this.remember(message.table, "seat", null);
    const go = h("button", { class: "primary", id: "go-to-table", onclick: () => this.openTable(message.table, null, "seat") },
      t("tournaments.my_table"));
    toast(h("span", {}, t("tournaments.seated", { n: message.series }), " ", go));
  }

  route() {
    if (!this.net.user || !this.games) return;
    const tournament = parseTournamentHash(location.hash);
    if (tournament !== undefined) {
      if (this.screen === this.lobby) this.lobby.hide();
      this.screen = new TournamentsScreen(this, tournament);
      this.screen.show(this.main);
      document.title = `Tischrunde — ${t("tournaments.title")}`;
      return;
    }
    const match = location.hash.match(/^#\/table\/([^?]+)(?:\?invite=(.*))?$/);
    const replay = parseReplayHash(location.hash);
    if (this.screen === this.lobby) this.lobby.hide();
    const player = location.hash.match(/^#\/player\/([^?]+)$/);
    if (player) {
      this.screen = new ProfileScreen(this, decodeURIComponent(player[1]));
      this.screen.show(this.main);
      document.title = `Tischrunde — ${t("profile.page_title")}`;
      return;
    }
    if (replay) {
      const known = this.remembered()[replay.table];
      replay.invite ??= known?.invite ?? null;
      this.screen = new ReplayScreen(this, replay, known ? this.tableLink(replay.table, replay.invite) : null);
      this.screen.show(this.main);
      document.title = `Tischrunde — ${t("replay.page_title")}`;
      return;
    }
    if (!match) {
      this.screen = this.lobby;
      this.lobby.show(this.main);
      document.title = "Tischrunde";
      return;
    }
    const id = decodeURIComponent(match[1]);
    const invite = match[2] ? decodeURIComponent(match[2]) : this.remembered()[id]?.invite ?? null;
    let model = this.models.get(id);
    const fresh = !model;
    if (fresh) {
      model = new TableModel(id, invite);
      this.models.set(id, model);
    }
    if (invite) model.invite = invite;
    this.screen = new TableScreen(this, model);
    this.screen.show(this.main);
    document.title = `Tischrunde — ${t("table.title")}`;
    if (fresh) this.attach(model);
  }

  /** Join (our seat, or a free one) or watch a table; the snapshot follows. */
  async attach(model) {
    const known = this.remembered()[model.id];
    const invite = model.invite ?? undefined;
    try {
      if (known?.role === "seat") {
        try {
          await this.net.request("join", { table: model.id, invite });
          const fill = this.fillOnJoin;
          this.fillOnJoin = null;
          if (fill?.id === model.id) await fillFreeSeats(this.net, model.id, fill.level, [...Array(fill.seats).keys()]);
          return;
        } catch (error) {
          if (!["already_started", "table_full"].includes(error.code)) throw error;
          this.remember(model.id, "watch", model.invite);
        }
      }
      await this.net.request("watch", { table: model.id, invite });
    } catch (error) {
      this.models.delete(model.id);
      this.forget(model.id);
      toast(errorText(error), "error");
      location.hash = "#/";
    }
  }
}

/** Close the open dialog as Escape does. */
function closeDialog() {
  document.querySelector(".dialog-back")?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
}

const app = new App();
window.tischrunde = app; // for the browser console and tests
app.start();
