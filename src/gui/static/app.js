// The lielow GUI's page: a client of the server's JSON API, which speaks UGI to the engines.
// The game lives in localStorage, so a reload (or a crash of anything) resumes it.
"use strict";

const $ = (id) => document.getElementById(id);
const START = {
  8: "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
  9: "r1r1r1r1r1r1r1r1r1/9/r1r1r1r1r1r1r1r1r1/9/9/9/b1b1b1b1b1b1b1b1b1/9/b1b1b1b1b1b1b1b1b1 b",
};
let session = null;      // this page's session, named by its event stream
let sessionReady = null; // resolves once the stream has named it

let engines = [];
let game = JSON.parse(localStorage.getItem("lielow-game") || "null") || {
  start: START[8], moves: [], cursor: 0, blue: "human", red: "0", kind: "movetime", value: 500, level: 20,
  flip: false, evals: {}, review: null,
};
let view = null;         // the shown position, as the server describes it
let selected = null;     // the square of the stack the player picked
let searchId = 0;        // the search whose events count
let searching = null;    // "play" or "analyse" while a search runs

function save() { localStorage.setItem("lielow-game", JSON.stringify(game)); }
function status(text) { $("status").textContent = text; }
function fail(text) { $("banner-text").textContent = text; $("banner").hidden = false; }
$("banner-close").onclick = () => { $("banner").hidden = true; };

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

function sideToMove(ply) { return view ? view.side : (ply % 2 === 0 ? "Blue" : "Red"); }
function playerOf(side) { return side === "Blue" ? game.blue : game.red; }
function atLatest() { return game.cursor === game.moves.length; }

async function render() {
  const best = game.bestArrow && game.bestArrow.ply === game.cursor ? [game.bestArrow.move] : [];
  try {
    view = await api("/api/position", {
      start: game.start, moves: game.moves.slice(0, game.cursor), flip: game.flip, arrows: best,
    });
  } catch (error) {
    fail(`Cannot show the position: ${error.message}`);
    return;
  }
  $("board").innerHTML = view.svg;
  $("board").firstElementChild.addEventListener("click", clicked);
  selected = null;
  $("bear-off").hidden = true;
  renderMoves();
  renderGraph();
  if (view.winner) status(`${view.winner} has won.`);
  else if (!atLatest()) status(`Viewing ply ${game.cursor} of ${game.moves.length}.`);
  else if (playerOf(view.side) === "human") status(`${view.side} to move: your move.`);
}

function squareOf(event) {
  const element = event.target.closest("[data-square]");
  return element ? element.getAttribute("data-square") : null;
}

function highlight() {
  const svg = $("board").firstElementChild;
  svg.querySelectorAll(".target, .selected").forEach((e) => e.remove());
  $("bear-off").hidden = true;
  if (!selected) return;
  const rect = (square) => svg.querySelector(`rect.square[data-square="${square}"]`);
  const mark = (square, cls, radius) => {
    const r = rect(square);
    if (!r) return;
    const c = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    const x = +r.getAttribute("x"), y = +r.getAttribute("y"), w = +r.getAttribute("width");
    c.setAttribute("cx", x + w / 2); c.setAttribute("cy", y + w / 2); c.setAttribute("r", w * radius);
    c.setAttribute("class", cls);
    svg.appendChild(c);
  };
  mark(selected, "selected", 0.44);
  for (const move of view.legal.filter((m) => m.startsWith(selected))) {
    if (move.endsWith("-off")) $("bear-off").hidden = false;
    else mark(move.slice(3), "target", 0.16);
  }
}

function clicked(event) {
  if (!view || view.winner || playerOf(view.side) !== "human") return;
  const square = squareOf(event);
  if (!square) return;
  if (selected) {
    const move = view.legal.find((m) => m.startsWith(selected) && m.slice(3) === square);
    if (move) return play(move);
  }
  selected = view.legal.some((m) => m.startsWith(square)) ? square : null;
  highlight();
}
$("bear-off").onclick = () => {
  const move = selected && view.legal.find((m) => m === `${selected}-off`);
  if (move) play(move);
};

async function play(move) {
  // A move played inside a loaded record's opening ends the opening there.
  game.opening = Math.min(game.opening || 0, game.cursor);
  game.moves = game.moves.slice(0, game.cursor).concat([move]);
  game.cursor = game.moves.length;
  game.review = null;
  save();
  await render();
  next();
}

