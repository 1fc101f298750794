// An optional chime when it becomes the player's turn: off by default, switched in the menu
// (remembered in localStorage). Two short sine tones from the Web Audio API, no sound file.

import { storage } from "./storage.js";

export class TurnSound {
  constructor() {
    this.enabled = storage.get("sound", false) === true;
    this.played = 0; // how often it chimed (the browser tests read it)
    this.context = null;
  }

  setEnabled(on) {
    this.enabled = on;
    storage.set("sound", on);
    if (on) this.play(); // a sample, and the user's click lets the page make sound
  }

  play() {
    if (!this.enabled) return;
    this.played += 1;
    try {
      this.context ??= new AudioContext();
      this.context.resume();
      const now = this.context.currentTime;
      [660, 880].forEach((frequency, i) => this.tone(frequency, now + i * 0.12));
    } catch {
      /* no audio device: the count still tells that it was due */
    }
  }

  tone(frequency, start) {
    const oscillator = this.context.createOscillator();
    const gain = this.context.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.11);
    oscillator.connect(gain).connect(this.context.destination);
    oscillator.start(start);
    oscillator.stop(start + 0.12);
  }
}

/** Whether `model`'s seat has something to do now (its turn, or a decision all make at once). */
export function isOurTurn(model) {
  const view = model.view;
  if (!view || model.seat === null || view.phase === "over") return false;
  if (view.to_move === model.seat) return true;
  if (view.to_move !== null) return false;
  return view.must_exchange === true || model.legal.some((a) => a.type === "decline_grand_tichu");
}
