// People in the lobby's side panel: who is online and where (`watch_people`, then each
// `presence` push), one's friends and requests (`friends`), inviting a friend to the table one
// waits at, invitations as a prompt (`invitation`, from anywhere in the app), and the lobby
// chat (`lobby_chat`, each line pushed as `lobby_said`).

import { gameLabel } from "./games.js";
import { errorText, t } from "./i18n.js";
import { profileHash } from "./profile.js";
import { dialog, h, replace, toast } from "./ui.js";

const CHAT_SHOWN = 50; // lines kept on screen, as many as the server keeps

export class People {
  /** `app` gives `net`, `user`, `models` (the tables we are at) and `openTable`. */
  constructor(app) {
    this.app = app;
    this.box = h("section", { class: "panel people", id: "people", "aria-labelledby": "people-title" });
    this.online = new Map(); // user id -> person
    this.friends = [];
    this.chat = [];
    this.draft = "";
    this.friendName = "";
  }

  /** Watch from now on (again after a reconnect: a watch lasts as long as its connection). */
  async watch() {
    let reply;
    try {
      reply = await this.app.net.request("watch_people");
    } catch {
      return; // offline: watched again on the next welcome
    }
    this.online = new Map(reply.online.map((p) => [p.id, p]));
    this.friends = reply.friends;
    this.chat = reply.chat;
    this.render();
  }

  /** Handle a social push; false if it is none. */
  push(message) {
    if (message.type === "presence") {
      for (const person of message.people) {
        if (person.place === "offline") this.online.delete(person.id);
        else this.online.set(person.id, person);
      }
    } else if (message.type === "friends") this.friends = message.friends;
    else if (message.type === "lobby_said") this.chat = [...this.chat, message.line].slice(-CHAT_SHOWN);
    else if (message.type === "invitation") {
      this.invited(message);
      return true;
    } else return false;
    this.render();
    return true;
  }

  async invited(message) {
    const choice = await dialog(t("people.invited_title"),
      h("p", {}, t("people.invited", { name: message.by, game: gameLabel(message.table.game) })),
      [{ label: t("people.decline"), value: false }, { label: t("people.accept"), value: true, primary: true }]);
    if (choice) this.app.openTable(message.table.id, message.invite, "seat");
  }

  /** Where somebody is, as a sentence part. */
  placeText(person) {
    return t(`place.${person.place}`);
  }

  /** A table we sit at that waits for players: where an invitation goes. */
  waitingTable() {
    for (const model of this.app.models.values()) {
      if (model.info?.status === "waiting" && model.seat !== null && model.seat !== undefined) return model.id;
    }
    return null;
  }

  async ask(type, fields, done = null) {
    try {
      await this.app.net.request(type, fields);
      if (done) toast(done);
      return true;
    } catch (error) {
      toast(errorText(error), "error");
      return false;
    }
  }

  render() {
    const me = this.app.user;
    if (!me) return;
    const friendNames = new Set(this.friends.map((f) => f.name));
    const people = [...this.online.values()].filter((p) => p.id !== me.id)
      .sort((a, b) => a.name.localeCompare(b.name));
    replace(this.box,
      h("h2", { id: "people-title" }, t("people.title")),
      this.friendsPart(me),
      h("h3", {}, t("people.online", { n: people.length })),
      people.length
        ? h("ul", { class: "people-list", "aria-label": t("people.online_list") }, people.map((p) =>
            h("li", { class: "person", dataset: { person: p.name } },
              h("a", { href: profileHash(p.name), class: "player-link" }, p.name),
              p.guest ? h("span", { class: "badge" }, t("menu.guest")) : null,
              h("span", { class: "muted small" }, ` ${this.placeText(p)}`),
              !me.guest && !p.guest && !friendNames.has(p.name)
                ? h("button", { class: "quiet small", dataset: { social: "befriend" },
                    onclick: () => this.ask("friend_request", { name: p.name }, t("people.asked_sent", { name: p.name })) },
                  t("people.befriend"))
                : null)))
        : h("p", { class: "empty" }, t("people.nobody")),
      this.chatPart());
  }

