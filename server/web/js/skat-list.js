// The list ("Liste") of a Skat table as German players keep it: one line per deal (the game,
// its list value, the running game points of every player, Kontra/Re, Bock, passed in), the
// Seeger-Fabian totals below, and the same list as a CSV file and a printable page.
//
// Every number comes from the server's results (`list_value`, `seeger_fabian` per seat, the
// engine's settlement): the client only adds them up, it never values a game itself.

import { suitIcon } from "./cards.js";
import { language, t } from "./i18n.js";
import { replayHash } from "./replay.js";
import { contractText, gameName, SUIT_LETTER } from "./skat-words.js";
import { h, icon, signed } from "./ui.js";

/** The seats whose game points this deal changed: the declarer, or Ramsch's losers (winner). */
function scoringSeats(result) {
  if (result.ramsch) return result.seeger_fabian.flatMap((v, s) => (v ? [s] : []));
  if (result.declarer === null || result.declarer === undefined || result.won === null) return [];
  return [result.declarer];
}

/** What a deal adds to a seat's game points: its list value (the declarer's) or Ramsch's. */
function gamePoints(result, seat) {
  if (result.ramsch) return result.seeger_fabian[seat];
  return scoringSeats(result).includes(seat) ? result.list_value : 0;
}

/**
 * The list folded from the results: per line the running game points of each seat, and the
 * Seeger-Fabian totals. Bonus and Fabian points are read off the server's per-seat
 * `seeger_fabian` (the declarer's entry minus his list value is his +50/-50; a defender's
 * entry in a lost game is his Fabian points), so the formula stays in the engine.
 */
export function foldList(results, seats) {
  const running = new Array(seats).fill(0);
  const totals = Array.from({ length: seats }, () => ({ points: 0, won: 0, lost: 0, bonus: 0, fabian: 0, total: 0 }));
  const lines = results.map(({ number, result }) => {
    const scoring = scoringSeats(result);
    result.seeger_fabian.forEach((sf, seat) => {
      const mine = totals[seat];
      const points = gamePoints(result, seat);
      running[seat] += points;
      mine.points += points;
      mine.total += sf;
      if (!result.ramsch && scoring.includes(seat)) {
        mine[result.won ? "won" : "lost"] += 1;
        mine.bonus += sf - result.list_value;
      } else if (!result.ramsch) mine.fabian += sf;
    });
    return { number, result, running: [...running], scoring };
  });
  return { lines, totals };
}

/** The short marks of a line: hand, ouvert, Kontra or Re, Bock. */
function marks(result) {
  const out = [];
  if (result.hand) out.push(["hand", t("skat.list.hand_short"), t("skat.hand")]);
  if (result.ouvert) out.push(["ouvert", t("skat.list.ouvert_short"), t("skat.ouvert")]);
  if (result.kontra >= 2) out.push(["kontra", t("skat.list.re_short"), t("skat.kontra_re")]);
  else if (result.kontra === 1) out.push(["kontra", t("skat.list.kontra_short"), t("skat.kontra")]);
  if (result.bock) out.push(["bock", t("skat.list.bock_short"), t("skat.list.bock")]);
  return out;
}

/** A line in words: "Anna: Grand Hand, won, Kontra" (title, CSV and screen readers). */
function lineText(model, result, deck) {
  if (result.passed_in) return t("skat.list.passed_in");
  if (result.ramsch) {
    const pushed = result.pushes ? t("skat.push.count", { n: result.pushes, factor: 2 ** result.pushes }) : "";
    return [t("rules.ramsch"), pushed, result.bock ? t("skat.list.bock") : ""].filter(Boolean).join(", ");
  }
  if (result.aborted || !result.game) {
    const who = result.won === false ? `${model.name(result.declarer)}: ` : "";
    return `${who}${t("skat.result.aborted")}`;
  }
  const contract = contractText(
    { game: result.game, schneider: result.schneider_announced, schwarz: result.schwarz_announced, ouvert: result.ouvert },
    result.hand, deck);
  const parts = [`${model.name(result.declarer)}: ${contract}`, t(result.won ? "skat.list.won" : "skat.list.lost")];
  if (result.overbid) parts.push(t("skat.list.overbid"));
  if (result.kontra) parts.push(result.kontra >= 2 ? t("skat.kontra_re") : t("skat.kontra"));
  if (result.bock) parts.push(t("skat.list.bock"));
  return parts.join(", ");
}

