// The lielow GUI's page: a client of the server's JSON API, which speaks UGI to the engines.
// The game lives in localStorage (saved after every move and every change of a setting), so a
// reload, or a server that stops and comes back, resumes it: see `connect`.
"use strict";

const $ = (id) => document.getElementById(id);
const START = {
  8: "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
  9: "r1r1r1r1r1r1r1r1r1/9/r1r1r1r1r1r1r1r1r1/9/9/9/b1b1b1b1b1b1b1b1b1/9/b1b1b1b1b1b1b1b1b1 b",
};
let session = null;      // this page's session, named by its event stream
let sessionReady = null; // resolves once the stream has named it
let sessionNamed = null; // resolves sessionReady
let source = null;       // the open event stream
let lost = null;         // while the server is gone: { tries, timer (the next try's) }
const RETRY_FIRST_MS = 500; // the first try to reach a lost server, doubled after each failure
const RETRY_MOST_MS = 8000; // ... up to this

let engines = [];
let game = JSON.parse(localStorage.getItem("lielow-game") || "null") || {
  start: START[8], moves: [], cursor: 0, blue: "human", red: "0", kind: "movetime", value: 500, level: 20,
  flip: false, evals: {}, review: null,
};
game.clockBase = game.clockBase ?? 5;    // minutes each, for a clock game
game.clockInc = game.clockInc ?? 3;      // seconds added after each move
game.clock = game.clock ?? null;         // the running game's clock (clock.js)
let view = null;         // the shown position, as the server describes it
let selected = null;     // the square of the stack the player picked
let searchId = 0;        // the search whose events count
let searching = null;    // "play", "analyse" or "hint" while a search runs
let lastScore = null;    // the latest search's score line: { key (its position), text }
let hint = null;         // the latest hint: { key (its position), move }
let hintKey = null;      // the position of the hint search under way
const HINT_MS = 300;     // a hint's search: short, and never the game's own limits

function save() { localStorage.setItem("lielow-game", JSON.stringify(game)); }
// While the puzzle mode (puzzles.js) is shown, the game waits: not drawn, no engine moves, no clock.
function puzzleMode() { return document.body.classList.contains("puzzling"); }
function status(text) { $("status").textContent = text; }
// An error for the player; none while the server is gone (the disconnection banner says why).
function fail(text) {
  if (lost) return;
  $("banner-text").textContent = text;
  $("banner").hidden = false;
}
$("banner-close").onclick = () => { $("banner").hidden = true; };