  friendsPart(me) {
    if (me.guest) return h("p", { class: "muted small" }, t("people.guests_no_friends"));
    const table = this.waitingTable();
    const row = (f) => {
      const buttons = [];
      if (f.status === "friend") {
        if (table) buttons.push(h("button", { class: "small primary", dataset: { social: "invite" },
          onclick: () => this.ask("invite", { name: f.name, table }, t("people.invite_sent", { name: f.name })) }, t("people.invite")));
        buttons.push(h("button", { class: "quiet small", onclick: () => this.ask("friend_remove", { name: f.name }) }, t("people.remove")));
      } else if (f.status === "asking") {
        buttons.push(h("button", { class: "small primary", dataset: { social: "accept" },
          onclick: () => this.ask("friend_accept", { name: f.name }) }, t("people.accept")));
        buttons.push(h("button", { class: "quiet small", onclick: () => this.ask("friend_refuse", { name: f.name }) }, t("people.refuse")));
      } else if (f.status === "asked") {
        buttons.push(h("button", { class: "quiet small", onclick: () => this.ask("friend_remove", { name: f.name }) }, t("people.withdraw")));
      } else {
        buttons.push(h("button", { class: "quiet small", onclick: () => this.ask("unblock", { name: f.name }) }, t("people.unblock")));
      }
      if (f.status !== "blocked") {
        buttons.push(h("button", { class: "quiet small", onclick: () => this.block(f.name) }, t("people.block")));
      }
      const person = [...this.online.values()].find((p) => p.name === f.name);
      const where = f.status === "friend" ? (person ? this.placeText(person) : t("place.offline")) : t(`friend.${f.status}`);
      return h("li", { class: "person", dataset: { friend: f.name, status: f.status } },
        h("strong", {}, f.name), h("span", { class: "muted small" }, ` ${where}`),
        h("span", { class: "row-buttons" }, buttons));
    };
    const input = h("input", { name: "friend", value: this.friendName, placeholder: t("account.name"),
      "aria-label": t("people.friend_name"), oninput: (e) => { this.friendName = e.target.value; } });
    return h("div", { class: "friends" },
      h("h3", {}, t("people.friends")),
      this.friends.length ? h("ul", { class: "people-list", "aria-label": t("people.friends") }, this.friends.map(row))
        : h("p", { class: "empty" }, t("people.no_friends")),
      h("form", { class: "inline", onsubmit: async (e) => {
        e.preventDefault();
        const name = this.friendName.trim();
        if (name && (await this.ask("friend_request", { name }, t("people.asked_sent", { name })))) {
          this.friendName = "";
          this.render();
        }
      } }, input, h("button", { type: "submit" }, t("people.ask"))));
  }

  async block(name) {
    const sure = await dialog(t("people.block_title", { name }), h("p", {}, t("people.block_text")),
      [{ label: t("common.cancel"), value: false }, { label: t("people.block"), value: true, primary: true }]);
    if (sure) this.ask("block", { name });
  }

  async report(name) {
    const reason = h("input", { name: "reason", required: true, maxlength: 500 });
    await dialog(t("people.report_title", { name }), h("label", {}, t("people.reason"), reason),
      [{ label: t("common.cancel"), value: false }, { label: t("people.report"), value: true, primary: true, submit: true }],
      { onSubmit: async () => ((await this.ask("report", { name, reason: reason.value }, t("people.reported"))) ? null : t("people.report_failed")) });
  }

  chatPart() {
    const input = h("input", { name: "lobby-chat", value: this.draft, maxlength: 500, autocomplete: "off",
      "aria-label": t("people.chat_say"), oninput: (e) => { this.draft = e.target.value; } });
    const send = async (e) => {
      e.preventDefault();
      const text = this.draft.trim();
      if (!text) return;
      if (await this.ask("lobby_chat", { text })) {
        this.draft = "";
        input.value = "";
      }
    };
    const me = this.app.user;
    return h("div", { class: "lobby-chat" },
      h("h3", {}, t("people.chat")),
      h("ol", { class: "chat-lines", "aria-label": t("people.chat"), "aria-live": "polite" },
        this.chat.map((line) => h("li", {},
          h("strong", {}, line.name), ` ${line.text}`,
          line.name !== me.name ? h("button", { class: "quiet small", title: t("people.report"),
            "aria-label": t("people.report_title", { name: line.name }), onclick: () => this.report(line.name) }, "⚑") : null))),
      h("form", { class: "inline", onsubmit: send }, input, h("button", { type: "submit" }, t("people.send"))));
  }
}