function gameCell(model, result, deck) {
  const title = lineText(model, result, deck);
  if (result.passed_in) return h("td", { class: "list-game", colspan: 2, title }, t("skat.list.passed_in_short"));
  if (result.ramsch) {
    return h("td", { class: "list-game", title }, t("skat.list.ramsch_short"),
      result.pushes ? h("span", { class: "mark mark-pushes" }, `×${2 ** result.pushes}`) : null,
      result.bock ? h("span", { class: "mark mark-bock" }, t("skat.list.bock_short")) : null);
  }
  if (result.aborted || !result.game) {
    return h("td", { class: "list-game", colspan: result.won === false ? 1 : 2, title }, t("skat.list.aborted_short"));
  }
  const suit = SUIT_LETTER[result.game];
  return h("td", { class: "list-game", title, "aria-label": title },
    suit ? h("span", { class: "suit", html: suitIcon(suit, deck) }) : t(`skat.list.${result.game}_short`),
    marks(result).map(([kind, short, long]) => h("span", { class: `mark mark-${kind}`, title: long }, short)));
}

function valueCell(result) {
  if (result.passed_in || (!result.ramsch && result.won !== true && result.won !== false)) return null;
  const value = result.ramsch ? result.seeger_fabian.find((v) => v) ?? 0 : result.list_value;
  return h("td", { class: `list-value ${value > 0 ? "pos" : value < 0 ? "neg" : "zero"}` }, value ? signed(value) : "0");
}

/** Bock deals the list still owes (a running deal among them): what its latest result says
 * (the server counts them, `bock_due`); none once the list is over, when they lapse. */
function bockDue(model) {
  if (model.status === "finished" || !model.results.length) return 0;
  const latest = model.results.reduce((a, b) => (b.number > a.number ? b : a));
  return latest.result.bock_due ?? 0;
}

/** The list so far: one line per deal with running game points, the Seeger-Fabian totals
 * below, the Bock deals still owed, and the CSV and print buttons. */
export function renderList(model, ctx) {
  const n = model.seats.length;
  const { lines, totals } = foldList(model.results, n);
  const due = bockDue(model);
  const leader = Math.max(...totals.map((s) => s.total));
  const rows = lines.map(({ number, result, running, scoring }) => h("tr", { class: result.bock ? "bock" : "" },
    h("td", {}, h("a", { href: replayHash(model.id, number, model.invite),
      title: t("skat.list.replay_of", { n: number + 1 }) }, number + 1)),
    gameCell(model, result, ctx.deck),
    valueCell(result),
    running.map((total, seat) => h("td", { class: scoring.includes(seat) ? "decl" : "same" }, String(total)))));
  const names = Array.from({ length: n }, (_, s) => h("th", { class: "seat-head" },
    h("span", { class: "name", title: model.name(s) }, model.name(s))));
  const sum = (label, values, cls = "") => h("tr", { class: cls },
    h("th", { colspan: 3 }, label), values.map((v, seat) => h("td", { class: cls === "final-row" && totals[seat].total === leader && lines.length ? "lead" : "" }, v)));
  const finished = model.status === "finished";
  const table = h("table", { class: `list-table skat-list seats-${n}`, "aria-label": t("skat.list.label") },
    h("thead", {}, h("tr", {}, h("th", { class: "col-no" }, "#"), h("th", { class: "col-game" }, t("skat.list.game")),
      h("th", { class: "col-value" }, t("skat.list.value")), names)),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: n + 3, class: "muted" }, t("skat.list.empty")))),
    h("tfoot", {},
      sum(t("skat.list.game_points"), totals.map((s) => String(s.points))),
      sum(t("skat.list.won_lost"), totals.map((s) => `${s.won}/${s.lost}`)),
      sum(t("skat.list.bonus"), totals.map((s) => signed(s.bonus))),
      sum(t("skat.list.fabian"), totals.map((s) => signed(s.fabian))),
      sum(t(finished ? "skat.list.final" : "skat.list.standings"), totals.map((s) => String(s.total)), "final-row")));
  return h("div", { class: "list" },
    h("div", { class: "print-only list-heading" },
      h("h2", {}, t("skat.list.print_title", { table: model.id })),
      h("p", {}, `${new Date().toLocaleString(language())} · ${t("skat.list.label")}`)),
    table,
    due ? h("p", { class: "bock-due", id: "bock-due" }, t("skat.list.bock_due", { n: due })) : null,
    h("div", { class: "row-buttons list-export" },
      h("button", { type: "button", class: "quiet", id: "list-csv", onclick: () => downloadCsv(model, ctx.deck) },
        icon("download"), ` ${t("skat.list.csv")}`),
      h("button", { type: "button", class: "quiet", id: "list-print", onclick: () => window.print() }, t("skat.list.print"))));
}

