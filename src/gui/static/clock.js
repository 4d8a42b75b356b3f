// The game clock of the lielow GUI's page: base time plus an increment per move for each side,
// counting down for the side to move. The page owns the clock (the engine only reads it, as
// `go p1time p2time p1inc p2inc`); its state lives in the game (`game.clock`), so a reload
// resumes it. It runs only while the game's latest position is in play: looking back at earlier
// moves, or analysing, pauses it.
"use strict";

const Clock = {
  running: null, // the side whose time is running, or null
  since: 0,      // performance.now() when that side's time was last settled
  ticker: null,  // the display's interval while a clock runs

  // A clock for a new game: `base` milliseconds each, `inc` added after each move.
  fresh(base, inc) {
    return { base, inc, left: { Blue: base, Red: base }, flagged: null };
  },

  // The milliseconds `side` has left now (its running time counted).
  left(clock, side) {
    const running = this.running === side ? performance.now() - this.since : 0;
    return Math.max(0, clock.left[side] - running);
  },

  // Charges the running side for the time since it was last settled.
  settle(clock) {
    if (!this.running) return;
    const now = performance.now();
    clock.left[this.running] = Math.max(0, clock.left[this.running] - (now - this.since));
    this.since = now;
  },

  // The mover has moved: its time is charged and its increment added.
  moved(clock, side) {
    this.settle(clock);
    if (this.running === side) clock.left[side] += clock.inc;
    this.running = null;
  },

  // Runs `side`'s time (or none, for null); `flag` is called when a side's time is up.
  run(clock, side, flag) {
    this.settle(clock);
    if (clock.flagged) side = null;
    if (side !== this.running) {
      this.running = side;
      this.since = performance.now();
    }
    clearInterval(this.ticker);
    this.ticker = null;
    if (side) {
      this.ticker = setInterval(() => {
        if (this.left(clock, side) > 0) return this.show(clock);
        this.settle(clock);
        clock.flagged = side;
        this.run(clock, null, flag);
        flag(side);
      }, 100);
    }
    this.show(clock);
  },

  // Stops every clock (the time used so far is not charged: settle first to charge it).
  stop() {
    clearInterval(this.ticker);
    this.ticker = null;
    this.running = null;
  },

  // The limits a search under this clock sends.
  limits(clock) {
    return {
      p1time: Math.floor(this.left(clock, "Blue")), p2time: Math.floor(this.left(clock, "Red")),
      p1inc: clock.inc, p2inc: clock.inc,
    };
  },

  // "4:59", and tenths under ten seconds ("9.4").
  format(ms) {
    if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
    const seconds = Math.ceil(ms / 1000);
    const hours = Math.floor(seconds / 3600), minutes = Math.floor(seconds / 60) % 60;
    const ss = String(seconds % 60).padStart(2, "0");
    return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${ss}` : `${minutes}:${ss}`;
  },

  // Draws both clocks; `clock` null hides them.
  show(clock) {
    const box = document.getElementById("clocks");
    box.hidden = !clock;
    if (!clock) return;
    for (const side of ["Blue", "Red"]) {
      const element = document.getElementById(`clock-${side}`);
      element.textContent = `${side} ${this.format(this.left(clock, side))}`;
      element.classList.toggle("running", this.running === side);
      element.classList.toggle("flagged", clock.flagged === side);
    }
  },
};
