// The alarm's sound: beeps made with WebAudio (no sound file to fetch or cache). Browsers start an
// AudioContext suspended until someone has interacted with the page (the autoplay policy), so the
// screen says so while it is (the note tells to tap the screen once, or to allow sound for the
// site) and resumes it on the first tap, click or key. A screen without sound still shows every
// alarm. One AudioContext for the page's life; each beep's two nodes are let go when it ends.
import { h } from "../dom.ts";
import { t } from "../i18n.ts";
import "./screen-texts.ts";

const BEEPS = 3;
const BEEP_S = 0.25;
const GAP_S = 0.15;

export interface AlarmSound {
  /** The note shown while the browser blocks sound. */
  note: HTMLElement;
  /** Beeps now (or, while blocked, as soon as the sound is allowed). */
  alarm(): void;
  /** Back to idle: an alarm owed while the sound was blocked is no longer played. */
  idle(): void;
  stop(): void;
}

export function alarmSound(): AlarmSound {
  const note = h("p", { class: "screen-sound-note", role: "note", hidden: true }, t("screen.sound.blocked"));
  const AudioContextClass = window.AudioContext as typeof AudioContext | undefined;
  const context = AudioContextClass ? new AudioContextClass() : null;
  /** An alarm that came while the sound was blocked: played once it is allowed, if still recent. */
  let owed = false;

  const showState = () => {
    const blocked = !context || context.state !== "running";
    note.hidden = !blocked;
    // For the tests and the bench, which cannot hear: whether sound plays, and how many alarms it played.
    document.documentElement.dataset.sound = context ? context.state : "none";
  };
  const beep = () => {
    if (!context || context.state !== "running") return;
    const start = context.currentTime + 0.05;
    for (let i = 0; i < BEEPS; i++) {
      const at = start + i * (BEEP_S + GAP_S);
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = "square";
      oscillator.frequency.value = i % 2 ? 660 : 880;
      gain.gain.setValueAtTime(0.25, at);
      gain.gain.setValueAtTime(0, at + BEEP_S);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + BEEP_S);
      oscillator.onended = () => gain.disconnect();
    }
    const played = Number(document.documentElement.dataset.alarmsSounded ?? 0) + 1;
    document.documentElement.dataset.alarmsSounded = String(played);
  };
  const unlock = () => {
    if (!context || context.state === "running") return;
    void context.resume().then(() => {
      if (owed) beep();
      owed = false;
    });
  };
  const events = ["pointerdown", "keydown"] as const;
  for (const event of events) window.addEventListener(event, unlock);
  context?.addEventListener("statechange", showState);
  showState();

  return {
    note,
    alarm() {
      if (context?.state === "running") beep();
      else owed = true;
    },
    idle() {
      owed = false;
    },
    stop() {
      for (const event of events) window.removeEventListener(event, unlock);
      context?.removeEventListener("statechange", showState);
      void context?.close();
      delete document.documentElement.dataset.sound;
    },
  };
}
