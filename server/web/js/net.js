// The WebSocket connection, speaking protocol v2 (docs/protocol.md) and nothing else.
//
// - `hello` first, with the stored session token if there is one (a new guest otherwise);
// - requests carry an `id`; `request()` resolves with the reply or rejects with the `error`
//   (an `act` with its move's `event`, which goes to `onPush` too);
// - pushes (`event`, `snapshot`, `clock`, `lobby_table`, and the people pushes `presence`,
//   `friends`, `invitation`, `lobby_said`, the tournament pushes `tournament` and
//   `tournament_seat`) go to `onPush`;
// - when the socket drops, it reconnects with backoff, says `hello` with the same token and
//   `resume`s every table it was at with the last `seq` seen (the caller supplies them);
// - `moved` (the table is served by another server process): it reconnects to the `url` the
//   error names, resumes there and sends the request again; if that process cannot be
//   reached it goes back to the address it started with;
// - closed with 4409 (the session was taken up in another window): it stays offline.

import { storage } from "./storage.js";

export const PROTOCOL_VERSION = 2;
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const MAX_MOVES = 5; // redirects followed for one request
const SESSION_REPLACED = 4409; // close code: the session continues on another connection

/** A protocol error reply as an Error with `code` (and `url` with `moved`, `reason` with
 * `bad_name`). */
const PUSHES = ["event", "snapshot", "clock", "lobby_table", "presence", "friends", "invitation", "lobby_said",
  "tournament_seat"];

export class ProtocolError extends Error {
  constructor(code, message, url = null, reason = null) {
    super(message || code);
    this.code = code;
    this.url = url;
    this.reason = reason;
  }
}

export class Net {
  /**
   * @param {object} hooks
   *   onPush(message): a table push (event, snapshot, clock), a lobby change (lobby_table) or a
   *     people push (presence, friends, invitation, lobby_said);
   *   onWelcome(user, {reconnected}): the session is (re)established;
   *   onStatus("connecting" | "online" | "offline");
   *   resumeTables(): [{table, seq, invite, role}] to resume after a reconnect;
   *   language(): the player's language, for the name of a new guest ("Gast-..." in German).
   */
  constructor(hooks, url = defaultUrl()) {
    this.hooks = hooks;
    this.entry = url; // where to go when a redirect leads nowhere
    this.url = url;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.streams = new Map(); // request id -> handler of its several replies (`stream`)
    this.user = null;
    this.online = false;
    this.waiting = [];
    this.attempt = 0;
    this.everOnline = false;
  }

  get token() {
    return storage.get("token");
  }

  set token(value) {
    storage.set("token", value);
  }

