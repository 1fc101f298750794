// Start-up and routing: the session (guest, login, register, name), the lobby at `#/` and a
// table at `#/table/{id}` (with `?invite=...` for private tables), reconnecting transparently.

import { installCardSymbols } from "./cards.js";
import { DEFAULT_BOTS, Lobby } from "./lobby.js";
import { TableModel } from "./model.js";
import { Net } from "./net.js";
import { TableScreen } from "./table.js";
import { dialog, h, installActionKeys, replace, storage, toast } from "./ui.js";

class App {
  constructor() {
    this.main = document.getElementById("app");
    this.userBox = document.getElementById("user");
    this.statusDot = document.getElementById("status");
    this.banner = document.getElementById("banner");
    this.models = new Map();
    this.screen = null;
    this.games = { ...DEFAULT_BOTS };
    this.net = new Net({
      onPush: (message) => this.push(message),
      onWelcome: (user, how) => this.welcome(user, how),
      onStatus: (status) => this.status(status),
      resumeTables: () => this.resumeList(),
      onTableLost: (id) => this.models.delete(id),
      onStrayError: (message) => toast(message.message, "error"),
    });
    this.lobby = new Lobby(this);
  }

  start() {
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
    this.net.start();
  }

  // --- session ----------------------------------------------------------------------------

  async welcome(user, { reconnected }) {
    this.renderUser(user);
    if (reconnected) return;
    try {
      const reply = await this.net.request("list_games");
      this.games = Object.fromEntries(reply.games.map((g) => [g.name, g.bots]));
    } catch {
      /* an older server without `games`: assume the defaults */
    }
    this.route();
  }

  status(status) {
    this.statusDot.className = `status-dot ${status}`;
    this.statusDot.title = status;
    this.statusDot.setAttribute("aria-label", `connection: ${status}`);
    this.banner.hidden = status !== "offline";
  }

  renderUser(user) {
    this.user = user;
    replace(this.userBox,
      h("button", { type: "button", class: "user-button", id: "user-button", "aria-haspopup": "dialog",
        onclick: () => this.accountMenu() },
      h("span", { class: "user-name", id: "user-name" }, user.name),
      user.guest ? h("span", { class: "badge" }, "guest") : null,
      h("span", { "aria-hidden": "true" }, "▾")));
  }

  async accountMenu() {
    const user = this.user;
    const text = user.guest
      ? "You play as a guest. Choose a name, or log in to keep your rating across devices."
      : `Logged in as ${user.name}.`;
    const buttons = user.guest
      ? [{ label: "Change name", value: "rename" }, { label: "Log in", value: "login" },
          { label: "Register", value: "register", primary: true }]
      : [{ label: "Log out", value: "logout" }, { label: "Close", value: null, primary: true }];
    const choice = await dialog(user.name, h("p", {}, text), buttons);
    if (choice === "rename") this.rename();
    else if (choice === "login" || choice === "register") this.account(choice);
    else if (choice === "logout") this.logout();
  }

  async rename() {
    const input = h("input", { name: "name", required: true, minlength: 2, maxlength: 24, pattern: "[A-Za-z0-9_.\\-]+",
      autocomplete: "nickname", value: "", placeholder: "your name" });
    const ok = await dialog("Your name at the tables", h("label", {}, "Name ", input),
      [{ label: "Cancel", value: false }, { label: "Save", value: true, primary: true, submit: true }]);
    if (!ok) return;
    try {
      const welcome = await this.net.request("rename", { name: input.value.trim() });
      this.net.adopt(welcome);
      this.renderUser(welcome.user);
    } catch (error) {
      toast(error.code === "name_taken" ? "That name is taken." : error.message, "error");
    }
  }

  async account(kind) {
    const name = h("input", { name: "name", required: true, autocomplete: "username", minlength: 2, maxlength: 24 });
    const password = h("input", { name: "password", type: "password", required: true,
      autocomplete: kind === "login" ? "current-password" : "new-password", minlength: kind === "login" ? 1 : 8 });
    const title = kind === "login" ? "Log in" : "Register an account";
    const ok = await dialog(title, h("div", { class: "fields" }, h("label", {}, "Name ", name), h("label", {}, "Password ", password)),
      [{ label: "Cancel", value: false }, { label: title, value: true, primary: true, submit: true }]);
    if (!ok) return;
    try {
      const welcome = await this.net.request(kind, { name: name.value.trim(), password: password.value });
      this.net.adopt(welcome);
      this.renderUser(welcome.user);
      toast(`Welcome, ${welcome.user.name}!`);
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async logout() {
    this.models.clear();
    storage.set("tables", null);
    location.hash = "#/";
    await this.net.logout();
  }

  // --- tables we are at ----------------------------------------------------------------------

  /** Tables this browser sits at or watches: {id: {role, invite}}. */
  remembered() {
    return storage.get("tables", {}) || {};
  }

  remember(id, role, invite) {
    const tables = this.remembered();
    tables[id] = { role, invite: invite ?? tables[id]?.invite ?? null };
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

  /** Go to a table as a player (`role` "seat") or a spectator ("watch"). */
  openTable(id, invite, role) {
    const known = this.remembered()[id];
    this.remember(id, role === "seat" ? "seat" : known?.role ?? "watch", invite ?? known?.invite);
    const target = this.tableLink(id, invite ?? known?.invite);
    if (location.hash === target) this.route();
    else location.hash = target;
  }

  // --- pushes and routing -----------------------------------------------------------------------

  push(message) {
    const id = typeof message.table === "object" ? message.table.id : message.table;
    const model = this.models.get(id);
    if (!model) return;
    if (message.type === "snapshot") model.applySnapshot(message);
    else if (!model.applyEvent(message)) return;
    if (this.screen instanceof TableScreen && this.screen.model === model) this.screen.update();
  }

  route() {
    if (!this.net.user) return;
    const match = location.hash.match(/^#\/table\/([^?]+)(?:\?invite=(.*))?$/);
    if (this.screen === this.lobby) this.lobby.hide();
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
    document.title = "Tischrunde — table";
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
      toast(error.code === "no_such_table" ? "There is no such table." : error.message, "error");
      location.hash = "#/";
    }
  }
}

const app = new App();
window.tischrunde = app; // for the browser console and tests
app.start();