// --- CSV ------------------------------------------------------------------------------------

function csvField(value) {
  const text = String(value ?? "");
  return /[",;\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The list as CSV text: a heading line, one line per deal (the game in words, the values
 * the server settled, each player's running game points and Seeger-Fabian points of the
 * deal), then the totals. German lists use ";" (what German spreadsheets expect), English ",". */
export function listCsv(model, deck) {
  const sep = language() === "de" ? ";" : ",";
  const n = model.seats.length;
  const names = Array.from({ length: n }, (_, s) => model.name(s));
  const { lines, totals } = foldList(model.results, n);
  const yes = (flag) => (flag ? t("common.yes") : "");
  const head = [t("skat.list.deal"), t("skat.declarer"), t("skat.list.game"), t("skat.hand"), t("skat.ouvert"),
    t("skat.list.bid"), t("skat.list.result"), t("skat.list.game_value"), t("skat.list.value"), t("skat.list.kontra_re"),
    t("skat.list.bock"), ...names.map((name) => `${name}: ${t("skat.list.game_points")}`),
    ...names.map((name) => `${name}: ${t("skat.list.seeger_fabian")}`)];
  const rows = lines.map(({ number, result, running }) => {
    const declared = !result.passed_in && !result.ramsch && (result.won === true || result.won === false);
    const game = result.passed_in ? t("skat.list.passed_in") : result.ramsch ? t("rules.ramsch")
      : result.aborted || !result.game ? t("skat.result.aborted") : gameName(result.game, deck);
    return [number + 1, declared ? names[result.declarer] : "", game, yes(declared && result.game && result.hand), yes(result.ouvert),
      declared ? result.bid : "", declared ? t(result.won ? "skat.list.won" : "skat.list.lost") : "",
      declared ? result.game_value : "", declared ? result.list_value : "",
      result.kontra >= 2 ? t("skat.kontra_re") : result.kontra === 1 ? t("skat.kontra") : "", yes(result.bock),
      ...running, ...result.seeger_fabian];
  });
  const foot = [
    [t("skat.list.game_points"), totals.map((s) => s.points)],
    [t("skat.list.won_lost"), totals.map((s) => `${s.won}/${s.lost}`)],
    [t("skat.list.bonus"), totals.map((s) => s.bonus)],
    [t("skat.list.fabian"), totals.map((s) => s.fabian)],
    [t(model.status === "finished" ? "skat.list.final" : "skat.list.standings"), totals.map((s) => s.total)],
  ].map(([label, values]) => [label, ...new Array(10).fill(""), ...values]);
  return [head, ...rows, ...foot].map((row) => row.map(csvField).join(sep)).join("\r\n") + "\r\n";
}

function downloadCsv(model, deck) {
  // A byte-order mark, so spreadsheets read the names' letters as UTF-8.
  const blob = new Blob(["\ufeff", listCsv(model, deck)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: `tischrunde-${model.id}-liste.csv` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