function limits() {
  const value = Math.max(1, Math.floor(+game.value || 1));
  return { [game.kind]: value };
}

// Whatever should happen now: the engine's move, or analysis of the shown position.
async function next() {
  if (!view) return;
  await sessionReady;
  if ($("analyse").checked) return analyse();
  if (view.winner || !atLatest()) return;
  const player = playerOf(view.side);
  if (player === "human") return;
  searchId += 1;
  searching = "play";
  status(`${engines[+player]} (${view.side}) is thinking...`);
  try {
    await api("/api/go", {
      session, engine: +player, start: game.start, moves: game.moves, limits: limits(), multipv: 1, skill: +(game.level ?? 20), search: searchId,
    });
  } catch (error) { fail(error.message); searching = null; }
}

async function analyse() {
  if (!view || view.winner) return;
  await sessionReady;
  searchId += 1;
  searching = "analyse";
  $("lines").innerHTML = "";
  const engine = game.red !== "human" ? +game.red : game.blue !== "human" ? +game.blue : 0;
  try {
    await api("/api/go", {
      session, engine, start: game.start, moves: game.moves.slice(0, game.cursor),
      limits: { infinite: true }, multipv: Math.max(1, Math.min(8, +$("multipv").value || 1)), search: searchId,
    });
    status(`Analysing with ${engines[engine]}...`);
  } catch (error) { fail(error.message); }
}

async function stopSearches() {
  if (!searching) return;
  searchId += 1;
  searching = null;
  for (let engine = 0; engine < engines.length; engine++) {
    await api("/api/stop", { session, engine }).catch(() => {});
  }
}

function blueScore(score, side) {
  // A score for the side to move, as Blue's: "cp 35" / "mate 3".
  const [kind, value] = score.split(" ");
  const sign = side === "Blue" ? 1 : -1;
  return { kind, value: sign * +value };
}

function chances({ kind, value }) {
  if (kind === "mate") return value > 0 ? 100 : 0;
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * value)) - 1);
}

function shown({ kind, value }) {
  return kind === "mate" ? `mate ${value}` : `${value >= 0 ? "+" : ""}${(value / 100).toFixed(2)}`;
}

function onEvent(event) {
  if (event.search !== searchId) return;
  if (event.type === "info" && event.score) {
    const score = blueScore(event.score, view.side);
    if (event.multipv === 1) {
      game.evals[game.cursor] = chances(score);
      $("score").textContent = `${shown(score)} (for Blue), depth ${event.depth}`;
      const first = (event.pv || "").split(" ")[0];
      if (first) game.bestArrow = { ply: game.cursor, move: first };
    }
    if (searching === "analyse") {
      const lines = $("lines");
      while (lines.children.length < event.multipv) lines.appendChild(document.createElement("li"));
      lines.children[event.multipv - 1].textContent = `${shown(score)}  ${event.pv}`;
    }
  } else if (event.type === "bestmove") {
    if (searching !== "play") return;
    searching = null;
    if (!view.legal.includes(event.move)) {
      fail(`${event.engine} sent the illegal move '${event.move}'; the game waits (take back, or change the players).`);
      status("The engine's move was illegal.");
      return;
    }
    play(event.move);
  } else if (event.type === "error") {
    searching = null;
    fail(`${event.engine}: ${event.message}`);
    status("The engine failed.");
  } else if (event.type === "message") {
    status(`${event.engine}: ${event.text}`);
  }
}

// The page's session lives as long as this stream: the server ends its engines when it
// closes. A stream that breaks is opened again (a new session), and a search that was
// under way is asked for again there.
function connect() {
  let named;
  sessionReady = new Promise((resolve) => { named = resolve; });
  const source = new EventSource("/api/events");
  source.addEventListener("session", (message) => {
    const again = session !== null;
    session = JSON.parse(message.data).session;
    named();
    if (again && searching) { searching = null; status("Reconnected."); next(); }
  });
  source.onmessage = (message) => onEvent(JSON.parse(message.data));
  source.onerror = () => {
    status("Lost the server; reconnecting...");
    source.close();
    setTimeout(connect, 1000);
  };
}

