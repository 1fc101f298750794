// localStorage behind one small object, so that every setting survives a reload and the page
// still works where storage is unavailable (private modes).

/** localStorage that survives being unavailable (private modes). */
export const storage = {
  get(key, fallback = null) {
    try {
      const raw = localStorage.getItem(`tischrunde.${key}`);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      if (value === null || value === undefined) localStorage.removeItem(`tischrunde.${key}`);
      else localStorage.setItem(`tischrunde.${key}`, JSON.stringify(value));
    } catch {
      /* storage unavailable: the session lasts as long as the page */
    }
  },
};
