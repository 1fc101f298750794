// Everything a player reads comes from one message catalogue per language (`/i18n/de.json`,
// `/i18n/en.json`): flat keys, `{name}` placeholders, and plural entries `{"one", "other"}`
// chosen by the `n` parameter. German is chosen when the browser prefers it, unless the
// player picked a language in the menu (remembered in localStorage). A key missing from the
// catalogue is reported on the console, which the browser tests treat as a failure.

import { storage } from "./storage.js";

export const LANGUAGES = ["de", "en"];
const FALLBACK = "en";
const catalogues = {};
let current = FALLBACK;

/** The language to start with: the stored choice, else the browser's first de/en preference. */
export function preferredLanguage() {
  const stored = storage.get("language");
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

/** Load `lang`'s catalogue (once) and make it the current language. */
export async function setLanguage(lang, { remember = false } = {}) {
  if (!LANGUAGES.includes(lang)) lang = FALLBACK;
  if (!catalogues[lang]) {
    const response = await fetch(`/i18n/${lang}.json`);
    catalogues[lang] = await response.json();
  }
  current = lang;
  document.documentElement.lang = lang;
  if (remember) storage.set("language", lang);
  translateStatic(document);
}

/** The current language ("de" or "en"). */
export function language() {
  return current;
}

/** The message `key` in the current language with `{placeholders}` filled from `params`. */
export function t(key, params = {}) {
  let entry = catalogues[current]?.[key];
  if (entry === undefined) {
    console.error(`no translation for "${key}" (${current})`);
    return key;
  }
  if (typeof entry === "object") entry = params.n === 1 ? entry.one : entry.other;
  return entry.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the catalogue has `key` (for codes from outside, such as server error codes). */
export function has(key) {
  return catalogues[current]?.[key] !== undefined;
}

/** Fill elements of the static page: `data-i18n` (text) and `data-i18n-label` (aria-label). */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}

/** A sentence for a protocol error: its code (a bad name: its reason) translated, the
 * server's text as a last resort. */
export function errorText(error) {
  if (error.code === "bad_name" && has(`name.${error.reason}`)) return t(`name.${error.reason}`);
  const key = `error.${error.code}`;
  return has(key) ? t(key) : t("error.unknown", { code: error.code, message: error.message || "" });
}

/** A number in the current language's notation. */
export function number(value, digits = 0) {
  return value.toLocaleString(current, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