// A request to the server's API; a request that gets no answer at all means the server is gone.
async function api(path, body) {
  let response;
  try {
    response = await fetch(path, body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
  } catch (error) {
    lostServer();
    throw new Error("the server is not answering");
  }
  const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

function sideToMove(ply) { return view ? view.side : (ply % 2 === 0 ? "Blue" : "Red"); }
function playerOf(side) { return side === "Blue" ? game.blue : game.red; }
function atLatest() { return game.cursor === game.moves.length; }
// The shown position's identity: start and moves up to `ply`.
function keyOf(ply) { return `${game.start} ${game.moves.slice(0, ply).join(" ")}`; }
function clockGame() { return game.kind === "clock" && game.clock !== null; }
// The side whose time ran out, when the shown position is the game's end by time.
function flagged() { return clockGame() && atLatest() ? game.clock.flagged : null; }
function other(side) { return side === "Blue" ? "Red" : "Blue"; }

// How the game ended (the record format's reason), judged from its last move.
function reasonOf(last) {
  return last.includes("x") ? "king-captured" : last.endsWith("-off") ? "king-borne-off" : "no-moves";
}

// One line for a finished game, or null while it goes on at the shown position.
function gameOver() {
  if (view && view.winner) {
    const reason = reasonOf(game.moves[game.cursor - 1] || "").replace(/-/g, " ");
    return `Game over: ${view.winner} has won (${reason}).`;
  }
  const out = flagged();
  if (out) return `Game over: ${out}'s time ran out; ${other(out)} has won.`;
  const ended = loadedEnding();
  return ended && atLatest() ? `Game over: ${ended}.` : null;
}

async function render() {
  if (puzzleMode()) return;
  const best = game.bestArrow && game.bestArrow.ply === game.cursor ? [game.bestArrow.move] : [];
  if (hint && hint.key === keyOf(game.cursor) && !best.includes(hint.move)) best.push(hint.move);
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
  showGameInfo();
  renderGraph();
  drawThreats();
  renderScore();
  syncClock();
  if (gameOver()) status(gameOver());
  else if (!atLatest()) status(`Viewing ply ${game.cursor} of ${game.moves.length}.`);
  else if (playerOf(view.side) === "human") status(`${view.side} to move: your move.`);
}

function squareOf(event) {
  const element = event.target.closest("[data-square]");
  return element ? element.getAttribute("data-square") : null;
}

// A circle of class `cls` on `square` of a board's picture (the game's, or the element `board`
// names: the puzzle mode's), `radius` a share of a square.
function mark(square, cls, radius, board = "board") {
  const svg = $(board).firstElementChild;
  const r = svg.querySelector(`rect.square[data-square="${square}"]`);
  if (!r) return;
  const c = document.createElementNS("http://www.w3.org/2000/svg", "circle");
  const x = +r.getAttribute("x"), y = +r.getAttribute("y"), w = +r.getAttribute("width");
  c.setAttribute("cx", x + w / 2); c.setAttribute("cy", y + w / 2); c.setAttribute("r", w * radius);
  c.setAttribute("class", cls);
  svg.appendChild(c);
}

function highlight() {
  const svg = $("board").firstElementChild;
  svg.querySelectorAll(".target, .selected").forEach((e) => e.remove());
  $("bear-off").hidden = true;
  if (!selected) return;
  mark(selected, "selected", 0.44);
  for (const move of view.legal.filter((m) => m.startsWith(selected))) {
    if (move.endsWith("-off")) $("bear-off").hidden = false;
    else mark(move.slice(3), "target", 0.16);
  }
}

function clicked(event) {
  if (!view || lost || gameOver() || playerOf(view.side) !== "human") return;
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
  if (searching === "hint") { searchId += 1; searching = null; }
  if (clockGame() && atLatest()) Clock.moved(game.clock, view.side);
  game.moves = game.moves.slice(0, game.cursor).concat([move]);
  game.cursor = game.moves.length;
  game.review = null;
  save();
  await render();
  next();
}

function limits() {
  if (clockGame()) return Clock.limits(game.clock);
  const value = Math.max(1, Math.floor(+game.value || 1));
  return { [game.kind]: value };
}

// Whatever should happen now: the engine's move, or analysis of the shown position.
async function next() {
  if (!view || lost || puzzleMode()) return;
  await sessionReady;
  if ($("analyse").checked) return analyse();
  if (gameOver() || !atLatest()) return;
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
  if (!view || view.winner || lost) return;
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
    if (searching === "hint") return;
    const score = blueScore(event.score, view.side);
    if (event.multipv === 1) {
      game.evals[game.cursor] = chances(score);
      lastScore = { key: keyOf(game.cursor), text: `${shown(score)} (for Blue), depth ${event.depth}` };
      renderScore();
      const first = (event.pv || "").split(" ")[0];
      if (first) game.bestArrow = { ply: game.cursor, move: first };
    }
    if (searching === "analyse") {
      const lines = $("lines");
      while (lines.children.length < event.multipv) lines.appendChild(document.createElement("li"));
      lines.children[event.multipv - 1].textContent = `${shown(score)}  ${event.pv}`;
    }
  } else if (event.type === "bestmove") {
    if (searching === "hint") return hinted(event.move);
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

// The page's session lives as long as its event stream: the server ends its engines when the
// stream closes, and a server that stopped (or was killed, or restarted) knows nothing of it.
// A stream that breaks, or a request that gets no answer, marks the server lost: the page says
// so in a banner, keeps the game (it is in localStorage), pauses the clock and tries again after
// RETRY_FIRST_MS, twice that, ... (at most RETRY_MOST_MS). When a stream opens again (the same
// server, or a new one on the same address: a new session either way), the kept game is shown
// again, its moves checked by the server's rules, and it goes on: `next` asks the engine whose
// turn it is for its move, or the analysis again.
function connect() {
  source = new EventSource("/api/events");
  source.addEventListener("session", (message) => named(JSON.parse(message.data).session));
  source.onmessage = (message) => onEvent(JSON.parse(message.data));
  source.onerror = lostServer;
}

// A promise for the next session's name (`next` and the searches wait on it).
function awaitSession() { sessionReady = new Promise((resolve) => { sessionNamed = resolve; }); }

function named(name) {
  session = name;
  sessionNamed();
  if (lost) reconnected();
}

function lostServer() {
  if (source) { source.close(); source = null; }
  if (!lost) {
    lost = { tries: 0, timer: null };
    awaitSession();
    searchId += 1;       // the lost session's searches ended with it
    searching = null;
    syncClock();         // a player who cannot move does not lose time
    save();
    document.body.classList.add("offline");
  }
  if (lost.timer !== null) return;
  const wait = Math.min(RETRY_MOST_MS, RETRY_FIRST_MS * 2 ** lost.tries);
  showLost(wait);
  lost.tries += 1;
  lost.timer = setTimeout(retryNow, wait);
}

function showLost(wait) {
  const again = lost.tries > 0 ? `try ${lost.tries} failed; ` : "";
  $("offline-text").textContent = "Disconnected: the server is not answering. " +
    `Your game is kept in this browser and goes on when the server is back (${again}next try in ${Math.ceil(wait / 1000)} s).`;
  $("offline").hidden = false;
  status("Disconnected from the server.");
}

function retryNow() {
  if (!lost) return;
  clearTimeout(lost.timer);
  lost.timer = null;
  if (source) { source.close(); source = null; }
  $("offline-text").textContent = "Disconnected: trying to reach the server...";
  connect();
}
$("offline-retry").onclick = retryNow;

async function reconnected() {
  lost = null;
  $("offline").hidden = true;
  document.body.classList.remove("offline");
  await loadEngines().catch((error) => fail(`No engines: ${error.message}`));
  await render();
  if (!view || lost) return;
  if (!gameOver() && atLatest()) status("Reconnected: the game goes on.");
  next();
}

// The score sheet: a row per move number, Blue's move then Red's (a game that starts with
// Red to move leaves its first Blue cell empty).
function renderMoves() {
  const labels = game.review ? game.review.moves : [];
  const cells = game.moves.map((move, i) => {
    const label = labels[i] && labels[i].label;
    const badge = label ? ` <span class="label ${label.startsWith("lost") ? "lost" : label.includes("unproven") ? "unproven" : label.split(" ")[0]}">${label}</span>` : "";
    return `<td data-ply="${i + 1}" class="move${i + 1 === game.cursor ? " current" : ""}">${move}${badge}</td>`;
  });
  if (game.start.endsWith(" r")) cells.unshift(`<td class="empty">&hellip;</td>`);
  const rows = [];
  for (let i = 0; i < cells.length; i += 2) {
    rows.push(`<tr><th>${i / 2 + 1}.</th>${cells[i]}${cells[i + 1] || "<td></td>"}</tr>`);
  }
  $("moves").innerHTML = rows.join("");
  $("moves-box").hidden = rows.length === 0;
  for (const cell of $("moves").querySelectorAll("td[data-ply]")) cell.onclick = () => goTo(+cell.dataset.ply);
  // Scroll the sheet to the current move, never the page (scrollIntoView would move the page).
  const current = $("moves").querySelector(".current");
  if (!current) return;
  const box = $("moves-box"), shelf = box.getBoundingClientRect(), cell = current.getBoundingClientRect();
  const head = box.querySelector("thead").getBoundingClientRect().height;
  if (cell.top < shelf.top + head) box.scrollTop -= shelf.top + head - cell.top;
  else if (cell.bottom > shelf.bottom) box.scrollTop += cell.bottom - shelf.bottom;
}

// The score line: the game's result once it is over; otherwise the latest search's score while
// it is about the shown position or the one before (the engine's view of the move it made),
// and nothing when it is about any other.
function renderScore() {
  const over = gameOver();
  if (over) {
    $("score").textContent = over;
    $("lines").innerHTML = "";
    return;
  }
  const fresh = lastScore && (lastScore.key === keyOf(game.cursor) || lastScore.key === keyOf(game.cursor - 1));
  $("score").textContent = fresh ? lastScore.text : "";
}

// The side the threat display is for: the one human player, or else the side to move.
function threatSide() {
  const humans = ["Blue", "Red"].filter((side) => playerOf(side) === "human");
  return humans.length === 1 ? humans[0] : view.side;
}

// Rings the stacks the opponent could capture next move (the server's rules answer which).
function drawThreats() {
  const note = $("threat-note");
  note.hidden = true;
  if (!$("threats").checked || !view || gameOver()) return;
  const side = threatSide();
  const { stacks, king } = view.threats[side];
  for (const square of stacks) mark(square, square === king ? "king-danger" : "threatened", 0.42);
  note.className = king ? "danger" : "";
  note.textContent = king ? `${side}'s king on ${king} can be captured next move!`
    : stacks.length ? `${side}: ${stacks.length} stack${stacks.length > 1 ? "s" : ""} can be captured next move (ringed).`
    : `${side}: no stack can be captured next move.`;
  note.hidden = false;
}

// The clock runs for the side to move while the game's latest position is in play.
function syncClock() {
  if (!clockGame()) { Clock.stop(); Clock.show(null); return; }
  const runs = view && !lost && !puzzleMode() && atLatest() && !view.winner && !$("analyse").checked;
  Clock.run(game.clock, runs ? view.side : null, timeUp);
}

async function timeUp() {
  save();
  await stopSearches();
  await render();
}

// A hint: the engine's move for the side to move, drawn as an arrow. It never waits on or
// changes the game's own search: while an engine thinks over its move there is none to give;
// while analysis runs, its best line is the hint; otherwise a short search of its own.
async function askHint() {
  if (!view || lost) return;
  if (gameOver()) return status("The game is over: no hint.");
  if (searching === "play") return status("The engine is thinking over its move: ask for a hint on yours.");
  if ($("analyse").checked) {
    const best = game.bestArrow && game.bestArrow.ply === game.cursor && game.bestArrow.move;
    return best ? hinted(best, keyOf(game.cursor)) : status("The analysis has no best move yet.");
  }
  await sessionReady;
  searchId += 1;
  searching = "hint";
  hintKey = keyOf(game.cursor);
  status("Looking for a hint...");
  const engine = game.red !== "human" ? +game.red : game.blue !== "human" ? +game.blue : 0;
  try {
    await api("/api/go", {
      session, engine, start: game.start, moves: game.moves.slice(0, game.cursor),
      limits: { movetime: HINT_MS }, multipv: 1, search: searchId,
    });
  } catch (error) { searching = null; fail(`No hint: ${error.message}`); }
}

async function hinted(move, key = hintKey) {
  if (searching === "hint") searching = null;
  if (key !== keyOf(game.cursor) || !view.legal.includes(move)) return;
  hint = { key, move };
  await render();
  status(`Hint for ${view.side}: ${move}`);
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
  next();
}

async function newGame(start, moves, opening = 0, loaded = null) {
  await stopSearches();
  Clock.stop();
  const clock = game.kind === "clock" ? Clock.fresh(game.clockBase * 60000, game.clockInc * 1000) : null;
  game = { ...game, start, moves, opening, loaded, cursor: moves.length, evals: {}, review: null, bestArrow: null, clock };
  lastScore = null;
  hint = null;
  save();
  $("review-summary").textContent = "";
  $("score").textContent = "";
  $("lines").innerHTML = "";
  // The Load box is for the next load: text left in it would read as the game on the board.
  $("load-text").value = "";
  loadError("");
  if (!loaded) $("load-pick").hidden = true;
  $("size").value = start.split("/").length === 9 ? "9" : "8";
  await render();
  next();
}

$("new-game").onclick = () => newGame(START[+$("size").value], []);
$("copy-lfen").onclick = () => navigator.clipboard.writeText(view ? view.lfen : "").then(() => status("LFEN copied."));
$("copy-moves").onclick = () => navigator.clipboard.writeText(`${game.start} moves ${game.moves.join(" ")}`).then(() => status("Moves copied."));

// ---- Load and Save of game files --------------------------------------------------------
// The server reads every format (`POST /api/load`: record lines, PGN, Abstract Play records, or
// a position) and writes the one asked for (`POST /api/save`). A loaded game keeps its file's
// players, result and header in `game.loaded`; its result holds while the moves are the file's.
let loadedGames = [];   // the games of the last file loaded

// A failed Load says why under its button, where the player is looking; the board keeps its game.
function loadError(text) { $("load-error").textContent = text; $("load-error").hidden = !text; }

async function loadText(text) {
  loadError("");
  if (!text.trim()) return loadError("Paste an LFEN, \"LFEN moves ...\", record lines, PGN or an Abstract Play record first.");
  let answer;
  try {
    answer = await api("/api/load", { text, size: +$("size").value });
  } catch (error) { return loadError(`Cannot load it: ${error.message}`); }
  loadedGames = answer.games;
  const pick = $("load-games");
  pick.innerHTML = loadedGames.map((g, i) => `<option value="${i}">${escapeHtml(gameTitle(g, i))}</option>`).join("");
  $("load-pick").hidden = loadedGames.length < 2;
  await pickGame(0);
  if (answer.warnings.length) status(`Loaded, but: ${answer.warnings.join("; ")}`);
  else if (loadedGames.length > 1) status(`${loadedGames.length} games in the file (${answer.format}): pick one under Load.`);
}

async function pickGame(index) {
  const g = loadedGames[index];
  if (!g) return;
  const named = g.blue || g.red || g.result || g.tags.length;
  const loaded = named ? { blue: g.blue, red: g.red, result: g.result, tags: g.tags, moves: g.moves.join(" ") } : null;
  $("load-games").value = String(index);
  await newGame(g.start, g.moves, Math.min(g.opening || 0, g.moves.length), loaded);
}

function escapeHtml(text) { return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }
function tagOf(g, name) { const t = g.tags.find(([key]) => key === name); return t ? t[1] : null; }
function resultText(result) {
  return result ? `${result.winner} won (${result.reason.replace(/-/g, " ")})` : null;
}
// A file's game in the picker: its number, players, result and length.
function gameTitle(g, i) {
  const result = resultText(g.result) || endingText(g.tags) || "no result";
  return `${i + 1}. ${g.blue || "?"} - ${g.red || "?"}: ${result}, ${g.moves.length} moves`;
}

// How a file says a game ended that the rules did not end (its `ending` tag), or null.
function endingText(tags) {
  const ending = tags.find(([key]) => key === "ending");
  if (!ending) return null;
  const score = (side) => +(tags.find(([key]) => key === `${side}.result`) || [0, 0])[1];
  const winner = score("blue") > score("red") ? "Blue" : score("red") > score("blue") ? "Red" : null;
  const word = { resign: "resignation", timeout: "timeout", draw: "a draw agreed", abandoned: "the game abandoned" }[ending[1]] || ending[1];
  return winner ? `${winner} won by ${word}` : `ended by ${word}`;
}

// A header field's value as shown: an object's fields as "name: value", other text as it is.
function tagText(value) {
  if (!value.startsWith("{")) return value;
  try {
    return Object.entries(JSON.parse(value)).map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`).join(", ");
  } catch (error) { return value; }
}

// Whether the loaded file's result still describes the game on the board.
function loadedHolds() { return !!(game.loaded && game.loaded.moves === game.moves.join(" ")); }

// How a loaded game ended when the rules did not end it (a resignation, a forfeit), or null.
function loadedEnding() {
  if (!loadedHolds() || (view && view.winner)) return null;
  const { result, tags } = game.loaded;
  if (result) return `${other(result.winner)} lost by ${result.reason.replace(/-/g, " ")}; ${result.winner} has won`;
  return endingText(tags);
}

// The loaded game's players, result and other header fields, above the board's controls.
function showGameInfo() {
  const info = $("game-info");
  const loaded = game.loaded;
  info.hidden = !loaded;
  if (!loaded) return;
  const ended = loadedHolds() ? (resultText(loaded.result) || loadedEnding() || "no result") : "moves changed since loading";
  const shownTags = loaded.tags.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(tagText(v))}</td></tr>`).join("");
  info.innerHTML = `<div><span class="players"><span class="blue">${escapeHtml(loaded.blue || "?")}</span> (Blue) vs ` +
    `<span class="red">${escapeHtml(loaded.red || "?")}</span> (Red)</span>: ${escapeHtml(ended)}</div>` +
    (shownTags ? `<details><summary>Header (${loaded.tags.length} fields)</summary><table>${shownTags}</table></details>` : "");
}

$("load").onclick = () => loadText($("load-text").value);
$("load-file").onchange = async () => {
  const file = $("load-file").files[0];
  $("load-file").value = "";
  if (file) await loadText(await file.text());
};
$("load-games").onchange = () => pickGame(+$("load-games").value);

// The game on the board as Save sends it: the loaded file's players, result and header while
// they hold, else the page's players and what ended the game here.
function gameToSave() {
  const name = (p) => (p === "human" ? "human" : engines[+p]);
  const loaded = game.loaded;
  const out = flagged();
  let result = null;
  if (loadedHolds() && loaded.result) result = loaded.result;
  else if (out) result = { winner: other(out), reason: "time-forfeit" };
  return {
    start: game.start, moves: game.moves, opening: Math.min(game.opening || 0, game.moves.length), result,
    blue: loaded ? loaded.blue : name(game.blue), red: loaded ? loaded.red : name(game.red),
    tags: loaded ? (loadedHolds() ? loaded.tags : loaded.tags.filter(([k]) => !["ending", "blue.result", "red.result"].includes(k))) : [],
  };
}

$("save").onclick = async () => {
  let answer;
  try {
    answer = await api("/api/save", { format: $("save-format").value, game: gameToSave() });
  } catch (error) { return fail(`Cannot save: ${error.message}`); }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([answer.text], { type: "text/plain" }));
  link.download = answer.filename;
  link.click();
  status(answer.note);
};
// ---- end of Load and Save ---------------------------------------------------------------

$("flip").onclick = () => { game.flip = !game.flip; save(); render().then(highlight); };
$("first").onclick = () => goTo(0);
$("prev").onclick = () => goTo(game.cursor - 1);
$("next").onclick = () => goTo(game.cursor + 1);
$("last").onclick = () => goTo(game.moves.length);
$("takeback").onclick = async () => {
  await stopSearches();
  if (clockGame()) Clock.settle(game.clock);
  game.moves = game.moves.slice(0, game.cursor);
  do { game.moves.pop(); } while (game.moves.length && playerOf(((game.moves.length + (game.start.endsWith(" r") ? 1 : 0)) % 2 === 0) ? "Blue" : "Red") !== "human");
  game.cursor = game.moves.length;
  game.review = null;
  save();
  await render();
};
$("analyse").onchange = async () => { await stopSearches(); $("lines").innerHTML = ""; syncClock(); next(); };
$("hint").onclick = askHint;
$("threats").onchange = () => { game.showThreats = $("threats").checked; save(); render().then(highlight); };
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
// The clock's inputs replace the single value for a clock game.
function showLimitInputs() {
  $("limit-value").hidden = game.kind === "clock";
  $("clock-settings").hidden = game.kind !== "clock";
}
// A clock starts with a game: a change applies at once before the first move, else at the next.
function clockSettingsChanged() {
  if (game.kind === "clock" && (!game.clock || game.moves.length === 0)) {
    if (game.clock) Clock.stop();
    game.clock = Clock.fresh(game.clockBase * 60000, game.clockInc * 1000);
  } else if (game.kind === "clock") status("The new clock applies from the next game.");
  save();
  syncClock();
}
$("limit-kind").onchange = () => { game.kind = $("limit-kind").value; showLimitInputs(); clockSettingsChanged(); };
$("clock-base").onchange = () => { game.clockBase = Math.max(0.1, +$("clock-base").value || 5); clockSettingsChanged(); };
$("clock-inc").onchange = () => { game.clockInc = Math.max(0, +$("clock-inc").value || 0); clockSettingsChanged(); };
// The engine's level in a game (its `Skill Level`; hints, analysis and review stay at full strength).
$("level").innerHTML = [`<option value="20">Full strength</option>`]
  .concat(Array.from({ length: 20 }, (_, i) => `<option value="${19 - i}">Skill Level ${19 - i}</option>`)).join("");
$("level").onchange = () => { game.level = +$("level").value; save(); };
$("limit-value").onchange = () => { game.value = +$("limit-value").value; save(); };
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" || puzzleMode()) return;
  if (e.key === "ArrowLeft") goTo(game.cursor - 1);
  else if (e.key === "ArrowRight") goTo(game.cursor + 1);
  else if (e.key === "Home") goTo(0);
  else if (e.key === "End") goTo(game.moves.length);
  else if (e.key === "h" || e.key === "H") askHint();
  else return;
  e.preventDefault();
});

// The engines' names (a restarted server may have others) in the player menus.
async function loadEngines() {
  engines = (await api("/api/engines")).engines;
  const options = [`<option value="human">Human</option>`]
    .concat(engines.map((name, i) => `<option value="${i}">${name.replace(/</g, "&lt;")}</option>`)).join("");
  $("blue").innerHTML = options; $("red").innerHTML = options;
  $("blue").value = game.blue; $("red").value = game.red;
}

// The kept game's settings in the form.
function showSettings() {
  $("limit-kind").value = game.kind; $("limit-value").value = game.value;
  $("level").value = String(game.level ?? 20);
  $("clock-base").value = game.clockBase; $("clock-inc").value = game.clockInc;
  $("threats").checked = !!game.showThreats;
  showLimitInputs();
  $("size").value = game.start.split("/").length === 9 ? "9" : "8";
}

(async function start() {
  awaitSession();
  showSettings();
  try {
    await loadEngines();
  } catch (error) { return; } // the server is lost: `reconnected` starts the page when it is back
  connect();
  await render();
  next();
})();