function renderMoves() {
  const rows = [];
  const labels = game.review ? game.review.moves : [];
  game.moves.forEach((move, i) => {
    const label = labels[i] && labels[i].label;
    const badge = label ? ` <span class="label ${label.startsWith("lost") ? "lost" : label.includes("unproven") ? "unproven" : label.split(" ")[0]}">${label}</span>` : "";
    const side = (i + (game.start.endsWith(" r") ? 1 : 0)) % 2 === 0 ? "Blue" : "Red";
    rows.push(`<tr data-ply="${i + 1}" class="${i + 1 === game.cursor ? "current" : ""}"><td>${i + 1}</td><td>${side}</td><td>${move}${badge}</td></tr>`);
  });
  $("moves").innerHTML = rows.join("");
  for (const row of $("moves").children) row.onclick = () => goTo(+row.dataset.ply);
  const current = $("moves").querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function renderGraph() {
  const n = game.moves.length;
  const points = [];
  for (let ply = 0; ply <= n; ply++) {
    let c = game.evals[ply];
    if (game.review && ply > 0 && game.review.moves[ply - 1]) {
      const m = game.review.moves[ply - 1];
      c = chances(blueScore(m.eval_played, m.side === "Blue" ? "Blue" : "Red"));
    }
    if (c !== undefined) points.push([ply, c]);
  }
  const w = 500, h = 110, x = (p) => 6 + (w - 12) * p / Math.max(n, 1), y = (c) => 6 + (h - 12) * (1 - c / 100);
  const line = points.map(([p, c]) => `${x(p).toFixed(1)},${y(c).toFixed(1)}`).join(" ");
  $("graph").innerHTML = `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none">
    <line x1="6" x2="${w - 6}" y1="${y(50)}" y2="${y(50)}" stroke="#8a6f4b" stroke-dasharray="4 4"/>
    <polyline points="${line}" fill="none" stroke="#2b62d9" stroke-width="2"/>
    <line x1="${x(game.cursor)}" x2="${x(game.cursor)}" y1="6" y2="${h - 6}" stroke="#5b4a36"/></svg>`;
  $("graph").firstElementChild.onclick = (e) => {
    const r = e.currentTarget.getBoundingClientRect();
    goTo(Math.round((e.clientX - r.left) / r.width * n));
  };
}

async function goTo(ply) {
  await stopSearches();
  game.cursor = Math.max(0, Math.min(ply, game.moves.length));
  save();
  await render();
  if ($("analyse").checked) analyse();
}

function recordLine() {
  // The record format of `lielow match`: start ; moves ; winner ; reason ; blue ; red ; opening N.
  if (!view || !view.winner || !atLatest()) return null;
  const last = game.moves[game.moves.length - 1] || "";
  const reason = last.includes("x") ? "king-captured" : last.endsWith("-off") ? "king-borne-off" : "no-moves";
  const name = (p) => (p === "human" ? "human" : engines[+p]).replace(/[;\n]/g, " ");
  return `${game.start} ; ${game.moves.join(" ")} ; ${view.winner === "Blue" ? "b" : "r"} ; ${reason} ; ${name(game.blue)} ; ${name(game.red)} ; opening ${Math.min(game.opening || 0, game.moves.length)}`;
}

async function newGame(start, moves, opening = 0) {
  await stopSearches();
  game = { ...game, start, moves, opening, cursor: moves.length, evals: {}, review: null, bestArrow: null };
  save();
  $("review-summary").textContent = "";
  $("score").textContent = "";
  $("lines").innerHTML = "";
  $("size").value = start.split("/").length === 9 ? "9" : "8";
  await render();
  next();
}

$("new-game").onclick = () => newGame(START[+$("size").value], []);
$("load").onclick = async () => {
  const text = $("load-text").value.trim();
  let start = text, moves = [];
  let opening = 0;
  if (text.includes(" ; ")) {
    const fields = text.split(" ; ");
    start = fields[0]; moves = fields[1].trim() ? fields[1].trim().split(/\s+/) : [];
    // A record's "opening N": its first N moves were the runner's, never judged.
    const marked = (fields[6] || "").match(/^opening (\d+)$/);
    if (marked) opening = Math.min(+marked[1], moves.length);
  } else if (text.includes(" moves")) {
    const [position, rest] = text.split(" moves");
    start = position.trim(); moves = rest.trim() ? rest.trim().split(/\s+/) : [];
  }
  if (start === "startpos") start = START[+$("size").value];
  try {
    await api("/api/position", { start, moves });
  } catch (error) { return fail(`Cannot load it: ${error.message}`); }
  newGame(start, moves, opening);
};
$("copy-lfen").onclick = () => navigator.clipboard.writeText(view ? view.lfen : "").then(() => status("LFEN copied."));
$("copy-moves").onclick = () => navigator.clipboard.writeText(`${game.start} moves ${game.moves.join(" ")}`).then(() => status("Moves copied."));
$("save").onclick = () => {
  const record = recordLine();
  const text = record || `${game.start} moves ${game.moves.join(" ")}`;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text + "\n"], { type: "text/plain" }));
  link.download = record ? "lielow-game.txt" : "lielow-game-unfinished.txt";
  link.click();
  status(record ? "Saved in the record format of lielow match." : "The game is not over: saved as 'LFEN moves ...'.");
};
$("flip").onclick = () => { game.flip = !game.flip; save(); render().then(highlight); };
$("first").onclick = () => goTo(0);
$("prev").onclick = () => goTo(game.cursor - 1);
$("next").onclick = () => goTo(game.cursor + 1);
$("last").onclick = () => goTo(game.moves.length);
$("takeback").onclick = async () => {
  await stopSearches();
  game.moves = game.moves.slice(0, game.cursor);
  do { game.moves.pop(); } while (game.moves.length && playerOf(((game.moves.length + (game.start.endsWith(" r") ? 1 : 0)) % 2 === 0) ? "Blue" : "Red") !== "human");
  game.cursor = game.moves.length;
  game.review = null;
  save();
  await render();
};
$("analyse").onchange = async () => { await stopSearches(); $("lines").innerHTML = ""; next(); };
$("multipv").onchange = () => { if ($("analyse").checked) analyse(); };
$("review").onclick = async () => {
  const budget = $("review-budget").value;
  status(`Reviewing the game (${budget} budget)...`);
  try {
    game.review = await api("/api/review", { start: game.start, moves: game.moves, budget, opening: Math.min(game.opening || 0, game.moves.length) });
    const a = game.review.accuracy;
    $("review-summary").textContent = `Accuracy: Blue ${a.blue ?? "-"}, Red ${a.red ?? "-"}` +
      (game.review.turning_point ? `; turning point at ply ${game.review.turning_point}` : "");
    save();
    renderMoves();
    renderGraph();
    status("Review done.");
  } catch (error) { fail(`Review failed: ${error.message}`); }
};
for (const id of ["blue", "red"]) {
  $(id).onchange = async () => { game[id] = $(id).value; save(); await stopSearches(); next(); };
}
$("limit-kind").onchange = () => { game.kind = $("limit-kind").value; save(); };
// The engine's level in a game (its `Skill Level`; analysis and review stay at full strength).
$("level").innerHTML = [`<option value="20">Full strength</option>`]
  .concat(Array.from({ length: 20 }, (_, i) => `<option value="${19 - i}">Skill Level ${19 - i}</option>`)).join("");
$("level").onchange = () => { game.level = +$("level").value; save(); };
$("limit-value").onchange = () => { game.value = +$("limit-value").value; save(); };
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowLeft") goTo(game.cursor - 1);
  else if (e.key === "ArrowRight") goTo(game.cursor + 1);
  else if (e.key === "Home") goTo(0);
  else if (e.key === "End") goTo(game.moves.length);
  else return;
  e.preventDefault();
});

(async function start() {
  try {
    engines = (await api("/api/engines")).engines;
  } catch (error) { return fail(`No server: ${error.message}`); }
  const options = [`<option value="human">Human</option>`]
    .concat(engines.map((name, i) => `<option value="${i}">${name.replace(/</g, "&lt;")}</option>`)).join("");
  $("blue").innerHTML = options; $("red").innerHTML = options;
  $("blue").value = game.blue; $("red").value = game.red;
  $("limit-kind").value = game.kind; $("limit-value").value = game.value;
  $("level").value = String(game.level ?? 20);
  $("size").value = game.start.split("/").length === 9 ? "9" : "8";
  connect();
  await render();
  next();
})();