  start() {
    this.hooks.onStatus?.("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.opened = false;
    ws.onopen = () => {
      ws.opened = true;
      this._hello();
    };
    ws.onmessage = (frame) => this._receive(frame.data);
    ws.onclose = (event) => this._closed(ws, event.code);
    ws.onerror = () => { /* onclose follows and reconnects */ };
  }

  /** Send a request; resolves with its reply, rejects with a ProtocolError. A request for
   * a table another server process serves is sent again there. */
  async request(type, fields = {}) {
    for (let moves = 0; ; moves++) {
      if (!this.online && type !== "hello") await new Promise((ok) => this.waiting.push(ok));
      try {
        return await this._send(type, fields);
      } catch (error) {
        if (error.code !== "moved" || moves >= MAX_MOVES) throw error;
        this._moveTo(error.url);
      }
    }
  }

  /** Reconnect to the server process at `url` (null: the first address), resuming there. */
  _moveTo(url) {
    this.url = url || this.entry;
    this.online = false;
    this.attempt = 0;
    this.ws?.close(4001, "moved");
  }

  _send(type, fields) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.ws?.readyState !== WebSocket.OPEN) {
        // Sending on a closing socket only logs an error; the reconnect sends it again.
        this.pending.delete(id);
        reject(new ProtocolError("disconnected", "the connection is closing"));
        return;
      }
      try {
        this.ws.send(JSON.stringify({ type, id, ...fields }));
      } catch (error) {
        this.pending.delete(id);
        reject(new ProtocolError("disconnected", String(error)));
      }
    });
  }

  /** Send a request whose replies come as several messages (`analyze`: progress pushes,
   * then the analysis); `onMessage` gets each one, and the stream ends when it returns true,
   * on an error, or when the connection closes (then with a `disconnected` error). */
  stream(type, fields, onMessage) {
    const id = this.nextId++;
    this.streams.set(id, onMessage);
    if (this.ws?.readyState !== WebSocket.OPEN) {
      this.streams.delete(id); // sending on a closing socket only logs an error
      onMessage({ type: "error", id, code: "disconnected", message: "the connection is closing" });
      return;
    }
    try {
      this.ws.send(JSON.stringify({ type, id, ...fields }));
    } catch (error) {
      this.streams.delete(id);
      onMessage({ type: "error", id, code: "disconnected", message: String(error) });
    }
  }

  /** Forget the session (log out): the next hello makes a new guest. Requests made
   * meanwhile (the lobby's, as the page goes back to it) wait for that hello. */
  async logout() {
    this.token = null;
    this.online = false;
    this.ws?.close(4000, "log out");
  }

  /** Take over a session token (after `register`, `login` or `rename`). */
  adopt(welcome) {
    this.token = welcome.token;
    this.user = welcome.user;
  }

  async _hello() {
    let welcome;
    try {
      welcome = await this._send("hello", { version: PROTOCOL_VERSION, token: this.token, language: this.hooks.language?.() });
    } catch (error) {
      if (error.code !== "bad_token") {
        if (error.code !== "disconnected") this.hooks.onStrayError?.(error); // too_many_guests
        return;
      }
      this.token = null; // the server forgot us (new database): start as a new guest
      welcome = await this._send("hello", { version: PROTOCOL_VERSION, language: this.hooks.language?.() });
    }
    this.adopt(welcome);
    const reconnected = this.everOnline;
    this.online = true;
    this.everOnline = true;
    this.attempt = 0;
    this.hooks.onStatus?.("online");
    this.hooks.onWelcome?.(welcome.user, { reconnected });
    if (reconnected) await this._resumeAll();
    for (const go of this.waiting.splice(0)) go();
  }

  async _resumeAll() {
    for (const { table, seq, invite } of this.hooks.resumeTables?.() || []) {
      try {
        await this._send("resume", { table, seq });
      } catch (error) {
        if (error.code === "moved") return this._moveTo(error.url); // resumes there
        if (error.code === "bad_invite" || error.code === "bad_seq") {
          // A spectator of a private table (or a server that lost events): watch again.
          await this._send("watch", { table, invite }).catch(() => {});
        } else this.hooks.onTableLost?.(table, error);
      }
    }
  }

  _receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    // `tournament` is the reply to `watch_tournament` and, without an id, its later pushes.
    if (PUSHES.includes(message.type) || (message.type === "tournament" && message.id == null)) {
      this.hooks.onPush?.(message);
      const mover = message.id != null && this.pending.get(message.id);
      if (mover) { // the event of our own move answers the `act`
        this.pending.delete(message.id);
        mover.resolve(message);
      }
      return;
    }
    const stream = this.streams.get(message.id);
    if (stream) {
      if (stream(message) === true || message.type === "error") this.streams.delete(message.id);
      return;
    }
    const waiter = this.pending.get(message.id);
    if (!waiter) {
      // A table this client is at moved to another process (the one serving it stalled).
      if (message.type === "error" && message.code === "moved") this._moveTo(message.url);
      else if (message.type === "error") this.hooks.onStrayError?.(message);
      return;
    }
    this.pending.delete(message.id);
    if (message.type === "error") {
      waiter.reject(new ProtocolError(message.code, message.message, message.url, message.reason));
    } else waiter.resolve(message);
  }

  _closed(ws, code) {
    if (ws !== this.ws) return;
    if (!ws.opened) this.url = this.entry; // a redirect to a process that is gone
    this.online = false;
    for (const { reject } of this.pending.values()) {
      reject(new ProtocolError("disconnected", "the connection closed"));
    }
    this.pending.clear();
    for (const [id, stream] of this.streams) {
      stream({ type: "error", id, code: "disconnected", message: "the connection closed" });
    }
    this.streams.clear();
    // Another window (or device) took up this session: taking it back at once would only
    // take it from there; a reload does, when the player wants to play here.
    if (code === SESSION_REPLACED) return this.hooks.onStatus?.("replaced");
    this.hooks.onStatus?.("offline");
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    setTimeout(() => this.start(), delay);
  }
}

function defaultUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}
